"""Approximate composition that also takes pure-DP and zCDP components directly, reading a
component's single number ``m(d_in)`` as ``(m(d_in), 0)`` (so users need not convert first);
the output measure is fixed to ``FixedSmoothedMaxDivergence`` and components need only share
the input domain and metric.

Wrong for zCDP components: a ``rho``-zCDP measurement is not ``(rho, 0)``-DP. The composition of
the single component ``make_gaussian(2.0)`` (``rho = map(1) = 1/8``) claims ``(1/8, 0)`` at
``d_in = 1``; but for inputs ``1`` and ``0`` the discrete Gaussian's ratio at output ``y`` is
``exp((2y - 1)/(2 sigma^2))`` (equal normalisers), ``exp(3/8)`` at ``y = 2``: the event
``{(2,)}`` breaks ``(1/8, 0)``. (For pure-DP components the same reading is right: see
right/make_approxDP_composition__pure_as_approx.)
Hole classes: none listed (a measure that does not fit the map).
"""

import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import Map, Measurement  # noqa: E402
from mechanisms.domains import ProductDomain  # noqa: E402
from mechanisms.errors import CombinatorError  # noqa: E402
from mechanisms.make_approxDP_composition import make_approxDP_composition  # noqa: E402
from mechanisms.make_basic_composition import (COMPOSITION_PRECONDITIONS,  # noqa: E402
                                               CompositionFunction)
from mechanisms.make_gaussian import make_gaussian  # noqa: E402
from mechanisms.measures import (FixedSmoothedMaxDivergence, MaxDivergence,  # noqa: E402
                                 ZeroConcentratedDivergence)
from mechanisms.samplers import sample_discrete_gaussian  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_approxDP_composition import approx_composition_obligations  # noqa: E402

CONSTRUCTOR = "make_approxDP_composition"
CLASSES = ()

ACCEPTED = (FixedSmoothedMaxDivergence, MaxDivergence, ZeroConcentratedDivergence)


def validate(measurements):
    if not isinstance(measurements, (list, tuple)) or not measurements:
        raise CombinatorError("needs a non-empty list of measurements", measurements=measurements)
    for position, m in enumerate(measurements):
        if not isinstance(m, Measurement) or not isinstance(m.output_measure, ACCEPTED):
            raise CombinatorError(f"component {position} cannot be composed", position=position)


def as_pair(value):
    return value if isinstance(value, tuple) else (value, 0)


def sum_pairs_map(d_in, maps):
    eps, delta = 0, 0
    for m in maps:
        e, d = as_pair(m(d_in))
        eps, delta = eps + e, delta + d
    return eps, delta


def build(measurements):
    return Measurement(
        input_domain=measurements[0].input_domain,
        output_domain=ProductDomain(tuple(m.output_domain for m in measurements)),
        input_metric=measurements[0].input_metric,
        output_measure=FixedSmoothedMaxDivergence(),
        function=CompositionFunction(tuple(m.function for m in measurements)),
        privacy_map=Map(rule=sum_pairs_map, params={"maps": tuple(m.privacy_map for m in measurements)}),
    )


make_ac_zcdp = make_approxDP_composition.variant("make_approxDP_composition_zcdp_as_eps", build)
make_ac_zcdp.validate = validate
make_ac_zcdp.preconditions = COMPOSITION_PRECONDITIONS[:2]
MECHANISMS = [Entry("outsider_approx_composition_zcdp_as_eps", make_ac_zcdp,
                    approx_composition_obligations(make_ac_zcdp,
                                                   "outsider_approx_composition_zcdp_as_eps"))]


def witness() -> str:
    m = make_ac_zcdp([make_gaussian(2.0)])
    eps, delta = m.map(1)
    assert Fraction(eps) == Fraction(1, 8) and delta == 0
    f = m.function.functions[0]
    assert f.sampler is sample_discrete_gaussian and Fraction(f.scale) == 2
    y = 2
    log_ratio = (Fraction(y) ** 2 - Fraction(y - 1) ** 2) / (2 * Fraction(4))
    assert log_ratio > Fraction(eps)
    return f"[make_gaussian(2.0)] composed: map(1) = {(eps, delta)}, the event {{(2,)}} has log-ratio {log_ratio}"
