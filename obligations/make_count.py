"""Obligations of ``make_count``, for every supported row type (int, float with NaN and +-inf,
str, bool) and every ``d_in``. The checked forms run the constructor's own ``build``: its domains,
its map, and its function, which is one of two counting kernels:

- a :class:`Fold` running its own code (:func:`obligations.kernels.kernel_deviations`), whose
  ``init``, ``step`` and ``finalize`` are run on Z3 terms of each row type;
- the builtin ``len`` itself (``function is len``), a *trusted builtin* whose behaviour is stated
  here from Python's documentation (:data:`LEN_SPEC`), not proved: ``len(v)`` is the number of
  rows of the list ``v``, an ``int >= 0``.

Any other function is *unknown (unsupported)*. The size lemma is proved by induction on the
distinct values of ``v`` and ``w`` (as in ``obligations/lemmas.py``), so it is not bounded.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

import z3

from mechanisms import ops
from mechanisms.core import Constructor, Fold
from mechanisms.domains import AtomDomain
from mechanisms.make_count import COUNT_CARRIERS, make_count
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import aggregate_compatibility, compatibility_goal, metric_premise
from obligations.kernels import kernel_deviations
from obligations.reports import Code, constructor_report, output_report, plain_report
from obligations.witnesses import witness_goal
from obligations.int_maps import int_map_rounding, large_candidates
from obligations.symbols import float64, natural_int
from obligations.kernel.reviewed import reviewed

SYMBOLS: dict[type, Callable[[str], Any]] = {int: z3.Int, float: float64, str: z3.String,
                                             bool: z3.Bool}
"""A solver constant standing for any row of each carrier."""

SAMPLE_ROW: dict[type, Any] = {int: 0, float: 0.0, str: "", bool: False}
"""A concrete row of each carrier, for replays."""


def shown(carrier: type) -> dict[str, Any]:
    """The constructor's arguments as a report writes them: ``carrier=float``."""
    return {"carrier": Code(carrier.__name__)}


LEN_SPEC = ("Python 3 docs: len(s) is the number of items of s, an int >= 0 (object.__len__)",)
"""The trusted statement of the builtin ``len`` on the vectors of the input domain (lists)."""

FOLD, LEN = "fold", "len"
"""The two counting kernels the proof covers."""


def counting_kernel(function: Any) -> str | None:
    """``LEN`` if ``function`` is the builtin ``len`` itself (not a wrapper or a look-alike),
    ``FOLD`` if it is a :class:`Fold` running its own code (no member overridden), else ``None``."""
    if function is len:
        return LEN
    return FOLD if not kernel_deviations(function, Fold) else None


def kernels(constructor: Constructor) -> dict[type, str | None]:
    """The counting kernel of the function each carrier's build runs."""
    return {c: counting_kernel(constructor.build(c).function) for c in COUNT_CARRIERS}


def len_cites(constructor: Constructor) -> tuple[str, ...]:
    """:data:`LEN_SPEC` where some carrier's function is ``len`` (the proof then takes it as
    given), else nothing; a build that raises cites nothing (its goals say why)."""
    try:
        return LEN_SPEC if LEN in kernels(constructor).values() else ()
    except Exception:  # noqa: BLE001 - the goals report a build that raises
        return ()


def _is_counter(constructor: Constructor) -> ComputedGoal:
    def decide() -> Decision:
        found = kernels(constructor)
        outside = [c.__name__ for c, kind in found.items() if kind is None]
        if outside:
            function = constructor.build(next(c for c in COUNT_CARRIERS
                                              if c.__name__ == outside[0])).function
            deviations = "; ".join(kernel_deviations(function, Fold))
            return Decision(False, {"carrier": outside[0], "function": repr(function)},
                            f"function ({', '.join(outside)} rows) is neither the builtin len nor "
                            f"a Fold running its own code ({deviations}); the proof does not "
                            "apply", unsupported=True)
        return Decision(True, detail="; ".join(f"{c.__name__} rows: {kind}"
                                               for c, kind in found.items()))
    return ComputedGoal("function is a Fold running its own code (one step over the rows, then "
                        "finalize) or the builtin len", "structure", decide)


def _replay_output(constructor: Constructor, carrier: type) -> Callable[[dict], Replay]:
    """The count of ``[]`` and of one row must be members of the output domain (Python ints)."""
    def replay(_: dict) -> Replay:
        t = constructor(carrier)
        for data in ([], [SAMPLE_ROW[carrier]]):
            output = t(data)
            if not t.output_domain.member(output):
                return output_report(constructor, shown(carrier), data, output, True,
                                     f"type {type(output).__name__}, output domain "
                                     f"{t.output_domain}: not a member")
        return plain_report(False, f"{constructor.name}: outputs on [] and one row are members")
    return replay


def _sort_goal(constructor: Constructor, carriers: list[type]) -> ComputedGoal:
    """The fold's state is a Z3 integer at every step, for each of ``carriers`` (those whose
    function is a fold): the result is an int."""
    def decide() -> Decision:
        for carrier in carriers:
            fold = constructor.build(carrier).function
            count, x = z3.Int("count"), SYMBOLS[carrier]("x")
            if type(fold.init) is not int:
                return Decision(False, {"carrier": carrier.__name__},
                                f"init {fold.init!r} is a {type(fold.init).__name__}, not an int")
            for name, term in (("step(count, x)", fold.step(count, x)),
                               ("finalize(count)", fold.finalize(count, **fold.params))):
                if not (ops.is_z3(term) and term.sort() == z3.IntSort()):
                    sort = term.sort() if ops.is_z3(term) else type(term).__name__
                    return Decision(False, {"carrier": carrier.__name__},
                                    f"{name} has sort {sort}, not Int ({carrier.__name__} rows)")
        return Decision(True, detail="init is an int; step and finalize map Int terms to Int "
                                     "terms for " + ", ".join(c.__name__ for c in carriers)
                                     + " rows")

    def replay(counterexample: dict) -> Replay:
        carrier = next(c for c in COUNT_CARRIERS if c.__name__ == counterexample["carrier"])
        return _replay_output(constructor, carrier)(counterexample)

    return ComputedGoal("the count is an int: init is an int, step and finalize keep the Z3 "
                        "sort Int", "structure", decide, replay)


def _len_carrier_goal(constructor: Constructor, carrier: type) -> ComputedGoal:
    """``len`` returns a Python ``int`` (:data:`LEN_SPEC`): the output domain must be an
    :class:`AtomDomain` (its own code) whose carrier test admits an ``int``."""
    def decide() -> Decision:
        domain = constructor.build(carrier).output_domain
        deviations = kernel_deviations(domain, AtomDomain)
        if deviations:
            return Decision(False, {"output_domain": repr(domain)},
                            f"the output domain is not an AtomDomain running its own code "
                            f"({'; '.join(deviations)})", unsupported=True)
        if domain.carrier is int:
            return Decision(True, detail=f"{domain}: its carrier is int, len's type")
        if not domain.member(0):  # its carrier test refuses the int len([]) returns
            return Decision(False, {"carrier": carrier.__name__, "output_carrier":
                                    domain.carrier.__name__},
                            f"len returns an int; the output domain {domain} refuses the int 0")
        return Decision(False, {"output_carrier": domain.carrier.__name__},
                        f"the output domain's carrier {domain.carrier.__name__} is not int; "
                        "the proof covers AtomDomain(int)", unsupported=True)
    return ComputedGoal("len returns an int (stated, LEN_SPEC): the output domain is an "
                        f"AtomDomain of ints ({carrier.__name__} rows)", "structure", decide,
                        _replay_output(constructor, carrier))


def _replay_size(constructor: Constructor, carrier: type) -> Callable[[dict], Replay]:
    """``v = []``, ``w = [row]``: the count of one row must be 1, and ``d_sym(v, w) = 1``."""
    def replay(_: dict) -> Replay:
        t = constructor(carrier)
        v, w = [], [SAMPLE_ROW[carrier]]
        d_sym = SymmetricDistance().distance(v, w)
        observed = abs(Fraction(t(w)) - Fraction(t(v)))
        return constructor_report(constructor, shown(carrier), v, w, d_sym, d_sym, observed,
                                  t(w) != len(w) or observed > d_sym)
    return replay


def _replay_map(constructor: Constructor) -> Callable[[dict], Replay]:
    """``v = []``, ``w = [0] * d`` are at distance ``d``, and so are their counts."""
    def replay(counterexample: dict) -> Replay:
        t = constructor(int)
        d_in, d = int(counterexample["d_in"]), int(counterexample["d"])
        v, w = [], [0] * d
        observed = t.output_metric.distance(t(v), t(w))
        return constructor_report(constructor, shown(int), v, w, d_in, t.map(d_in), observed,
                                  observed > t.map(d_in))
    return replay


@reviewed
def count_obligations(constructor: Constructor = make_count,
                      prefix: str = "count") -> tuple[Obligation, ...]:
    """The obligations of ``constructor``, which must build counts: vectors to integers."""

    def folds() -> list[tuple[type, Any]]:
        return [(c, constructor.build(c)) for c in COUNT_CARRIERS]

    def of_kind(kind: str) -> list[tuple[type, Any]]:
        found = kernels(constructor)
        return [(c, t) for c, t in folds() if found[c] == kind]

    def supported() -> bool:
        return None not in kernels(constructor).values()

    def output_domain_goals() -> list[Any]:
        goals: list[Any] = [_is_counter(constructor), *[
            witness_goal(constructor, {"carrier": c}, shown(c),
                         inputs=[[], [SAMPLE_ROW[c]], [SAMPLE_ROW[c]] * 5]) for c in COUNT_CARRIERS]]
        if not supported():
            return goals
        count = z3.Int("count")
        fold_carriers = [c for c, _ in of_kind(FOLD)]
        if fold_carriers:
            goals.append(_sort_goal(constructor, fold_carriers))
        for carrier, t in of_kind(FOLD):
            fold = t.function
            goals.append(Z3Goal(
                f"finalize(count) is in the output domain {t.output_domain}, for every integer "
                f"count ({carrier.__name__} rows)",
                is_true(t.output_domain.contains(fold.finalize(count, **fold.params))),
                [], {"count": count}, _replay_output(constructor, carrier)))
        for carrier, t in of_kind(LEN):
            goals += [_len_carrier_goal(constructor, carrier), Z3Goal(
                f"len(v), an integer count >= 0, is in the output domain {t.output_domain} "
                f"({carrier.__name__} rows)", is_true(t.output_domain.contains(count)),
                [count >= 0], {"count": count}, _replay_output(constructor, carrier))]
        return goals

    def compatibility_goals() -> list[Any]:
        return [compatibility_goal(constructor, lambda: [t for _, t in folds()],
                                   {"carrier": float}, shown(float))]

    def size_lemma_goals() -> list[Any]:
        goals: list[Any] = [_is_counter(constructor)]
        if not supported():
            return goals
        count = z3.Int("count")
        for carrier, t in of_kind(FOLD):
            fold, x = t.function, SYMBOLS[carrier]("x")
            replay = _replay_size(constructor, carrier)
            goals += [
                Z3Goal(f"the fold counts: init = 0 ({carrier.__name__} rows)",
                       z3.RealVal(Fraction(fold.init)) == 0, replay=replay),
                Z3Goal(f"the fold counts: step(count, x) = count + 1 for every {carrier.__name__} "
                       "row x the input domain admits",
                       fold.step(count, x) == count + 1,
                       [is_true(t.input_domain.element.contains(x))], {"count": count}, replay),
                Z3Goal(f"the fold counts: finalize(count) = count ({carrier.__name__} rows)",
                       fold.finalize(count, **fold.params) == count, [], {"count": count},
                       replay),
            ]
        cv, cw, d, a, b = z3.Ints("C_v C_w D a b")
        goals.append(Z3Goal(
            "induction step (base: no values, sizes and d_sym 0): a value with a rows in v and "
            "b in w adds a and b to the sizes and |a - b| to d_sym",
            ops.absolute((cv + a) - (cw + b)) <= d + ops.absolute(a - b),
            [a >= 0, b >= 0, ops.absolute(cv - cw) <= d],
            {"C_v": cv, "C_w": cw, "D": d, "a": a, "b": b}))
        return goals

    def stability_goals() -> list[Any]:
        t = constructor.build(int)
        d_in, d_in_natural = natural_int("d_in")
        d, d_natural = natural_int("d")
        return [
            _is_counter(constructor),
            metric_premise(lambda: constructor.build(int), SymmetricDistance, AbsoluteDistance,
                           f"{prefix}.size_lemma"),
            Z3Goal("map(d_in) bounds the lemma's |count(v) - count(w)| <= d_sym(v, w) <= d_in",
                   is_true(d <= t.map(d_in)), [*d_in_natural, *d_natural, d <= d_in],
                   {"d_in": d_in, "d": d}, _replay_map(constructor)),
        ]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every vector of int, float (NaN included), str or bool rows, "
                   "function(v) is a Python int: the fold starts at the int 0 and its step and "
                   "finalize keep Z3 integer terms integer; or the function is the builtin len, "
                   "which returns an int >= 0 (stated from Python's documentation), and the "
                   "output domain is an AtomDomain of ints containing every count.",
                   r"\forall v \in \mathrm{Vec}(T):\ \mathtt{function}(v) \in \mathbb{Z}",
                   output_domain_goals, cites=len_cites(constructor)),
        aggregate_compatibility(prefix, compatibility_goals, sized=False, atoms="int"),
        Obligation(f"{prefix}.size_lemma", Kind.LEMMA,
                   "The fold computes |v| (init 0, step adds 1, finalize is the identity; by "
                   "induction on the length), or the function is the builtin len, stated to "
                   "return |v|; and | |v| - |w| | <= d_sym(v, w): by induction on "
                   "the distinct values z, each adds h_v(z) and h_w(z) to the sizes and "
                   "|h_v(z) - h_w(z)| to d_sym (triangle inequality).",
                   r"\mathtt{function}(v) = |v| \wedge \big||v| - |w|\big| \le d_{Sym}(v, w)",
                   size_lemma_goals, cites=len_cites(constructor)),
        Obligation(f"{prefix}.stability", Kind.STABILITY,
                   "If d_sym(v, w) <= d_in then |function(v) - function(w)| <= map(d_in): by "
                   "the size lemma the left side is at most d_sym(v, w), and map(d_in) >= d_in.",
                   r"d_{Sym}(v, w) \le d_{in} \implies |f(v) - f(w)| \le \mathtt{map}(d_{in})",
                   stability_goals, uses=(f"{prefix}.size_lemma",)),
        int_map_rounding(constructor, prefix, "d_in", (), {"carrier": int},
                         large_candidates((), {"carrier": int}), count_pair),
    )


def count_pair(t: Any, arguments: dict[str, Any], d_in: int) -> tuple[list, list] | None:
    """``[]`` and ``d_in`` zeros: counts ``d_in`` apart (``None`` past ``10^5`` rows)."""
    return None if d_in > 10 ** 5 else ([], [0] * d_in)


IMPORT = "from mechanisms.make_count import make_count"


def catalogue_entry() -> Entry:
    return Entry("make_count", make_count, count_obligations(),
                 "number of rows, as an int (symmetric -> absolute distance)",
                 (example("make_count(float)", IMPORT), example("make_count(str)", IMPORT)),
                 proof=True)
