"""Wrong twins of ``make_basic_composition``, one refuted per standard statement with a
counterexample the real code confirms: the output domain of the first component alone, the
symmetric distance on atoms, the max of the maps, a 64-bit port refusing wider inputs; and more
whose privacy is refuted: maps over the distinct components (keyed by ``id``: refuted on a list
holding one component twice), a right fold that drops the last component, a right fold of
``max``, a right fold with round-to-nearest ``+``, and a rule that takes the ``max`` on Python
floats only (a second body on numbers). Outside the kernel's rules (no statement proved): the
outputs reversed, each precondition dropped or all inverted, a repeated draw."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import reduce
from typing import Any, Callable

from mechanisms import ops
from mechanisms.core import Constructor, Map
from mechanisms.errors import CombinatorError
from mechanisms.make_basic_composition import (COMPOSITION_PRECONDITIONS, CompositionFunction,
                                               _mismatch, build_basic_composition,
                                               make_basic_composition, validate_composition)
from mechanisms.make_partition_map import partition_bound
from mechanisms.metrics import SymmetricDistance
from obligations.kernel.statements import Claim
from tests.twins._statements import statement_twin_entries
from tests.twins.make_chain_tt import _differ


def build_composition_reversed(measurements):
    """Wrong: outputs in reverse order, against the product of the domains in order."""
    return replace(build_basic_composition(measurements), function=CompositionFunction(
        tuple(m.function for m in reversed(measurements))))


def build_composition_symmetric_in(measurements):
    """Wrong: the symmetric distance (of datasets) as the metric on atoms."""
    return replace(build_basic_composition(measurements), input_metric=SymmetricDistance())


def build_composition_max(measurements):
    """Wrong: ``max_i m_i(d_in)``, as if only one component could release information."""
    return replace(build_basic_composition(measurements), privacy_map=Map(
        rule=partition_bound, params={"maps": tuple(m.privacy_map for m in measurements),
                                      "combine": ops.maximum}))


@dataclass(frozen=True)
class Repeated:
    """``(x, rng) -> (f(x, rng),) * k``: one draw repeated, the outputs are not independent."""

    function: Callable[..., Any]
    k: int

    def __call__(self, arg: Any, rng: Any = None) -> tuple[Any, ...]:
        return (self.function(arg, rng),) * self.k


def build_composition_repeated(measurements):
    """Outside the proof: the first component's draw repeated (correct map for equal components,
    but the output distribution is not a product)."""
    return replace(build_basic_composition(measurements),
                   function=Repeated(measurements[0].function, len(measurements)))


def build_composition_first_output_domain(measurements):
    """Wrong: the output domain of the first component, not the product: the tuple released is
    no member of it."""
    return replace(build_basic_composition(measurements),
                   output_domain=measurements[0].output_domain)


@dataclass(frozen=True)
class Int64Composition(CompositionFunction):
    """Wrong (runtime errors): a port to 64-bit integers that refuses a wider int input before
    any component runs, so whether it raises tells an input beyond ``2^63`` from one within."""

    def __call__(self, arg: Any, rng: Any = None) -> tuple[Any, ...]:
        if type(arg) is int and not -2 ** 63 <= arg < 2 ** 63:
            raise OverflowError(f"{arg} does not fit in 64 bits")
        return super().__call__(arg, rng)


def build_composition_int64_input(measurements):
    return replace(build_basic_composition(measurements), function=Int64Composition(
        tuple(m.function for m in measurements)))


make_composition_reversed = make_basic_composition.variant("make_composition_reversed",
                                                           build_composition_reversed)
make_composition_first_output_domain = make_basic_composition.variant(
    "make_composition_first_output_domain", build_composition_first_output_domain)
make_composition_symmetric_in = make_basic_composition.variant("make_composition_symmetric_in",
                                                               build_composition_symmetric_in)
make_composition_max = make_basic_composition.variant("make_composition_max",
                                                      build_composition_max)
make_composition_int64_input = make_basic_composition.variant("make_composition_int64_input",
                                                              build_composition_int64_input)
make_composition_repeated = make_basic_composition.variant("make_composition_repeated",
                                                           build_composition_repeated)


def build_composition_by_identity(measurements):
    """Wrong: the maps of the distinct components (keyed by ``id``), as if a measurement run twice
    released nothing more."""
    distinct = {id(m): m.privacy_map for m in measurements}
    return replace(build_basic_composition(measurements), privacy_map=Map(
        rule=partition_bound, params={"maps": tuple(distinct.values()), "combine": ops.add_up}))


def _without(position: int) -> Constructor:
    kept = tuple(p for i, p in enumerate(COMPOSITION_PRECONDITIONS) if i != position)
    name = ("domain", "metric", "measure")[position]
    return Constructor(f"make_composition_{name}_unchecked", build_basic_composition, kept,
                       validate_composition)


make_composition_domain_unchecked = _without(0)
make_composition_metric_unchecked = _without(1)
make_composition_measure_unchecked = _without(2)
make_composition_inverted = Constructor(
    "make_composition_inverted", build_basic_composition,
    tuple(_differ(p.text, p.holds, lambda measurements: CombinatorError("components agree"))
          for p in COMPOSITION_PRECONDITIONS), validate_composition)
make_composition_crashing_refusal = Constructor(
    "make_composition_crashing_refusal", build_basic_composition,
    tuple(_differ(p.text, p.holds, _mismatch(attribute))
          for p, attribute in zip(COMPOSITION_PRECONDITIONS,
                                  ("input_domain", "input_metric", "output_measure"))),
    validate_composition)
"""Inverted preconditions whose refusal message cannot be formatted (no position differs): every
list is refused by a TypeError, so no witness builds; unknown (vacuous), never an error."""
make_composition_by_identity = make_basic_composition.variant("make_composition_by_identity",
                                                              build_composition_by_identity)


def _right_fold(step: Callable[[Any, Any], Any], values: list[Any]) -> Any:
    """``step(v_1, step(v_2, ... step(v_(k-1), v_k)))``: the values folded right to left."""
    return reduce(lambda total, value: step(value, total), reversed(values[:-1]), values[-1])


def right_fold_without_last(d_in, maps):
    """Wrong: the right fold (``add_up``) of every component map but the last, as if the last
    component were free (one component: its own map)."""
    values = [m(d_in) for m in maps]
    return _right_fold(ops.add_up, values[:-1] or values)


def right_fold_max(d_in, maps):
    """Wrong: the right fold of ``max``, as if only the worst component released information."""
    return _right_fold(ops.maximum, [m(d_in) for m in maps])


def right_fold_nearest(d_in, maps):
    """Wrong: the right fold of float ``+`` (rounded to nearest), which can fall below the exact
    sum of the component maps."""
    return _right_fold(lambda a, b: a + b, [m(d_in) for m in maps])


def max_on_floats(d_in, maps):
    """Wrong: the sum (``add_up``) on solver terms, but ``max`` when the component maps are Python
    floats: a second body the solver never runs."""
    values = [m(d_in) for m in maps]
    if all(isinstance(v, float) for v in values):
        return max(values)
    return _right_fold(ops.add_up, values)


def _with_rule(rule: Callable[..., Any]) -> Callable[..., Any]:
    def build(measurements):
        return replace(build_basic_composition(measurements), privacy_map=Map(
            rule=rule, params={"maps": tuple(m.privacy_map for m in measurements)}))
    return build


RULES = {"composition_rf_without_last": right_fold_without_last,
         "composition_rf_max": right_fold_max,
         "composition_rf_nearest": right_fold_nearest,
         "composition_max_on_floats": max_on_floats}
"""Maps of other rules than a left fold with ``combine``: each read by the kernel's rule on
stand-in components, and refuted, confirmed on real ones."""
for _name, _rule in RULES.items():
    globals()[f"make_{_name}"] = make_basic_composition.variant(f"make_{_name}", _with_rule(_rule))

STATEMENT_TWIN_OF = {
    ("make_basic_composition", Claim.OUTPUT_DOMAIN): ("make_composition_first_output_domain",
                                                      Claim.OUTPUT_DOMAIN),
    ("make_basic_composition", Claim.COMPATIBILITY): ("make_composition_symmetric_in",
                                                      Claim.COMPATIBILITY),
    ("make_basic_composition", Claim.PRIVACY): ("make_composition_max", Claim.PRIVACY),
    ("make_basic_composition", Claim.RUNTIME_ERRORS): ("make_composition_int64_input",
                                                       Claim.RUNTIME_ERRORS),
}
REFUTED_STATEMENTS = {("make_composition_by_identity", Claim.PRIVACY),
                      *((f"make_{name}", Claim.PRIVACY) for name in RULES)}
MECHANISMS = statement_twin_entries(globals(), STATEMENT_TWIN_OF.values(), REFUTED_STATEMENTS)
UNSUPPORTED = statement_twin_entries(globals(), [
    (f"make_composition_{name}", None)
    for name in ("reversed", "repeated", "domain_unchecked", "metric_unchecked",
                 "measure_unchecked", "inverted", "crashing_refusal")])
