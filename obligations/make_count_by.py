"""Obligations of ``make_count_by``, for every key type it admits (int, str, bool) and every
``d_in``. Everything is read from the built transformation: its :class:`CountBy` function (its
``start`` and ``increment``, run on Z3 integers), its domains, its output metric (the
:class:`L01InfDistance`'s own ``key_differs`` and ``step``, run on Z3 terms) and its map.

The specification is stated here from the mathematics, not from the code: ``h_v(z)``, the number
of rows of ``v`` equal to ``z``; ``d_sym(v, w) = sum_z |h_v(z) - h_w(z)|``; a key is in the
histogram exactly when ``h_v(z) >= 1``. The facts of the metric (:func:`metric_facts_goals`:
``0 <= linf <= l1 <= l0 * linf``) are proved by induction over the keys on the metric's own step,
and are public for the threshold measurements, whose maps rely on them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

import z3

from mechanisms.core import Constructor
from mechanisms.domains import MapDomain
from mechanisms.errors import DPCertError
from mechanisms.make_count_by import CountBy, make_count_by
from mechanisms.metrics import L01InfDistance, SymmetricDistance, multiset_key
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.kernels import kernel_deviations, trusted_kernel_goal
from obligations.reports import (Code, claim_assertion, constructor_call, import_line, literal,
                                 output_report, plain_report, reproducer)
from obligations.symbols import float64, natural_int
from obligations.witnesses import witness_goal
from obligations.kernel.reviewed import reviewed
from obligations.l01inf_facts import metric_facts_obligation

SYMBOLS: dict[type, Callable[[str], Any]] = {int: z3.Int, str: z3.String, bool: z3.Bool,
                                             float: float64}
"""The key types the proof covers, with a solver constant standing for any key of each: types
whose dict-key equality is the multiset identity of the symmetric distance (for floats, IEEE
equality, NaN excluded by a goal: ``nan != nan`` makes every NaN object its own key)."""

PROBED: tuple[type, ...] = (int, str, bool, float, complex, bytes, tuple, object)
"""Carriers the obligations try: each the constructor admits is checked (or is unsupported)."""

SAMPLE_ROWS: dict[type, list[Any]] = {int: [0, 1, 0, -3], str: ["a", "", "a", "b"],
                                      float: [0.0, -0.0, 1.5, 0.0],
                                      bool: [True, False, True]}
"""Concrete rows of each carrier, for witnesses and replays."""


def shown(carrier: type) -> dict[str, Any]:
    """The constructor's arguments as a report writes them: ``carrier=str``."""
    return {"carrier": Code(carrier.__name__)}


def admitted(constructor: Constructor) -> list[type]:
    """The carriers of :data:`PROBED` the constructor builds (validation and preconditions)."""
    found = []
    for carrier in PROBED:
        try:
            constructor(carrier)
        except DPCertError:
            continue
        found.append(carrier)
    return found


def carriers(constructor: Constructor) -> list[type]:
    """The admitted carriers the proof covers (:data:`SYMBOLS`)."""
    return [c for c in admitted(constructor) if c in SYMBOLS]


def carriers_goal(constructor: Constructor) -> ComputedGoal:
    """Every carrier the constructor admits is one the proof covers; another is unsupported."""
    def decide() -> Decision:
        outside = [c.__name__ for c in admitted(constructor) if c not in SYMBOLS]
        if outside:
            return Decision(False, {"carriers": ", ".join(outside)}, f"the constructor admits "
                            f"{', '.join(outside)} keys, outside the proof (int, str, bool, "
                            "float)", unsupported=True)
        if not carriers(constructor):
            return Decision(False, {"carriers": "none"}, "vacuous: no carrier admitted",
                            unsupported=True)
        return Decision(True, detail="admitted: " + ", ".join(c.__name__ for c in
                                                                carriers(constructor)))
    return ComputedGoal("every admitted key type is one the proof covers (int, str, bool, float)",
                        "structure", decide)


def _replay_nan(constructor: Constructor, carrier: type) -> Callable[[dict], Replay]:
    """Two NaN objects are one multiset element but two dict keys: the histogram of
    ``[nan, nan']`` must have one key."""
    def replay(_: dict) -> Replay:
        t = constructor(carrier)
        v = [float("nan"), float("nan")]
        call = constructor_call(constructor, **shown(carrier))
        if not t.input_domain.member(v):
            return plain_report(False, f"{call}: NaN rows are refused by the input domain")
        output = t(v)
        distinct = len({multiset_key(x) for x in v})
        if len(output) == distinct:
            return plain_report(False, f"{call}: the NaN rows share one key")
        return plain_report(
            True, f"{call} on two NaN objects", f"output {output!r}: {len(output)} keys, while "
            f"the rows are {distinct} multiset element (d_sym treats every NaN alike)",
            *reproducer(import_line(constructor), f"t = {call}",
                        "v = [float('nan'), float('nan')]",
                        claim_assertion("len(t(v)) == 1", "t(v) = {t(v)!r}: two keys for one "
                                        "multiset element")))
    return replay


def histogram(v: list[Any]) -> dict[Any, int]:
    """The specification: ``{z: h_v(z)}`` over the ``z`` with ``h_v(z) >= 1`` (stated here, not
    taken from the code)."""
    return dict(Counter(v))


# --- make_count_by ---------------------------------------------------------------------------

def _replay_counts(constructor: Constructor) -> Callable[[dict], Replay]:
    """Run each carrier's function on its sample rows and compare with the histogram; then, if
    the model gives a ``count``, the running function's own ``increment`` at it (the count of
    one key after that many rows: too many rows to run, the fold being the trusted code)."""
    def replay(counterexample: dict) -> Replay:
        for carrier in carriers(constructor):
            t = constructor(carrier)
            for n in range(1, len(SAMPLE_ROWS[carrier]) + 1):
                v = SAMPLE_ROWS[carrier][:n]
                output, expected = t(v), histogram(v)
                if output != expected:
                    call = constructor_call(constructor, **shown(carrier))
                    return plain_report(
                        True, f"{call} on {literal(v)}",
                        f"output {literal(output)}, the histogram is {literal(expected)}",
                        *reproducer(import_line(constructor), "from collections import Counter",
                                    f"t = {call}", f"v = {literal(v)}",
                                    claim_assertion("t(v) == dict(Counter(v))",
                                                    "t(v) = {t(v)!r} is not the histogram "
                                                    "{dict(Counter(v))!r}")))
        count = _as_count(counterexample.get("count"))
        if count is not None:
            for carrier in carriers(constructor):
                t = constructor(carrier)
                stepped = t.function.increment(count)
                if stepped != count + 1:
                    call = constructor_call(constructor, **shown(carrier))
                    return plain_report(
                        True, f"{call}: the running function's increment({count}) = "
                        f"{literal(stepped)}, not {count + 1}",
                        f"its fold applies increment once per row, so {count + 1} rows of one key "
                        f"are counted {literal(stepped)}, not {count + 1} (too many rows to run "
                        "here; the fold is the trusted CountBy code)",
                        *reproducer(import_line(constructor), f"t = {call}",
                                    claim_assertion(f"t.function.increment({count}) == "
                                                    f"{count + 1}",
                                                    f"increment({count}) = "
                                                    f"{{t.function.increment({count})!r}}")))
        return plain_report(False, f"{constructor.name}: the histograms of the sample rows")
    return replay


def _as_count(value: Any) -> int | None:
    """The model's ``count`` as a Python int ``>= 0``, if it is one."""
    try:
        count = int(str(value))
    except (TypeError, ValueError):
        return None
    return count if count >= 0 else None


def _replay_output(constructor: Constructor, carrier: type) -> Callable[[dict], Replay]:
    def replay(_: dict) -> Replay:
        t = constructor(carrier)
        for n in range(len(SAMPLE_ROWS[carrier]) + 1):
            data = SAMPLE_ROWS[carrier][:n]
            output = t(data)
            if not t.output_domain.member(output):
                return output_report(constructor, shown(carrier), data, output, True,
                                     f"output domain {t.output_domain}: not a member")
        return plain_report(False, f"{constructor.name}: outputs on the sample rows are members")
    return replay


def _pairs(d: int) -> list[tuple[list[int], list[int]]]:
    """Pairs at symmetric distance ``d``: one key gaining ``d`` rows; ``d`` keys one each; and
    one key gaining ``d`` rows beside a key with one row on both sides (unchanged)."""
    return [([], [0] * d), ([], list(range(d))), ([-1], [-1] + [0] * d)]


def _replay_map(constructor: Constructor) -> Callable[[dict], Replay]:
    """The pairs of :func:`_pairs` at ``d = d_in``: the real outputs' distance against the map,
    componentwise."""
    def replay(counterexample: dict) -> Replay:
        t = constructor(int)
        d_in = max(int(counterexample.get("d_in", 1)), 1)
        claimed = t.map(d_in)
        call = constructor_call(constructor, **shown(int))
        for v, w in _pairs(min(d_in, 10 ** 4)):
            observed = t.output_metric.distance(t(v), t(w))
            if not L01InfDistance.within(observed, claimed):
                return plain_report(
                    True, call, f"inputs v = {literal(v)}, w = {literal(w)} (d_sym = {d_in})",
                    f"claimed map({d_in}) = {claimed!r}, observed (l0, l1, linf) = {observed!r}",
                    *reproducer(import_line(constructor), f"t = {call}",
                                f"v, w = {literal(v)}, {literal(w)}",
                                f"d_out, claimed = t.output_metric.distance(t(v), t(w)), "
                                f"t.map({d_in})",
                                claim_assertion("all(d <= c for d, c in zip(d_out, claimed))",
                                                "d_out = {d_out!r} exceeds map = {claimed!r} "
                                                "in a component")))
        return plain_report(False, f"{call}: the pairs at d_sym = {d_in} are within the map")
    return replay


@reviewed
def count_by_obligations(constructor: Constructor = make_count_by,
                         prefix: str = "count_by") -> tuple[Obligation, ...]:
    """The obligations of ``constructor``, which must build histograms (``make_count_by``)."""

    def builds() -> list[tuple[type, Any]]:
        return [(c, constructor.build(c)) for c in carriers(constructor)]

    def kernel_goals() -> list[Any]:
        return [trusted_kernel_goal(f"function ({c.__name__} keys)",
                                    lambda c=c: constructor.build(c).function, CountBy)
                for c in carriers(constructor)]

    def supported() -> bool:
        return not any(kernel_deviations(t.function, CountBy) for _, t in builds())

    def output_domain_goals() -> list[Any]:
        goals: list[Any] = [carriers_goal(constructor), *kernel_goals(), *[
            witness_goal(constructor, {"carrier": c}, shown(c),
                         inputs=[[], SAMPLE_ROWS[c][:1], SAMPLE_ROWS[c]])
            for c in carriers(constructor)]]
        if not supported():
            return goals
        count = z3.Int("count")
        for carrier, t in builds():
            domain, f = t.output_domain, t.function
            replay = _replay_output(constructor, carrier)

            def structure(t: Any = t, carrier: type = carrier) -> Decision:
                domain = t.output_domain
                deviations = kernel_deviations(domain, MapDomain)
                if deviations:
                    return Decision(False, {"output_domain": repr(domain)},
                                    "; ".join(deviations), unsupported=True)
                key, element = domain.key_domain, t.input_domain.element
                if key.carrier is not element.carrier:
                    return Decision(False, {"key_carrier": key.carrier.__name__},
                                    f"keys are {element.carrier.__name__} rows; the key domain "
                                    f"{key} has another carrier")
                if type(f.start) is not int:
                    return Decision(False, {"start": repr(f.start)},
                                    f"start {f.start!r} is a {type(f.start).__name__}, not int")
                term = f.increment(count)
                if not (isinstance(term, z3.ArithRef) and term.sort() == z3.IntSort()):
                    return Decision(False, {"increment": repr(term)},
                                    "increment(count) is not a Z3 Int: not an int count")
                return Decision(True, detail=f"{domain}: keys of the rows' carrier, start an int, "
                                "increment keeps Int terms Int")
            goals.append(ComputedGoal(f"output domain structure ({carrier.__name__} keys): a "
                                      "MapDomain, key carrier = row carrier, counts stay ints",
                                      "structure", structure, replay))
            x = SYMBOLS[carrier]("x")
            goals += [
                Z3Goal(f"every row the input domain admits is in the key domain "
                       f"({carrier.__name__} keys)", is_true(domain.key_domain.contains(x)),
                       [is_true(t.input_domain.element.contains(x))], {"x": x}, replay),
                Z3Goal(f"every count reached (start, then increments) is in the value domain "
                       f"{domain.value_domain}", z3.And(
                           is_true(domain.value_domain.contains(z3.IntVal(f.start))),
                           z3.Implies(is_true(domain.value_domain.contains(count)),
                                      is_true(domain.value_domain.contains(f.increment(count))))),
                       [], {"count": count}, replay),
            ]
        return goals

    def compatibility_goals() -> list[Any]:
        return [compatibility_goal(constructor, lambda: [t for _, t in builds()],
                                   {"carrier": str}, shown(str))]

    def counts_goals() -> list[Any]:
        goals: list[Any] = [carriers_goal(constructor), *kernel_goals()]
        if not supported():
            return goals
        replay = _replay_counts(constructor)
        count = z3.Int("count")
        for carrier, t in builds():
            f = t.function
            x = SYMBOLS[carrier]("x")
            goals += [
                Z3Goal(f"dict keys merge exactly the rows d_sym merges: the key domain admits no "
                       f"NaN ({carrier.__name__} keys)",
                       z3.Not(z3.fpIsNaN(x)) if carrier is float else z3.BoolVal(True),
                       [is_true(t.input_domain.element.contains(x))], {"x": x},
                       _replay_nan(constructor, carrier)),
                Z3Goal(f"a key's count starts at 0 ({carrier.__name__} keys)",
                       z3.IntVal(f.start) == 0 if type(f.start) is int else z3.BoolVal(False),
                       replay=replay),
                Z3Goal(f"each row adds one: increment(count) = count + 1 ({carrier.__name__} keys)",
                       f.increment(count) == count + 1, [], {"count": count}, replay),
            ]
        return goals

    def distance_goals() -> list[Any]:
        goals: list[Any] = [*kernel_goals(), trusted_kernel_goal(
            "the output metric", lambda: constructor.build(int).output_metric, L01InfDistance,
            checked=("step", "key_differs"))]
        metric = constructor.build(int).output_metric
        if not isinstance(metric, L01InfDistance):
            return goals
        dsym, l0, l1, linf = z3.Ints("D l0 l1 linf")
        a, b = z3.Ints("a b")  # h_v(z) and h_w(z): the true counts of one key, stated
        change = z3.If(a >= b, a - b, b - a)
        n0, n1, ninf = metric.step((l0, l1, linf), a, b,
                                   metric.key_differs(z3.And(a >= 1, b >= 1), a, b))
        bound = dsym + change
        goals.append(Z3Goal(
            "induction over the keys z (base: none, all 0): a key with h_v(z) = a and h_w(z) = b "
            "rows (in the histogram iff >= 1) adds |a - b| to d_sym and keeps l0, l1, linf "
            "<= d_sym",
            z3.And(n0 <= bound, n1 <= bound, ninf <= bound),
            [a >= 0, b >= 0, a + b >= 1, dsym >= 0, l0 >= 0, l1 >= 0, linf >= 0,
             l0 <= dsym, l1 <= dsym, linf <= dsym],
            {"D": dsym, "l0": l0, "l1": l1, "linf": linf, "a": a, "b": b},
            _replay_map(constructor)))
        return goals

    def stability_goals() -> list[Any]:
        t = constructor.build(int)
        d_in, d_in_natural = natural_int("d_in")
        l0, l1, linf = z3.Ints("l0 l1 linf")
        m0, m1, minf = t.map(d_in)
        return [
            metric_premise(lambda: constructor.build(int), SymmetricDistance, L01InfDistance,
                           f"{prefix}.histogram"),
            Z3Goal("map(d_in) bounds, componentwise, every (l0, l1, linf) with each <= d_sym(v, "
                   "w) <= d_in (the histogram lemma)",
                   z3.And(l0 <= m0, l1 <= m1, linf <= minf),
                   [*d_in_natural, l0 >= 0, l1 >= 0, linf >= 0, l0 <= d_in, l1 <= d_in,
                    linf <= d_in],
                   {"d_in": d_in, "l0": l0, "l1": l1, "linf": linf}, _replay_map(constructor)),
        ]

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every vector of int, str or bool rows, function(v) is a dict whose keys "
                   "are rows (in the key domain) and whose values are Python ints in the value "
                   "domain: each key starts at the int start and each row applies increment, "
                   "which keeps Z3 integers integer.",
                   r"\forall v \in \mathrm{Vec}(T):\ \mathtt{function}(v) \in "
                   r"\mathrm{Map}(T, \mathbb{Z})",
                   output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "Symmetric distance is defined on the vector domain, the L01Inf distance on "
                   "the map domain (absolute distance on its int values).",
                   r"d_{Sym} \sim \mathrm{VectorDomain},\ d_{L01Inf} \sim \mathrm{MapDomain}"
                   r"(T, \mathtt{int})", compatibility_goals),
        metric_facts_obligation(prefix, lambda: constructor.build(int).output_metric,
                                lambda: (constructor_call(constructor, **shown(int)),
                                         [import_line(constructor)])),
        Obligation(f"{prefix}.counts", Kind.LEMMA,
                   "function(v) is the histogram of v: key z maps to h_v(z), the number of rows "
                   "equal to z, exactly for the z with h_v(z) >= 1 (every count starts at 0 and "
                   "each row equal to z adds 1; by induction on the rows).",
                   r"\mathtt{function}(v) = \{z \mapsto h_v(z) : h_v(z) \ge 1\}", counts_goals),
        Obligation(f"{prefix}.histogram", Kind.LEMMA,
                   "For histograms, each of l0, l1 and linf of d_L01Inf(function(v), function(w)) "
                   "is at most d_sym(v, w) = sum_z |h_v(z) - h_w(z)|: by induction on the keys, "
                   "on the output metric's own step, a key z adds |h_v(z) - h_w(z)| to d_sym, at "
                   "most 1 (and only when the counts differ) to l0, |h_v(z) - h_w(z)| to l1, and "
                   "raises linf to at most that.",
                   r"\ell_0, \ell_1, \ell_\infty \le d_{Sym}(v, w)", distance_goals,
                   uses=(f"{prefix}.counts",)),
        Obligation(f"{prefix}.stability", Kind.STABILITY,
                   "If d_sym(v, w) <= d_in then d_L01Inf(function(v), function(w)) <= map(d_in) "
                   "componentwise: by the histogram lemma each component is at most d_in, and "
                   "map(d_in) = (d_in, d_in, d_in).",
                   r"d_{Sym}(v, w) \le d_{in} \implies d_{L01Inf}(f(v), f(w)) \le "
                   r"\mathtt{map}(d_{in})", stability_goals,
                   uses=(f"{prefix}.counts", f"{prefix}.histogram")),
    )


IMPORT = "from mechanisms.make_count_by import make_count_by"


def catalogue_entry() -> Entry:
    return Entry("make_count_by", make_count_by, count_by_obligations(),
                 "histogram key -> count (symmetric -> L01Inf distance)",
                 (example("make_count_by(str)", IMPORT), example("make_count_by(int)", IMPORT)),
                 proof=True)
