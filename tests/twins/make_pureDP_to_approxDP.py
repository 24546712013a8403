"""Wrong twins of ``make_pureDP_to_approxDP``, one per obligation: slips a port of OpenDP's
``make_approximate`` could make, each refuted with a counterexample the real code confirms."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mechanisms.core import Map
from mechanisms.make_pureDP_to_approxDP import build_pure_to_approx, make_pureDP_to_approxDP
from mechanisms.metrics import SymmetricDistance
from obligations.make_pureDP_to_approxDP import pure_to_approx_obligations
from tests.twins._statements import twin_entries


def at_one_map(d_in: Any, inner: Map) -> tuple[Any, Any]:
    """Wrong: ``(inner(1), 0)``, the measurement's epsilon at ``d_in = 1`` whatever ``d_in``
    (a map that holds only for ``d_in = 1``)."""
    return inner(1), 0


def build_pure_input_domain_out(measurement):
    """Wrong: the measurement's input domain as the output domain."""
    return replace(build_pure_to_approx(measurement), output_domain=measurement.input_domain)


def build_pure_symmetric_in(measurement):
    """Wrong: symmetric distance as the input metric (on the measurement's integers)."""
    return replace(build_pure_to_approx(measurement), input_metric=SymmetricDistance())


def build_pure_at_one(measurement):
    return replace(build_pure_to_approx(measurement), privacy_map=Map(
        rule=at_one_map, params={"inner": measurement.privacy_map}))


TWINS = {"output_domain": ("pure_input_domain_out", build_pure_input_domain_out),
         "compatibility": ("pure_symmetric_in", build_pure_symmetric_in),
         "privacy": ("pure_at_one", build_pure_at_one)}

make_pure_input_domain_out = make_pureDP_to_approxDP.variant("make_pure_input_domain_out",
                                                             build_pure_input_domain_out)
make_pure_symmetric_in = make_pureDP_to_approxDP.variant("make_pure_symmetric_in",
                                                         build_pure_symmetric_in)
make_pure_at_one = make_pureDP_to_approxDP.variant("make_pure_at_one", build_pure_at_one)

MECHANISMS = twin_entries(globals(), pure_to_approx_obligations, TWINS)
EXPECTED_REFUTATIONS = {f"{prefix}.{suffix}" for suffix, (prefix, _) in TWINS.items()}
TWIN_OF = {f"pureDP_to_approxDP.{suffix}": f"{prefix}.{suffix}"
           for suffix, (prefix, _) in TWINS.items()}
