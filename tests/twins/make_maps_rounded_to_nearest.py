"""Wrong twins of every ``<prefix>.map_rounding`` obligation: the constructor's map with its upward
rounding dropped, so it is computed to nearest (plain ``/``, ``+``, ``math.log``, ``float(q)``)
and can come out a hair below its exact value. The checker must refute each with floats on which
the real code falls below; the twin of the bounded mean's seed map (real-number arithmetic, no
rounding term) must be refuted on stability by two float vectors. For a constructor with no
obligations (the discrete Laplace and Gaussian, the basic composition), the kernel refutes its
privacy statement instead."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from typing import Any, Sequence

from mechanisms import float_model, ops
from mechanisms.core import Map, length
from mechanisms.make_above_threshold import build_above_threshold, make_above_threshold
from mechanisms.make_basic_composition import build_basic_composition, make_basic_composition
from mechanisms.make_bounded_mean import build_bounded_mean, make_bounded_mean, mean_relaxation
from mechanisms.make_discrete_laplace import build_discrete_laplace, make_discrete_laplace
from mechanisms.make_gaussian import build_gaussian, make_gaussian
from mechanisms.make_laplace import build_laplace, make_laplace, relaxation
from mechanisms.make_partition_map import build_partition_map, make_partition_map
from mechanisms.make_randomized_response import (build_randomized_response,
                                                 make_randomized_response, odds, rr_privacy_map)
from mechanisms.make_report_noisy_max import build_report_noisy_max, make_report_noisy_max
from mechanisms.make_sized_bounded_float_checked_sum import (
    build_sized_bounded_float_checked_sum, make_sized_bounded_float_checked_sum)
from mechanisms.make_zCDP_to_approxDP import build_zcdp_to_approx, make_zCDP_to_approxDP
from obligations.base import Entry
from obligations.kernel.statements import Claim
from obligations.make_above_threshold import above_threshold_obligations
from obligations.make_bounded_mean import bounded_mean_obligations
from obligations.make_laplace import laplace_obligations
from obligations.make_partition_map import partition_map_obligations
from obligations.make_randomized_response import randomized_response_obligations
from obligations.make_report_noisy_max import report_noisy_max_obligations
from obligations.make_sized_bounded_float_checked_sum import sized_float_sum_obligations
from obligations.make_zCDP_to_approxDP import zcdp_to_approx_obligations


def nearest(q: Any) -> Any:
    """Wrong rounding: ``float(q)``, the nearest float, which may lie below ``q`` (read as ``q``
    itself by the exact model, like every rounding)."""
    if ops.is_symbolic(q):
        return float_model.rounded(q)
    return q if ops.exact_numbers() else float(q)


def ln_nearest(r: Any) -> Any:
    """Wrong rounding: ``math.log``, to nearest, which may lie below ``ln r`` (read as the real
    ``ln`` by the exact model)."""
    if ops.is_symbolic(r):
        return float_model.rounded(float_model.LN(ops.exact(r))) if float_model.active() \
            else ops.ln_up(r)
    return ops.ln_up(r) if ops.exact_numbers() else math.log(r)


def plain_sum(a: Any, b: Any) -> Any:
    """Wrong rounding: ``a + b`` in floats, to nearest."""
    return a + b


def divide_to_nearest(d_in: Any, scale: Any) -> Any:
    """``d_in / scale`` in floats (0 at ``d_in = 0``)."""
    return ops.where(ops.eq(d_in, 0), 0, d_in / scale)


def square_to_nearest(d_in: Any, scale: Any) -> Any:
    """``d_in^2 / (2 scale^2)`` in floats (0 at ``d_in = 0``)."""
    return ops.where(ops.eq(d_in, 0), 0, d_in * d_in / (2 * scale * scale))


def laplace_to_nearest(d_in: Any, scale: Any, multiple: Any) -> Any:
    """``(d_in + 2^k - 2^-1074) / scale`` in floats (0 at ``d_in = 0``)."""
    return ops.where(ops.eq(d_in, 0), 0, (d_in + relaxation(multiple)) / scale)


def twice_to_nearest(d_in: Any, scale: Any) -> Any:
    """``2 d_in / scale`` in floats."""
    return 2 * d_in / scale


def sum_map_to_nearest(d_in: Any, lower: Any, upper: Any, relaxation: Any) -> Any:
    """The float sum's exact map, then ``float(q)`` instead of ``float_up(q)``."""
    exact_sensitivity = ops.floor(ops.exact(d_in) / 2) * (ops.exact(upper) - ops.exact(lower))
    return nearest(exact_sensitivity + relaxation)


def mean_map_to_nearest(d_in: Any, lower: Any, upper: Any, n: Any, relaxation: Any) -> Any:
    """The mean's exact map, then ``float(q)`` instead of ``float_up(q)``."""
    spread = ops.exact(upper) - ops.exact(lower)
    return nearest(ops.exact(d_in) * spread / (2 * n) + relaxation)


def seed_mean_map(d_in: Any, lower: Any, upper: Any, n: Any, relaxation: Any) -> Any:
    """The seed's real-number map ``d_in (U - L) / (2n)``: no term for the float rounding."""
    return ops.exact(d_in) * (ops.exact(upper) - ops.exact(lower)) / (2 * n)


def approx_epsilon_to_nearest(d_in: Any, inner: Map, delta: Any) -> tuple[Any, Any]:
    """``rho + 2 sqrt_up(...)`` with the final sum in floats, to nearest."""
    rho = inner(d_in)
    log_term = ops.ln_up(1 / ops.exact(delta))
    return rho + 2 * ops.sqrt_up(ops.mul_up(rho, log_term)), delta


def with_map(built: Any, rule: Any, **params: Any) -> Any:
    """``built`` with its map replaced (stability or privacy, whichever it has)."""
    field = "stability_map" if hasattr(built, "stability_map") else "privacy_map"
    return replace(built, **{field: Map(rule=rule, params=params)})


def build_dl(scale: Any):
    return with_map(build_discrete_laplace(scale), divide_to_nearest, scale=scale)


def build_gauss(scale: Any):
    return with_map(build_gaussian(scale), square_to_nearest, scale=scale)


def build_lap(scale: Any, k: Any = -1074):
    built = build_laplace(scale, k)
    return with_map(built, laplace_to_nearest, **built.privacy_map.params)


def build_rnm(scale: Any, optimize: str = "max", T: type = float):
    return with_map(build_report_noisy_max(scale, optimize, T), twice_to_nearest, scale=scale)


def build_svt(scale: Any, threshold: Any):
    return with_map(build_above_threshold(scale, threshold), twice_to_nearest, scale=scale)


def build_rr(categories: Sequence[Any], prob: Any):
    t = length(categories)
    return with_map(build_randomized_response(categories, prob), rr_privacy_map,
                    epsilon=ln_nearest(odds(prob, t)))


def build_zcdp(measurement: Any, delta: Any):
    return with_map(build_zcdp_to_approx(measurement, delta), approx_epsilon_to_nearest,
                    inner=measurement.privacy_map, delta=delta)


def build_composition(measurements: Sequence[Any]):
    built = build_basic_composition(measurements)
    return with_map(built, built.privacy_map.rule, **{**built.privacy_map.params,
                                                      "combine": plain_sum})


def build_partition(transformations: Sequence[Any]):
    built = build_partition_map(transformations)
    combine = built.stability_map.params["combine"]
    return with_map(built, built.stability_map.rule, **{
        **built.stability_map.params, "combine": combine if combine is ops.maximum else plain_sum})


def build_float_sum(size: Any, lower: Any, upper: Any, summation: str = "pairwise"):
    built = build_sized_bounded_float_checked_sum(size, lower, upper, summation)
    return with_map(built, sum_map_to_nearest, **built.stability_map.params)


def build_mean(lower: Any, upper: Any, n: Any):
    return with_map(build_bounded_mean(lower, upper, n), mean_map_to_nearest, lower=lower,
                    upper=upper, n=n, relaxation=mean_relaxation(lower, upper, n))


def build_seed_mean(lower: Any, upper: Any, n: Any):
    return with_map(build_bounded_mean(lower, upper, n), seed_mean_map, lower=lower,
                    upper=upper, n=n, relaxation=Fraction(0))


VARIANTS = [
    ("laplace", make_laplace.variant("make_laplace_nearest_map", build_lap),
     laplace_obligations, "laplace_nearest_map"),
    ("report_noisy_max", make_report_noisy_max.variant("make_rnm_nearest_map", build_rnm),
     report_noisy_max_obligations, "rnm_nearest_map"),
    ("above_threshold", make_above_threshold.variant("make_svt_nearest_map", build_svt),
     above_threshold_obligations, "svt_nearest_map"),
    ("randomized_response", make_randomized_response.variant("make_rr_math_log", build_rr),
     randomized_response_obligations, "rr_math_log"),
    ("zCDP_to_approxDP", make_zCDP_to_approxDP.variant("make_zcdp_plain_sum", build_zcdp),
     zcdp_to_approx_obligations, "zcdp_plain_sum"),
    ("partition_map", make_partition_map.variant("make_partition_plain_sum", build_partition),
     partition_map_obligations, "partition_plain_sum"),
    ("sized_bounded_float_checked_sum",
     make_sized_bounded_float_checked_sum.variant("make_float_sum_nearest_map", build_float_sum),
     sized_float_sum_obligations, "float_sum_nearest_map"),
    ("bounded_mean", make_bounded_mean.variant("make_mean_nearest_map", build_mean),
     bounded_mean_obligations, "mean_nearest_map"),
]

make_mean_seed_map = make_bounded_mean.variant("make_mean_seed_map", build_seed_mean)
make_dl_nearest_map = make_discrete_laplace.variant("make_dl_nearest_map", build_dl)
make_gaussian_nearest_map = make_gaussian.variant("make_gaussian_nearest_map", build_gauss)
make_composition_plain_sum = make_basic_composition.variant("make_composition_plain_sum",
                                                            build_composition)


def _only(obligations: tuple, suffix: str) -> tuple:
    return tuple(o for o in obligations if o.id.endswith(suffix))


MECHANISMS = [
    *[Entry(constructor.name, constructor,
            _only(obligations(constructor, prefix), ".map_rounding"))
      for _, constructor, obligations, prefix in VARIANTS],
    Entry("make_mean_seed_map", make_mean_seed_map,
          _only(bounded_mean_obligations(make_mean_seed_map, "mean_seed_map"), ".stability")),
    Entry("make_dl_nearest_map", make_dl_nearest_map),
    Entry("make_gaussian_nearest_map", make_gaussian_nearest_map),
    Entry("make_composition_plain_sum", make_composition_plain_sum),
]
REFUTED_STATEMENTS = {("make_dl_nearest_map", Claim.PRIVACY),
                      ("make_gaussian_nearest_map", Claim.PRIVACY),
                      ("make_composition_plain_sum", Claim.PRIVACY)}
"""The constructors with no obligations: the map rounded to nearest is refuted as privacy."""

EXPECTED_REFUTATIONS = {*[f"{prefix}.map_rounding" for *_, prefix in VARIANTS],
                        "mean_seed_map.stability"}

TWIN_OF = {f"{original}.map_rounding": f"{prefix}.map_rounding"
           for original, _, _, prefix in VARIANTS}
