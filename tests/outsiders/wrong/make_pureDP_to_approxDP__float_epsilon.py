"""Pure-to-approximate conversion that casts the epsilon to a float, map
``(float(m(d_in)), 0.0)`` ("OpenDP's measures hold f64").

Wrong for components whose map is exact: a pure-DP measurement may return its epsilon as a
``Fraction`` (exact, a valid bound), and ``float`` rounds it to nearest, possibly down. The
discrete Laplace of scale 3 with the exact map ``d_in / 3`` (a correct measurement: its loss at
``d_in = 1`` is exactly ``1/3``, attained at every output ``y <= 0`` for inputs 0 and 1) is
converted to ``(0.3333333333333333, 0.0)``, and ``0.3333333333333333 < 1/3``: the event
``{y = 0}`` has ``Pr[M(0) in S] = exp(1/3) Pr[M(1) in S] > exp(float(1/3)) Pr[M(1) in S] + 0``.
Hole classes: none listed (a map rounded to nearest).
"""

import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import dl_pmf, mp  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from mechanisms.make_pureDP_to_approxDP import build_pure_to_approx, make_pureDP_to_approxDP  # noqa: E402
from mechanisms.samplers import sample_discrete_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_pureDP_to_approxDP import pure_to_approx_obligations  # noqa: E402

CONSTRUCTOR = "make_pureDP_to_approxDP"
CLASSES = ()


def float_map(d_in, inner):
    return float(inner(d_in)), 0.0


def build(measurement):
    return replace(build_pure_to_approx(measurement),
                   privacy_map=Map(rule=float_map, params={"inner": measurement.privacy_map}))


make_p2a_float = make_pureDP_to_approxDP.variant("make_pureDP_to_approxDP_float_epsilon", build)
MECHANISMS = [Entry("outsider_pure_to_approx_float_epsilon", make_p2a_float,
                    pure_to_approx_obligations(make_p2a_float, "outsider_pure_to_approx_float_epsilon"))]


def exact_laplace_map(d_in, scale):
    return Fraction(d_in) / Fraction(scale)


def witness() -> str:
    component = replace(make_discrete_laplace(3.0),
                        privacy_map=Map(rule=exact_laplace_map, params={"scale": 3.0}))
    assert component.map(1) == Fraction(1, 3)
    assert component.function.sampler is sample_discrete_laplace
    m = make_p2a_float(component)
    eps, delta = m.map(1)
    assert delta == 0 and Fraction(eps) < Fraction(1, 3)
    ratio = dl_pmf(0, 3) / dl_pmf(-1, 3)  # Pr[M(0) = 0] / Pr[M(1) = 0]
    assert mpmath.log(ratio) > mp(eps), (ratio, eps)
    return (f"discrete Laplace scale 3, exact map 1/3; variant map(1) = {m.map(1)}; event {{0}}: "
            f"ln ratio = {mpmath.nstr(mpmath.log(ratio), 20)} > {eps!r} with delta 0")
