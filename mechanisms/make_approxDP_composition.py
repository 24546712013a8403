"""``make_approxDP_composition(measurements)``: run ``k >= 1`` approximate-DP measurements on the
same input.

``function(x, rng) = (M_1(x, rng), ..., M_k(x, rng))`` (``CompositionFunction`` of
``make_basic_composition``: each component draws its own fresh randomness, so the outputs are
independent given ``x``). Input domain and metric are the components' common ones, the output
domain the product of theirs, the output measure ``FixedSmoothedMaxDivergence``. Privacy map
``d_in -> (sum_i eps_i, sum_i delta_i)`` with ``(eps_i, delta_i) = M_i.map(d_in)``, summed left
to right with each float addition rounded up (``ops.add_up``), so never below the exact sums.
Basic composition theorem for approximate DP (Dwork and Roth 2014, Theorem 3.16): if each
``M_i`` is ``(eps_i, delta_i)``-DP, the composition is ``(sum eps_i, sum delta_i)``-DP.

Preconditions: a non-empty list or tuple of ``Measurement``s whose output measure is
``FixedSmoothedMaxDivergence`` (``CombinatorError``), sharing the first one's input domain, input
metric and output measure (those of ``make_basic_composition``: ``CombinatorError`` with the
position). OpenDP 0.16's ``make_composition`` on ``Approximate(MaxDivergence)`` measurements
has the same map and returns a list rather than a tuple; it also composes pure DP and zCDP,
which ``make_basic_composition`` covers here.
"""

from __future__ import annotations

from typing import Any, Sequence

from mechanisms import ops
from mechanisms.core import Constructor, Map, Measurement
from mechanisms.domains import ProductDomain
from mechanisms.errors import CombinatorError
from mechanisms.make_basic_composition import COMPOSITION_PRECONDITIONS, CompositionFunction
from mechanisms.make_partition_map import partition_bound
from mechanisms.measures import FixedSmoothedMaxDivergence


def add_pairs_up(total: tuple[Any, Any], part: tuple[Any, Any]) -> tuple[Any, Any]:
    """``(eps + eps', delta + delta')``, each sum rounded up on floats."""
    return ops.add_up(total[0], part[0]), ops.add_up(total[1], part[1])


def validate_approx_composition(measurements: Sequence[Measurement]) -> None:
    if not isinstance(measurements, (list, tuple)) or not measurements:
        raise CombinatorError("make_approxDP_composition needs a non-empty list of measurements",
                              measurements=measurements)
    for position, m in enumerate(measurements):
        if not isinstance(m, Measurement):
            raise CombinatorError(f"component {position} is {m!r}, not a Measurement",
                                  position=position)
        if not isinstance(m.output_measure, FixedSmoothedMaxDivergence):
            raise CombinatorError(f"component {position} has output measure {m.output_measure}; "
                                  "only FixedSmoothedMaxDivergence composes here (convert with "
                                  "make_pureDP_to_approxDP or make_zCDP_to_approxDP)",
                                  position=position, measure=m.output_measure)


def build_approx_composition(measurements: Sequence[Measurement]) -> Measurement:
    return Measurement(
        input_domain=measurements[0].input_domain,
        output_domain=ProductDomain(tuple(m.output_domain for m in measurements)),
        input_metric=measurements[0].input_metric,
        output_measure=measurements[0].output_measure,
        function=CompositionFunction(tuple(m.function for m in measurements)),
        privacy_map=Map(rule=partition_bound, params={
            "maps": tuple(m.privacy_map for m in measurements), "combine": add_pairs_up}),
    )


make_approxDP_composition = Constructor("make_approxDP_composition", build_approx_composition,
                                        COMPOSITION_PRECONDITIONS, validate_approx_composition)
