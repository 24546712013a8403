"""Obligations of ``make_quantile_score_candidates``, for every candidate list, every input length
and every fraction ``num / den`` with ``0 <= num <= den``, ``den >= 1``.

The function is read from the built transformation: its class must be the trusted
:class:`~mechanisms.make_quantile_score_candidates.CandidateScores` (one fold per candidate, no
member overridden), and the goals run the running object's own ``step`` and ``finish`` on Z3
terms: a candidate ``c`` and rows ``x`` of any int or any float64 (NaN, +-inf and -0.0 included),
counts ``(L, E, N)`` of any integers, and the running function's ``num`` and ``den`` replaced by
Z3 integers. The map is the built map with its parameter (the running function) replaced the same
way, after a structural goal checks that it reads the running function's own fields.

The specification (``quantile_score_candidates.specification``) is stated here from the
mathematics, not from the mechanism's helpers: ``#{x_i < c}`` and ``#{x_i = c}`` count the rows
below and equal to ``c`` in the order of the extended reals (a float compared as the real or
infinity it denotes, written from its binary64 encoding, sign and magnitude fields, not from
``fpLT``/``fpEQ`` that the code runs; NaN is below, equal to and above nothing), and the score is
``|den #{x_i < c} - num (n - #{x_i = c})|``. Stability is proved for the code by the unsized path
lemma (``quantile_score_candidates.unsized_path``, the lemma of ``make_bounded_int_sum`` stated
again under this prefix): the folds ignore the order of rows, one inserted row moves each score
by at most ``map(1) = max(num, den - num)``, and vectors at symmetric distance ``d`` are ``d``
such moves apart; LInf distance is the largest move over the candidates.

The fraction: ``alpha_fraction(alpha)`` is ``alpha.as_integer_ratio()`` (Python's documented
exact ratio, lowest terms, positive denominator) when its denominator is below ``10_000``, else
``(floor(alpha * 10_000), 10_000)`` with ``*`` the binary64 product; a goal proves
``0 <= num <= den`` for every float ``alpha`` in ``[0, 1]`` for the second branch (the product
rounded to nearest is monotone: IEEE 754 §4.3), and the constructor's validation refuses any
fraction outside (checked on refused arguments and on the sampled ``alpha`` values).
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from fractions import Fraction
from typing import Any, Callable

import z3

from mechanisms import float_model, ops
from mechanisms.arith import nearest_float
from mechanisms.core import Constructor, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.make_quantile_score_candidates import (CandidateScores,
                                                       make_quantile_score_candidates)
from mechanisms.metrics import LInfDistance, SymmetricDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true, on_solver_terms)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.kernels import kernel_deviations, trusted_kernel_goal
from obligations.lemmas import unsized_path_lemma, unsized_path_steps
from obligations.float_sums import FL, IEEE_ROUNDING
from obligations.reports import (claim_assertion, code_setup, constructor_call, constructor_report,
                                 import_line, literal, literal_imports, output_report, plain_report,
                                 reproducer, returns)
from obligations.symbols import natural_int
from obligations.witnesses import excluded_goals, refusal_goal, witness_goal
from obligations.kernel.reviewed import reviewed
from obligations.quantile_rows import neighbour_pairs, rows_of, shown

HELPERS = "from obligations.make_quantile_score_candidates import "
ATOMS: dict[str, type] = {"int": int, "float64": float}
"""The row and candidate types the goals quantify over."""

WITNESS_ARGUMENTS: tuple[dict[str, Any], ...] = (
    {"candidates": [0, 5, 10], "alpha": 0.5},
    {"candidates": [-1.5, 0.0, 2.25], "alpha": 0.3},
    {"candidates": [3], "alpha": 0.0},
    {"candidates": [1, 2, 3, 4], "alpha": 1.0},
    {"candidates": [0.0, 1.0], "alpha": 0.123456},
    {"candidates": [-4, 0, 4], "alpha": 0.25,
     "atom_domain": AtomDomain(int, bounds=(-10, 10))},
)
"""Valid arguments: exact fractions (1/2, 1/4, 0, 1) and the 10_000 grid (0.3, 0.123456)."""

HARD_ALPHAS = (0.0, 1.0, 0.5, 0.3, 1 / 3, 0.123456, 0.99999, 1e-5, 5e-324,
               math.nextafter(1.0, 0.0), 0.00015, 0.9999, 0.75, 1 / 1024, 1 / 8192, 1 / 16384)
"""Alphas whose fraction the validation is run on: both branches and their edges."""


def atom(name: str, carrier: type) -> Any:
    return z3.Const(name, ops.sort_of(carrier))


def built(constructor: Constructor, arguments: dict[str, Any]) -> Transformation:
    return constructor(**arguments)


def symbolic_function(t: Transformation, num: Any, den: Any) -> Any:
    """The running function with its fraction replaced by solver terms (same class, same code)."""
    return replace(t.function, num=num, den=den)


def symbolic_map(t: Transformation, function: Any) -> Any:
    """The built map with every parameter that is the running function replaced by ``function``."""
    params = {name: function if value is t.function else value
              for name, value in t.stability_map.params.items()}
    return replace(t.stability_map, params=params)


def fraction_terms() -> tuple[Any, Any, list[Any]]:
    """Integers with Python's arithmetic (``/`` is true division, a float: not an Int term)."""
    num, den = float_model.int_parameter("num"), float_model.int_parameter("den")
    return num, den, [0 <= num, num <= den, den >= 1]


def counts_terms(name: str) -> tuple[Any, Any, Any]:
    return tuple(float_model.int_parameter(f"{name}_{part}")  # type: ignore[return-value]
                 for part in ("below", "equal", "rows"))


# --- the specification, from the mathematics --------------------------------------------------

def _encoding(x: Any) -> tuple[Any, Any]:
    """``(sign bit, magnitude bits)`` of a float64 term's binary64 encoding (IEEE 754 §3.4)."""
    bits = z3.fpToIEEEBV(x)
    return z3.Extract(63, 63, bits), z3.Extract(62, 0, bits)


def stated_below(x: Any, c: Any) -> Any:
    """``x < c`` in the extended reals; NaN is below nothing and nothing is below NaN. Floats from
    their encoding (IEEE 754 §3.4): for one sign, a larger magnitude field (exponent, then
    significand; infinity the largest) is a larger magnitude; every negative is below every
    positive except that ``-0.0`` and ``+0.0`` are both zero."""
    if not isinstance(x.sort(), z3.FPSortRef):
        return x < c
    (sx, mx), (sc, mc) = _encoding(x), _encoding(c)
    zero = z3.BitVecVal(0, 63)
    order = z3.If(sx == sc,
                  z3.If(sx == 0, z3.ULT(mx, mc), z3.ULT(mc, mx)),
                  z3.And(sx == 1, z3.Or(mx != zero, mc != zero)))
    return z3.And(z3.Not(z3.fpIsNaN(x)), z3.Not(z3.fpIsNaN(c)), order)


def stated_equal(x: Any, c: Any) -> Any:
    """``x = c`` in the extended reals (so ``-0.0 = 0.0``); NaN equals nothing. Floats: the same
    magnitude field, and the same sign unless both are zeros."""
    if not isinstance(x.sort(), z3.FPSortRef):
        return x == c
    (sx, mx), (sc, mc) = _encoding(x), _encoding(c)
    return z3.And(z3.Not(z3.fpIsNaN(x)), z3.Not(z3.fpIsNaN(c)), mx == mc,
                  z3.Or(sx == sc, mx == z3.BitVecVal(0, 63)))


def stated_score(below: Any, equal: Any, rows: Any, num: Any, den: Any) -> Any:
    """``|den #{x < c} - num (n - #{x = c})|``."""
    inner = den * below - num * (rows - equal)
    return z3.If(inner < 0, -inner, inner) if z3.is_expr(inner) else abs(inner)


def documented_scores(t: Transformation, data: list[Any]) -> list[int]:
    """The specification on Python values, for replays: Python's ``<`` and ``==`` on ints and on
    floats are the extended reals' order (IEEE 754 §5.11), NaN compared with nothing."""
    f = t.function
    return [abs(f.den * sum(1 for x in data if x < c)
                - f.num * (len(data) - sum(1 for x in data if x == c))) for c in f.candidates]


# --- replays on the real code ------------------------------------------------------------------


def _replay_stability(constructor: Constructor) -> Callable[[dict], Replay]:
    """The real transformation on each witness build and neighbouring vectors: a distance of the
    outputs above ``map(d_in)`` confirms."""
    def replay(_: dict) -> Replay:
        for arguments in WITNESS_ARGUMENTS:
            try:
                t = built(constructor, arguments)
            except Exception:  # noqa: BLE001 - a twin may refuse some witnesses
                continue
            for v, w in neighbour_pairs(arguments):
                d_in = t.input_metric.distance(v, w)
                observed, claimed = t.output_metric.distance(t(v), t(w)), t.map(d_in)
                if observed > claimed:
                    return constructor_report(constructor, arguments, v, w, d_in, claimed,
                                              observed, True)
        return plain_report(False, "no neighbouring vectors of the witness builds are farther "
                            "apart than the map")
    return replay


def _replay_output(constructor: Constructor) -> Callable[[dict], Replay]:
    """The real transformation on the witness builds' rows: an output outside the output domain
    or of another length than the candidates confirms."""
    def replay(_: dict) -> Replay:
        for arguments in WITNESS_ARGUMENTS:
            t = built(constructor, arguments)
            for data in ([], rows_of(arguments), rows_of(arguments)[:1] * 3):
                output = t(data)
                if not t.output_domain.member(output) or any(s < 0 for s in output) \
                        or len(output) != len(arguments["candidates"]):
                    return output_report(constructor, arguments, data, output, True,
                                         "not a list of one int >= 0 per candidate")
        return plain_report(False, "every witness output is a list of ints >= 0, one per "
                            "candidate")
    return replay


def _replay_negative(constructor: Constructor) -> Callable[[dict], Replay]:
    """The real transformation on the witness builds' rows: a negative score confirms."""
    def replay(_: dict) -> Replay:
        for arguments in WITNESS_ARGUMENTS:
            t = built(constructor, arguments)
            rows = rows_of(arguments)
            for data in ([], rows, rows[:1] * 3, rows[-1:] * 3):
                output = t(data)
                if any(s < 0 for s in output):
                    call = constructor_call(constructor, **arguments)
                    return plain_report(True, f"{call} on {literal(data)}",
                                        f"output {literal(output)}: a negative score",
                                        *reproducer(import_line(constructor),
                                                    *code_setup(arguments),
                                                    *literal_imports(arguments), f"t = {call}",
                                                    f"output = t({literal(data)})",
                                                    claim_assertion("min(output) >= 0",
                                                                    "a negative score in "
                                                                    "{output!r}")))
        return plain_report(False, "no negative score on the witness rows")
    return replay


def _replay_specification(constructor: Constructor) -> Callable[[dict], Replay]:
    """The real transformation against the documented score on the witness builds' rows."""
    def replay(_: dict) -> Replay:
        for arguments in WITNESS_ARGUMENTS:
            t = built(constructor, arguments)
            rows = rows_of(arguments)
            for data in ([], rows, rows[:1] * 2 + rows[-1:], rows[::-1] * 2):
                output, stated = t(data), documented_scores(t, data)
                if output != stated:
                    call = constructor_call(constructor, **arguments)
                    return plain_report(
                        True, f"{call} on {literal(data)}",
                        f"output {literal(output)}, stated |den #(x < c) - num (n - #(x = c))| "
                        f"= {literal(stated)} (num, den = {t.function.num}, {t.function.den})",
                        *reproducer(import_line(constructor), *code_setup(arguments),
                                    *literal_imports(arguments),
                                    f"t = {call}", f"data = {literal(data)}",
                                    "f = t.function",
                                    "stated = [abs(f.den * sum(x < c for x in data) - f.num * "
                                    "(len(data) - sum(x == c for x in data))) "
                                    "for c in f.candidates]",
                                    *returns("output = t(data)", "t(data)"),
                                    claim_assertion("output == stated", "output {output!r} != "
                                                    "stated scores {stated!r}")))
        return plain_report(False, "the real scores equal the stated ones on the witness rows")
    return replay


def _replay_fraction(constructor: Constructor) -> Callable[[dict], Replay]:
    """Builds on the hard alphas: a running fraction outside ``0 <= num <= den, den >= 1``."""
    def replay(_: dict) -> Replay:
        for alpha in HARD_ALPHAS:
            arguments = {"candidates": [0, 1], "alpha": alpha}
            try:
                t = built(constructor, arguments)
            except Exception:  # noqa: BLE001 - refused: nothing runs
                continue
            f = t.function
            if not (0 <= f.num <= f.den and f.den >= 1):
                call = constructor_call(constructor, **arguments)
                return plain_report(True, f"{call} runs with num, den = {f.num}, {f.den}",
                                    *reproducer(import_line(constructor), f"t = {call}",
                                                "f = t.function",
                                                claim_assertion("0 <= f.num <= f.den and "
                                                                "f.den >= 1", "fraction "
                                                                "{f.num}/{f.den} outside [0, 1]")))
        return plain_report(False, "every hard alpha builds a fraction in [0, 1]")
    return replay


FRACTION_SAMPLES = 200
"""Seeded alphas in ``[0, 1]`` (besides :data:`HARD_ALPHAS` and the witnesses') whose running
fraction is compared with the stated one."""


def stated_fraction(alpha: float | int) -> tuple[int, int]:
    """The fraction of ``alpha`` (OpenDP 0.16's ``score_candidates_constants`` on an unsized
    domain), stated here: the exact rational a float or int denotes (``Fraction(alpha)``, lowest
    terms) when its denominator is below ``10_000``; otherwise ``floor(fl(alpha * 10_000))`` over
    ``10_000``, ``fl`` the binary64 product (the exact product rounded to nearest-even)."""
    exact = Fraction(alpha)
    if exact.denominator < 10_000:
        return exact.numerator, exact.denominator
    return math.floor(nearest_float(exact * 10_000)), 10_000


def fraction_alphas() -> list[float | int]:
    rng = random.Random(5)
    return [*HARD_ALPHAS, *[a["alpha"] for a in WITNESS_ARGUMENTS], 0, 1,
            *[rng.random() for _ in range(FRACTION_SAMPLES)]]


def fraction_mismatch(constructor: Constructor) -> tuple[Any, tuple, tuple] | None:
    """The first alpha of :func:`fraction_alphas` whose running ``(num, den)`` is not
    :func:`stated_fraction`'s: ``(alpha, running, stated)``; refused alphas are skipped."""
    return fraction_check(constructor)[1]


def fraction_check(constructor: Constructor) -> tuple[int, tuple[Any, tuple, tuple] | None]:
    """:func:`fraction_mismatch`, and how many alphas the constructor built."""
    ran = 0
    for alpha in fraction_alphas():
        try:
            f = built(constructor, {"candidates": [0, 1], "alpha": alpha}).function
        except ValueError:
            continue
        ran += 1
        if (f.num, f.den) != stated_fraction(alpha):
            return ran, (alpha, (f.num, f.den), stated_fraction(alpha))
    return ran, None


def _replay_stated_fraction(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(_: dict) -> Replay:
        found = fraction_mismatch(constructor)
        if found is None:
            return plain_report(False, f"the running fraction is the stated one on "
                                       f"{len(fraction_alphas())} alphas")
        alpha, running, stated = found
        call = constructor_call(constructor, candidates=[0, 1], alpha=alpha)
        return plain_report(
            True, f"{call} scores with num/den = {running[0]}/{running[1]}, not alpha's "
            f"{stated[0]}/{stated[1]}",
            *reproducer(import_line(constructor), HELPERS + "stated_fraction",
                        f"f = {call}.function",
                        claim_assertion(f"(f.num, f.den) == stated_fraction({alpha!r})",
                                        "num/den = {f.num}/{f.den}, stated "
                                        f"{stated[0]}/{stated[1]}")))
    return replay


def stated_fraction_goal(constructor: Constructor) -> ComputedGoal:
    def decide() -> Decision:
        ran, found = fraction_check(constructor)
        if found is None and not ran:  # a bounded check counts only the cases that ran
            return Decision(False, {"alphas": len(fraction_alphas())}, "the constructor refused "
                            "every alpha: nothing was checked", unsupported=True)
        if found is None:
            return Decision(True, detail=f"{ran} of {len(fraction_alphas())} alphas built (both "
                            "branches, their edges, seeded)")
        alpha, running, stated = found
        return Decision(False, {"alpha": repr(alpha)}, f"alpha {alpha!r} scores with num/den = "
                        f"{running[0]}/{running[1]}, stated {stated[0]}/{stated[1]}")
    return ComputedGoal("the running fraction is alpha's: its exact ratio when the denominator "
                        "is below 10000, else floor(fl(alpha * 10000)) / 10000 (evaluated)",
                        "evaluated", decide, _replay_stated_fraction(constructor))


# --- goals -------------------------------------------------------------------------------------

def kernel_goal(constructor: Constructor) -> ComputedGoal:
    return trusted_kernel_goal("the function", lambda: built(constructor, WITNESS_ARGUMENTS[0])
                               .function, CandidateScores)


def same_parts_goal(constructor: Constructor) -> ComputedGoal:
    """The goals read ``step``, ``finish`` and ``start`` from one build; every witness build
    (int and float candidates, exact and grid fractions) is a ``CandidateScores`` running its own
    code with those same parts."""
    def decide() -> Decision:
        first = built(constructor, WITNESS_ARGUMENTS[0]).function
        for arguments in WITNESS_ARGUMENTS:
            f = built(constructor, arguments).function
            if kernel_deviations(f, CandidateScores) or (f.step, f.finish, f.start) != \
                    (first.step, first.finish, first.start):
                return Decision(False, {"arguments": constructor_call(constructor, **arguments)},
                                "this build runs other parts than the one the goals read",
                                unsupported=True)
        return Decision(True, detail=f"{len(WITNESS_ARGUMENTS)} builds run one step, finish "
                                     "and start")
    return ComputedGoal("every witness build runs the step, finish and start the goals read",
                        "structure", decide)


def int_parts_goal(constructor: Constructor) -> ComputedGoal:
    """The fold stays in the integers: ``start`` is three Python ints, and ``step`` of Int counts
    and ``finish`` of Int counts and fraction are Int-sorted (rows of either type)."""
    def decide() -> Decision:
        f = built(constructor, WITNESS_ARGUMENTS[0]).function
        sorts: dict[str, str] = {"start": repr(tuple(type(v).__name__ for v in f.start))}
        ok = isinstance(f.start, tuple) and len(f.start) == 3 and \
            all(type(v) is int for v in f.start)
        for name, carrier in ATOMS.items():
            num, den, _ = fraction_terms()
            s = counts_terms("s")
            parts = (*f.step(s, atom("x", carrier), atom("c", carrier)),
                     f.finish(s, num, den))
            good = len(parts) == 4 and all(z3.is_expr(v) and v.sort() == z3.IntSort()
                                           for v in parts)
            sorts[name] = repr([str(v.sort()) if z3.is_expr(v) else type(v).__name__
                                for v in parts])
            ok = ok and good
        if ok:
            return Decision(True, detail=f"Int-sorted: {sorts}")
        return Decision(False, sorts, "the fold can leave the integers")
    return ComputedGoal("the fold stays in the integers: int start, Int-sorted step and finish",
                        "structure", decide, _replay_output(constructor))


def output_lengths_goals(constructor: Constructor) -> list[Any]:
    """The output domain admits the length of every output: the function returns one score per
    candidate of its own (``CandidateScores.__call__``, the trusted-kernel goal), the
    constructor refuses an empty candidate list (``excluded_arguments``), and on every witness
    build the running function has a candidate and Z3 proves that the output domain's own length
    condition ``admits_length(n)`` holds for every ``n >= 1``."""
    replay = _replay_output(constructor)

    def has_candidates() -> Decision:
        for arguments in WITNESS_ARGUMENTS:
            t = built(constructor, arguments)
            if type(t.output_domain) is not VectorDomain:
                return Decision(False, {"output domain": str(t.output_domain)}, "the output "
                                "domain is not a VectorDomain: its lengths are not read",
                                unsupported=True)
            if not len(t.function.candidates) >= 1:
                return Decision(False, {"arguments": constructor_call(constructor, **arguments)},
                                "the running function has no candidate: its output is empty")
        return Decision(True, detail=f"{len(WITNESS_ARGUMENTS)} builds: VectorDomain outputs, "
                                     "at least one running candidate")

    goals: list[Any] = [ComputedGoal("every witness build's output domain is a VectorDomain and "
                                     "its running function has a candidate", "structure",
                                     has_candidates, replay)]
    n = z3.Int("n")
    for arguments in WITNESS_ARGUMENTS:
        domain = built(constructor, arguments).output_domain
        if type(domain) is VectorDomain:
            goals.append(Z3Goal(f"{constructor_call(constructor, **shown(arguments))}: the output "
                                "domain admits every length n >= 1 (its own admits_length(n))",
                                ops.to_bool(domain.admits_length(n)), [n >= 1], {"n": n},
                                replay))
    return goals


def map_reads_function_goal(constructor: Constructor) -> ComputedGoal:
    """The built map's only parameter is the running function itself (so its ``num`` and ``den``
    are the function's), on every witness build."""
    def decide() -> Decision:
        for arguments in WITNESS_ARGUMENTS:
            t = built(constructor, arguments)
            params = dict(t.stability_map.params)
            if not params or any(value is not t.function for value in params.values()):
                return Decision(False, {"arguments": constructor_call(constructor, **arguments),
                                        "params": repr(params)},
                                "the map has a parameter other than the running function: its "
                                "num and den may not be the function's", unsupported=True)
        return Decision(True, detail=f"{len(WITNESS_ARGUMENTS)} builds: the map's parameter is "
                                     "the running function")
    return ComputedGoal("the map reads the running function's num and den", "structure", decide)


def fraction_goals(constructor: Constructor) -> list[Any]:
    """``0 <= num <= den`` and ``den >= 1`` for every float ``alpha`` in ``[0, 1]``."""
    alpha, grid = z3.Real("alpha"), z3.RealVal(10_000)
    exact = alpha * grid
    rounded = FL(exact)
    num = z3.ToInt(rounded)
    in_unit = [0 <= alpha, alpha <= 1,
               # IEEE 754 §4.3: fl is monotone and returns 0 and 10000 (representable) unchanged
               FL(z3.RealVal(0)) == 0, FL(grid) == grid,
               z3.Implies(0 <= exact, FL(z3.RealVal(0)) <= rounded),
               z3.Implies(exact <= grid, rounded <= FL(grid))]
    p, q, real_alpha = z3.Int("p"), z3.Int("q"), z3.Real("a")
    def agree() -> Decision:
        for value in HARD_ALPHAS:
            t = built(constructor, {"candidates": [0, 1], "alpha": value})
            f = t.function
            if not (0 <= f.num <= f.den and f.den >= 1):
                return Decision(False, {"alpha": repr(value)}, f"alpha {value!r} runs with "
                                f"num, den = {f.num}, {f.den}")
        return Decision(True, detail=f"{len(HARD_ALPHAS)} alphas (both branches) build "
                                     "fractions in [0, 1]")
    return [
        Z3Goal("grid branch: num = floor(fl(alpha * 10000)) is in [0, 10000] for every "
               "alpha in [0, 1] (fl rounds to nearest: monotone, exact on 0 and 10000)",
               z3.And(0 <= num, num <= 10_000), in_unit, {"alpha": alpha},
               _replay_fraction(constructor)),
        Z3Goal("exact branch: alpha = p / q with q >= 1 (as_integer_ratio) and 0 <= alpha <= 1 "
               "give 0 <= p <= q",
               z3.And(0 <= p, p <= q), [q >= 1, real_alpha * q == p, 0 <= real_alpha,
                                        real_alpha <= 1],
               {"p": p, "q": q, "alpha": real_alpha}, _replay_fraction(constructor)),
        ComputedGoal("the running fraction is in [0, 1] on the hard alphas", "evaluated", agree,
                     _replay_fraction(constructor)),
    ]


def excluded_arguments(constructor: Constructor) -> list[ComputedGoal]:
    nan = float("nan")
    cases = [({"candidates": [], "alpha": 0.5}, "no candidates"),
             ({"candidates": [2, 1], "alpha": 0.5}, "decreasing candidates"),
             ({"candidates": [1, 1], "alpha": 0.5}, "repeated candidates"),
             ({"candidates": [1, 2.0], "alpha": 0.5}, "candidates of two types"),
             ({"candidates": [0.0, nan], "alpha": 0.5}, "a NaN candidate"),
             ({"candidates": [0, 1], "alpha": 1.5}, "alpha > 1"),
             ({"candidates": [0, 1], "alpha": -0.25}, "alpha < 0"),
             ({"candidates": [0, 1], "alpha": nan}, "a NaN alpha"),
             ({"candidates": [0, 1], "alpha": True}, "a bool alpha"),
             ({"candidates": [0, 1], "alpha": 0.5,
               "atom_domain": AtomDomain(float)}, "rows of another type than the candidates")]
    nan_rows = {"candidates": [0.5, 1.5, 2.5], "alpha": 0.5,
                "atom_domain": AtomDomain(float, nan=True)}
    return [*excluded_goals(constructor, cases, inputs=[[], [0], [0, 1, 2], [0.0, 1.0]]),
            _nan_rows_goal(constructor, nan_rows)]


def _nan_rows_goal(constructor: Constructor, arguments: dict[str, Any]) -> ComputedGoal:
    """NaN rows need no refusal: the goals quantify a row over every float64, NaN included (below,
    equal to and above nothing), so a constructor admitting them is proved or refuted on its
    merits. A sort-based count is garbage with a NaN, though, so if NaN rows are admitted the
    real code is also run on neighbouring vectors with NaN rows (:func:`_replay_nan_rows`): a
    distance of the outputs above ``map(d_in)`` refutes (confirmed by the same replay)."""
    replay = _replay_nan_rows(constructor, arguments)
    refused = refusal_goal(constructor, arguments, shown(arguments), "NaN rows", replay)

    def decide() -> Decision:
        decision = refused.decide()
        if decision.proved or decision.unsupported:
            return decision
        if replay(decision.counterexample).confirmed:
            return Decision(False, decision.counterexample, f"{decision.detail}, and neighbouring "
                            "vectors with NaN rows are farther apart than the map")
        return Decision(True, detail=f"{decision.detail}: covered by the goals (rows range over "
                        "every float64, NaN included); no neighbouring vectors with NaN rows "
                        "tried are farther apart than the map")
    return ComputedGoal("NaN rows are refused, or, admitted, within the map on neighbouring "
                        "vectors with NaN rows", "structure", decide, replay)


def _replay_nan_rows(constructor: Constructor, arguments: dict[str, Any]
                     ) -> Callable[[dict], Replay]:
    """Built with NaN rows admitted: neighbouring vectors with NaN rows among others, a distance
    of the outputs above ``map(d_in)`` confirms (a sort-based count is garbage with a NaN)."""
    def replay(_: dict) -> Replay:
        t = built(constructor, arguments)
        nan, rows = float("nan"), rows_of(arguments)
        pairs = [(base + [z], base) for z in rows + [nan]
                 for base in ([nan, nan] + [z], [nan] + rows, rows + [nan], [z, nan, z])]
        for v, w in pairs:
            d_in = t.input_metric.distance(v, w)
            observed, claimed = t.output_metric.distance(t(v), t(w)), t.map(d_in)
            if observed > claimed:
                return constructor_report(constructor, shown(arguments), v, w, d_in, claimed,
                                          observed, True)
        return plain_report(False, "with NaN rows admitted, no neighbouring vectors tried are "
                            "farther apart than the map")
    return replay


@reviewed
def quantile_score_candidates_obligations(constructor: Constructor = make_quantile_score_candidates,
                                          prefix: str = "quantile_score_candidates",
                                          path_steps: Callable[[Any], Any] = unsized_path_steps
                                          ) -> tuple[Obligation, ...]:
    path = f"{prefix}.unsized_path"
    witnesses = [witness_goal(constructor, arguments, shown(arguments),
                              inputs=[[], rows_of(arguments), rows_of(arguments)[::-1] * 2])
                 for arguments in WITNESS_ARGUMENTS]

    def output_goals(name: str, carrier: type) -> list[Any]:
        t = built(constructor, {"candidates": [carrier(0)], "alpha": 0.5})
        num, den, fraction = fraction_terms()
        f = symbolic_function(t, num, den)
        below, equal, rows = counts_terms("s")
        x, c = atom("x", carrier), atom("c", carrier)
        counts = (below, equal, rows)
        score = f.finish(counts, num, den)
        names = {"num": num, "den": den, "x": x, "c": c, "L": below, "E": equal, "N": rows}
        return [
            Z3Goal(f"({name}) every finished score is an int >= 0 of the output atoms",
                   z3.And(score >= 0, is_true(t.output_domain.element.contains(score)))
                   if z3.is_expr(score) else z3.BoolVal(False),
                   fraction, names, _replay_negative(constructor)),
        ]

    def output_domain_goals() -> list[Any]:
        goals: list[Any] = [kernel_goal(constructor), same_parts_goal(constructor), *witnesses,
                            *excluded_arguments(constructor), int_parts_goal(constructor),
                            *output_lengths_goals(constructor)]
        for name, carrier in ATOMS.items():
            goals += on_solver_terms(f"output domain ({name})",
                                     lambda n=name, c=carrier: output_goals(n, c))
        return goals

    def specification_goals_for(name: str, carrier: type) -> list[Any]:
        t = built(constructor, {"candidates": [carrier(0)], "alpha": 0.5})
        num, den, fraction = fraction_terms()
        f = symbolic_function(t, num, den)
        below, equal, rows = counts_terms("s")
        x, c = atom("x", carrier), atom("c", carrier)
        sl, se, sn = z3.Ints("stated_L stated_E stated_N")
        same = z3.And(below == sl, equal == se, rows == sn)
        nb, ne, nn = f.step((below, equal, rows), x, c)
        stated_next = (sl + z3.If(stated_below(x, c), 1, 0), se + z3.If(stated_equal(x, c), 1, 0),
                       sn + 1)
        names = {"num": num, "den": den, "x": x, "c": c, "L": below, "E": equal, "N": rows}
        replay = _replay_specification(constructor)
        return [
            Z3Goal(f"({name}) step: if the code's counts are the stated #(x < c), #(x = c), n, "
                   "they still are after one more row x",
                   z3.And(nb == stated_next[0], ne == stated_next[1], nn == stated_next[2]),
                   [same], names, replay),
            Z3Goal(f"({name}) finish: the score of the stated counts is "
                   "|den #(x < c) - num (n - #(x = c))|",
                   f.finish((below, equal, rows), num, den)
                   == stated_score(sl, se, sn, num, den),
                   [same, *fraction], names, replay),
        ]

    def specification_goals() -> list[Any]:
        t = built(constructor, WITNESS_ARGUMENTS[0])
        start = t.function.start
        goals: list[Any] = [kernel_goal(constructor), same_parts_goal(constructor),
                            Z3Goal("base: the counts of no rows are the stated (0, 0, 0)",
                                   z3.And(*[z3.IntVal(0) == v for v in start])
                                   if len(start) == 3 else z3.BoolVal(False), [], {},
                                   _replay_specification(constructor)),
                            ComputedGoal("the real scores equal the stated ones on the witness "
                                         "rows", "evaluated", _spec_runs(constructor),
                                         _replay_specification(constructor)),
                            stated_fraction_goal(constructor)]
        for name, carrier in ATOMS.items():
            goals += on_solver_terms(f"specification ({name})",
                                     lambda n=name, c=carrier: specification_goals_for(n, c))
        return goals

    def stability_goals_for(name: str, carrier: type) -> list[Any]:
        t = built(constructor, {"candidates": [carrier(0)], "alpha": 0.5})
        num, den, fraction = fraction_terms()
        f = symbolic_function(t, num, den)
        stability_map = symbolic_map(t, f)
        below, equal, rows = counts_terms("s")
        s = (below, equal, rows)
        x, a, b, c = (atom(n, carrier) for n in ("x", "a", "b", "c"))
        moved = f.finish(f.step(s, x, c), num, den) - f.finish(s, num, den)
        d_in, d_in_natural = natural_int("d_in")
        d, d_natural = natural_int("d")
        names = {"num": num, "den": den, "x": x, "c": c, "L": below, "E": equal, "N": rows}
        replay = _replay_stability(constructor)
        ab, ba = f.step(f.step(s, a, c), b, c), f.step(f.step(s, b, c), a, c)
        return [
            Z3Goal(f"({name}) each fold ignores row order: step(step(s, a), b) = "
                   "step(step(s, b), a)",
                   z3.And(*[p == q for p, q in zip(ab, ba)]), [],
                   {**names, "a": a, "b": b}, replay),
            Z3Goal(f"({name}) premise of {path}: one row inserted (or deleted) moves each "
                   "candidate's score by at most c = map(1)",
                   ops.absolute(moved) <= stability_map(1), fraction, names, replay),
            Z3Goal(f"({name}) map(d_in) bounds the lemma's c * steps(d) for every d <= d_in",
                   stability_map(1) * path_steps(d) <= stability_map(d_in),
                   [*fraction, *d_in_natural, *d_natural, d <= d_in],
                   {"num": num, "den": den, "d_in": d_in, "d": d}, replay),
        ]

    def stability_goals() -> list[Any]:
        goals: list[Any] = [kernel_goal(constructor), same_parts_goal(constructor),
                            map_reads_function_goal(constructor),
                            metric_premise(lambda: built(constructor, WITNESS_ARGUMENTS[0]),
                                           SymmetricDistance, LInfDistance, path),
                            *fraction_goals(constructor)]
        for name, carrier in ATOMS.items():
            goals += on_solver_terms(f"stability ({name})",
                                     lambda n=name, c=carrier: stability_goals_for(n, c))
        return goals

    def compatibility_goals() -> list[Any]:
        return [compatibility_goal(constructor,
                                   lambda: [built(constructor, a) for a in WITNESS_ARGUMENTS],
                                   WITNESS_ARGUMENTS[0])]

    return (
        Obligation(f"{prefix}.specification", Kind.SPECIFICATION,
                   "function(v) is, for each candidate c in order, |den #{i : v_i < c} - num (n "
                   "- #{i : v_i = c})| with n = len(v), the order and equality of the extended "
                   "reals (NaN compared with nothing), num/den the running fraction; by "
                   "induction over the rows, for any length and any candidate. The running "
                   "fraction is alpha's: its exact ratio when the denominator is below 10000, "
                   "else floor(fl(alpha * 10000)) / 10000 (evaluated on sampled alphas).",
                   r"\mathtt{function}(v)_j = \bigl|\mathtt{den}\,\#\{i : v_i < c_j\} - "
                   r"\mathtt{num}\,(n - \#\{i : v_i = c_j\})\bigr|",
                   specification_goals,
                   bound="alpha's fraction evaluated on the hard, the witness and 200 seeded "
                   "alphas"),
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every vector of rows, function(v) is a list of ints >= 0, one per "
                   "candidate (the fold of Int counts from (0, 0, 0), finished by an absolute "
                   "value), so at least one (the candidates are never empty): a member of the "
                   "output domain, which admits every length >= 1.",
                   r"\forall v:\ \mathtt{function}(v) \in \mathrm{Vec}(\mathbb{Z}_{\ge 0}),\ "
                   r"|\mathtt{function}(v)| = |C| \ge 1",
                   output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "Symmetric distance is defined on the vector domain of rows, LInf distance on "
                   "the vector domain of (non-empty vectors of) int scores.",
                   r"d_{Sym} \sim \mathrm{VectorDomain}(T),\ d_\infty \sim "
                   r"\mathrm{VectorDomain}(\mathrm{AtomDomain}(\mathtt{int}), "
                   r"\mathtt{min\_size} = 1)",
                   compatibility_goals),
        Obligation(f"{prefix}.stability", Kind.STABILITY,
                   "If d_sym(v, w) <= d_in then max_j |function(v)_j - function(w)_j| <= map(d_in) "
                   "= d_in max(num, den - num): each candidate's fold ignores row order, one "
                   "inserted or deleted row moves its score by at most max(num, den - num) "
                   f"(den - num, -num or 0 inside the absolute value), and v, w are d_sym(v, w) "
                   f"such moves apart ({path}); for every candidate list, every length, every "
                   "fraction 0 <= num <= den, den >= 1, which every float alpha in [0, 1] gives.",
                   r"d_{Sym}(v, w) \le d_{in} \implies \max_j |f(v)_j - f(w)_j| \le "
                   r"d_{in} \cdot \max(\mathtt{num}, \mathtt{den} - \mathtt{num})",
                   stability_goals, uses=(path,), cites=IEEE_ROUNDING),
        unsized_path_lemma(prefix, path_steps),
    )


def _spec_runs(constructor: Constructor) -> Callable[[], Decision]:
    def decide() -> Decision:
        for arguments in WITNESS_ARGUMENTS:
            t = built(constructor, arguments)
            rows = rows_of(arguments)
            for data in ([], rows, rows[::-1] * 2):
                if t(data) != documented_scores(t, data):
                    return Decision(False, {"arguments": constructor_call(constructor,
                                                                          **arguments),
                                            "data": literal(data)},
                                    f"scores {t(data)} != stated {documented_scores(t, data)}")
        return Decision(True, detail=f"{len(WITNESS_ARGUMENTS)} builds, 3 vectors each")
    return decide


IMPORT = ("from mechanisms.make_quantile_score_candidates import "
          "make_quantile_score_candidates")


def catalogue_entry() -> Entry:
    return Entry("make_quantile_score_candidates", make_quantile_score_candidates,
                 quantile_score_candidates_obligations(),
                 "score each candidate's distance to the alpha-quantile",
                 (example("make_quantile_score_candidates([0, 5, 10], 0.5)", IMPORT),
                  example("make_quantile_score_candidates([0.0, 1.5, 3.0], 0.25)", IMPORT)),
                 proof=True)
