"""Obligations of ``make_privacy_filter``: for EVERY sequence of queries (any length, any maps,
each chosen after the answers before it) the exact sum of the accepted queries' maps at ``d_in``
never passes ``d_out`` (``budget``, the privacy-relevant invariant); and, apart, the specified
behaviour of a refusal: it changes nothing (``refusals``; OpenDP 0.16 exhausts the filter
instead, which keeps ``budget`` and privacy). Both by induction over the queryable's own
transition run on solver terms.

The specification, stated apart from the code. For a filter built with ``d_in = D`` and whose
map at ``D`` is ``B`` (read from the built map), let ``E`` be the exact (real) sum of
``m_i(D)`` over the queries accepted so far, ``m_i`` each query's own map. The invariant is

    ``I(spent, E):  E <= spent <= B``  (``spent`` the queryable's state, a float).

Base: the fresh queryable's state satisfies ``I(state, 0)``. Step: for any state ``S`` and any
``E`` with ``I(S, E)``, and any query (a stand-in of the odometer's domain, metric and measure
whose map ``m`` is an uninterpreted function, so any map, chosen adaptively), the running
transition ``T(S, query)`` returns ``(accepted, S')`` with ``I(S', E')``, where
``E' = E + m(D)`` if accepted and ``E' = E`` if not, whatever state a refusal returns. All of it
run under the rounding model (each float operation rounded, ``add_up`` a fresh float at or above
the exact sum), so it holds of the floats the code computes. By induction, ``sum_i m_i(D) <= B``
after every sequence. Costs that are ``+inf`` or NaN (outside the rounding model's reals) are
evaluated: refused, the state left in ``[0, d_out]``. The budget's replay confirms only the
privacy-relevant break on a real run: accepted maps summing exactly past ``d_out``, or an
accepted ``+inf``/NaN cost.

``refusals``: a refusal returns ``S' = S`` (on terms); a refused query is not run
(``Queryable.__call__``, the trusted kernel, raises before ``respond``) and leaves the odometer's
queryable unchanged; a mismatched query is refused uncharged (evaluated). Code that cannot run
on solver terms gives *unknown (unsupported)* goals naming the raise (``on_solver_terms``).

Privacy rests on the filter theorem, cited: Rogers, Roth, Ullman and Vadhan 2016 (pure DP) and
Whitehouse, Ramdas, Rogers and Wu 2023 (zCDP): an interaction whose adaptively chosen per-query
guarantees at ``D`` always sum to at most ``B`` is ``B``-DP (``B``-zCDP) for ``D``-close datasets.
Its premises, checked here: the sum (``budget``); the refusals do not depend on the data (two
datasets, the same transition results, proved on terms); the map is at least ``B`` at every
``d <= D`` (Z3) and refuses every ``d > D`` (evaluated on three filters, at the next float above
``D`` and at ``D + 1``).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any, Callable

import z3

from mechanisms import float_model
from mechanisms.core import Constructor, Measurement
from mechanisms.errors import (BudgetExceededError, ConstructorError, FilterDistanceError,
                               QueryMismatchError)
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_fully_adaptive_composition import make_fully_adaptive_composition
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_privacy_filter import make_privacy_filter
from mechanisms.measures import MaxDivergence
from mechanisms.queryable import Queryable
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              is_true, on_solver_terms)
from obligations.compatibility import compatibility_goal
from obligations.kernels import goals_on_terms, trusted_kernel_goal
from obligations.adaptive_queries import (FULLY_ADAPTIVE_PURE, FULLY_ADAPTIVE_ZCDP, MEASURES, SETUP,
                                          exact_map, make_priced_query, odometer_of, real,
                                          stand_in_query)
from obligations.reports import (Code, bound_assertion, claim_assertion, import_line, plain_report,
                                 reproducer)
from obligations.witnesses import witness_goal
from obligations.kernel.reviewed import reviewed

ODOMETER_CALL = ("make_fully_adaptive_composition(AtomDomain(int), AbsoluteDistance(), "
                 "MaxDivergence())")
IMPORTS = (*SETUP[:4],
           "from mechanisms.make_fully_adaptive_composition import make_fully_adaptive_composition",
           "from obligations.adaptive_queries import make_priced_query",
           "from mechanisms.errors import BudgetExceededError")
SEQUENCES = 200
"""Seeded adaptive sequences of priced queries the running filter is checked on."""


def _odometer() -> Any:
    return odometer_of(make_fully_adaptive_composition, MaxDivergence())


def _priced(cost: float) -> tuple[str, Measurement]:
    shown = repr(cost) if math.isfinite(cost) else f"float({str(cost)!r})"
    return f"make_priced_query({shown})", make_priced_query(cost)


def _laplace(scale: float) -> tuple[str, Measurement]:
    return f"make_discrete_laplace({scale!r})", make_discrete_laplace(scale)


SCENARIOS = (
    (1, 1.0, [_priced(1.0), _priced(2.0 ** -60)]),       # a sum that rounds to nearest below
    (1, 1.0, [_priced(2.0 ** -60), _priced(1.0)]),       # the same sum, the small cost first
    (1, 1.0, [_priced(2.0), _priced(0.5)]),              # a cost alone past the budget
    (1, 1.0, [_priced(0.5), _priced(2.0), _priced(0.5)]),  # a refusal between acceptances
    (2, 1.0, [_laplace(2.0), _laplace(2.0)]),            # maps that grow with the distance
    (1, 1.0, [_priced(math.nan), _priced(1.0), _priced(1.0)]),  # a NaN cost, then real ones
    (1, 1.0, [_priced(math.inf), _priced(1.0)]),         # an infinite cost
    (1, -1.0, [_priced(0.0)]),                           # a negative budget, if it builds
)
"""Replayed sequences: ``(d_in, d_out, [(shown, query)])``, on the pure-DP odometer. A scenario
whose filter the constructor refuses to build (``d_out < 0``) is skipped."""


def _fresh(constructor: Constructor, d_in: Any, d_out: Any, data: Any = 0) -> Queryable | None:
    """The real filter's queryable on ``data``, or ``None`` when the constructor refuses
    ``(d_in, d_out)``."""
    try:
        built = constructor(_odometer(), d_in, d_out)
    except ConstructorError:
        return None
    return built(data, random.Random(0))


def _budget_broken(constructor: Constructor, d_in: Any, d_out: Any,
                   queries: list[Measurement]) -> str | None:
    """The real filter on ``queries`` in turn: the privacy-relevant break of the invariant, if
    any: the exact sum of the accepted (finite) maps at ``d_in`` past ``d_out``, or a cost of
    +inf or NaN accepted; else ``None``."""
    queryable = _fresh(constructor, d_in, d_out)
    if queryable is None:
        return None
    accepted, nonfinite = Fraction(0), []
    for query in queries:
        try:
            queryable(query)
        except BudgetExceededError:
            continue
        cost = query.map(d_in)
        if math.isfinite(cost):
            accepted += Fraction(cost)
        else:
            nonfinite.append(cost)
    if accepted > Fraction(d_out):
        return (f"the accepted maps at d_in sum exactly to {accepted} > d_out = {d_out!r}"
                + (f" (after accepting the costs {nonfinite!r})" if nonfinite else ""))
    if nonfinite:
        return f"the costs {nonfinite!r} were accepted (their sum is not <= d_out = {d_out!r})"
    return None


def _refusal_broken(constructor: Constructor, d_in: Any, d_out: Any,
                    queries: list[Measurement]) -> str | None:
    """The real filter on ``queries`` in turn: the first refused query that changed the state
    (the specified behaviour, not a privacy claim), or ``None``."""
    queryable = _fresh(constructor, d_in, d_out)
    if queryable is None:
        return None
    for position, query in enumerate(queries):
        before = queryable.state
        try:
            queryable(query)
        except BudgetExceededError:
            if not _same_state(queryable.state, before):
                return (f"query {position} was refused but the state changed from {before!r} "
                        f"to {queryable.state!r}")
    return None


def _same_state(after: Any, before: Any) -> bool:
    return after == before or (after != after and before != before)  # NaN kept is kept


def _seeded_sequences() -> list[tuple[Any, Any, list[tuple[str, Measurement]]]]:
    """Seeded sequences of 20 priced queries (adaptivity is the induction's: any map after any state)."""
    rng = random.Random(17)
    found = []
    for _ in range(SEQUENCES // 20):
        d_out = rng.choice([0.0, 0.3, 1.0, 2.5])
        costs = [rng.choice([rng.uniform(0, 1), rng.random() * 2.0 ** -50, 0.1, 0.3, 2.0])
                 for _ in range(20)]
        found.append((1, d_out, [_priced(c) for c in costs]))
    return found


def _violation(broken: Callable[..., str | None], constructor: Constructor,
               scenarios: Any) -> tuple[Any, ...] | None:
    for d_in, d_out, shown_queries in scenarios:
        what = broken(constructor, d_in, d_out, [q for _, q in shown_queries])
        if what is not None:
            return d_in, d_out, [s for s, _ in shown_queries], what
    return None


def _replay_budget(constructor: Constructor) -> Callable[[dict], Replay]:
    """Confirms only the privacy-relevant break: an exact sum of accepted maps past ``d_out``
    (or an accepted +inf/NaN cost) on a real run."""
    def replay(_: dict) -> Replay:
        found = _violation(_budget_broken, constructor, [*SCENARIOS, *_seeded_sequences()])
        if found is None:
            return plain_report(False, f"{constructor.name}: on {len(SCENARIOS)} sequences and "
                                f"{SEQUENCES // 20} seeded ones the accepted maps never pass "
                                "d_out and no +inf/NaN cost is accepted")
        d_in, d_out, shown, what = found
        call = f"{constructor.name}(odometer, {d_in!r}, {d_out!r})"
        return plain_report(
            True, f"{call}: {what}", f"queries  {', '.join(shown)}",
            *reproducer(import_line(constructor), "import math", *IMPORTS,
                        f"odometer = {ODOMETER_CALL}", f"queryable = {call}(0)",
                        f"queries = [{', '.join(shown)}]",
                        "accepted, nonfinite = Fraction(0), []",
                        "for query in queries:", "    try:",
                        "        queryable(query)",
                        "    except BudgetExceededError:", "        continue",
                        f"    cost = query.map({d_in!r})",
                        "    if math.isfinite(cost):", "        accepted += Fraction(cost)",
                        "    else:", "        nonfinite.append(cost)",
                        claim_assertion(f"accepted <= {d_out!r}",
                                        "the accepted queries' maps at d_in sum to "
                                        f"{{accepted}} > d_out = {d_out!r}"),
                        claim_assertion("not nonfinite", "the costs {nonfinite!r} were "
                                        "accepted")))
    return replay


def _mismatch_charged(constructor: Constructor) -> Any:
    """The state of a fresh pure-DP filter ``(1, 5.0)`` after it refused a zCDP query with
    ``QueryMismatchError``, when that state is not the fresh one; else ``None``."""
    queryable = _fresh(constructor, 1, 5.0)
    before = queryable.state
    try:
        queryable(make_gaussian(1.0))
    except QueryMismatchError:
        if not _same_state(queryable.state, before):
            return queryable.state
    return None


def _replay_refusals(constructor: Constructor) -> Callable[[dict], Replay]:
    """Confirms a refused query that changed the filter's state on a real run: a refusal for the
    budget, or one for a mismatched query (charged before the odometer refused it)."""
    def replay(_: dict) -> Replay:
        found = _violation(_refusal_broken, constructor, [*SCENARIOS, *_seeded_sequences()])
        charged = _mismatch_charged(constructor) if found is None else None
        if charged is not None:
            call = f"{constructor.name}(odometer, 1, 5.0)"
            return plain_report(
                True, f"{call}: the mismatched query make_gaussian(1.0) was refused "
                f"(QueryMismatchError) but charged: spent {charged!r}",
                *reproducer(import_line(constructor), *IMPORTS,
                            "from mechanisms.errors import QueryMismatchError",
                            "from mechanisms.make_gaussian import make_gaussian",
                            f"odometer = {ODOMETER_CALL}", f"queryable = {call}(0)",
                            "before = queryable.state", "try:",
                            "    queryable(make_gaussian(1.0))", "except QueryMismatchError:",
                            "    " + claim_assertion("queryable.state == before",
                                                     "a refused mismatched query changed the "
                                                     "state from {before!r} to "
                                                     "{queryable.state!r}")))
        if found is None:
            return plain_report(False, f"{constructor.name}: on {len(SCENARIOS)} sequences and "
                                f"{SEQUENCES // 20} seeded ones every refusal keeps the state, "
                                "and a mismatched query is refused uncharged")
        d_in, d_out, shown, what = found
        call = f"{constructor.name}(odometer, {d_in!r}, {d_out!r})"
        return plain_report(
            True, f"{call}: {what}", f"queries  {', '.join(shown)}",
            *reproducer(import_line(constructor), *IMPORTS,
                        f"odometer = {ODOMETER_CALL}", f"queryable = {call}(0)",
                        f"queries = [{', '.join(shown)}]",
                        "for query in queries:", "    before = queryable.state", "    try:",
                        "        queryable(query)",
                        "    except BudgetExceededError:",
                        "        " + claim_assertion("queryable.state == before",
                                                     "a refused query changed the state from "
                                                     "{before!r} to {queryable.state!r}")))
    return replay


def _guarded(decide: Callable[[], Decision]) -> Callable[[], Decision]:
    """``decide``, with a raise of the code under check (not a refusal it was built to make)
    turned into *unsupported*: the run shows nothing either way."""
    def guarded() -> Decision:
        try:
            return decide()
        except Exception as error:  # noqa: BLE001 - code outside the method may raise anything
            return Decision(False, {}, f"the run raised {type(error).__name__}: {error}",
                            unsupported=True)
    return guarded


def _sequences_goal(constructor: Constructor, refusals: bool) -> ComputedGoal:
    broken = _refusal_broken if refusals else _budget_broken

    @_guarded
    def decide() -> Decision:
        sequences = _seeded_sequences()
        found = _violation(broken, constructor, sequences)
        if found is None:
            ran = sum(1 for d_in, d_out, _ in sequences
                      if _fresh(constructor, d_in, d_out) is not None)
            if not ran:  # a bounded check counts only the cases that ran
                return Decision(False, {"sequences": len(sequences)}, "the constructor refused "
                                "the filter of every sequence: nothing was checked",
                                unsupported=True)
            return Decision(True, detail=f"{ran} of {len(sequences)} seeded sequences of 20 "
                            "queries ran" if ran < len(sequences) else
                            f"{ran} seeded sequences of 20 queries")
        d_in, d_out, shown, what = found
        return Decision(False, {"d_in": d_in, "d_out": d_out}, what)
    if refusals:
        return ComputedGoal("on numbers: on seeded sequences of priced queries a refusal keeps "
                            "the state", "exact", decide, _replay_refusals(constructor))
    return ComputedGoal("on numbers: on seeded sequences of priced queries the accepted maps "
                        "never pass d_out", "exact", decide, _replay_budget(constructor))


def _nonfinite_goal(constructor: Constructor) -> ComputedGoal:
    """Costs outside the rounding model's reals, on real runs: refused, the state still within
    the invariant (``0 <= spent <= d_out``, not NaN)."""
    @_guarded
    def decide() -> Decision:
        d_out = 1e300
        for cost in (math.inf, math.nan):
            queryable = constructor(_odometer(), 1, d_out)(0)
            if not isinstance(queryable, Queryable):
                return Decision(False, {}, f"the filter returned {queryable!r}, not a Queryable",
                                unsupported=True)
            try:
                queryable(make_priced_query(cost))
                return Decision(False, {"cost": repr(cost)}, f"a cost of {cost!r} was accepted")
            except BudgetExceededError:
                if not 0 <= queryable.state <= d_out:
                    return Decision(False, {"cost": repr(cost), "spent": repr(queryable.state)},
                                    f"after refusing {cost!r} the state {queryable.state!r} is "
                                    f"not within [0, d_out = {d_out!r}]")
        return Decision(True, detail="+inf and NaN costs refused, the state within [0, d_out]")
    return ComputedGoal("evaluated: +inf and NaN costs are refused, the state left within "
                        "[0, d_out]", "structure", decide, _replay_budget(constructor))


def _refusal_effects_goal(constructor: Constructor) -> ComputedGoal:
    """A refused query's effects, on real runs."""
    @_guarded
    def decide() -> Decision:
        refused = 0
        for cost in (2.0, math.inf, math.nan):
            queryable = constructor(_odometer(), 1, 1.0)(0)
            if not isinstance(queryable, Queryable):
                return Decision(False, {}, f"the filter returned {queryable!r}, not a Queryable",
                                unsupported=True)
            queryable(make_priced_query(0.25))
            before = queryable.state
            try:
                queryable(make_priced_query(cost))
                continue  # accepted: not a refusal (whether it may be is the budget's question)
            except BudgetExceededError:
                refused += 1
                if not _same_state(queryable.state, before):
                    return Decision(False, {"cost": repr(cost)}, f"the refusal of {cost!r} "
                                    f"changed the state from {before!r} to {queryable.state!r}")
        runs: list[Any] = []
        m = make_priced_query(2.0)
        spy = Measurement(m.input_domain, m.output_domain, m.input_metric, m.output_measure,
                          lambda x, rng=None: runs.append(x), m.privacy_map)
        queryable = constructor(_odometer(), 1, 1.0)(0)
        inner = getattr(queryable.respond, "state", None)
        try:
            queryable(spy)
        except BudgetExceededError:
            pass
        if not refused:
            return Decision(False, {}, "the filter accepted the costs 2.0, +inf and NaN under "
                            "d_out = 1.0: no refusal to check", unsupported=True)
        if runs or getattr(queryable.respond, "state", None) is not inner:
            return Decision(False, {"query": "cost 2.0, d_out 1.0"},
                            "a refused query was run or reached the odometer")
        queryable = constructor(_odometer(), 1, 5.0)(0)
        try:
            queryable(make_gaussian(1.0))
            return Decision(False, {"query": "make_gaussian(1.0)"},
                            "a zCDP query was answered by a pure-DP filter")
        except QueryMismatchError:
            if queryable.state != 0.0:
                return Decision(False, {"query": "make_gaussian(1.0)"},
                                f"a mismatched query was charged: spent {queryable.state!r}")
        return Decision(True, detail="costs 2.0, +inf and NaN refused with the state kept; a "
                        "refused query is not run and leaves the odometer's queryable as it was; "
                        "a query the odometer refuses is refused before any charge")
    return ComputedGoal("evaluated: a refusal (cost past the budget, +inf, NaN) keeps the state; "
                        "a refused query is not run and does not reach the odometer; a "
                        "mismatched query is refused uncharged", "structure",
                        decide, _replay_refusals(constructor))


def _symbolic_filter(constructor: Constructor, measure: Any) -> tuple[Any, ...]:
    """Under the active model: the filter built on the real odometer with ``d_in = D`` and
    ``d_out`` float parameters, its preconditions, and its queryable on the datum 0."""
    d_in, d_out = float_model.float_parameter("D"), float_model.float_parameter("d_out")
    odometer = odometer_of(make_fully_adaptive_composition, measure)
    built = constructor.build(odometer=odometer, d_in=d_in, d_out=d_out)
    assumptions = [is_true(c) for c in constructor.assumptions(odometer=odometer, d_in=d_in,
                                                               d_out=d_out)]
    return built, d_in, d_out, assumptions


def _budget_goals(constructor: Constructor, measure: Any) -> list[Any]:
    replay = _replay_budget(constructor)
    e = z3.Real("E")
    with float_model.rounding_model() as model:
        built, d_in, d_out, assumptions = _symbolic_filter(constructor, measure)
        queryable = built.function(0, None)
        initial = queryable.state
        budget = real(built.map(d_in))
        spent = float_model.float_parameter("spent")
        query = stand_in_query("m", measure)
        step = queryable.transition(spent, query)
        facts = list(model.facts)
    big_d, s, s2 = real(d_in), real(spent), real(step.state)
    accepted = is_true(step.accepted)
    e2 = z3.If(accepted, e + exact_map(query, big_d), e)
    names = {"D": big_d, "d_out": real(d_out), "spent": s, "E": e}
    hypothesis = [*assumptions, e <= s, s <= budget, *facts]
    return [
        Z3Goal(f"{measure} base: the fresh state is >= 0 and <= map(D)",
               z3.And(real(initial) >= 0, real(initial) <= budget), [*assumptions, *facts],
               names, replay),
        Z3Goal(f"{measure} step: E <= spent <= map(D), any query of map m: the exact sum "
               "E' (E + m(D) if accepted, else E) is <= the new state",
               e2 <= s2, hypothesis, names, replay),
        Z3Goal(f"{measure} step: E <= spent <= map(D), any query: the new state is <= map(D)",
               s2 <= budget, hypothesis, names, replay),
    ]


def _refusal_state_goal(constructor: Constructor, measure: Any) -> Z3Goal:
    """The specified behaviour on solver terms: a refusal returns the state it was given."""
    with float_model.rounding_model() as model:
        built, d_in, d_out, assumptions = _symbolic_filter(constructor, measure)
        queryable = built.function(0, None)
        spent = float_model.float_parameter("spent")
        step = queryable.transition(spent, stand_in_query("m", measure))
        facts = list(model.facts)
    names = {"D": real(d_in), "d_out": real(d_out), "spent": real(spent)}
    return Z3Goal(f"{measure} step: a refused query returns the state unchanged",
                  z3.Implies(z3.Not(is_true(step.accepted)), real(step.state) == real(spent)),
                  [*assumptions, *facts], names, _replay_refusals(constructor))


def _independence_goal(constructor: Constructor, measure: Any) -> Z3Goal:
    """The transition of the queryables on two symbolic datasets gives the same decision and
    state for the same state and query: refusals never depend on the data."""
    x1, x2 = z3.Ints("x1 x2")
    with float_model.exact_model() as model:
        built, d_in, d_out, assumptions = _symbolic_filter(constructor, measure)
        spent = float_model.float_parameter("spent")
        query = stand_in_query("m", measure)
        first = built.function(x1, None).transition(spent, query)
        second = built.function(x2, None).transition(spent, query)
        facts = list(model.facts)
    claim = z3.And(is_true(first.accepted) == is_true(second.accepted),
                   real(first.state) == real(second.state))
    return Z3Goal(f"{measure}: on any two datasets x1, x2 the transition decides alike and "
                  "returns the same state (refusals are data-independent)", claim,
                  [*assumptions, *facts], {"x1": x1, "x2": x2, "spent": real(spent)},
                  _replay_independence(constructor))


DATASETS = (0, 1000)
"""Two datasets the replay runs each sequence on (any two members of the input domain)."""


def _decisions(constructor: Constructor, d_in: Any, d_out: Any, queries: list[Measurement],
               data: Any) -> list[tuple[bool, Any]]:
    """Per query: accepted or refused (``BudgetExceededError``), and the state after it."""
    queryable = _fresh(constructor, d_in, d_out, data)
    if queryable is None:
        return []
    found = []
    for query in queries:
        try:
            queryable(query)
            found.append((True, queryable.state))
        except BudgetExceededError:
            found.append((False, queryable.state))
    return found


def _replay_independence(constructor: Constructor) -> Callable[[dict], Replay]:
    """The sequences of the budget replay on two datasets: the first whose decisions or states
    differ (a refusal that reveals which dataset is in the filter)."""
    def replay(_: dict) -> Replay:
        for d_in, d_out, shown_queries in [*SCENARIOS, *_seeded_sequences()]:
            queries = [q for _, q in shown_queries]
            first, second = (_decisions(constructor, d_in, d_out, queries, x) for x in DATASETS)
            if first != second:
                call = f"{constructor.name}(odometer, {d_in!r}, {d_out!r})"
                shown = ", ".join(s for s, _ in shown_queries)
                return plain_report(
                    True, f"{call}: the same queries are decided differently on the datasets "
                    f"{DATASETS[0]} and {DATASETS[1]}", f"queries  {shown}",
                    f"on {DATASETS[0]}: {first!r}", f"on {DATASETS[1]}: {second!r}",
                    *reproducer(import_line(constructor), *IMPORTS,
                                f"odometer = {ODOMETER_CALL}",
                                "def decisions(data):",
                                f"    queryable = {call}(data)", "    found = []",
                                f"    for query in [{shown}]:", "        try:",
                                "            queryable(query)",
                                "            found.append((True, queryable.state))",
                                "        except BudgetExceededError:",
                                "            found.append((False, queryable.state))",
                                "    return found",
                                f"first, second = decisions({DATASETS[0]}), "
                                f"decisions({DATASETS[1]})",
                                claim_assertion("first == second", "the filter decides "
                                                "{first} on one dataset, {second} on the "
                                                "other")))
        return plain_report(False, "every replayed sequence is decided alike on both datasets")
    return replay


def _map_below_goal(constructor: Constructor, measure: Any) -> Z3Goal:
    d = z3.Real("d")
    built, d_in, _, assumptions = _symbolic_filter(constructor, measure)
    return Z3Goal(f"{measure}: for every 0 <= d <= D, map(d) >= map(D)",
                  real(built.map(d)) >= real(built.map(d_in)), [*assumptions, d >= 0, d <= d_in],
                  {"d": d, "D": d_in}, _replay_map(constructor))


GUARDED = ((0, 1.0), (1, 1.0), (2.5, 3.0))
"""Filters ``(d_in, d_out)`` whose maps are evaluated above ``d_in``."""


def _map_answers_above(constructor: Constructor) -> tuple[Any, Any, Any] | None:
    for d_in, d_out in GUARDED:
        f = constructor(_odometer(), d_in, d_out)
        for d in (math.nextafter(float(d_in), math.inf), d_in + 1):
            try:
                value = f.map(d)
            except FilterDistanceError:
                continue
            return d_in, d, value
    return None


def _replay_map(constructor: Constructor) -> Callable[[dict], Replay]:
    """A filter ``(1, 1.0)`` accepts ``make_discrete_laplace(1.0)`` (cost 1 at d_in = 1); its
    answer alone loses exactly ``d / 1`` between the data 0 and ``d``: above the map's claim at
    ``d = 2`` when the map answers there below 2."""
    def replay(_: dict) -> Replay:
        f = constructor(_odometer(), 1, 1.0)
        queryable = f(0)
        query = make_discrete_laplace(1.0)
        try:
            queryable(query)
        except BudgetExceededError:
            return plain_report(False, "the filter refuses the query the replay needs")
        for d in (2, 3):
            try:
                claimed = f.map(d)
            except FilterDistanceError:
                continue
            observed = Fraction(d) / Fraction(query.function.scale)
            if observed > Fraction(claimed):
                return plain_report(
                    True, f"{constructor.name}(odometer, 1, 1.0) claims map({d}) = {claimed!r}",
                    f"accepted query make_discrete_laplace(1.0): its answer on 0 and {d} "
                    f"(distance {d}) has exact max ln(P(y) / P'(y)) = {observed} > claimed",
                    *reproducer(import_line(constructor), *IMPORTS,
                                f"odometer = {ODOMETER_CALL}",
                                f"f = {constructor.name}(odometer, 1, 1.0)",
                                "query = make_discrete_laplace(1.0)", "f(0)(query)",
                                f"claimed = f.map({d})",
                                f"observed = Fraction({d}) / Fraction(query.function.scale)"
                                "  # the discrete Laplace answer's exact loss at this distance",
                                bound_assertion("max ln(P(y) / P'(y))", f"map({d})")))
        return plain_report(False, "the map refuses, or bounds the answer's loss, above d_in")
    return replay


def _map_within(constructor: Constructor) -> tuple[Any, Any, str] | None:
    """The first filter of :data:`GUARDED` whose map does not answer ``d_out`` at ``d = d_in`` or
    at ``d = 0``: ``(d_in, d, what it did)``; else ``None``."""
    for d_in, d_out in GUARDED:
        f = constructor(_odometer(), d_in, d_out)
        for d in (d_in, 0):
            try:
                value = f.map(d)
            except Exception as error:  # noqa: BLE001 - a raise is what the goal looks for
                return d_in, d, f"raises {type(error).__name__}: {error}"
            if value != d_out:
                return d_in, d, f"= {value!r}, not d_out = {d_out!r}"
    return None


def _replay_map_within(constructor: Constructor) -> Callable[[dict], Replay]:
    """The map of a real filter at ``d_in`` (or at 0), where the filter states ``d_out``."""
    def replay(_: dict) -> Replay:
        found = _map_within(constructor)
        if found is None:
            return plain_report(False, "the map answers d_out at d_in and at 0")
        d_in, d, what = found
        d_out = dict(GUARDED)[d_in]
        call = f"{constructor.name}(odometer, {d_in!r}, {d_out!r})"
        return plain_report(
            True, f"{call}: map({d!r}) {what}",
            f"the filter is built for distances <= d_in = {d_in!r} and states d_out there",
            *reproducer(import_line(constructor), *IMPORTS, f"odometer = {ODOMETER_CALL}",
                        f"f = {call}", f"claimed = {d_out!r}",
                        "try:", f"    answered = f.map({d!r})", "except Exception as error:",
                        "    answered = error",
                        claim_assertion("answered == claimed",
                                        f"map({d!r}) gives {{answered!r}}, not d_out = "
                                        "{claimed!r}")))
    return replay


def _within_goal(constructor: Constructor) -> ComputedGoal:
    @_guarded
    def decide() -> Decision:
        found = _map_within(constructor)
        if found is None:
            return Decision(True, detail=f"{len(GUARDED)} filters, at d_in and at 0")
        d_in, d, what = found
        return Decision(False, {"d_in": d_in, "d": d}, f"map({d!r}) {what}")
    return ComputedGoal("evaluated: the map answers d_out at d = d_in and at d = 0 (it is "
                        "d_out on [0, d_in])", "structure", decide,
                        _replay_map_within(constructor))


def _guard_goal(constructor: Constructor) -> ComputedGoal:
    @_guarded
    def decide() -> Decision:
        found = _map_answers_above(constructor)
        if found is None:
            return Decision(True, detail=f"{len(GUARDED)} filters, at the next float above d_in "
                            "and at d_in + 1")
        d_in, d, value = found
        return Decision(False, {"d_in": d_in, "d": d, "map(d)": value},
                        f"map({d!r}) = {value!r} though d > d_in = {d_in!r}")
    return ComputedGoal("evaluated: the map refuses distances above d_in (FilterDistanceError)",
                        "structure", decide, _replay_map(constructor))


def _answers_goal(constructor: Constructor) -> ComputedGoal:
    """Seeded: an accepted query's answer is its output on the data with the shared source."""
    def decide() -> Decision:
        for seed in range(4):
            queryable = constructor(_odometer(), 1, 10.0)(3, random.Random(seed))
            rng = random.Random(seed)
            for scale in (1.0, 2.0):
                query = make_discrete_laplace(scale)
                try:
                    answer = queryable(query)
                except Exception as error:  # noqa: BLE001 - a refusal of the witness queries
                    return Decision(False, {"seed": seed}, f"the witness query of cost "
                                    f"{query.map(1)!r} within d_out = 10.0 was not answered: "
                                    f"{type(error).__name__}: {error}", unsupported=True)
                expected = query(3, rng)
                if answer != expected or not query.output_domain.member(answer):
                    return Decision(False, {"seed": seed, "answer": repr(answer)},
                                    f"answer {answer!r}, expected {expected!r}")
        return Decision(True, detail="4 seeds, 2 queries each")
    return ComputedGoal("accepted queries are answered by the odometer on the data (seeded)",
                        "structure", decide)


def _replay_negative_budget(constructor: Constructor) -> Callable[[dict], Replay]:
    """A filter built with ``d_out = -1.0`` claims ``map(0) < 0`` for datasets at distance 0: the
    same dataset twice, whose transcripts have one distribution, a divergence of exactly 0."""
    def replay(_: dict) -> Replay:
        try:
            f = constructor(_odometer(), 1, -1.0)
            claimed = f.map(0)
        except (ConstructorError, FilterDistanceError):
            return plain_report(False, "d_out = -1.0 is refused, or its map refuses d = 0")
        if not claimed < 0:
            return plain_report(False, f"map(0) = {claimed!r} is not negative")
        call = f"{constructor.name}(odometer, 1, -1.0)"
        return plain_report(
            True, f"{call} builds and claims map(0) = {claimed!r} < 0",
            "x = x' = 0 (distance 0): the transcripts have the same distribution, divergence 0",
            *reproducer(import_line(constructor), *IMPORTS, f"odometer = {ODOMETER_CALL}",
                        f"f = {call}", "claimed = f.map(0)",
                        "observed = 0  # f(0) against f(0): one distribution, divergence 0",
                        bound_assertion("D(f(0) || f(0))", "map(0)")))
    return replay


NEGATIVE_D_IN_ANSWERS = 3
"""Queries a filter built with ``d_in = -1.0`` and ``d_out = 1.0`` is asked in the replay."""


def _replay_negative_d_in(constructor: Constructor) -> Callable[[dict], Replay]:
    """A filter built with ``d_in = -1.0`` charges each query its map at ``-1.0``: a discrete
    Laplace query's map there is ``-1.0``, so the spent budget falls with every answer and the
    filter never exhausts: it answers queries of loss ``1.0`` each at distance 1 without end,
    under a budget of ``1.0`` (and its own map refuses every distance ``>= 0``)."""
    def replay(_: dict) -> Replay:
        queryable = _fresh(constructor, -1.0, 1.0)
        if queryable is None:
            return plain_report(False, "d_in = -1.0 is refused")
        query, answered = make_discrete_laplace(1.0), 0
        for _ in range(NEGATIVE_D_IN_ANSWERS):
            try:
                queryable(query)
            except BudgetExceededError:
                break
            answered += 1
        if answered < NEGATIVE_D_IN_ANSWERS:
            return plain_report(False, f"a filter with d_in = -1.0 builds but refused query "
                                f"{answered} of make_discrete_laplace(1.0) under d_out = 1.0")
        call = f"{constructor.name}(odometer, -1.0, 1.0)"
        return plain_report(
            True, f"{call} builds (a negative d_in is not refused) and never exhausts: it "
            f"answered {answered} queries make_discrete_laplace(1.0) under d_out = 1.0, "
            f"spent {queryable.state!r}",
            "each query is charged its map at d_in = -1.0, which is negative; each answer "
            "loses 1.0 at distance 1",
            *reproducer(import_line(constructor), *IMPORTS, f"odometer = {ODOMETER_CALL}",
                        f"queryable = {call}(0)", "answered = 0",
                        f"for _ in range({NEGATIVE_D_IN_ANSWERS}):", "    try:",
                        "        queryable(make_discrete_laplace(1.0))",
                        "    except BudgetExceededError:", "        break",
                        "    answered += 1",
                        claim_assertion(f"answered < {NEGATIVE_D_IN_ANSWERS}",
                                        "a filter with d_out = 1.0 answered {answered} queries "
                                        "of loss 1.0 at distance 1 (spent {queryable.state!r}): "
                                        "d_in = -1.0 was admitted and the budget never runs "
                                        "out")))
    return replay


def _replay_infinite_budget(constructor: Constructor) -> Callable[[dict], Replay]:
    """A filter built with ``d_out = +inf`` accepts a query of cost ``+inf`` (``pending <= d_out``
    holds), which the budget obligation states is never accepted."""
    def replay(_: dict) -> Replay:
        queryable = _fresh(constructor, 1, math.inf)
        if queryable is None:
            return plain_report(False, "d_out = +inf is refused")
        try:
            queryable(make_priced_query(math.inf))
        except BudgetExceededError:
            return plain_report(False, "d_out = +inf builds, but a cost of +inf is refused")
        call = f"{constructor.name}(odometer, 1, float('inf'))"
        return plain_report(
            True, f"{call} builds and accepts a query of cost +inf (spent "
            f"{queryable.state!r})", "queries  make_priced_query(float('inf'))",
            *reproducer(import_line(constructor), *IMPORTS, f"odometer = {ODOMETER_CALL}",
                        f"queryable = {call}(0)", "accepted = True", "try:",
                        "    queryable(make_priced_query(float('inf')))",
                        "except BudgetExceededError:", "    accepted = False",
                        claim_assertion("not accepted", "a cost of +inf was accepted (spent "
                                        "{queryable.state!r})")))
    return replay


def _refused(constructor: Constructor, arguments: dict[str, Any], shown: str,
             replay: Callable[[dict], Replay] | None = None) -> ComputedGoal:
    def decide() -> Decision:
        try:
            constructor(**arguments)
        except ConstructorError as error:
            return Decision(True, detail=f"refused: {type(error).__name__}")
        return Decision(False, {"arguments": shown}, f"{shown} builds")
    return ComputedGoal(f"refuses {shown}", "structure", decide, replay)


@reviewed
def privacy_filter_obligations(constructor: Constructor = make_privacy_filter,
                               prefix: str = "privacy_filter") -> tuple[Obligation, ...]:
    odometer = _odometer()
    odometer_code = Code("odometer", *IMPORTS[:5], f"odometer = {ODOMETER_CALL}")
    valid = {"odometer": odometer, "d_in": 1, "d_out": 1.0}
    shown_valid = {"odometer": odometer_code, "d_in": 1, "d_out": 1.0}

    def symbolic_builds() -> list[Any]:
        return [constructor.build(odometer=odometer_of(make_fully_adaptive_composition, m),
                                  d_in=z3.Real("D"), d_out=z3.Real("d_out")) for m in MEASURES]

    def output_domain_goals() -> list[Any]:
        return [witness_goal(constructor, valid, shown_valid, inputs=[0, 5, -3]),
                trusted_kernel_goal("the filter's output", lambda: constructor(**valid)(0),
                                    Queryable),
                _answers_goal(constructor)]

    def compatibility_goals() -> list[Any]:
        return [compatibility_goal(constructor, symbolic_builds, valid, shown_valid),
                _refused(constructor, {**valid, "d_out": -1.0}, "d_out = -1.0",
                         _replay_negative_budget(constructor)),
                _refused(constructor, {**valid, "d_in": -1.0}, "d_in = -1.0",
                         _replay_negative_d_in(constructor)),
                _refused(constructor, {**valid, "d_out": math.inf}, "d_out = +inf",
                         _replay_infinite_budget(constructor)),
                *[_refused(constructor, {**valid, **bad}, shown) for bad, shown in (
                    ({"d_in": math.nan}, "d_in = nan"),
                    ({"odometer": "no"}, "an odometer that is not an Odometer"))]]

    def output() -> Any:
        return constructor(**valid)(0)

    def on_terms(what: str, make: Callable[[], list[Any]]) -> list[Any]:
        """Goals that run the filter's code on solver terms; code that cannot (``math.nextafter``
        on a term) gives one unknown (unsupported) goal naming the raise, never an error."""
        return on_solver_terms(what, lambda: goals_on_terms(output, Queryable, make))

    def budget_goals() -> list[Any]:
        return [trusted_kernel_goal("the filter's output", output, Queryable),
                *on_terms("the filter's transition (budget induction)", lambda: [
                    goal for m in MEASURES for goal in _budget_goals(constructor, m)]),
                _nonfinite_goal(constructor), _sequences_goal(constructor, refusals=False)]

    def refusal_goals() -> list[Any]:
        return [trusted_kernel_goal("the filter's output", output, Queryable),
                *on_terms("the filter's transition (a refusal's state)", lambda: [
                    _refusal_state_goal(constructor, m) for m in MEASURES]),
                _refusal_effects_goal(constructor), _sequences_goal(constructor, refusals=True)]

    def privacy_goals() -> list[Any]:
        return [trusted_kernel_goal("the filter's output", output, Queryable),
                *on_terms("the filter's transition on two datasets", lambda: [
                    _independence_goal(constructor, m) for m in MEASURES]),
                *on_terms("the filter's map", lambda: [
                    _map_below_goal(constructor, m) for m in MEASURES]),
                _within_goal(constructor), _guard_goal(constructor)]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "On a member x of the input domain, the filter returns a Queryable (in "
                   "QueryableDomain) that answers accepted queries by the odometer on x.",
                   r"x \in \mathcal{X} \implies f(x) \in \mathtt{QueryableDomain}",
                   output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "The input metric (the odometer's) fits the input domain; negative or NaN "
                   "distances, an infinite budget and non-odometers are refused.", r"d_{\mathcal{X}} \sim \mathcal{X}",
                   compatibility_goals),
        Obligation(f"{prefix}.budget", Kind.SPECIFICATION,
                   "For every sequence of queries (any length, any maps, chosen adaptively, "
                   "refusals included), the exact sum of the accepted queries' maps at d_in is "
                   "<= spent <= map(d_in) = d_out, and no +inf or NaN cost is ever accepted: by "
                   "induction over the queryable's own transition on solver terms, floats "
                   "rounded (standard model).",
                   r"\sum_{i \in \mathrm{acc}} m_i(d_{in}) \le \mathtt{spent} \le d_{out}",
                   budget_goals, bound="+inf/NaN costs evaluated on real runs"),
        Obligation(f"{prefix}.refusals", Kind.SPECIFICATION,
                   "A refused query (its cost past the budget, +inf or NaN) leaves the state "
                   "unchanged, is not run and does not reach the odometer; a query the odometer "
                   "would refuse is refused before any charge. This is the specified behaviour "
                   "(OpenDP 0.16 instead exhausts the filter at its first refusal), not a "
                   "premise of privacy.",
                   r"\neg\mathrm{acc} \implies \mathtt{spent}' = \mathtt{spent}",
                   refusal_goals, bound="a refused query's side effects evaluated on real runs"),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "By the filter theorem (cited), the interaction is d_out-DP (d_out-zCDP) for "
                   "d_in-close datasets: the accepted maps at d_in sum to at most map(d_in) "
                   "(budget), the refusals do not depend on the data (proved on two symbolic "
                   "datasets), map(d) >= map(d_in) for every d <= d_in, and the map refuses "
                   "every d > d_in.",
                   r"d(x, x') \le d \le d_{in} \implies D(f(x) \| f(x')) \le \mathtt{map}(d)",
                   privacy_goals, uses=(f"{prefix}.budget",),
                   cites=(FULLY_ADAPTIVE_PURE, FULLY_ADAPTIVE_ZCDP),
                   bound=f"the map's answer at 0 and d_in and its refusal above d_in evaluated "
                         f"on {len(GUARDED)} filters"),
    )


def catalogue_entry() -> Entry:
    return Entry("make_privacy_filter", make_privacy_filter, privacy_filter_obligations(),
                 "an interactive measurement: answers queries through an odometer until their "
                 "maps at d_in would pass d_out", proof=True)
