"""Wrong twins of ``make_zCDP_to_approxDP``: one per obligation; a precondition no delta meets
(``1 < delta < 1``) and one admitting ``delta >= 1`` (where ``ln(1/delta) < 0``), never proved."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mechanisms import ops
from mechanisms.core import Constructor, Map, Precondition
from mechanisms.make_zCDP_to_approxDP import (build_zcdp_to_approx, delta_error,
                                              make_zCDP_to_approxDP, validate_zcdp_to_approx)
from mechanisms.metrics import SymmetricDistance
from obligations.make_zCDP_to_approxDP import zcdp_to_approx_obligations
from obligations.base import Entry
from tests.twins._statements import twin_entries


def half_root_map(d_in: Any, inner: Map, delta: Any) -> tuple[Any, Any]:
    """Wrong: ``rho + sqrt(rho ln(1/delta))``, the factor 2 dropped."""
    rho = inner(d_in)
    return ops.add_up(rho, ops.sqrt_up(ops.mul_up(rho, ops.ln_up(1 / ops.exact(delta))))), delta


def build_zcdp_input_domain_out(measurement, delta):
    """Wrong: the measurement's input domain as the output domain."""
    return replace(build_zcdp_to_approx(measurement, delta), output_domain=measurement.input_domain)


def build_zcdp_symmetric_in(measurement, delta):
    return replace(build_zcdp_to_approx(measurement, delta), input_metric=SymmetricDistance())


def build_zcdp_half_root(measurement, delta):
    return replace(build_zcdp_to_approx(measurement, delta), privacy_map=Map(
        rule=half_root_map, params={"inner": measurement.privacy_map, "delta": delta}))


TWINS = {"output_domain": ("zcdp_input_domain_out", build_zcdp_input_domain_out),
         "compatibility": ("zcdp_symmetric_in", build_zcdp_symmetric_in),
         "privacy": ("zcdp_half_root", build_zcdp_half_root)}

make_zcdp_input_domain_out = make_zCDP_to_approxDP.variant("make_zcdp_input_domain_out",
    build_zcdp_input_domain_out)
make_zcdp_symmetric_in = make_zCDP_to_approxDP.variant("make_zcdp_symmetric_in",
    build_zcdp_symmetric_in)
make_zcdp_half_root = make_zCDP_to_approxDP.variant("make_zcdp_half_root", build_zcdp_half_root)

MECHANISMS = twin_entries(globals(), zcdp_to_approx_obligations, TWINS)
EXPECTED_REFUTATIONS = {f"{prefix}.{suffix}" for suffix, (prefix, _) in TWINS.items()}
TWIN_OF = {f"zCDP_to_approxDP.{suffix}": f"{prefix}.{suffix}"
           for suffix, (prefix, _) in TWINS.items()}


def _delta_between(low: Any, high: Any) -> Constructor:
    """The constructor with precondition ``low < delta < high``."""
    holds = lambda measurement, delta: ops.all_of(ops.lt(low, delta), ops.lt(delta, high))  # noqa: E731
    return Constructor(f"make_zcdp_delta_{low}_{high}", build_zcdp_to_approx,
                       (Precondition(f"{low} < delta < {high}", holds, delta_error),),
                       validate_zcdp_to_approx)


make_zcdp_delta_1_1 = _delta_between(1, 1)
make_zcdp_delta_0_2 = _delta_between(0, 2)
UNSUPPORTED = [
    Entry(make_zcdp_delta_1_1.name, make_zcdp_delta_1_1,
          zcdp_to_approx_obligations(make_zcdp_delta_1_1, "zcdp_delta_1_1")),
    Entry(make_zcdp_delta_0_2.name, make_zcdp_delta_0_2,
          tuple(o for o in zcdp_to_approx_obligations(make_zcdp_delta_0_2, "zcdp_delta_0_2")
                if o.id.endswith(".privacy")))]
"""The second: its outputs and metrics are right; its privacy goal is refuted, not confirmed (at
``delta >= 1`` the code's ``ln_up`` raises, so no map value is wrong: only the model admits it)."""


def power_root_map(d_in: Any, inner: Map, delta: Any) -> Any:
    """Wrong: ``rho + 2 (rho ln_up(1/delta)) ** 0.5`` with ``** 0.5`` and plain ``*``, ``+``
    (rounded to nearest); the float model has no ``** 0.5``, so only the probes on the real map
    can (and do) find an epsilon below the stated one."""
    rho = inner(d_in)
    return rho + 2 * (rho * ops.ln_up(1 / ops.exact(delta))) ** 0.5, delta


def build_zcdp_power_root(measurement, delta):
    return replace(build_zcdp_to_approx(measurement, delta), privacy_map=Map(
        rule=power_root_map, params={"inner": measurement.privacy_map, "delta": delta}))


make_zcdp_power_root = make_zCDP_to_approxDP.variant("make_zcdp_power_root", build_zcdp_power_root)
MECHANISMS.append(Entry("make_zcdp_power_root", make_zcdp_power_root,
                        zcdp_to_approx_obligations(make_zcdp_power_root, "zcdp_power_root")))
EXPECTED_REFUTATIONS.add("zcdp_power_root.map_rounding")
