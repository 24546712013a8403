"""Wrong twins of ``make_chain_mt``: one per obligation; preconditions dropped (refuted, confirmed
on real components) or made unsatisfiable (never proved); a chain function of another class that
hands the random source to the inner transformation (it raises on every input: refuted by the
witness run, never a crash while building goals); a map memoised by ``d_in`` alone across chains
(refuted by real chains' exact loss). Chain functions written as closures: outer applied before
inner (output_domain refuted: the count raises on randomized response's integer output, a valid
input with no output); the draw handed to the inner transformation (refuted by the witness run);
the first output memoised in the chain (unknown: it differs from the composition on stand-ins,
and no real chain shows a violation)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from mechanisms import ops
from mechanisms.core import Constructor, Map
from mechanisms.make_chain_tt import chained_map
from mechanisms.make_chain_mt import (CHAIN_MT_PRECONDITIONS, build_chain_mt, make_chain_mt,
                                      validate_chain_mt)
from obligations.base import Entry
from obligations.make_chain_mt import chain_mt_obligations
from tests.twins.make_chain_tt import InnerOnly, _differ, twin_entries


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


TWINS = {"output_domain": ("chain_mt_outer_skipped", build_chain_mt_outer_skipped),
         "compatibility": ("chain_mt_outer_metric_in", build_chain_mt_outer_metric_in),
         "privacy": ("chain_mt_inner_map", build_chain_mt_inner_map)}

make_chain_mt_outer_skipped = make_chain_mt.variant("make_chain_mt_outer_skipped",
    build_chain_mt_outer_skipped)
make_chain_mt_outer_metric_in = make_chain_mt.variant("make_chain_mt_outer_metric_in",
    build_chain_mt_outer_metric_in)
make_chain_mt_inner_map = make_chain_mt.variant("make_chain_mt_inner_map",
    build_chain_mt_inner_map)

MECHANISMS = twin_entries(globals(), chain_mt_obligations, TWINS)
EXPECTED_REFUTATIONS = {f"{prefix}.{suffix}" for suffix, (prefix, _) in TWINS.items()}
TWIN_OF = {f"chain_mt.{suffix}": f"{prefix}.{suffix}" for suffix, (prefix, _) in TWINS.items()}


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

PRECONDITION_TWINS = {"chain_mt_domain_unchecked": "output_domain",
                      "chain_mt_metric_unchecked": "privacy"}
MECHANISMS += [Entry(f"make_{prefix}", globals()[f"make_{prefix}"],
                     chain_mt_obligations(globals()[f"make_{prefix}"], prefix))
               for prefix in PRECONDITION_TWINS]
EXPECTED_REFUTATIONS |= {f"{prefix}.{suffix}" for prefix, suffix in PRECONDITION_TWINS.items()}
UNSUPPORTED = [Entry(f"make_{prefix}", globals()[f"make_{prefix}"],
                     chain_mt_obligations(globals()[f"make_{prefix}"], prefix))
               for prefix in ("chain_mt_inverted", "chain_mt_memo_first",
                              "chain_mt_typed_branch")]


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
RUNNING_TWINS = {"chain_mt_rng_to_inner": "output_domain", "chain_mt_memoised": "privacy",
                 "chain_mt_outer_first": "output_domain",
                 "chain_mt_closure_rng_to_inner": "output_domain"}
MECHANISMS += [Entry(f"make_{prefix}", globals()[f"make_{prefix}"],
                     chain_mt_obligations(globals()[f"make_{prefix}"], prefix))
               for prefix in RUNNING_TWINS]
EXPECTED_REFUTATIONS |= {f"{prefix}.{suffix}" for prefix, suffix in RUNNING_TWINS.items()}
