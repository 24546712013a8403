"""Pure-to-approximate conversion made "idempotent": it also accepts an approximate-DP
measurement, unpacking its map as ``eps, _ = inner(d_in)`` and returning ``(eps, 0)`` (the
line written for the pure case, ``(inner(d_in), 0)``, extended without keeping the delta).

Wrong: ``make_zCDP_to_approxDP(make_gaussian(2.0), 1e-6)`` is ``(2.7533, 1e-6)``-DP at
``d_in = 1`` but not ``(2.7533, 0)``-DP: the discrete Gaussian's ratio
``Pr[M(1) = y] / Pr[M(0) = y] = exp((2y - 1)/8)`` exceeds ``exp(2.7533)`` at ``y = 12``
(``23/8 = 2.875``), so the event ``{12}`` breaks the claimed ``(eps, 0)``: the delta the
component needed was dropped.
Hole classes: none listed (a map bug: a component's delta lost).
"""

import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import Map, Measurement  # noqa: E402
from mechanisms.errors import CombinatorError  # noqa: E402
from mechanisms.make_gaussian import make_gaussian  # noqa: E402
from mechanisms.make_pureDP_to_approxDP import make_pureDP_to_approxDP  # noqa: E402
from mechanisms.make_zCDP_to_approxDP import make_zCDP_to_approxDP  # noqa: E402
from mechanisms.measures import FixedSmoothedMaxDivergence, MaxDivergence  # noqa: E402
from mechanisms.samplers import sample_discrete_gaussian  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_pureDP_to_approxDP import pure_to_approx_obligations  # noqa: E402

CONSTRUCTOR = "make_pureDP_to_approxDP"
CLASSES = ()


def validate(measurement):
    if not isinstance(measurement, Measurement) or not isinstance(
            measurement.output_measure, (MaxDivergence, FixedSmoothedMaxDivergence)):
        raise CombinatorError("needs a pure or approximate DP Measurement", measurement=measurement)


def eps_only_map(d_in, inner):
    value = inner(d_in)
    eps = value[0] if isinstance(value, tuple) else value
    return eps, 0


def build(measurement):
    return Measurement(
        input_domain=measurement.input_domain,
        output_domain=measurement.output_domain,
        input_metric=measurement.input_metric,
        output_measure=FixedSmoothedMaxDivergence(),
        function=measurement.function,
        privacy_map=Map(rule=eps_only_map, params={"inner": measurement.privacy_map}),
    )


make_p2a_drop = make_pureDP_to_approxDP.variant("make_pureDP_to_approxDP_drops_delta", build)
make_p2a_drop.validate = validate
MECHANISMS = [Entry("outsider_pure_to_approx_drops_delta", make_p2a_drop,
                    pure_to_approx_obligations(make_p2a_drop, "outsider_pure_to_approx_drops_delta"))]


def witness() -> str:
    component = make_zCDP_to_approxDP(make_gaussian(2.0), 1e-6)
    m = make_p2a_drop(component)
    eps, delta = m.map(1)
    assert delta == 0 and component.map(1)[1] == 1e-6
    assert m.function.sampler is sample_discrete_gaussian and Fraction(m.function.scale) == 2
    s2 = Fraction(4)
    y = 12
    log_ratio = (Fraction(y) ** 2 - Fraction(y - 1) ** 2) / (2 * s2)
    assert log_ratio > Fraction(eps), (log_ratio, eps)
    return (f"component map(1) = {component.map(1)}, variant map(1) = {m.map(1)}; event {{y = 12}}: "
            f"ln Pr[M(1) in S]/Pr[M(0) in S] = {log_ratio} > {eps} with delta 0")
