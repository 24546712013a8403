"""mechanisms.make_vector_gaussian and the L2 metric: refusals, independent coordinates, the exact
zCDP map rounded up once, the sampler's law per coordinate, the exact rho of neighbouring
vectors of several lengths, and comparison with OpenDP 0.16's vector Gaussian."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from scipy import stats

from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import DomainError, ScaleError
from mechanisms.make_vector_gaussian import make_vector_gaussian
from mechanisms.measures import ZeroConcentratedDivergence
from mechanisms.metrics import L2Distance

ALPHA = 1e-6
"""False-alarm rate of each statistical test (the draws are seeded, so a run is reproducible)."""


@pytest.mark.parametrize("scale", [-1.0, -1e-300, math.nan, math.inf, 1, True, None])
def test_bad_scale_is_refused(scale):
    with pytest.raises(ScaleError) as info:
        make_vector_gaussian(scale)
    assert info.value.scale is scale


def test_domains_metric_measure():
    m = make_vector_gaussian(1.0)
    assert m.input_domain == VectorDomain(AtomDomain(int))
    assert m.output_domain == VectorDomain(AtomDomain(int))
    assert m.input_metric == L2Distance()
    assert m.output_measure == ZeroConcentratedDivergence()


@pytest.mark.parametrize("arg", [[1.0], [False], 3, "12"])
def test_non_int_vectors_are_refused(arg):
    with pytest.raises(DomainError):
        make_vector_gaussian(1.0)(arg, random.Random(0))


def test_l2_distance_is_the_root_rounded_up():
    d = L2Distance()
    assert d.distance([0, 0], [3, 4]) == 5.0 and d.squared([0, 0], [3, 4]) == 25
    assert d.distance([], []) == 0
    assert d.distance([1], [1, 2]) == math.inf
    root2 = d.distance([0, 0], [1, 1])
    assert Fraction(root2) ** 2 >= 2 > Fraction(math.nextafter(root2, 0.0)) ** 2
    assert d.compatible(VectorDomain(AtomDomain(int)))
    assert not d.compatible(VectorDomain(AtomDomain(float, nan=True)))


@pytest.mark.parametrize("arg", [[], [0], [5, -3, 10 ** 25], list(range(20))])
def test_output_has_the_input_length_and_int_coordinates(arg):
    rng = random.Random(2)
    for _ in range(20):
        y = make_vector_gaussian(2.0)(arg, rng)
        assert len(y) == len(arg) and all(type(c) is int for c in y)
        # |Y| > 30 = 15 sigma has probability below 1e-40 per coordinate
        assert all(abs(a - b) <= 30 for a, b in zip(y, arg))


def test_zero_scale_adds_no_noise_as_opendp_does():
    m = make_vector_gaussian(0.0)
    assert m([3, -4], random.Random(0)) == [3, -4]
    assert m.map(0) == 0 and m.map(1) == math.inf


def test_map_is_the_exact_rho_rounded_up_once():
    rng = random.Random(4)
    for _ in range(500):
        scale = rng.uniform(1e-2, 1e2)
        d_in = rng.choice([rng.randrange(1, 10 ** 4), rng.uniform(0, 100)])
        value = make_vector_gaussian(scale).map(d_in)
        exact = Fraction(d_in) ** 2 / (2 * Fraction(scale) ** 2)
        assert Fraction(value) >= exact > Fraction(math.nextafter(value, 0.0))
    assert make_vector_gaussian(1.0).map(math.inf) == math.inf


def pmf(z: int, sigma: float) -> float:
    weights = {y: math.exp(-y * y / (2 * sigma * sigma)) for y in range(-60, 61)}
    return weights[z] / math.fsum(weights.values())


def test_coordinates_are_independent_discrete_gaussians():
    """Seeded, 4 000 draws of a 2-vector: each coordinate's histogram (chi-square, 7 bins and
    the tails) and the joint 3x3 table of sign classes (chi-square independence), each at
    false-alarm rate ALPHA."""
    sigma, n = 1.2, 4_000
    m = make_vector_gaussian(sigma)
    rng = random.Random(13)
    draws = [m([0, -7], rng) for _ in range(n)]
    for i, centre in enumerate((0, -7)):
        values = [d[i] - centre for d in draws]
        observed = [values.count(v) for v in range(-3, 4)]
        observed.append(n - sum(observed))
        expected = [n * pmf(v, sigma) for v in range(-3, 4)]
        expected.append(n - sum(expected))
        assert stats.chisquare(observed, expected).pvalue > ALPHA
    sign = lambda z: (z > 0) - (z < 0)  # noqa: E731
    table = [[sum(1 for a, b in draws if sign(a) == s and sign(b + 7) == t) for t in (-1, 0, 1)]
             for s in (-1, 0, 1)]
    assert stats.chi2_contingency(table).pvalue > ALPHA


def renyi_2(sigma: float, v: list[int], w: list[int]) -> float:
    """``D_2(M(v) || M(w))`` summed over coordinates from the pmf, in logs (the sums cut at
    ``|y - v_i| <= 40``, beyond which the terms are below e^-80 for sigma <= 3)."""
    log_norm = math.log(math.fsum(math.exp(-z * z / (2 * sigma * sigma)) for z in range(-60, 61)))

    def log_pmf(z: int) -> float:
        return -z * z / (2 * sigma * sigma) - log_norm

    total = 0.0
    for a, b in zip(v, w):
        terms = [math.exp(2 * log_pmf(y - a) - log_pmf(y - b)) for y in range(a - 40, a + 41)]
        total += math.log(math.fsum(terms))
    return total


def test_renyi_divergence_of_neighbours_is_alpha_times_the_map_for_every_length():
    """From the pmf, the order-2 Renyi divergence of seeded pairs of lengths 1..5 is
    2 * ||v - w||_2^2 / (2 sigma^2) (the bound is attained), and at most 2 * map(L2 distance)."""
    rng = random.Random(6)
    for _ in range(40):
        n, sigma = rng.randint(1, 5), rng.choice([1.0, 2.0, 3.0])
        v = [rng.randint(-5, 5) for _ in range(n)]
        w = [x + rng.randint(-2, 2) for x in v]
        m = make_vector_gaussian(sigma)
        d_in = m.input_metric.distance(v, w)
        squares = sum((a - b) ** 2 for a, b in zip(v, w))
        divergence = renyi_2(sigma, v, w)
        assert divergence == pytest.approx(2 * squares / (2 * sigma * sigma), abs=1e-9)
        assert divergence <= 2 * m.map(d_in) + 1e-9


SCALES = [1e-3, 0.1, 0.3, 0.5, 1.0, 2.0, 3.0, 7.3, 1e3]
DISTANCES = [0, 1, 2, 3, 7, 1000]


def test_map_agrees_with_opendp():
    """OpenDP 0.16's ``make_gaussian`` on ``vector_domain(atom_domain(T=int))`` with
    ``l2_distance(T=int)`` has the map ``(d_in / scale)^2 / 2`` rounded up: equal on the grid;
    with ``l2_distance(T=float)`` at float distances, ours is never above OpenDP's."""
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    for scale in [*SCALES, 0.0]:
        theirs = dp.m.make_gaussian(dp.vector_domain(dp.atom_domain(T=int)),
                                    dp.l2_distance(T=int), scale)
        ours = make_vector_gaussian(scale)
        for d_in in DISTANCES:
            assert ours.map(d_in) == theirs.map(d_in), (scale, d_in)
        if scale > 0:
            float_theirs = dp.m.make_gaussian(dp.vector_domain(dp.atom_domain(T=int)),
                                              dp.l2_distance(T=float), scale)
            for d_in in (0.5, math.sqrt(2), 3.7):
                assert ours.map(d_in) <= float_theirs.map(d_in)
                assert Fraction(ours.map(d_in)) >= Fraction(d_in) ** 2 / (2 * Fraction(scale) ** 2)

