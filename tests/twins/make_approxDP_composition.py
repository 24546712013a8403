"""Wrong twins of ``make_approxDP_composition``, one per obligation: slips a port of OpenDP's
``make_composition`` on approximate measures could make, each refuted with a counterexample the
real code confirms."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mechanisms import ops
from mechanisms.core import Map
from mechanisms.make_approxDP_composition import build_approx_composition, make_approxDP_composition
from mechanisms.make_partition_map import partition_bound
from mechanisms.metrics import SymmetricDistance
from obligations.make_approxDP_composition import approx_composition_obligations
from tests.twins._statements import twin_entries


def max_epsilon_up(total: tuple[Any, Any], part: tuple[Any, Any]) -> tuple[Any, Any]:
    """Wrong: the epsilons combined by ``max`` (the partition map's combiner for linear maps, as
    if the components saw disjoint data), the deltas summed."""
    return ops.maximum(total[0], part[0]), ops.add_up(total[1], part[1])


def add_pairs_nearest(total: tuple[Any, Any], part: tuple[Any, Any]) -> tuple[Any, Any]:
    """Wrong: plain ``+`` (rounded to nearest), so a float sum may fall below the exact one."""
    return total[0] + part[0], total[1] + part[1]


def _with_combine(measurements, combine):
    return replace(build_approx_composition(measurements), privacy_map=Map(
        rule=partition_bound, params={"maps": tuple(m.privacy_map for m in measurements),
                                      "combine": combine}))


def build_approx_first_domain(measurements):
    """Wrong: the first component's output domain, not the product."""
    return replace(build_approx_composition(measurements),
                   output_domain=measurements[0].output_domain)


def build_approx_symmetric_in(measurements):
    """Wrong: symmetric distance as the input metric (the components' is absolute)."""
    return replace(build_approx_composition(measurements), input_metric=SymmetricDistance())


def build_approx_max_epsilon(measurements):
    return _with_combine(measurements, max_epsilon_up)


def build_approx_nearest(measurements):
    return _with_combine(measurements, add_pairs_nearest)


TWINS = {"output_domain": ("approx_first_domain", build_approx_first_domain),
         "compatibility": ("approx_symmetric_in", build_approx_symmetric_in),
         "privacy": ("approx_max_epsilon", build_approx_max_epsilon),
         "map_rounding": ("approx_nearest", build_approx_nearest)}

make_approx_first_domain = make_approxDP_composition.variant("make_approx_first_domain",
                                                             build_approx_first_domain)
make_approx_symmetric_in = make_approxDP_composition.variant("make_approx_symmetric_in",
                                                             build_approx_symmetric_in)
make_approx_max_epsilon = make_approxDP_composition.variant("make_approx_max_epsilon",
                                                            build_approx_max_epsilon)
make_approx_nearest = make_approxDP_composition.variant("make_approx_nearest", build_approx_nearest)

MECHANISMS = twin_entries(globals(), approx_composition_obligations, TWINS)
EXPECTED_REFUTATIONS = {f"{prefix}.{suffix}" for suffix, (prefix, _) in TWINS.items()}
TWIN_OF = {f"approxDP_composition.{suffix}": f"{prefix}.{suffix}"
           for suffix, (prefix, _) in TWINS.items()}
