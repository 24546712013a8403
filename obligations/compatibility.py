"""Domain-metric compatibility: each metric must be defined on the domain it is paired with.

The check runs the metrics' own ``compatible`` on what the constructor builds, with symbolic
parameters (so for every parameter value: ``build`` does not branch on them); a refutation is
replayed on a concrete construction.
"""

from __future__ import annotations

from typing import Any, Callable

from obligations.base import ComputedGoal, Decision, Kind, Obligation, Replay
from obligations.reports import (claim_assertion, code_setup, constructor_call, import_line,
                                 plain_report, reproducer)


def pairs(built: Any) -> list[tuple[str, Any, Any]]:
    """``(side, metric or measure's metric, domain)`` for the input and, for transformations,
    the output side."""
    result = [("input", built.input_metric, built.input_domain)]
    if hasattr(built, "output_metric"):
        result.append(("output", built.output_metric, built.output_domain))
    return result


def metric_premise(build: Callable[[], Any], input_kind: type, output_kind: type,
                   assumption: str) -> ComputedGoal:
    """The proof method is for an ``input_kind`` metric and an ``output_kind`` metric or measure:
    anything else is *unsupported* (unknown), not refuted, since the property may still hold."""
    def decide() -> Decision:
        built = build()
        output = built.output_metric if hasattr(built, "output_metric") else built.output_measure
        shown = f"{built.input_metric} -> {output}"
        if isinstance(built.input_metric, input_kind) and isinstance(output, output_kind):
            return Decision(True, detail=shown)
        return Decision(False, {"metrics": shown}, f"the proof is for {input_kind.__name__} -> "
                        f"{output_kind.__name__} ({assumption})", unsupported=True)
    return ComputedGoal(f"{input_kind.__name__} -> {output_kind.__name__}, as {assumption} assumes",
                        "structure", decide)


def _first_misfit(built: Any) -> tuple[str, Any, Any] | None:
    return next(((side, metric, domain) for side, metric, domain in pairs(built)
                 if not metric.compatible(domain)), None)


def compatibility_goal(constructor: Any, symbolic_builds: Callable[[], list[Any]],
                       concrete_arguments: dict[str, Any],
                       shown_arguments: dict[str, Any] | None = None) -> ComputedGoal:
    """``shown_arguments`` is how the report writes ``concrete_arguments`` (for components)."""
    def decide() -> Decision:
        for built in symbolic_builds():
            misfit = _first_misfit(built)
            if misfit:
                side, metric, domain = misfit
                return Decision(False, {"side": side, "metric": str(metric), "domain": str(domain)},
                                f"{side} metric {metric} is not defined on {domain}")
        return Decision(True, detail="; ".join(f"{metric} fits {domain}" for _, metric, domain
                                               in pairs(symbolic_builds()[0])))

    def replay(_: dict) -> Replay:
        built = constructor(**concrete_arguments)
        misfit = _first_misfit(built)
        call = constructor_call(constructor, **(shown_arguments or concrete_arguments))
        if misfit is None:
            return plain_report(False, f"{call}: every metric fits its domain")
        side, metric, domain = misfit
        return plain_report(True, call, f"{side} metric {metric} is not defined on {domain} "
                            f"({type(metric).__name__}.compatible returns False)",
                            *reproducer(import_line(constructor),
                                        *code_setup(shown_arguments or concrete_arguments),
                                        f"built = {call}",
                                        f"metric, domain = built.{side}_metric, "
                                        f"built.{side}_domain",
                                        claim_assertion("metric.compatible(domain)",
                                                        f"the {side} metric {{metric}} is not "
                                                        "defined on {domain}")))

    return ComputedGoal("metrics fit their domains (built with symbolic parameters)", "structure",
                        decide, replay)


def aggregate_compatibility(prefix: str, goals: Callable[[], list[Any]], sized: bool,
                            atoms: str) -> Obligation:
    """An aggregate's obligation: symmetric distance on its (``sized``) vectors, absolute
    distance on its non-NaN ``atoms`` (``"int"`` or ``"float"``)."""
    vectors = "SizedDomain" if sized else "VectorDomain"
    return Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                      f"Symmetric distance is defined on the {'sized ' if sized else ''}vector "
                      f"domain, absolute distance on the non-NaN {atoms} atoms.",
                      rf"d_{{Sym}} \sim \mathrm{{{vectors}}},\ "
                      rf"d_{{Abs}} \sim \mathrm{{AtomDomain}}(\mathtt{{{atoms}}})", goals)
