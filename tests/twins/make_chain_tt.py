"""Wrong twins of ``make_chain_tt``, each refuted by the kernel on one of its standard statements,
confirmed on catalogue components: the outer component skipped (output domain), the output
measured with inner's input metric (compatibility), outer's map alone (stability); the domain
check dropped, all preconditions inverted, the components applied in the other order (output
domain). Three are never proved and never refuted: the metric check dropped, the maps keyed by
identity (wrong when a component is chained after itself) and the first output memoised; no
catalogue pair shows their violation. Right twins: a closure ``x -> outer(inner(x))`` and a
``ChainedFunction`` whose ``__call__`` is rewritten to the same composition."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from mechanisms.core import Constructor, Map, Precondition
from mechanisms.make_chain_tt import (CHAIN_PRECONDITIONS, ChainedFunction, build_chain_tt,
                                      make_chain_tt, validate_chain_tt)
from obligations.base import Entry
from obligations.kernel.statements import Claim
from tests.twins._statements import statement_twin_entries


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


make_chain_tt_outer_skipped = make_chain_tt.variant("make_chain_tt_outer_skipped",
    build_chain_tt_outer_skipped)
make_chain_tt_input_metric_out = make_chain_tt.variant("make_chain_tt_input_metric_out",
    build_chain_tt_input_metric_out)
make_chain_tt_outer_map = make_chain_tt.variant("make_chain_tt_outer_map",
    build_chain_tt_outer_map)


def _apply_in_turn(d_in: Any, maps: tuple[Map, ...]) -> Any:
    for m in maps:
        d_in = m(d_in)
    return d_in


def build_chain_tt_by_identity(outer, inner):
    """Wrong: the maps of the distinct components (keyed by ``id``), applied in turn: a component
    chained after itself is counted once."""
    distinct = {id(t): t.stability_map for t in (inner, outer)}
    return replace(build_chain_tt(outer, inner),
                   stability_map=Map(rule=_apply_in_turn, params={"maps": tuple(distinct.values())}))


@dataclass(frozen=True)
class ShortcutChained(ChainedFunction):
    """Overrides ``__call__``, harmlessly: it still computes the composition (right; proved)."""

    def __call__(self, arg: Any, *rest: Any) -> Any:
        return self.second(self.first(arg), *rest)


def build_chain_tt_overridden(outer, inner):
    return replace(build_chain_tt(outer, inner),
                   function=ShortcutChained(inner.function, outer.function))


def build_chain_tt_closure(outer, inner):
    """Right: a closure ``x -> outer(inner(x))`` in place of ``ChainedFunction``."""
    first, second = inner.function, outer.function
    return replace(build_chain_tt(outer, inner), function=lambda x: second(first(x)))


def build_chain_tt_outer_first(outer, inner):
    """Wrong: a closure ``x -> inner(outer(x))``, the components applied in the other order."""
    first, second = inner.function, outer.function
    return replace(build_chain_tt(outer, inner), function=lambda x: first(second(x)))


def build_chain_tt_memo_first(outer, inner):
    """Wrong: a closure that computes ``outer(inner(x))`` once, then returns that first output
    for every input (each chain its own memo)."""
    first, second, memo = inner.function, outer.function, []

    def chained(x):
        if not memo:
            memo.append(second(first(x)))
        return memo[0]
    return replace(build_chain_tt(outer, inner), function=chained)


def _differ(text: str, holds: Callable[..., Any], error: Callable[..., Any]) -> Precondition:
    return Precondition(text.replace("==", "!="), lambda **a: not holds(**a), error)


DOMAINS, METRICS = CHAIN_PRECONDITIONS
make_chain_tt_domain_unchecked = Constructor("make_chain_tt_domain_unchecked", build_chain_tt,
                                             (METRICS,), validate_chain_tt)
make_chain_tt_metric_unchecked = Constructor("make_chain_tt_metric_unchecked", build_chain_tt,
                                             (DOMAINS,), validate_chain_tt)
make_chain_tt_inverted = Constructor("make_chain_tt_inverted", build_chain_tt,
                                     tuple(_differ(p.text, p.holds, p.error)
                                           for p in CHAIN_PRECONDITIONS), validate_chain_tt)
make_chain_tt_by_identity = make_chain_tt.variant("make_chain_tt_by_identity",
                                                  build_chain_tt_by_identity)
make_chain_tt_overridden = make_chain_tt.variant("make_chain_tt_overridden",
                                                 build_chain_tt_overridden)
make_chain_tt_closure = make_chain_tt.variant("make_chain_tt_closure", build_chain_tt_closure)
make_chain_tt_outer_first = make_chain_tt.variant("make_chain_tt_outer_first",
                                                  build_chain_tt_outer_first)
make_chain_tt_memo_first = make_chain_tt.variant("make_chain_tt_memo_first",
                                                 build_chain_tt_memo_first)

STATEMENT_TWIN_OF = {
    ("make_chain_tt", Claim.OUTPUT_DOMAIN): ("make_chain_tt_outer_skipped", Claim.OUTPUT_DOMAIN),
    ("make_chain_tt", Claim.COMPATIBILITY): ("make_chain_tt_input_metric_out",
                                             Claim.COMPATIBILITY),
    ("make_chain_tt", Claim.STABILITY): ("make_chain_tt_outer_map", Claim.STABILITY),
}
REFUTED_STATEMENTS = {("make_chain_tt_domain_unchecked", Claim.OUTPUT_DOMAIN),
                      ("make_chain_tt_domain_unchecked", Claim.STABILITY),
                      ("make_chain_tt_inverted", Claim.OUTPUT_DOMAIN),
                      ("make_chain_tt_outer_first", Claim.OUTPUT_DOMAIN)}
MECHANISMS = statement_twin_entries(globals(), STATEMENT_TWIN_OF.values(), REFUTED_STATEMENTS)
UNSUPPORTED = [Entry(name, globals()[name]) for name in (
    "make_chain_tt_metric_unchecked", "make_chain_tt_by_identity", "make_chain_tt_memo_first")]
"""Wrong, but no catalogue pair of components shows it: never proved."""
