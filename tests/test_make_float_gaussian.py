"""mechanisms.make_float_gaussian: refusals, the grid, the exact zCDP map rounded up once, the
sampler's law on the grid, and comparison with OpenDP 0.16's float Gaussian."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from scipy import stats

from mechanisms.domains import AtomDomain
from mechanisms.errors import DomainError, GranularityError, ScaleError
from mechanisms.make_float_gaussian import make_float_gaussian
from mechanisms.measures import ZeroConcentratedDivergence
from mechanisms.metrics import AbsoluteDistance

ALPHA = 1e-6
"""False-alarm rate of each statistical test (the draws are seeded, so a run is reproducible)."""
U = Fraction(1, 2 ** 1074)


def exact_map(d_in: float, scale: float, k: int) -> Fraction:
    """``((d_in + 2^k - 2^-1074) / scale)^2 / 2``, from the formula (not the code)."""
    shifted = Fraction(d_in) + Fraction(2) ** k - U
    return shifted * shifted / (2 * Fraction(scale) ** 2)


@pytest.mark.parametrize("scale", [-1.0, -1e-300, math.nan, math.inf, 1, True, None])
def test_bad_scale_is_refused(scale):
    with pytest.raises(ScaleError) as info:
        make_float_gaussian(scale)
    assert info.value.scale is scale


@pytest.mark.parametrize("k", [-1075, -2000, 1.0, None, True])
def test_bad_k_is_refused(k):
    with pytest.raises(GranularityError) as info:
        make_float_gaussian(1.0, k)
    assert info.value.k is k


def test_domains_metric_measure():
    m = make_float_gaussian(1.0, -10)
    assert m.input_domain == AtomDomain(float) and m.output_domain == AtomDomain(float)
    assert m.input_metric == AbsoluteDistance()
    assert m.output_measure == ZeroConcentratedDivergence()


@pytest.mark.parametrize("arg", [1, math.nan, "1.0", None])
def test_non_float_input_is_refused(arg):
    with pytest.raises(DomainError):
        make_float_gaussian(1.0)(arg, random.Random(0))


@pytest.mark.parametrize("k", [-1074, -10, 0, 3])
def test_outputs_are_floats_on_the_grid_near_the_input(k):
    rng = random.Random(5 + k)
    m = make_float_gaussian(2.0, k)
    for x in (0.0, 1.3, -7.5, 1e6):
        for _ in range(50):
            y = m(x, rng)
            assert type(y) is float
            assert (Fraction(y) / Fraction(2) ** k).denominator == 1  # a grid point
            # |noise| > 30 = 15 sigma has probability below 1e-40 per draw
            assert abs(y - x) <= 30 + 2.0 ** k


def test_infinite_inputs_are_clamped_and_outputs_may_overflow():
    m = make_float_gaussian(1.0, 0)
    y = m(math.inf, random.Random(0))
    assert y >= 1e308  # max float plus noise, to the nearest float (+inf beyond)
    assert m(-math.inf, random.Random(0)) <= -1e308


def test_zero_scale_adds_no_noise_and_rounds_to_the_grid():
    m = make_float_gaussian(0.0, -2)
    assert m(1.3, random.Random(0)) == 1.25  # nearest multiple of 1/4
    assert m(0.125, random.Random(0)) == 0.25  # a tie goes up
    assert m.map(0.0) == 0 and m.map(1e-300) == math.inf


def test_map_is_the_exact_rho_rounded_up_once():
    rng = random.Random(4)
    for _ in range(400):
        scale = rng.uniform(1e-2, 1e2)
        d_in = rng.uniform(0, 1e3)
        k = rng.choice([-1074, -30, -10, 0, 2])
        exact = exact_map(d_in, scale, k)
        value = make_float_gaussian(scale, k).map(d_in)
        assert Fraction(value) >= exact > Fraction(math.nextafter(value, 0.0))
    assert make_float_gaussian(1.0).map(math.inf) == math.inf


def grid_pmf(z: int, sigma: float) -> float:
    weights = {y: math.exp(-y * y / (2 * sigma * sigma))
               for y in range(-int(40 * sigma) - 40, int(40 * sigma) + 41)}
    return weights[z] / math.fsum(weights.values())


@pytest.mark.parametrize("scale, k, x", [(0.3, -2, 0.1), (1.0, 0, 3.0), (0.75, -1, -2.25)])
def test_sampler_draws_the_discrete_gaussian_on_the_grid(scale, k, x):
    """Chi-square goodness of fit of 6 000 seeded draws, in grid steps from the grid point
    nearest ``x``, against the discrete Gaussian of sigma = scale / 2^k, at false-alarm rate
    ALPHA."""
    m = make_float_gaussian(scale, k)
    step = Fraction(2) ** k
    centre = math.floor(Fraction(x) / step + Fraction(1, 2))
    sigma = scale / float(step)
    rng = random.Random(17)
    n = 6_000
    draws = [int(Fraction(m(x, rng)) / step) - centre for _ in range(n)]
    span = max(2, int(2.5 * sigma))
    observed = [sum(1 for z in draws if z == v) for v in range(-span, span + 1)]
    observed.append(n - sum(observed))
    expected = [n * grid_pmf(v, sigma) for v in range(-span, span + 1)]
    expected.append(n - sum(expected))
    statistic, p_value = stats.chisquare(observed, expected)
    assert p_value > ALPHA, (statistic, p_value)


SCALES = [0.1, 0.3, 1.0, 2.5, 7.0, 1e3]
KS = [-1074, -30, -10, 0, 3]
DISTANCES = [0.5, 1.0, 3.0, 1e-300, 17.25]


def test_map_compared_with_opendp():
    """OpenDP 0.16's ``make_gaussian`` on ``atom_domain(T=float)`` (same k): for d_in > 0 ours is
    equal or below (ours rounds the exact value up once, OpenDP each operation), never below the
    exact value; at d_in = 0 ours is 0 and OpenDP's ``((2^k - 2^-1074) / scale)^2 / 2``."""
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    equal = lower = 0
    for scale in SCALES:
        for k in KS:
            theirs = dp.m.make_gaussian(dp.atom_domain(T=float, nan=False),
                                        dp.absolute_distance(T=float), scale, k=k)
            ours = make_float_gaussian(scale, k)
            for d_in in DISTANCES:
                mine, other = ours.map(d_in), theirs.map(d_in)
                assert Fraction(mine) >= exact_map(d_in, scale, k)
                assert mine <= other, (scale, k, d_in)
                equal += mine == other
                lower += mine < other
            assert ours.map(0.0) == 0 and theirs.map(0.0) >= 0
    assert equal + lower == len(SCALES) * len(KS) * len(DISTANCES)
    assert equal >= 0.9 * (equal + lower)


def test_zero_scale_compared_with_opendp():
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    theirs = dp.m.make_gaussian(dp.atom_domain(T=float, nan=False),
                                dp.absolute_distance(T=float), 0.0)
    assert theirs.map(1.0) == make_float_gaussian(0.0).map(1.0) == math.inf


def _privacy(constructor):
    from obligations.make_float_gaussian import float_gaussian_obligations
    return next(o for o in float_gaussian_obligations(constructor, "test_fg")
                if o.id == "test_fg.privacy")


def test_stricter_precondition_is_not_asked_about_scale_zero():
    """A constructor refusing ``scale = 0`` gets no goal that builds it (the goals are decided
    without a raise)."""
    from mechanisms import ops
    from mechanisms.core import Constructor, Precondition
    from mechanisms.make_float_gaussian import build_float_gaussian
    from mechanisms.make_laplace import K_MIN, validate_laplace
    from obligations.base import ComputedGoal
    positive = Constructor("make_float_gaussian_positive_test", build_float_gaussian, (
        Precondition("scale is finite", lambda scale, **_: ops.is_finite(scale),
                     lambda scale, **_: ScaleError(scale)),
        Precondition("scale > 0", lambda scale, **_: ops.lt(0, scale),
                     lambda scale, **_: ScaleError(scale)),
        Precondition("k >= -1074", lambda scale, k: ops.le(K_MIN, k),
                     lambda scale, k: GranularityError(k))), validate_laplace)
    goals = _privacy(positive).goals()
    assert not any(g.name.startswith("scale = 0") for g in goals)
    assert all(g.decide().proved for g in goals if isinstance(g, ComputedGoal))


def test_code_that_cannot_run_on_solver_terms_is_unsupported_not_an_error():
    """A ``grid_to_float`` returning a ``Fraction`` (sort mismatch on Z3 terms): the distribution
    goals build, one of them unknown (unsupported); the output-domain witness refutes it."""
    from dataclasses import dataclass, replace

    from mechanisms.make_float_gaussian import FloatGridGaussian, build_float_gaussian
    from mechanisms.make_laplace import grid_step
    from obligations.make_float_gaussian import float_gaussian_obligations

    @dataclass(frozen=True)
    class ExactGrid(FloatGridGaussian):
        grid_to_float = staticmethod(lambda index, multiple: index * grid_step(multiple))

    def build(scale, k=-1074):
        m = build_float_gaussian(scale, k)
        return replace(m, function=ExactGrid(m.function.scale, m.function.multiple))

    exact = make_float_gaussian.variant("make_float_gaussian_exact_grid_test", build)
    obligations = {o.id.split(".")[1]: o for o in float_gaussian_obligations(exact, "t")}
    decisions = [g.decide() for g in obligations["distribution"].goals()
                 if g.name.endswith("the code runs on solver terms")]
    assert decisions and all(d.unsupported for d in decisions)
    witness = next(g for g in obligations["output_domain"].goals()
                   if g.name.startswith("witness:"))
    decision = witness.decide()
    assert not decision.proved and witness.replay(decision.counterexample).confirmed


def test_privacy_replay_tries_several_grid_distances():
    """The Laplace map ``(d_in + 2^k - 2^-1074) / scale`` as rho: right at one grid step, below
    the theorem's ``D^2 / 2`` at three (``0.0`` vs ``3.0``, scale 1, k = 0): confirmed."""
    from dataclasses import replace

    from mechanisms.core import Map
    from mechanisms.make_float_gaussian import build_float_gaussian
    from mechanisms.make_laplace import laplace_float_map
    from obligations.make_float_gaussian import _replay_privacy

    def build(scale, k=-1074):
        m = build_float_gaussian(scale, k)
        return replace(m, privacy_map=Map(rule=laplace_float_map,
                                          params=dict(m.privacy_map.params)))

    wrong = make_float_gaussian.variant("make_float_gaussian_laplace_map_test", build)
    replay = _replay_privacy(wrong)({"scale": 1, "k": 0, "a": 0, "a2": 1, "d_in": 1})
    assert replay.confirmed, replay.report
