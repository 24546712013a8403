"""``make_dp_bounded_sum(lower, upper, epsilon)``: an epsilon-DP sum of bounded integer rows.

Input domain ``VectorDomain(AtomDomain(int, bounds=(lower, upper)))`` under ``SymmetricDistance``;
output ``AtomDomain(int)`` under ``MaxDivergence``. The function releases
``sum(rows) + Y`` with ``Y`` one draw of the discrete Laplace sampler
(``mechanisms.samplers.sample_discrete_laplace``); the constructor takes the privacy budget
``epsilon`` instead of a noise scale and states the map ``d_in -> d_in * epsilon`` (rounded up):
one added or removed row moves the sum by at most ``max(|lower|, |upper|)``, and noise of scale
``max(|lower|, |upper|) / epsilon`` turns that into a loss of ``epsilon``.

Preconditions: ``lower <= upper`` (both ``int``), not both bounds ``0`` (else there is nothing to
scale), ``epsilon`` a finite float ``> 0``.

MISTAKE: the noise scale is computed as ``epsilon / sensitivity`` instead of
``sensitivity / epsilon``, the usual mix-up between the Laplace scale ``b`` and its inverse
``epsilon / Delta``. With ``epsilon = 0.5`` and bounds ``[-3, 6]`` the code draws noise of scale
``1/12`` where ``12`` was due, so one added row of ``6`` costs ``72`` instead of ``0.5``.
"""

from __future__ import annotations

import random
from fractions import Fraction

from mechanisms import ops
from mechanisms.arith import mul_up
from mechanisms.core import Constructor, Map, Measurement, Precondition
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import BoundsOrderError, ConstructorError, IntBoundTypeError, ScaleError
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import SymmetricDistance
from mechanisms.samplers import draws_replaced, sample_discrete_laplace, system_rng
from obligations.base import Entry, example


def sensitivity(lower, upper):
    """The most one added or removed row moves the sum."""
    return ops.maximum(ops.absolute(lower), ops.absolute(upper))


def epsilon_map(d_in, epsilon):
    """``d_in * epsilon``, rounded up."""
    return mul_up(d_in, epsilon)


def build_dp_bounded_sum(lower: int, upper: int, epsilon: float) -> Measurement:
    def release(rows, rng=None):
        scale = Fraction(epsilon) / sensitivity(lower, upper)
        noise = sample_discrete_laplace(scale, system_rng(rng))
        return sum(rows) + noise

    return Measurement(VectorDomain(AtomDomain(int, bounds=(lower, upper))), AtomDomain(int),
                       SymmetricDistance(), MaxDivergence(), release,
                       Map(rule=epsilon_map, params={"epsilon": epsilon}))


def validate(lower, upper, epsilon):
    if type(lower) is not int or type(upper) is not int:
        raise IntBoundTypeError(lower, upper)
    if type(epsilon) is not float:
        raise ScaleError(epsilon)


PRECONDITIONS = (
    Precondition("lower <= upper", lambda lower, upper, **_: ops.le(lower, upper),
                 lambda lower, upper, **_: BoundsOrderError(lower, upper)),
    Precondition("max(|lower|, |upper|) > 0",
                 lambda lower, upper, **_: ops.lt(0, sensitivity(lower, upper)),
                 lambda lower, upper, **_: ConstructorError(
                     "bounds [0, 0] give a sum of sensitivity 0", lower=lower, upper=upper)),
    Precondition("epsilon is finite", lambda epsilon, **_: ops.is_finite(epsilon),
                 lambda epsilon, **_: ScaleError(epsilon)),
    Precondition("epsilon > 0", lambda epsilon, **_: ops.lt(0, epsilon),
                 lambda epsilon, **_: ScaleError(epsilon)),
)

make_dp_bounded_sum = Constructor("make_dp_bounded_sum", build_dp_bounded_sum, PRECONDITIONS,
                                  validate)

MECHANISMS = [Entry("make_dp_bounded_sum", make_dp_bounded_sum,
                    examples=(example("make_dp_bounded_sum(-3, 6, 0.5)",
                                      "from dp_bounded_sum_eps import make_dp_bounded_sum"),))]


def _draws(m, rows):
    seen = []

    def record(law, parameter, rng):
        seen.append((law, parameter))
        return 0
    with draws_replaced(record):
        m.function(rows, None)
    return seen


def _output_at(m, rows, z):
    with draws_replaced(lambda law, parameter, rng: z):
        return m.function(rows, None)


def _reaching(m, rows, y, window=200):
    hits = [z for z in range(-window, window + 1) if _output_at(m, rows, z) == y]
    assert len(hits) == 1, hits  # the output is rows' sum + z: strictly increasing in z
    return hits[0]


def witness() -> str:
    m = make_dp_bounded_sum(-3, 6, 0.5)
    v, w = [], [6]
    d_in = SymmetricDistance().distance(v, w)
    assert d_in == 1
    (law, scale), = _draws(m, v)
    assert law == "discrete Laplace" and _draws(m, w) == [(law, scale)]
    assert scale == Fraction(1, 12)  # epsilon / 6, not 6 / epsilon = 12
    for rows in (v, w):
        for seed in range(25):
            z = sample_discrete_laplace(scale, random.Random(seed))
            assert m(rows, random.Random(seed)) == sum(rows) + z == _output_at(m, rows, z)
    y = 6
    z_v, z_w = _reaching(m, v, y), _reaching(m, w, y)
    # Pr[Y = z] is proportional to exp(-|z| / scale): the log-ratio at y is exact
    loss = Fraction(abs(z_v) - abs(z_w)) / scale
    claimed = m.map(d_in)
    assert loss == 72 and loss > Fraction(claimed), (loss, claimed)
    return (f"make_dp_bounded_sum(-3, 6, 0.5): [] vs [6] (d_in = 1), noise scale {scale}; "
            f"ln(Pr[M([6]) = 6] / Pr[M([]) = 6]) = {loss} > map(1) = {claimed}")
