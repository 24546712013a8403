"""``make_chain_tt(outer, inner)``: the transformation ``outer ∘ inner`` (OpenDP's ``make_chain_tt``).

Input domain and metric are ``inner``'s, output domain and metric are ``outer``'s; the function is
``x -> outer.function(inner.function(x))`` and the stability map is
``d_in -> outer.map(inner.map(d_in))``: ``d_in``-close inputs give ``inner.map(d_in)``-close
intermediate values, on which ``outer``'s guarantee applies with ``d' = inner.map(d_in)``.
Precondition: ``outer``'s input domain and metric are ``inner``'s output domain and metric
(``CombinatorError`` carrying both otherwise). ``Transformation >> Transformation`` is this.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from mechanisms.core import Constructor, Map, Precondition, Transformation
from mechanisms.errors import CombinatorError


def chained_map(d_in: Any, outer: Map, inner: Map) -> Any:
    """``outer(inner(d_in))``: the outer guarantee instantiated at ``d' = inner(d_in)``."""
    return outer(inner(d_in))


@dataclass(frozen=True)
class ChainedFunction:
    """``(x, *rest) -> second(first(x), *rest)``; ``rest`` is a measurement's random source."""

    first: Callable[..., Any]
    second: Callable[..., Any]

    def __call__(self, arg: Any, *rest: Any) -> Any:
        return self.second(self.first(arg), *rest)


def domains_meet(outer: Any, inner: Any) -> bool:
    """``outer`` accepts exactly what ``inner`` promises."""
    return outer.input_domain == inner.output_domain


def metrics_meet(outer: Any, inner: Any) -> bool:
    """``outer``'s guarantee is stated in the metric ``inner``'s guarantee ends in."""
    return outer.input_metric == inner.output_metric


def domain_mismatch(outer: Any, inner: Any) -> CombinatorError:
    return CombinatorError(f"cannot chain: output domain {inner.output_domain} does not match "
                           f"input domain {outer.input_domain}",
                           inner=inner.output_domain, outer=outer.input_domain)


def metric_mismatch(outer: Any, inner: Any) -> CombinatorError:
    return CombinatorError(f"cannot chain: output metric {inner.output_metric} does not match "
                           f"input metric {outer.input_metric}",
                           inner=inner.output_metric, outer=outer.input_metric)


CHAIN_PRECONDITIONS = (
    Precondition("outer.input_domain == inner.output_domain", domains_meet, domain_mismatch),
    Precondition("outer.input_metric == inner.output_metric", metrics_meet, metric_mismatch),
)
"""Shared by ``make_chain_tt`` and ``make_chain_mt``."""


def require_transformation_inner(inner: Any) -> None:
    """Only a transformation can come first in a chain."""
    if not isinstance(inner, Transformation):
        raise CombinatorError(f"only a Transformation can come first in a chain, got {inner!r}",
                              inner=inner)


def validate_chain_tt(outer: Any, inner: Any) -> None:
    require_transformation_inner(inner)
    if not isinstance(outer, Transformation):
        raise CombinatorError(f"make_chain_tt needs a Transformation outer, got {outer!r}",
                              outer=outer)


def build_chain_tt(outer: Transformation, inner: Transformation) -> Transformation:
    return Transformation(
        input_domain=inner.input_domain,
        output_domain=outer.output_domain,
        input_metric=inner.input_metric,
        output_metric=outer.output_metric,
        function=ChainedFunction(inner.function, outer.function),
        stability_map=Map(rule=chained_map,
                          params={"outer": outer.stability_map, "inner": inner.stability_map}),
    )


make_chain_tt = Constructor("make_chain_tt", build_chain_tt, CHAIN_PRECONDITIONS,
                            validate_chain_tt)
