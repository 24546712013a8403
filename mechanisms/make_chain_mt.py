"""``make_chain_mt(outer, inner)``: the measurement ``outer ∘ inner`` (OpenDP's ``make_chain_mt``).

Input domain and metric are the transformation ``inner``'s; output domain and measure are the
measurement ``outer``'s; the function is ``(x, rng) -> outer.function(inner.function(x), rng)``
and the privacy map is ``d_in -> outer.map(inner.map(d_in))``: ``d_in``-close inputs give
``inner.map(d_in)``-close arguments of ``outer``, whose own guarantee bounds the divergence.
Preconditions as for ``make_chain_tt``. ``Transformation >> Measurement`` is this.
"""

from __future__ import annotations

from typing import Any

from mechanisms.core import Constructor, Map, Measurement, Transformation
from mechanisms.errors import CombinatorError
from mechanisms.make_chain_tt import (CHAIN_PRECONDITIONS, ChainedFunction, chained_map,
                                      require_transformation_inner)


CHAIN_MT_PRECONDITIONS = (*CHAIN_PRECONDITIONS,)
"""The meeting domains and metrics agree: ``make_chain_tt``'s preconditions."""


def validate_chain_mt(outer: Any, inner: Any) -> None:
    require_transformation_inner(inner)
    if not isinstance(outer, Measurement):
        raise CombinatorError(f"make_chain_mt needs a Measurement outer, got {outer!r}",
                              outer=outer)


def build_chain_mt(outer: Measurement, inner: Transformation) -> Measurement:
    return Measurement(
        input_domain=inner.input_domain,
        output_domain=outer.output_domain,
        input_metric=inner.input_metric,
        output_measure=outer.output_measure,
        function=ChainedFunction(inner.function, outer.function),
        privacy_map=Map(rule=chained_map,
                        params={"outer": outer.privacy_map, "inner": inner.stability_map}),
    )


make_chain_mt = Constructor("make_chain_mt", build_chain_mt, CHAIN_MT_PRECONDITIONS,
                            validate_chain_mt)
