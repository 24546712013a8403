"""Wrong twins of ``make_chain_tt``: one per obligation."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from mechanisms.core import Map
from mechanisms.make_chain_tt import build_chain_tt, make_chain_tt
from obligations.base import Entry
from obligations.make_chain_tt import chain_tt_obligations


@dataclass(frozen=True)
class InnerOnly:
    """Wrong: ``(x, *rest) -> first(x)``, the outer component is skipped."""

    first: Callable[..., Any]

    def __call__(self, arg: Any, *rest: Any) -> Any:
        return self.first(arg)


def outer_map_only(d_in: Any, outer: Map) -> Any:
    """Wrong: ``outer(d_in)``, forgetting that inner may stretch distances."""
    return outer(d_in)


def build_chain_tt_outer_skipped(outer, inner):
    return replace(build_chain_tt(outer, inner), function=InnerOnly(inner.function))


def build_chain_tt_input_metric_out(outer, inner):
    """Wrong: measures outputs with inner's input metric."""
    return replace(build_chain_tt(outer, inner), output_metric=inner.input_metric)


def build_chain_tt_outer_map(outer, inner):
    return replace(build_chain_tt(outer, inner),
                   stability_map=Map(rule=outer_map_only, params={"outer": outer.stability_map}))


def twin_entries(namespace, obligations, twins) -> list[Entry]:
    """One entry per ``suffix: (prefix, wrong_build)``: the module-level variant ``make_<prefix>``
    of ``namespace`` (so reproducers can import it) and its obligations."""
    return [Entry(f"make_{prefix}", namespace[f"make_{prefix}"],
                  obligations(namespace[f"make_{prefix}"], prefix)) for prefix, _ in twins.values()]


TWINS = {"output_domain": ("chain_tt_outer_skipped", build_chain_tt_outer_skipped),
         "compatibility": ("chain_tt_input_metric_out", build_chain_tt_input_metric_out),
         "stability": ("chain_tt_outer_map", build_chain_tt_outer_map)}

make_chain_tt_outer_skipped = make_chain_tt.variant("make_chain_tt_outer_skipped",
    build_chain_tt_outer_skipped)
make_chain_tt_input_metric_out = make_chain_tt.variant("make_chain_tt_input_metric_out",
    build_chain_tt_input_metric_out)
make_chain_tt_outer_map = make_chain_tt.variant("make_chain_tt_outer_map",
    build_chain_tt_outer_map)

MECHANISMS = twin_entries(globals(), chain_tt_obligations, TWINS)
EXPECTED_REFUTATIONS = {f"{prefix}.{suffix}" for suffix, (prefix, _) in TWINS.items()}
TWIN_OF = {f"chain_tt.{suffix}": f"{prefix}.{suffix}" for suffix, (prefix, _) in TWINS.items()}
