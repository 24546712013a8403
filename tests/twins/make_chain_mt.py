"""Wrong twins of ``make_chain_mt``, each refuted by the kernel on one of its standard statements,
confirmed on catalogue components: the outer measurement skipped (privacy), the outer's input
metric declared (compatibility), the components applied in the other order (output domain),
the empty dataset refused before any draw (runtime errors); preconditions dropped or inverted;
the random source handed to the inner transformation; a map memoised by ``d_in`` alone across
chains; a second body chosen by the input's type. Three are never proved and never refuted (the
inner's stability map returned as the privacy loss, the domain check dropped, the first output
memoised): no catalogue pair shows their violation."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from mechanisms import ops
from mechanisms.core import Constructor, Map
from mechanisms.make_chain_tt import chained_map
from mechanisms.make_chain_mt import (CHAIN_MT_PRECONDITIONS, build_chain_mt, make_chain_mt,
                                      validate_chain_mt)
from obligations.base import Entry
from obligations.kernel.statements import Claim
from tests.twins._statements import statement_twin_entries
from tests.twins.make_chain_tt import InnerOnly, _differ


def inner_map_only(d_in: Any, inner: Map) -> Any:
    """Wrong: ``inner(d_in)``, a stability bound returned as a privacy loss."""
    return inner(d_in)


def build_chain_mt_outer_skipped(outer, inner):
    return replace(build_chain_mt(outer, inner), function=InnerOnly(inner.function))


def build_chain_mt_outer_metric_in(outer, inner):
    """Wrong: measures inputs with outer's input metric."""
    return replace(build_chain_mt(outer, inner), input_metric=outer.input_metric)


def build_chain_mt_inner_map(outer, inner):
    return replace(build_chain_mt(outer, inner),
                   privacy_map=Map(rule=inner_map_only, params={"inner": inner.stability_map}))


make_chain_mt_outer_skipped = make_chain_mt.variant("make_chain_mt_outer_skipped",
    build_chain_mt_outer_skipped)
make_chain_mt_outer_metric_in = make_chain_mt.variant("make_chain_mt_outer_metric_in",
    build_chain_mt_outer_metric_in)
make_chain_mt_inner_map = make_chain_mt.variant("make_chain_mt_inner_map",
    build_chain_mt_inner_map)

DOMAINS, METRICS = CHAIN_MT_PRECONDITIONS
make_chain_mt_domain_unchecked = Constructor("make_chain_mt_domain_unchecked", build_chain_mt,
                                             (METRICS,), validate_chain_mt)
make_chain_mt_metric_unchecked = Constructor("make_chain_mt_metric_unchecked", build_chain_mt,
                                             (DOMAINS,), validate_chain_mt)
make_chain_mt_inverted = Constructor("make_chain_mt_inverted", build_chain_mt,
                                     tuple(_differ(p.text, p.holds, p.error)
                                           for p in CHAIN_MT_PRECONDITIONS), validate_chain_mt)


def build_chain_mt_outer_first(outer, inner):
    """Wrong: ``(x, rng) -> inner(outer(x, rng))``, the components applied in the other order."""
    first, second = inner.function, outer.function
    return replace(build_chain_mt(outer, inner),
                   function=lambda x, rng=None: first(second(x, rng)))


def build_chain_mt_closure_rng_to_inner(outer, inner):
    """Wrong: ``(x, rng) -> outer(inner(x, rng), rng)``; a transformation takes one argument."""
    first, second = inner.function, outer.function
    return replace(build_chain_mt(outer, inner),
                   function=lambda x, rng=None: second(first(x, rng), rng))


def build_chain_mt_memo_first(outer, inner):
    """Wrong: the first output of each chain, returned for every later input and draw."""
    first, second, memo = inner.function, outer.function, []

    def chained(x, rng=None):
        if not memo:
            memo.append(second(first(x), rng))
        return memo[0]
    return replace(build_chain_mt(outer, inner), function=chained)


def build_chain_mt_typed_branch(outer, inner):
    """Wrong: the composition on anything but a list (solver terms), the inner output scaled by
    10 on lists (real data): a second body, chosen by type, that no solver test reveals."""
    first, second = inner.function, outer.function
    return replace(build_chain_mt(outer, inner), function=lambda x, rng=None: second(
        first(x) * 10 if isinstance(x, list) else first(x), rng))


make_chain_mt_typed_branch = make_chain_mt.variant("make_chain_mt_typed_branch",
                                                   build_chain_mt_typed_branch)
make_chain_mt_outer_first = make_chain_mt.variant("make_chain_mt_outer_first",
                                                  build_chain_mt_outer_first)
make_chain_mt_closure_rng_to_inner = make_chain_mt.variant("make_chain_mt_closure_rng_to_inner",
                                                           build_chain_mt_closure_rng_to_inner)
make_chain_mt_memo_first = make_chain_mt.variant("make_chain_mt_memo_first",
                                                 build_chain_mt_memo_first)

@dataclass(frozen=True)
class RngToInner:
    """Not a ``ChainedFunction``: ``second(first(x, rng))``, the random source handed to the
    transformation (which takes one argument), so every call raises."""

    first: Callable[..., Any]
    second: Callable[..., Any]

    def __call__(self, arg: Any, rng: Any = None) -> Any:
        return self.second(self.first(arg, rng))


def build_chain_mt_rng_to_inner(outer, inner):
    return replace(build_chain_mt(outer, inner),
                   function=RngToInner(inner.function, outer.function))


_MEMO: dict[Any, Any] = {}


def memoised_map(d_in: Any, outer: Map, inner: Map) -> Any:
    """Wrong: keyed by ``d_in`` alone, shared by every chain (a solver term is not memoised, so
    the symbolic proof sees the exact composition)."""
    if ops.is_symbolic(d_in):
        return chained_map(d_in, outer, inner)
    return _MEMO.setdefault(d_in, chained_map(d_in, outer, inner))


def build_chain_mt_memoised(outer, inner):
    return replace(build_chain_mt(outer, inner), privacy_map=Map(rule=memoised_map, params={
        "outer": outer.privacy_map, "inner": inner.stability_map}))


make_chain_mt_rng_to_inner = make_chain_mt.variant("make_chain_mt_rng_to_inner",
                                                   build_chain_mt_rng_to_inner)
make_chain_mt_memoised = make_chain_mt.variant("make_chain_mt_memoised", build_chain_mt_memoised)


@dataclass(frozen=True)
class RefusesEmpty:
    """Wrong: ``(x, rng) -> outer(inner(x), rng)``, but the empty dataset raises before any draw:
    whether it raises depends on the data."""

    first: Callable[..., Any]
    second: Callable[..., Any]

    def __call__(self, arg: Any, rng: Any = None) -> Any:
        if not arg:
            raise ValueError("no rows to release")
        return self.second(self.first(arg), rng)


def build_chain_mt_refuses_empty(outer, inner):
    return replace(build_chain_mt(outer, inner),
                   function=RefusesEmpty(inner.function, outer.function))


make_chain_mt_refuses_empty = make_chain_mt.variant("make_chain_mt_refuses_empty",
                                                    build_chain_mt_refuses_empty)

STATEMENT_TWIN_OF = {
    ("make_chain_mt", Claim.OUTPUT_DOMAIN): ("make_chain_mt_outer_first", Claim.OUTPUT_DOMAIN),
    ("make_chain_mt", Claim.COMPATIBILITY): ("make_chain_mt_outer_metric_in",
                                             Claim.COMPATIBILITY),
    ("make_chain_mt", Claim.PRIVACY): ("make_chain_mt_outer_skipped", Claim.PRIVACY),
    ("make_chain_mt", Claim.RUNTIME_ERRORS): ("make_chain_mt_refuses_empty",
                                              Claim.RUNTIME_ERRORS),
}
REFUTED_STATEMENTS = {("make_chain_mt_metric_unchecked", Claim.PRIVACY),
                      ("make_chain_mt_inverted", Claim.PRIVACY),
                      ("make_chain_mt_rng_to_inner", Claim.OUTPUT_DOMAIN),
                      ("make_chain_mt_closure_rng_to_inner", Claim.OUTPUT_DOMAIN),
                      ("make_chain_mt_memoised", Claim.PRIVACY),
                      ("make_chain_mt_typed_branch", Claim.PRIVACY)}
MECHANISMS = statement_twin_entries(globals(), STATEMENT_TWIN_OF.values(), REFUTED_STATEMENTS)
UNSUPPORTED = [Entry(name, globals()[name]) for name in (
    "make_chain_mt_inner_map", "make_chain_mt_domain_unchecked", "make_chain_mt_memo_first")]
"""Wrong, but no catalogue pair of components shows it: never proved."""
