"""Pure-to-approximate conversion whose type check also accepts zCDP measurements ("both
measures carry one number; pass it on as epsilon", the same ``(MaxDivergence,
ZeroConcentratedDivergence)`` tuple that ``make_basic_composition`` accepts), map
``(m(d_in), 0)`` unchanged.

Wrong: a rho-zCDP measurement is not (rho, 0)-DP. The discrete Gaussian ``make_gaussian(2.0)``
(zCDP, ``map(1) = 1/8``) on ``x = 1`` and ``x' = 0`` has
``Pr[M(1) = y] / Pr[M(0) = y] = exp((2y - 1) / (2 sigma^2))`` (the normalisers are equal), so the
event ``{y = 2}`` has ``Pr[M(1) in S] = exp(3/8) Pr[M(0) in S] > exp(1/8) Pr[M(0) in S] + 0``:
the claimed ``(1/8, 0)`` fails. (Pure DP fails at every epsilon: the ratio is unbounded in ``y``.)
Hole classes: none listed (a type check widened: a domain/measure that does not fit).
"""

import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import Measurement  # noqa: E402
from mechanisms.errors import CombinatorError  # noqa: E402
from mechanisms.make_gaussian import make_gaussian  # noqa: E402
from mechanisms.make_pureDP_to_approxDP import build_pure_to_approx, make_pureDP_to_approxDP  # noqa: E402
from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence  # noqa: E402
from mechanisms.samplers import sample_discrete_gaussian  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_pureDP_to_approxDP import pure_to_approx_obligations  # noqa: E402

CONSTRUCTOR = "make_pureDP_to_approxDP"
CLASSES = ()


def validate(measurement):
    if not isinstance(measurement, Measurement) or not isinstance(
            measurement.output_measure, (MaxDivergence, ZeroConcentratedDivergence)):
        raise CombinatorError("needs a MaxDivergence or zCDP Measurement", measurement=measurement)


make_p2a_zcdp = make_pureDP_to_approxDP.variant("make_pureDP_to_approxDP_accepts_zcdp",
                                                build_pure_to_approx)
make_p2a_zcdp.validate = validate
MECHANISMS = [Entry("outsider_pure_to_approx_accepts_zcdp", make_p2a_zcdp,
                    pure_to_approx_obligations(make_p2a_zcdp, "outsider_pure_to_approx_accepts_zcdp"))]


def witness() -> str:
    scale = 2.0
    g = make_gaussian(scale)
    m = make_p2a_zcdp(g)
    eps, delta = m.map(1)
    assert delta == 0 and m.input_metric.distance(1, 0) == 1
    assert m.function.sampler is sample_discrete_gaussian and Fraction(m.function.scale) == 2
    # discrete Gaussian: Pr[x + Z = y] proportional to exp(-(y - x)^2 / (2 s^2)), same normaliser
    s2 = Fraction(scale) ** 2
    y = 2
    log_ratio = (Fraction(y) ** 2 - Fraction(y - 1) ** 2) / (2 * s2)  # ln Pr[M(1)=y]/Pr[M(0)=y]
    assert log_ratio == Fraction(3, 8) and log_ratio > Fraction(eps)
    return (f"make_gaussian(2.0) as approx-DP: map(1) = {m.map(1)}, but event {{y = 2}} has "
            f"ln Pr[M(1) in S]/Pr[M(0) in S] = 3/8 > {eps} with delta 0")
