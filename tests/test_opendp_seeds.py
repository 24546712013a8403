"""The seed constructors' maps against the `opendp` package's (the other constructors are compared
in their own test modules). The partition map has no opendp counterpart with the same metric."""

from __future__ import annotations

from fractions import Fraction

import pytest

from mechanisms.make_bounded_mean import make_bounded_mean
from mechanisms.make_clamp import make_clamp
from mechanisms.make_randomized_response import make_randomized_response

dp = pytest.importorskip("opendp.prelude")
dp.enable_features("contrib")

D_INS = [0, 1, 2, 3, 10, 1000]


@pytest.mark.parametrize("bounds", [(0.0, 1.0), (-5.0, 3.5), (-1e300, 1e300)])
def test_clamp_map_equals_opendp(bounds):
    theirs = dp.t.make_clamp(dp.vector_domain(dp.atom_domain(T=float, nan=False)),
                             dp.symmetric_distance(), bounds)
    ours = make_clamp(*bounds)
    assert [ours.map(d) for d in D_INS] == [theirs.map(d) for d in D_INS]


@pytest.mark.parametrize("categories, prob", [(["a", "b"], 0.75), (["a", "b", "c"], 0.75),
                                              (list(range(10)), 0.5), ([True, False], 0.999)])
def test_randomized_response_map_agrees_with_opendp_to_an_ulp_and_never_undercuts(categories,
                                                                                 prob):
    """Both are ln(p (t - 1) / (1 - p)); ours is rounded up with a certificate, opendp's is
    computed with outward rounding too, so they agree within one step."""
    theirs = dp.m.make_randomized_response(categories, prob=prob).map(1)
    ours = make_randomized_response(categories, prob).map(1)
    assert abs(ours - theirs) <= 2 * abs(theirs) * 2 ** -52
    assert make_randomized_response(categories, prob).map(0) == 0


@pytest.mark.parametrize("lower, upper, n", [(0.0, 1.0, 3), (-2.0, 8.0, 10), (0.0, 100.0, 40)])
def test_bounded_mean_map_and_opendps_both_add_a_float_error_term(lower, upper, n):
    """Both maps are the real-number sensitivity plus a rounding term: ours bounds the sequential
    sum and the division (n^2 2^-52 M grows faster than opendp's pairwise log2(n) term), opendp's
    the pairwise sum and its float multiplication by 1/n. Both above the real map, close to it."""
    theirs = dp.t.make_mean(dp.vector_domain(dp.atom_domain(bounds=(lower, upper)), size=n),
                            dp.symmetric_distance())
    ours = make_bounded_mean(lower, upper, n)
    for d_in in (2, 4, 10):
        exact = Fraction(d_in // 2) * (Fraction(upper) - Fraction(lower)) / n
        assert Fraction(ours.map(d_in)) > exact and Fraction(theirs.map(d_in)) > exact
        assert abs(theirs.map(d_in) - ours.map(d_in)) < 1e-9 * (upper - lower)


