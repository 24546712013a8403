"""What the obligations of row-by-row transformations share (clamp, impute, cast, drop NaN).

Such a transformation maps vectors to vectors under symmetric distance. Its stability follows from
``lemma.row_transform`` once its function is a ``RowTransform`` whose kernel maps one multiset
element to one; replays run counterexamples through the real transformation on one-row vectors
or on ``[] vs [row] * d``.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from mechanisms.core import Constructor, RowTransform
from obligations.base import ComputedGoal, Decision, Kind, Obligation, Replay
from obligations.kernels import kernel_deviations
from obligations.reports import constructor_report, output_report

Concrete = Callable[[dict[str, Any]], tuple[Any, dict[str, Any]]]
"""A counterexample to ``(transformation, the arguments it was built with)``."""


def is_row_transform(builds: Callable[[], Iterable[Any]], scope: str = "") -> ComputedGoal:
    """The premise of the scalar proofs: every built transformation's function is
    ``RowTransform``'s own code (:func:`obligations.kernels.kernel_deviations`: no subclass member
    or instance attribute replaces one); otherwise the proof does not apply (unknown)."""
    def decide() -> Decision:
        for built in builds():
            deviations = kernel_deviations(built.function, RowTransform)
            if deviations:
                return Decision(False, {"function": repr(built.function),
                                        "deviations": "; ".join(deviations)},
                                "function does not run RowTransform's code (" + "; ".join(deviations)
                                + "), so its output is not the kernel's, row by row; the scalar "
                                "proof does not apply", unsupported=True)
        return Decision(True, detail="function is RowTransform(kernel), no member overridden")
    return ComputedGoal(f"function applies one scalar kernel to every row{scope}", "structure",
                        decide)


def replay_output_domain(constructor: Constructor, concrete: Concrete,
                         row: Callable[[dict[str, Any]], Any]) -> Callable[[dict], Replay]:
    """The real transformation on the one-row vector ``[row(counterexample)]``."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = concrete(counterexample)
        data = [row(counterexample)]
        output = t(data)
        confirmed = not t.output_domain.member(output)
        return output_report(constructor, arguments, data, output, confirmed,
                             f"output domain {t.output_domain}, member: {not confirmed}")
    return replay


def replay_pair(constructor: Constructor, concrete: Concrete,
                rows: Callable[[dict[str, Any]], tuple[list[Any], list[Any]]]
                ) -> Callable[[dict], Replay]:
    """The real transformation on the two vectors ``rows(counterexample)``, against its map."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        t, arguments = concrete(counterexample)
        v, w = rows(counterexample)
        d_in = t.input_metric.distance(v, w)
        observed = t.output_metric.distance(t(v), t(w))
        return constructor_report(constructor, arguments, v, w, d_in, t.map(d_in), observed,
                                  observed > t.map(d_in))
    return replay


def replay_rows_added(constructor: Constructor, concrete: Concrete,
                      row: Callable[[dict[str, Any]], Any]) -> Callable[[dict], Replay]:
    """``v = []`` and ``w = [row] * d`` are at distance ``d`` (the model's), and a row transform
    keeps them ``d`` apart."""
    return replay_pair(constructor, concrete,
                       lambda model: ([], [row(model)] * int(model["d"])))


def vector_compatibility(prefix: str, goals: Callable[[], list[Any]]) -> Obligation:
    return Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                      "Symmetric distance is defined on the input and output vector domains.",
                      r"d_{Sym} \sim \mathrm{VectorDomain}", goals)


def row_transform_stability(prefix: str, goals: Callable[[], list[Any]],
                            kernel: str = "its kernel respects multiset identity",
                            **labels: Any) -> Obligation:
    """Stability by ``lemma.row_transform``; ``kernel`` says what is checked of the kernel."""
    return Obligation(f"{prefix}.stability", Kind.STABILITY,
                      "If d_sym(v, w) <= d_in then d_sym(function(v), function(w)) <= map(d_in): "
                      f"function is a row transform (lemma.row_transform), {kernel}, and "
                      "map(d_in) >= d_in.",
                      r"d_{Sym}(v, w) \le d_{in} \implies d_{Sym}(f(v), f(w)) \le "
                      r"\mathtt{map}(d_{in})",
                      goals, uses=("lemma.row_transform",), **labels)
