"""Obligations of ``make_fully_adaptive_composition``: the odometer's reported loss bounds the
exact sum of the answered queries' maps, for every sequence of queries, by induction over the
queryable's own transition run on solver terms.

The odometer is built on concrete arguments (its domain, metric and measure are not numbers);
everything numeric is a solver term. The induction: a reachable state is any map ``P`` (an
uninterpreted function whose value is a float) about which the hypothesis says only
``P(d) >= E``, ``E`` the exact sum of the maps answered so far at ``d``; the next query is a
stand-in measurement of the odometer's domain, metric and measure whose map ``m`` is
uninterpreted too (any map, chosen after any answers: fully adaptive). The running queryable's
transition is called on ``(P, query)``: the state it returns is ``>= E + m(d)`` at ``d``; with
the base case (the fresh state is ``>= 0``) every reachable state is at least the exact sum, and
the report ``privacy_loss(d)``, read on any state ``P``, is ``>= P(d)``: the claim for every
number of queries. ``privacy`` reads the code under the
exact model (the rounding-up primitives as their exact values), ``map_rounding`` under the
rounding model (each float operation rounded, each rounding-up primitive a fresh float at or
above its exact value), and on numbers: seeded sequences of real queries.

The specification: ``E + m(d)`` is the exact sum, written here from the stand-in's own
uninterpreted ``m``, never from the odometer's helpers. What the sum is worth is cited: the
fully adaptive composition of pure DP (Rogers, Roth, Ullman and Vadhan 2016) and of zCDP
(Whitehouse, Ramdas, Rogers and Wu 2023): stopping when the sum would pass ``d_out`` gives a
``d_out``-private interaction (``make_privacy_filter``).
"""

from __future__ import annotations

import copy
import random
from fractions import Fraction
from typing import Any, Callable

import z3

from mechanisms import float_model
from mechanisms.core import Constructor, Measurement
from mechanisms.errors import QueryMismatchError
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_fully_adaptive_composition import make_fully_adaptive_composition
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_randomized_response import make_randomized_response
from mechanisms.measures import (FixedSmoothedMaxDivergence, MaxDivergence,
                                 ZeroConcentratedDivergence)
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from mechanisms.queryable import Queryable, QueryRunner
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              is_true, on_solver_terms)
from obligations.compatibility import compatibility_goal
from obligations.kernels import trusted_kernel_goal
from obligations.reports import Code, claim_assertion, import_line, plain_report, reproducer
from obligations.rounding import ROUNDING_LEMMA, float_valued_map, random_float
from obligations.kernel.reviewed import reviewed
from obligations.adaptive_queries import (FULLY_ADAPTIVE_PURE, FULLY_ADAPTIVE_ZCDP, INTS, MEASURES,
                                          SETUP, exact_map, odometer_of, real, stand_in_query)

PROBES = 60
"""Seeded sequences of real queries per measure that the running odometer is checked on."""


def _call(constructor: Constructor, measure: Any) -> str:
    return (f"{constructor.name}(AtomDomain(int), AbsoluteDistance(), {measure})")


def _family(measure: Any) -> tuple[Callable[[float], Measurement], str]:
    if isinstance(measure, ZeroConcentratedDivergence):
        return make_gaussian, "make_gaussian"
    return make_discrete_laplace, "make_discrete_laplace"


def _below_sum(constructor: Constructor, measure: Any) -> tuple[Any, ...] | int:
    """Seeded sequences of real queries (discrete Laplace or Gaussian of seeded float scales,
    one object often asked twice) answered by the running odometer: the first ``(scales, d,
    reported, exact)`` whose reported loss is below the exact sum of the answered maps at ``d``,
    else the number of sequences run."""
    make, _ = _family(measure)
    rng = random.Random(7)
    for _ in range(PROBES):
        pool = [make(random_float(rng)) for _ in range(rng.randint(1, 3))]
        picks = [rng.randrange(len(pool)) for _ in range(rng.randint(1, 6))]
        queryable = odometer_of(constructor, measure)(0, random.Random(0))
        for i in picks:
            queryable(pool[i])
        for d in (0, 1, 2, 3):
            exact = sum((Fraction(pool[i].map(d)) for i in picks), Fraction(0))
            reported = queryable.privacy_loss(d)
            if not Fraction(reported) >= exact:
                return [pool[i].function.scale for i in picks], d, reported, exact
    return PROBES


def _replay_below_sum(constructor: Constructor, measure: Any) -> Callable[[dict], Replay]:
    def replay(_: dict) -> Replay:
        found = _below_sum(constructor, measure)
        if isinstance(found, int):
            return plain_report(False, f"{_call(constructor, measure)}: on {found} seeded "
                                "sequences of real queries the reported loss is never below "
                                "the exact sum of the answered maps")
        scales, d, reported, exact = found
        _, family = _family(measure)
        return plain_report(
            True, f"{_call(constructor, measure)} under-reports after {len(scales)} queries",
            f"queries  {family}(scale) for scale in {scales!r}", f"d_in     = {d}",
            f"reported privacy_loss(d_in) = {reported!r}",
            f"exact sum of the answered maps = {exact}  > reported",
            *reproducer(import_line(constructor), *SETUP,
                        f"queryable = {_call(constructor, measure)}(0)",
                        f"queries = [{family}(scale) for scale in {scales!r}]",
                        "for query in queries:", "    queryable(query)",
                        f"exact = sum((Fraction(query.map({d})) for query in queries), "
                        "Fraction(0))",
                        f"reported = queryable.privacy_loss({d})",
                        claim_assertion("Fraction(reported) >= exact",
                                        "privacy_loss = {reported!r} is below the exact sum "
                                        "{exact} of the answered queries' maps")))
    return replay


def _numbers_goal(constructor: Constructor, measure: Any) -> ComputedGoal:
    def decide() -> Decision:
        found = _below_sum(constructor, measure)
        if isinstance(found, int):
            return Decision(True, detail=f"{found} seeded sequences, d_in in 0..3")
        scales, d, reported, exact = found
        return Decision(False, {"scales": scales, "d_in": d, "reported": reported},
                        f"reported {reported!r} < exact sum {exact}")
    return ComputedGoal(f"{measure}: on {PROBES} seeded sequences of real queries, "
                        "privacy_loss(d_in) >= the exact sum of the answered maps", "exact",
                        decide, _replay_below_sum(constructor, measure))


def _induction_goals(constructor: Constructor, measure: Any, rounding: bool) -> list[Any]:
    """Base and step of the induction on the running queryable's transition and report (see
    the module docstring), under the rounding model if ``rounding``, else the exact one. Code
    that cannot run on solver terms (a state kept as a tuple of maps, ``sum`` over it) gives one
    unknown (unsupported) goal naming the raise instead of the solver goals, never an error."""
    arithmetic = "in binary64 (standard model)" if rounding else "exactly"
    return [trusted_kernel_goal("the odometer's output",
                                lambda: odometer_of(constructor, measure)(0), Queryable),
            *on_solver_terms(f"{measure} induction, {arithmetic}",
                             lambda: _solver_induction(constructor, measure, rounding))]


def _solver_induction(constructor: Constructor, measure: Any, rounding: bool) -> list[Any]:
    """The induction's invariant is on the running queryable's state ``P``: ``P(d) >= E``. Base:
    the fresh state at ``d`` is ``>= 0``; step: the state the transition returns is
    ``>= E + m(d)``; report: for every state ``P``, ``privacy_loss(d) >= P(d)``. (A report that
    is the state itself, as the catalogue's, meets the last goal trivially; a state kept exactly
    and rounded up once when reported meets it by the rounding-up primitive.)"""
    queryable = odometer_of(constructor, measure)(0)
    replay = _replay_below_sum(constructor, measure)
    d, e = z3.Real("d_in"), z3.Real("E")
    context = float_model.rounding_model if rounding else float_model.exact_model
    with context() as model:
        initial = queryable.state(d)
        spent = float_valued_map("spent")
        query = stand_in_query("m", measure)
        probe = copy.copy(queryable)
        probe.state = spent
        before = spent(d)
        reported = probe.privacy_loss(d)
        step = queryable.transition(spent, query)
        after = step.state(d)
        facts = list(model.facts)
    arithmetic = "in binary64 (standard model)" if rounding else "exactly"
    names = {"d_in": d, "E": e}
    return [
        Z3Goal(f"{measure} base, {arithmetic}: the fresh queryable's state is >= 0 at d",
               real(initial) >= 0, [d >= 0, *facts], names, replay),
        Z3Goal(f"{measure} step, {arithmetic}: a state P with P(d) >= E, one more query of any "
               "map m: the state the transition returns is >= E + m(d) at d",
               z3.Implies(real(before) >= e, real(after) >= e + exact_map(query, d)),
               [d >= 0, *facts], names, replay),
        Z3Goal(f"{measure} report, {arithmetic}: for every state P, privacy_loss(d) >= P(d)",
               real(reported) >= real(before), [d >= 0, *facts], names, replay),
        Z3Goal(f"{measure} step: a matching query is accepted", is_true(step.accepted),
               [d >= 0, *facts], names, replay),
    ]


MISMATCHED = (("make_gaussian(1.0)", lambda: make_gaussian(1.0), "another output measure"),
              ("make_randomized_response([0, 1], 0.75)",
               lambda: make_randomized_response([0, 1], 0.75), "another input domain and metric"),
              ("'not a measurement'", lambda: "not a measurement", "not a measurement"))


def _mismatch_answered(constructor: Constructor) -> tuple[str, str] | None:
    """The first mismatched query that the running pure-DP odometer answers or that changes its
    state, with what happened; ``None`` if each is refused with ``QueryMismatchError`` and the
    state kept."""
    for shown, make, what in MISMATCHED:
        queryable = odometer_of(constructor, MaxDivergence())(1, random.Random(0))
        queryable(make_discrete_laplace(1.0))
        state = queryable.state
        try:
            queryable(make())
        except QueryMismatchError:
            if queryable.state is not state:
                return shown, f"refused, but the state changed ({what})"
            continue
        except Exception as error:  # noqa: BLE001 - any other outcome is reported
            return shown, f"raised {type(error).__name__}: {error} ({what})"
        return shown, f"answered ({what})"
    return None


def _replay_mismatch(constructor: Constructor) -> Callable[[dict], Replay]:
    def replay(_: dict) -> Replay:
        found = _mismatch_answered(constructor)
        if found is None:
            return plain_report(False, "every mismatched query is refused, the state kept")
        shown, what = found
        call = _call(constructor, MaxDivergence())
        return plain_report(True, f"{call}: the query {shown} is {what}",
                            *reproducer(import_line(constructor), *SETUP,
                                        "from mechanisms.make_randomized_response import "
                                        "make_randomized_response",
                                        "from mechanisms.errors import QueryMismatchError",
                                        f"queryable = {call}(1)",
                                        "queryable(make_discrete_laplace(1.0))",
                                        "state = queryable.state", "try:",
                                        f"    queryable({shown})", "    refused = True",
                                        "except QueryMismatchError:",
                                        "    refused = queryable.state is state",
                                        claim_assertion("refused", f"the query {shown} was "
                                                        "answered, or its refusal changed the "
                                                        "state")))
    return replay


def _mismatch_goal(constructor: Constructor) -> ComputedGoal:
    def decide() -> Decision:
        found = _mismatch_answered(constructor)
        if found is None:
            return Decision(True, detail="; ".join(what for _, _, what in MISMATCHED))
        return Decision(False, {"query": found[0]}, found[1])
    return ComputedGoal("a query of another domain, metric or measure, or not a measurement, "
                        "is refused (QueryMismatchError) and changes nothing", "structure",
                        decide, _replay_mismatch(constructor))


def _answers(constructor: Constructor, measure: Any) -> tuple[str, Any] | None:
    """Seeded runs: each answer is the query's own output on the data with the shared source,
    in the query's output domain; the first that is not, or ``None``."""
    make, family = _family(measure)
    for seed in range(5):
        queries = [make(scale) for scale in (1.0, 2.5, 0.5)]
        queryable = odometer_of(constructor, measure)(3, random.Random(seed))
        rng = random.Random(seed)
        for query in queries:
            answer, expected = queryable(query), query(3, rng)
            if not query.output_domain.member(answer) or answer != expected:
                return f"seed {seed}, {family}({query.function.scale})", answer
    return None


def _replay_answers(constructor: Constructor, measure: Any) -> Callable[[dict], Replay]:
    def replay(_: dict) -> Replay:
        found = _answers(constructor, measure)
        if found is None:
            return plain_report(False, "every answer is the query's output, in its domain")
        where, answer = found
        seed = int(where.split(",")[0].split()[1])
        _, family = _family(measure)
        call = _call(constructor, measure)
        return plain_report(True, f"{call}: answer {answer!r} ({where}) is not the query's "
                            "output in its output domain",
                            *reproducer(import_line(constructor), *SETUP, "import random",
                                        f"queryable = {call}(3, random.Random({seed}))",
                                        f"rng = random.Random({seed})",
                                        "for scale in (1.0, 2.5, 0.5):",
                                        f"    query = {family}(scale)",
                                        "    answer, expected = queryable(query), query(3, rng)",
                                        "    " + claim_assertion(
                                            "query.output_domain.member(answer) and answer == "
                                            "expected", "answer {answer!r} is not the query's "
                                            "output {expected!r} in {query.output_domain}")))
    return replay


def _answers_goal(constructor: Constructor, measure: Any) -> ComputedGoal:
    def decide() -> Decision:
        found = _answers(constructor, measure)
        if found is None:
            return Decision(True, detail="5 seeds, 3 queries each")
        return Decision(False, {"where": found[0], "answer": repr(found[1])},
                        f"answer {found[1]!r} at {found[0]}")
    return ComputedGoal(f"{measure}: each answer is the query run on the data with the shared "
                        "source (seeded), in the query's output domain", "structure", decide,
                        _replay_answers(constructor, measure))


def _refused(constructor: Constructor, arguments: dict[str, Any], shown: str,
             excluded: str) -> ComputedGoal:
    from mechanisms.errors import ConstructorError

    def decide() -> Decision:
        try:
            constructor(**arguments)
        except ConstructorError as error:
            return Decision(True, detail=f"refused: {type(error).__name__}")
        return Decision(False, {"arguments": shown}, f"{shown} builds, though {excluded}")

    def replay(_: dict) -> Replay:
        return plain_report(False, f"{shown} builds, though {excluded}; no run shows a "
                            "violation by itself")
    return ComputedGoal(f"refuses {excluded}: {shown}", "structure", decide, replay)


def _witness(constructor: Constructor) -> ComputedGoal:
    def decide() -> Decision:
        built = [odometer_of(constructor, m) for m in MEASURES]
        outputs = [b(0) for b in built]
        if all(isinstance(o, Queryable) and isinstance(o.respond, QueryRunner) for o in outputs):
            return Decision(True, detail="builds for both measures; each returns a Queryable "
                            "that runs the queries on the data")
        return Decision(False, {"outputs": repr(outputs)}, "not a queryable that runs queries")
    return ComputedGoal("witness: builds on AtomDomain(int), AbsoluteDistance() for pure DP and "
                        "zCDP, and returns a queryable on a member", "structure", decide)


@reviewed
def fully_adaptive_obligations(constructor: Constructor = make_fully_adaptive_composition,
                               prefix: str = "fully_adaptive_composition"
                               ) -> tuple[Obligation, ...]:
    valid = {"input_domain": INTS, "input_metric": AbsoluteDistance(),
             "output_measure": MaxDivergence()}
    shown_valid = {"input_domain": Code("AtomDomain(int)", SETUP[0]),
                   "input_metric": Code("AbsoluteDistance()", SETUP[1]),
                   "output_measure": Code("MaxDivergence()", SETUP[2])}

    def symbolic_builds() -> list[Any]:
        return [odometer_of(constructor, m) for m in MEASURES]

    refusals = [
        _refused(constructor, {**valid, "output_measure": FixedSmoothedMaxDivergence()},
                 f"{constructor.name}(AtomDomain(int), AbsoluteDistance(), "
                 "FixedSmoothedMaxDivergence())", "an approximate-DP measure"),
        _refused(constructor, {**valid, "input_metric": SymmetricDistance()},
                 f"{constructor.name}(AtomDomain(int), SymmetricDistance(), MaxDivergence())",
                 "a metric not defined on the domain")]

    def output_domain_goals() -> list[Any]:
        return [_witness(constructor),
                trusted_kernel_goal("the odometer's output",
                                    lambda: odometer_of(constructor, MaxDivergence())(0),
                                    Queryable),
                trusted_kernel_goal("the odometer's responder",
                                    lambda: odometer_of(constructor, MaxDivergence())(0).respond,
                                    QueryRunner),
                *[_answers_goal(constructor, m) for m in MEASURES]]

    def compatibility_goals() -> list[Any]:
        return [compatibility_goal(constructor, symbolic_builds, valid, shown_valid),
                _mismatch_goal(constructor), *refusals]

    def privacy_goals() -> list[Any]:
        return [goal for m in MEASURES for goal in _induction_goals(constructor, m, False)]

    def rounding_goals() -> list[Any]:
        return [*[goal for m in MEASURES for goal in _induction_goals(constructor, m, True)],
                *[_numbers_goal(constructor, m) for m in MEASURES]]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "On a member x of the input domain, the odometer returns a Queryable whose "
                   "answers are the queries themselves run on x (with the shared random source), "
                   "each in the query's output domain.",
                   r"x \in \mathcal{X} \implies Q(M_i) = M_i(x) \in \mathcal{Y}_i",
                   output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "The input metric fits the input domain; every answered query has the "
                   "odometer's input domain, input metric and output measure (others are refused "
                   "with QueryMismatchError, the state kept); measures other than pure DP and "
                   "zCDP are refused.", r"d_{\mathcal{X}} \sim \mathcal{X},\ "
                   r"(\mathcal{X}_i, d_i, D_i) = (\mathcal{X}, d_{\mathcal{X}}, D)",
                   compatibility_goals),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "For every sequence of answered queries (any number, any maps, each chosen "
                   "after the answers before it), privacy_loss(d_in) >= sum_i m_i(d_in) exactly: "
                   "by induction over the queryable's own transition on solver terms (the fresh "
                   "queryable reports >= 0; a state reporting >= E reports >= E + m(d_in) after "
                   "one more query). By fully adaptive composition (cited), a filter that stops "
                   "before the reported loss passes d_out is d_out-private.",
                   r"\mathtt{privacy\_loss}_k(d_{in}) \ge \sum_{i \le k} m_i(d_{in})",
                   privacy_goals, uses=(f"{prefix}.map_rounding",),
                   cites=(FULLY_ADAPTIVE_PURE, FULLY_ADAPTIVE_ZCDP)),
        Obligation(f"{prefix}.map_rounding", Kind.ROUNDING,
                   "The loss the code computes in floating point is never below the exact sum: "
                   "the same induction with every float operation rounded (standard model) and "
                   f"every rounding-up primitive at or above its exact value ({ROUNDING_LEMMA}); "
                   "and on seeded sequences of real queries run on numbers.",
                   r"\widehat{\mathtt{privacy\_loss}}_k(d_{in}) \ge \sum_{i \le k} m_i(d_{in})",
                   rounding_goals, uses=(ROUNDING_LEMMA,)),
    )


def catalogue_entry() -> Entry:
    return Entry("make_fully_adaptive_composition", make_fully_adaptive_composition,
                 fully_adaptive_obligations(),
                 "an odometer: answers adaptively chosen pure-DP or zCDP queries on one dataset "
                 "and reports the privacy spent so far", proof=True)
