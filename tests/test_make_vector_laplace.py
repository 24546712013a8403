"""mechanisms.make_vector_laplace and the L1 metric: refusals, independent coordinates, the exact
map rounded up once, the sampler's law per coordinate, the exact loss on neighbouring vectors of
several lengths, and comparison with OpenDP 0.16's vector Laplace."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from scipy import stats

from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import DomainError, ScaleError
from mechanisms.make_vector_laplace import make_vector_laplace
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import L1Distance

ALPHA = 1e-6
"""False-alarm rate of each statistical test (the draws are seeded, so a run is reproducible)."""


@pytest.mark.parametrize("scale", [-1.0, -1e-300, math.nan, math.inf, 1, True, None])
def test_bad_scale_is_refused(scale):
    with pytest.raises(ScaleError) as info:
        make_vector_laplace(scale)
    assert info.value.scale is scale


def test_domains_metric_measure():
    m = make_vector_laplace(1.0)
    assert m.input_domain == VectorDomain(AtomDomain(int))
    assert m.output_domain == VectorDomain(AtomDomain(int))
    assert m.input_metric == L1Distance() and m.output_measure == MaxDivergence()


@pytest.mark.parametrize("arg", [[1.0], [True], 3, "12", [[1]]])
def test_non_int_vectors_are_refused(arg):
    with pytest.raises(DomainError):
        make_vector_laplace(1.0)(arg, random.Random(0))


def test_l1_distance():
    d = L1Distance()
    assert d.distance([1, 2, 3], [0, 4, 3]) == 3
    assert d.distance([], []) == 0
    assert d.distance([0.5], [0.25]) == Fraction(1, 4)
    assert d.distance([1], [1, 2]) == math.inf
    assert d.compatible(VectorDomain(AtomDomain(int)))
    assert not d.compatible(AtomDomain(int))


@pytest.mark.parametrize("arg", [[], [0], [5, -3, 10 ** 25], list(range(20))])
def test_output_has_the_input_length_and_int_coordinates(arg):
    rng = random.Random(2)
    for _ in range(20):
        y = make_vector_laplace(2.0)(arg, rng)
        assert len(y) == len(arg) and all(type(c) is int for c in y)
        # |Y| > 100 = 50 scales has probability below 1e-21 per coordinate
        assert all(abs(a - b) <= 100 for a, b in zip(y, arg))


def test_zero_scale_adds_no_noise_as_opendp_does():
    m = make_vector_laplace(0.0)
    assert m([3, -4], random.Random(0)) == [3, -4]
    assert m.map(0) == 0 and m.map(1) == math.inf


def test_map_is_the_exact_quotient_rounded_up_once():
    rng = random.Random(4)
    for _ in range(500):
        scale = rng.uniform(1e-2, 1e2)
        d_in = rng.randrange(1, 10 ** 4)
        value = make_vector_laplace(scale).map(d_in)
        exact = Fraction(d_in) / Fraction(scale)
        assert Fraction(value) >= exact > Fraction(math.nextafter(value, 0.0))
    assert make_vector_laplace(1.0).map(math.inf) == math.inf


def pmf(z: int, scale: float) -> float:
    q = math.exp(-1 / scale)
    return (1 - q) / (1 + q) * q ** abs(z)


def test_coordinates_are_independent_discrete_laplace():
    """Seeded, 6 000 draws of a 2-vector: each coordinate's histogram (chi-square, 9 bins and
    the tails) and the joint 3x3 table of sign classes (chi-square independence), each at
    false-alarm rate ALPHA."""
    scale, n = 1.5, 6_000
    m = make_vector_laplace(scale)
    rng = random.Random(11)
    draws = [m([0, 10], rng) for _ in range(n)]
    for i, centre in enumerate((0, 10)):
        values = [d[i] - centre for d in draws]
        observed = [values.count(v) for v in range(-4, 5)]
        observed.append(n - sum(observed))
        expected = [n * pmf(v, scale) for v in range(-4, 5)]
        expected.append(n - sum(expected))
        assert stats.chisquare(observed, expected).pvalue > ALPHA
    sign = lambda z: (z > 0) - (z < 0)  # noqa: E731
    table = [[sum(1 for a, b in draws if sign(a) == s and sign(b - 10) == t) for t in (-1, 0, 1)]
             for s in (-1, 0, 1)]
    assert stats.chi2_contingency(table).pvalue > ALPHA


def exact_loss(scale: float, v: list[int], w: list[int], y: list[int]) -> Fraction:
    """``ln(Pr[M(v) = y] / Pr[M(w) = y])`` from the product pmf (the normalisers cancel)."""
    return sum(Fraction(abs(b - x2) - abs(b - x)) for x, x2, b in zip(v, w, y)) / Fraction(scale)


def test_exact_loss_of_neighbours_is_within_the_map_for_every_length():
    """The loss, from the pmf, of seeded pairs of vectors of lengths 1..8, at outputs y = v (the
    worst case) and random y: never above map(L1 distance), attained at y = v."""
    rng = random.Random(6)
    for _ in range(300):
        n, scale = rng.randint(1, 8), rng.choice([0.5, 1.0, 3.0])
        v = [rng.randint(-5, 5) for _ in range(n)]
        w = [x + rng.randint(-3, 3) for x in v]
        m = make_vector_laplace(scale)
        d_in = m.input_metric.distance(v, w)
        y = [rng.randint(-8, 8) for _ in range(n)]
        assert exact_loss(scale, v, w, y) <= Fraction(m.map(d_in))
        assert exact_loss(scale, v, w, v) == Fraction(d_in) / Fraction(scale) \
            <= Fraction(m.map(d_in))


SCALES = [1e-3, 0.1, 0.3, 0.5, 1.0, 2.0, 3.0, 7.3, 1e3]
DISTANCES = [0, 1, 2, 3, 7, 1000]


def test_map_agrees_with_opendp():
    """OpenDP 0.16's ``make_laplace`` on ``vector_domain(atom_domain(T=int))`` with
    ``l1_distance(T=int)`` has the map ``d_in / scale`` rounded up: equal on the grid."""
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    for scale in [*SCALES, 0.0]:
        theirs = dp.m.make_laplace(dp.vector_domain(dp.atom_domain(T=int)),
                                   dp.l1_distance(T=int), scale)
        ours = make_vector_laplace(scale)
        for d_in in DISTANCES:
            assert ours.map(d_in) == theirs.map(d_in), (scale, d_in)
        if scale > 0:
            assert len(theirs([1, 2, 3])) == len(ours([1, 2, 3])) == 3


def test_domain_probes_are_members_read_from_the_domain():
    """``witnesses.domain_probes`` keeps only members, reads bounds and NaN from the domain, and
    gives nothing for a domain it cannot read."""
    from mechanisms.domains import SizedDomain
    from obligations.witnesses import domain_probes
    ints = domain_probes(VectorDomain(AtomDomain(int)))
    assert [] in ints and [10 ** 30] in ints and [0, -1] in ints
    assert all(type(x) is int for v in ints for x in v)
    floats = domain_probes(AtomDomain(float))
    assert 0.5 in floats and math.inf in floats and not any(math.isnan(x) for x in floats)
    assert any(math.isnan(x) for x in domain_probes(AtomDomain(float, nan=True)))
    assert domain_probes(AtomDomain(float, bounds=(0.0, 1.0))) == [0.5, -0.0, 5e-324]
    assert domain_probes(SizedDomain(VectorDomain(AtomDomain(int)), 2)) == []
    for domain in (VectorDomain(AtomDomain(float)), AtomDomain(int), AtomDomain(bool)):
        assert all(domain.member(p) for p in domain_probes(domain))

