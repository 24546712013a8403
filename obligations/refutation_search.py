"""Searching for a refutation of a standard statement: untrusted. It only chooses where the
kernel's refuting rules look (arguments, inputs, a distance); a refutation is made by the kernel
alone, after computing the loss or distance exactly on the running code, and is accepted only for
the statement it refutes (:meth:`obligations.kernel.certify.Certified.refuted_by`)."""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

from mechanisms.core import provenance
from obligations.kernel import additive_noise, finite_law, fold
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, Statement
from obligations.kernel.theorems import Refutation

Pairs = Callable[[Any, dict[str, Any]], Iterator[tuple[Any, Any, Any]]]
"""``(object, its arguments) -> (x, x', d_in)`` to try."""


def vector_pairs(built: Any, arguments: dict[str, Any]) -> Iterator[tuple[Any, Any, Any]]:
    """An empty dataset against one or two rows at the row domain's bounds, 0, 1 and -1."""
    element = getattr(getattr(built, "input_domain", None), "element", None)
    bounds, carrier = getattr(element, "bounds", None), getattr(element, "carrier", None)
    if carrier not in (int, float):
        return
    values = dict.fromkeys(carrier(v) for v in (*bounds, 0, 1, -1) if bounds[0] <= v <= bounds[1]) \
        if bounds is not None else dict.fromkeys(carrier(v) for v in (1, -1, 0))
    yield from (([], [v], 1) for v in values)
    yield from (([], [v, v], 2) for v in values)


def atom_pairs(built: Any, arguments: dict[str, Any]) -> Iterator[tuple[Any, Any, Any]]:
    """Two distinct atoms, at distance 1: both booleans, an int domain's bounds, or the atoms of
    the input's carrier among the constructor's arguments (a list of categories, say)."""
    domain = getattr(built, "input_domain", None)
    carrier = getattr(domain, "carrier", None)
    if carrier is None:
        return
    if carrier is bool:
        values = [False, True]
    else:
        values = [v for value in arguments.values()
                  for v in (value if isinstance(value, (list, tuple)) else [value])
                  if type(v) is carrier]
        values += list(getattr(domain, "bounds", None) or ())
    values = list(dict.fromkeys(values))[:6]
    yield from ((x, y, 1) for x in values for y in values if x != y)


REFUTERS: dict[Claim, list[tuple[Callable[..., Refutation], Callable[..., Refutation], Pairs]]] = {
    Claim.PRIVACY: [(additive_noise.refute_object, additive_noise.refute_constructor,
                     vector_pairs),
                    (finite_law.refute_object, finite_law.refute_constructor, atom_pairs)],
    Claim.STABILITY: [(fold.refute_stability, fold.refute_stability_of_constructor,
                       vector_pairs)],
}
"""For each claim, the kernel's refuting rules (of one object, of a constructor at arguments)
and the inputs to try them at."""


def propose_refutation(statement: Statement, constructor: Any,
                       examples: Sequence[tuple[str, Any]]) -> Refutation | None:
    """A refutation of ``statement`` about ``constructor`` (or, with ``constructor`` None, about
    the one object ``examples[0]`` holds), trying the arguments of its examples and each number
    among them varied; None when none is found."""
    refuters = REFUTERS.get(statement.claim, [])
    if constructor is None:
        call, built = examples[0]
        record = provenance(built)
        arguments = record.arguments if record is not None else {}
        return next(_attempts(lambda of_object, _, x, y, d: of_object(statement, built, x, y, d,
                                                                       call),
                              refuters, built, arguments), None)
    for arguments in _argument_candidates(constructor, examples):
        try:
            built = constructor(**arguments)
        except Exception:  # noqa: BLE001 - not admitted: the next candidate
            continue
        found = next(_attempts(lambda _, at_arguments, x, y, d: at_arguments(
            statement, constructor, arguments, x, y, d), refuters, built, arguments), None)
        if found is not None:
            return found
    return None


def _attempts(refute: Callable[..., Refutation], refuters: Sequence[Any], built: Any,
              arguments: dict[str, Any]) -> Iterator[Refutation]:
    for of_object, at_arguments, pairs in refuters:
        for x, y, d_in in pairs(built, arguments):
            try:
                yield refute(of_object, at_arguments, x, y, d_in)
            except RuleRefused:
                continue


VARIATIONS = (lambda v: -v, lambda v: 0, lambda v: v * 100, lambda v: v / 100, lambda v: -100,
              lambda v: 100, lambda v: 1)
"""How one number among a constructor's arguments is varied."""


def _argument_candidates(constructor: Any, examples: Sequence[tuple[str, Any]]
                         ) -> Iterator[dict[str, Any]]:
    recorded = [record.arguments for _, built in examples
                if (record := provenance(built)) is not None and record.constructor is constructor]
    yield from recorded
    for arguments in recorded:
        for name, value in arguments.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                for vary in VARIATIONS:
                    varied = vary(value)
                    yield {**arguments, name: type(value)(varied) if isinstance(value, float)
                           else int(varied)}
