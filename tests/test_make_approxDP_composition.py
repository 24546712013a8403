"""mechanisms.make_approxDP_composition: refusals, outputs, the map (componentwise sums rounded up),
the least delta of real compositions at the claimed epsilon, the end-to-end "fixed-delta Gaussian
plus converted discrete Laplace", and the comparison with opendp 0.16's make_composition.
Sampling: seeded runs compared draw for draw with the components run in turn (no statistical
test)."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import mpmath
import pytest

from mechanisms.domains import ProductDomain
from mechanisms.errors import CombinatorError
from mechanisms.make_approxDP_composition import add_pairs_up, make_approxDP_composition
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_chain_mt import make_chain_mt
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_pureDP_to_approxDP import make_pureDP_to_approxDP
from mechanisms.make_randomized_response import make_randomized_response
from mechanisms.make_zCDP_to_approxDP import make_zCDP_to_approxDP
from mechanisms.measures import FixedSmoothedMaxDivergence
from obligations.make_approxDP_composition import composed_delta, map_below_sums


def fixed_gaussian(scale: float, delta: float):
    return make_zCDP_to_approxDP(make_gaussian(scale), delta)


def approx_laplace(scale: float):
    return make_pureDP_to_approxDP(make_discrete_laplace(scale))


@pytest.mark.parametrize("measurements", [[], None, (), "ab", {"a": approx_laplace(1.0)}])
def test_not_a_non_empty_list_is_refused(measurements):
    with pytest.raises(CombinatorError):
        make_approxDP_composition(measurements)


@pytest.mark.parametrize("other", [make_discrete_laplace(1.0), make_gaussian(1.0), None, 3])
def test_components_that_are_not_fixed_delta_measurements_are_refused(other):
    with pytest.raises(CombinatorError) as info:
        make_approxDP_composition([approx_laplace(1.0), other])
    assert info.value.position == 1


def test_components_on_other_inputs_are_refused():
    rr = make_pureDP_to_approxDP(make_randomized_response([0, 1], 0.75))
    with pytest.raises(CombinatorError) as info:
        make_approxDP_composition([approx_laplace(1.0), rr])
    assert info.value.position == 1


def test_outputs_are_the_components_in_turn():
    parts = [fixed_gaussian(2.0, 1e-6), approx_laplace(1.0), approx_laplace(1.0)]
    m = make_approxDP_composition(parts)
    assert m.output_measure == FixedSmoothedMaxDivergence()
    assert m.output_domain == ProductDomain(tuple(p.output_domain for p in parts))
    for seed in range(20):
        rng, again = random.Random(seed), random.Random(seed)
        assert m(10, rng) == tuple(p(10, again) for p in parts)
        assert m.output_domain.member(m(10, random.Random(seed)))


@pytest.mark.parametrize("d_in", [0, 1, 2, 7])
def test_map_is_the_componentwise_sum_rounded_up(d_in):
    parts = [fixed_gaussian(1.5, 1e-7), approx_laplace(3.0), fixed_gaussian(0.7, 0.01)]
    epsilon, delta = make_approxDP_composition(parts).map(d_in)
    values = [p.map(d_in) for p in parts]
    for got, i in ((epsilon, 0), (delta, 1)):
        exact = sum((Fraction(v[i]) for v in values), Fraction(0))
        assert Fraction(got) >= exact
        assert got <= float(exact) * (1 + 1e-15) or exact == 0


def test_add_pairs_up_never_below_the_exact_sums():
    rng = random.Random(5)
    for _ in range(2000):
        a = (rng.uniform(0, 10), rng.uniform(0, 1e-3))
        b = (rng.uniform(0, 10), rng.uniform(0, 1e-3))
        s = add_pairs_up(a, b)
        assert all(Fraction(s[i]) >= Fraction(a[i]) + Fraction(b[i]) for i in (0, 1))
    assert add_pairs_up((1.0, 0), (2.0, 0)) == (3.0, 0)


def test_one_component_keeps_its_map():
    g = fixed_gaussian(2.0, 1e-6)
    assert make_approxDP_composition([g]).map(3) == g.map(3)


def test_seeded_lists_never_fall_below_the_exact_sums():
    assert map_below_sums(make_approxDP_composition) == 80


def test_two_randomized_responses_need_their_summed_epsilon():
    rr = make_pureDP_to_approxDP(make_randomized_response([0, 1], 0.75))
    m = make_approxDP_composition([rr, rr])
    epsilon, delta = m.map(1)
    assert delta == 0 and composed_delta(m, 0, 1, epsilon) <= mpmath.mpf(10) ** -40
    assert composed_delta(m, 0, 1, math.log(3)) > 0.1         # one epsilon is not enough


def test_end_to_end_fixed_delta_gaussian_with_converted_laplace():
    """The chained pieces: a bounded sum, then (a) the discrete Gaussian converted at a fixed
    delta and (b) the discrete Laplace converted to (eps, 0); the composition's printed
    (eps, delta) equals the sums of the chained maps, rounded up."""
    summed = make_bounded_int_sum(0, 10)
    gauss = make_chain_mt(fixed_gaussian(20.0, 1e-6), summed)
    laplace = make_chain_mt(approx_laplace(30.0), summed)
    m = make_approxDP_composition([gauss, laplace])
    epsilon, delta = m.map(1)
    print("fixed-delta Gaussian + converted Laplace: (eps, delta) =", (epsilon, delta))
    (e1, d1), (e2, d2) = gauss.map(1), laplace.map(1)
    assert d1 == 1e-6 and d2 == 0 and delta == 1e-6
    assert Fraction(epsilon) >= Fraction(e1) + Fraction(e2)
    assert epsilon == math.nextafter(e1 + e2, math.inf) or epsilon == e1 + e2
    rho = Fraction(make_gaussian(20.0).map(10))              # sensitivity 10 of the sum
    with mpmath.workdps(40):
        stated = (mpmath.mpf(rho.numerator) / rho.denominator
                  + 2 * mpmath.sqrt(mpmath.mpf(rho.numerator) / rho.denominator
                                    * mpmath.log(mpmath.mpf(10) ** 6)) + mpmath.mpf(10) / 30)
        assert mpmath.mpf(epsilon) >= stated
    assert len(m([1, 2, 3], random.Random(0))) == 2


# --- OpenDP -----------------------------------------------------------------------------------

dp = pytest.importorskip("opendp.prelude")
dp.enable_features("contrib")


def _space():
    return dp.atom_domain(T=int), dp.absolute_distance(T=int)


@pytest.mark.parametrize("scales", [(1.0,), (1.0, 2.0), (0.5, 3.0, 7.0), (2.0, 2.0, 2.0, 2.0)])
@pytest.mark.parametrize("d_in", [1, 2, 5])
def test_pure_components_map_equals_opendps(scales, d_in):
    """Converted discrete Laplace components only: opendp's make_composition over
    make_approximate(make_geometric) gives the same (sum eps, 0.0)."""
    ours = make_approxDP_composition([approx_laplace(s) for s in scales]).map(d_in)
    theirs = dp.c.make_composition([dp.c.make_approximate(dp.m.make_geometric(*_space(), scale=s))
                                    for s in scales]).map(d_in)
    assert ours == tuple(theirs) and ours[1] == 0


def test_pure_components_map_equals_opendps_on_seeded_lists():
    """100 seeded lists of 1 to 4 converted discrete Laplace components (scales in [0.1, 10]),
    d_in in 1..10: equal maps every time (both sum the same rounded-up epsilons upward)."""
    rng = random.Random(3)
    for _ in range(100):
        scales = [rng.uniform(0.1, 10) for _ in range(rng.randint(1, 4))]
        d_in = rng.randint(1, 10)
        ours = make_approxDP_composition([approx_laplace(s) for s in scales]).map(d_in)
        theirs = dp.c.make_composition([
            dp.c.make_approximate(dp.m.make_geometric(*_space(), scale=s)) for s in scales])
        assert ours == tuple(theirs.map(d_in)), (scales, d_in)


@pytest.mark.parametrize("scale", [1.0, 5.0, 20.0])
@pytest.mark.parametrize("delta", [1e-9, 1e-6, 1e-3])
def test_gaussian_and_laplace_against_opendp(scale, delta):
    """The end-to-end composition against opendp's make_composition of
    make_fix_delta(make_zCDP_to_approxDP(gaussian), delta) and make_approximate(geometric): the
    deltas are equal, our epsilon is larger (opendp converts zCDP with the tighter CKS bound; the
    Laplace parts are equal), asserted strictly on this grid."""
    ours = make_approxDP_composition([fixed_gaussian(scale, delta), approx_laplace(2.0)]).map(1)
    g = dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*_space(), scale=scale)),
                            delta)
    lap = dp.c.make_approximate(dp.m.make_geometric(*_space(), scale=2.0))
    theirs = dp.c.make_composition([g, lap]).map(1)
    assert ours[1] == theirs[1] == delta
    assert ours[0] > theirs[0]
