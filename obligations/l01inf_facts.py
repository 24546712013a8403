"""The facts of the L01Inf metric of histograms, for any metric object that claims to be an
``L01InfDistance``: every distance ``(l0, l1, linf)`` it computes has ``0 <= linf <= l1 <= l0 *
linf``, by induction over the keys on the metric's own step; a lemma of the count-by and
threshold proofs."""

from __future__ import annotations

import itertools
from typing import Any, Callable

import z3

from mechanisms.metrics import L01InfDistance
from obligations.base import ComputedGoal, Decision, Kind, Obligation, Replay, Z3Goal
from obligations.kernels import kernel_deviations, trusted_kernel_goal
from obligations.reports import claim_assertion, literal, plain_report, reproducer


def _facts(l0: Any, l1: Any, linf: Any) -> Any:
    """``0 <= linf <= l1 <= l0 * linf`` and ``l0 >= 0``."""
    return z3.And(l0 >= 0, 0 <= linf, linf <= l1, l1 <= l0 * linf)


def _concrete_facts(distance: tuple[Any, Any, Any]) -> bool:
    l0, l1, linf = distance
    return 0 <= l0 and 0 <= linf <= l1 <= l0 * linf


SMALL_MAPS = [dict(zip(keys, values)) for n in range(3)
              for keys in itertools.combinations((0, 1, 2), n)
              for values in itertools.product((0, 1, 3), repeat=n)]
"""Maps with up to 2 of the keys 0, 1, 2 and values 0, 1 or 3: the replays' search space."""


Reproduction = Callable[[], tuple[str, list[str]]]
"""At replay time: the call that builds the object whose metric is checked, and its imports."""


def replay_metric_facts(metric_of: Callable[[], Any], reproduction: Reproduction,
                        side: str = "output_metric") -> Callable[[dict], Replay]:
    """Search small maps for a pair whose distance, computed by the real metric's ``distance``,
    breaks ``0 <= linf <= l1 <= l0 * linf``."""
    def replay(_: dict) -> Replay:
        metric = metric_of()
        call, imports = reproduction()
        for u, w in itertools.product(SMALL_MAPS, repeat=2):
            d = metric.distance(u, w)
            if not _concrete_facts(d):
                return plain_report(
                    True, f"{call}: the output metric {metric} gives (l0, l1, linf) = {d!r} on "
                    f"u = {literal(u)}, w = {literal(w)}, which breaks "
                    "0 <= linf <= l1 <= l0 * linf",
                    *reproducer(*imports, f"metric = {call}.{side}",
                                f"l0, l1, linf = metric.distance({literal(u)}, {literal(w)})",
                                claim_assertion("0 <= l0 and 0 <= linf <= l1 <= l0 * linf",
                                                "distance ({l0}, {l1}, {linf}) breaks the "
                                                "L01Inf facts")))
        return plain_report(False, f"{call}: the metric's distance meets the facts on "
                            f"{len(SMALL_MAPS) ** 2} pairs of small maps")
    return replay


def metric_facts_goals(metric_of: Callable[[], Any], reproduction: Reproduction,
                       side: str = "output_metric") -> list[Any]:
    """Goals: ``metric_of()`` (a built output metric or input metric) is an L01InfDistance whose
    ``distance`` is the class's own fold (from ``(0, 0, 0)``) of its ``key_differs`` and
    ``step``; those two, run on Z3 terms, keep ``0 <= linf <= l1 <= l0 * linf`` from one key to
    the next (induction over the keys; base ``(0, 0, 0)``)."""
    replay = replay_metric_facts(metric_of, reproduction, side)
    goals: list[Any] = [trusted_kernel_goal("the metric", metric_of, L01InfDistance,
                                            checked=("step", "key_differs"))]
    metric = metric_of()
    if kernel_deviations(metric, L01InfDistance, ("step", "key_differs")):
        return goals
    l0, l1, linf = z3.Reals("l0 l1 linf")
    a, b, in_both = z3.Int("a"), z3.Int("b"), z3.Bool("in_both")
    try:
        n0, n1, ninf = metric.step((l0, l1, linf), a, b, metric.key_differs(in_both, a, b))
    except Exception as error:  # noqa: BLE001 - a step that does not run on terms
        raised = repr(error)  # the except block unbinds error: the goal keeps its text
        return [*goals, ComputedGoal("the metric's step runs on solver terms", "structure",
                                     lambda: Decision(False, {"error": raised},
                                                      f"step raised {raised}",
                                                      unsupported=True))]
    base = metric.distance({}, {})
    goals += [
        Z3Goal("base: the distance of two empty maps is (0, 0, 0), which meets the facts",
               z3.BoolVal(tuple(base) == (0, 0, 0)), replay=replay),
        Z3Goal("induction step: one more key, with values a and b (absent = 0) and in_both "
               "telling whether it is in both maps, keeps 0 <= linf <= l1 <= l0 * linf",
               _facts(n0, n1, ninf), [_facts(l0, l1, linf)],
               {"l0": l0, "l1": l1, "linf": linf, "a": a, "b": b, "in_both": in_both}, replay),
    ]
    return goals


def metric_facts_obligation(prefix: str, metric_of: Callable[[], Any],
                            reproduction: Reproduction, side: str = "output_metric"
                            ) -> Obligation:
    """The metric facts as a lemma obligation of a constructor (``<prefix>.metric_facts``);
    ``side`` names the built object's attribute that holds the metric."""
    return Obligation(
        f"{prefix}.metric_facts", Kind.LEMMA,
        "Every distance (l0, l1, linf) the L01Inf metric computes has 0 <= linf <= l1 <= "
        "l0 * linf: by induction over the keys, on the metric's own step (a key adds 1 to l0 when "
        "it is in one map only or its values differ, |a - b| to l1, and raises linf to at least "
        "|a - b|); a key with a != b always counts in l0, so l1 + |a - b| <= (l0 + 1) max(linf, "
        "|a - b|).",
        r"0 \le \ell_\infty \le \ell_1 \le \ell_0 \cdot \ell_\infty",
        lambda: metric_facts_goals(metric_of, reproduction, side))
