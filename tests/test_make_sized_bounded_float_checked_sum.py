"""mechanisms.make_sized_bounded_float_checked_sum: float sums in two orders, OpenDP's map with
rounding error terms computed exactly and rounded up, the refusals, the certificates behind the
map (``float_up``, ``LN2_LOWER <= ln 2``, ``log2_up(n) >= log2 n``), and agreement with opendp."""

from __future__ import annotations

import math
from fractions import Fraction
from unittest import mock

import pytest

from mechanisms.arith import float_up, taylor_exp_lower
from mechanisms.domains import AtomDomain, SizedDomain, VectorDomain
from mechanisms.errors import (BoundsOrderError, BoundTypeError, DomainError, NaNBoundError,
                               OverflowRiskError, SizeError, SizeLimitError, SummationError)
from mechanisms.make_sized_bounded_float_checked_sum import (
    FLOAT_MAX, LN2_LOWER, MANTISSA_SCALE, SIZE_LIMIT, log2_up,
    make_sized_bounded_float_checked_sum)
from mechanisms.arith import pow2_up
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.make_sized_bounded_float_checked_sum import ln2_certificate

ORDERS = ("sequential", "pairwise")
ULP_CLOSE = 4
"""Ours may fall below OpenDP's pairwise relaxation by at most this many ulps (see the test)."""


def pairwise_reference(data: list[float]) -> float:
    """OpenDP's ``pairwise_sum``: split after ``n // 2`` rows, add the two sums."""
    if len(data) <= 1:
        return data[0] if data else 0.0
    middle = len(data) // 2
    return pairwise_reference(data[:middle]) + pairwise_reference(data[middle:])


def sequential_reference(data: list[float]) -> float:
    total = 0.0
    for x in data:
        total += x
    return total


def test_values_in_both_orders():
    data = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]
    for summation, reference in (("sequential", sequential_reference),
                                 ("pairwise", pairwise_reference)):
        t = make_sized_bounded_float_checked_sum(7, 0.0, 1.0, summation)
        assert t(data) == reference(data)
        assert type(t(data)) is float
    assert make_sized_bounded_float_checked_sum(3, -1.0, 1.0)([0.0, -0.0, 1.0]) == 1.0
    assert make_sized_bounded_float_checked_sum(1, -1.0, 1.0)([-0.5]) == -0.5


def test_orders_round_differently():
    """The classic case: the two orders give different floats on the same rows."""
    data = [1.0, 1e-16, 1e-16, 1e-16]
    sequential = make_sized_bounded_float_checked_sum(4, 0.0, 1.0, "sequential")(data)
    pairwise = make_sized_bounded_float_checked_sum(4, 0.0, 1.0, "pairwise")(data)
    assert sequential == 1.0 and pairwise > 1.0


def test_domains_and_metrics():
    t = make_sized_bounded_float_checked_sum(2, -2.0, 7.0)
    assert t.input_domain == SizedDomain(VectorDomain(AtomDomain(float, bounds=(-2.0, 7.0))), 2)
    assert t.output_domain == AtomDomain(float)
    assert (t.input_metric, t.output_metric) == (SymmetricDistance(), AbsoluteDistance())


@pytest.mark.parametrize("data", [[0.5, 0.5], [0.5, 2.0, 0.1], [math.nan, 0.0, 0.0],
                                  [math.inf, 0.0, 0.0], [0.0, 0.0, 1]])
def test_rows_outside_the_domain_are_refused(data):
    with pytest.raises(DomainError):
        make_sized_bounded_float_checked_sum(3, 0.0, 1.0)(data)


def test_extreme_rows_stay_finite():
    """At the overflow check's edge (7 rows of 2^1021 pass it, 8 do not) the sum is finite in
    both orders."""
    for summation in ORDERS:
        t = make_sized_bounded_float_checked_sum(7, -2.0 ** 1021, 2.0 ** 1021, summation)
        assert t([2.0 ** 1021] * 7) == 7 * 2.0 ** 1021 and t([-2.0 ** 1021] * 7) == -7 * 2.0 ** 1021


@pytest.mark.parametrize("args, error", [
    ((3, 0, 1), BoundTypeError),
    ((3, 0.0, 1.0, "kahan"), SummationError),
    ((3.0, 0.0, 1.0), SizeError),
    ((0, 0.0, 1.0), SizeError),
    ((True, 0.0, 1.0), SizeError),
    ((SIZE_LIMIT + 1, 0.0, 1.0), SizeLimitError),
    ((2, -1.7e308, 1.7e308), OverflowRiskError),
    ((8, -2.0 ** 1021, 2.0 ** 1021), OverflowRiskError),
    ((3, -math.inf, 1.0), OverflowRiskError),
    ((3, 0.0, math.inf), OverflowRiskError),
    ((3, math.nan, 1.0), NaNBoundError),
    ((3, 2.0, 1.0), BoundsOrderError),
])
def test_typed_errors(args, error):
    with pytest.raises(error):
        make_sized_bounded_float_checked_sum(*args)


def test_errors_carry_their_values():
    with pytest.raises(SizeLimitError) as caught:
        make_sized_bounded_float_checked_sum(SIZE_LIMIT + 1, 0.0, 1.0)
    assert str(SIZE_LIMIT + 1) in str(caught.value)
    with pytest.raises(SummationError) as caught:
        make_sized_bounded_float_checked_sum(3, 0.0, 1.0, "kahan")
    assert "kahan" in str(caught.value)


def test_largest_sizes_are_accepted():
    t = make_sized_bounded_float_checked_sum(SIZE_LIMIT, 0.0, 1.0, "pairwise")
    assert t.map(0) > 0


def test_float_up():
    """The least float ``>= q``: exact floats map to themselves, others one step up at most."""
    for q in [Fraction(1, 3), Fraction(-1, 3), Fraction(2, 3) * 10 ** 300, Fraction(1, 10 ** 320),
              Fraction(0), Fraction(1, 2), Fraction(-7, 10 ** 20)]:
        up = float_up(q)
        assert Fraction(up) >= q
        assert Fraction(math.nextafter(up, -math.inf)) < q
    assert float_up(FLOAT_MAX) == FLOAT_MAX and float_up(FLOAT_MAX + 1) == math.inf


def test_pow2_up():
    for x in [Fraction(1), Fraction(3), Fraction(1, 3), Fraction(2 ** 1023), Fraction(1, 2 ** 1080)]:
        power = pow2_up(x)
        assert power >= x and (power / 2 < x or power == Fraction(1, 2 ** 1074))
        assert power.numerator & (power.numerator - 1) == 0 and power.denominator & (power.denominator - 1) == 0


def testln2_certificate_is_the_checkers_own_and_can_fail():
    assert ln2_certificate().proved
    with mock.patch("obligations.make_sized_bounded_float_checked_sum.LN2_LOWER",
                    Fraction(6931471805599454, 10 ** 16)):  # just above ln 2
        assert not ln2_certificate().proved


def test_log2_up_increasing_on_a_grid():
    """The stated fact behind ``log2_up(n) <= log2_up(2^53) <= 54``, checked on sizes."""
    sizes = [1, 2, 3, 4, 5, 8, 9, 1000, 2 ** 30, 2 ** 30 + 1, 2 ** 52, 2 ** 53 - 1, 2 ** 53]
    bounds = [log2_up(n) for n in sizes]
    assert bounds == sorted(bounds) and bounds[-1] <= 54


def two_to_the_lower(exponent: Fraction) -> Fraction:
    """A rational ``<= 2^x`` for ``x >= 0``: ``2^floor(x) * taylor(frac(x) * LN2_LOWER)``, since
    ``2^f = e^(f ln 2) >= e^(f LN2_LOWER) >=`` its Taylor polynomial."""
    whole = math.floor(exponent)
    return 2 ** whole * taylor_exp_lower((exponent - whole) * LN2_LOWER)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 8, 100, 1000, 2 ** 20 - 1, 2 ** 20, 10 ** 9,
                               2 ** 31 + 1, 2 ** 53 - 1, 2 ** 53])
def test_log2_up_is_above_log2_exactly(n):
    """``2^log2_up(n) >= n`` checked in exact rationals, and not far above (1e-12)."""
    bound = log2_up(n)
    assert two_to_the_lower(bound) >= n
    assert bound - Fraction(math.log2(n)) < Fraction(1, 10 ** 12)


def exact_relaxation(n: int, lower: float, upper: float, summation: str) -> Fraction:
    """OpenDP's formula in exact rationals with the certified ``log2_up``."""
    magnitude = max(abs(Fraction(lower)), abs(Fraction(upper)))
    if summation == "sequential":
        return 2 * n * n * MANTISSA_SCALE * magnitude
    uk = log2_up(n) * MANTISSA_SCALE
    return 2 * uk / (1 - uk) * n * magnitude


@pytest.mark.parametrize("summation", ORDERS)
def test_map_is_exact_formula_rounded_up(summation):
    for n, lower, upper in [(1, 0.0, 1.0), (3, -1.0, 1.0), (100, -3.5, 2.0), (10 ** 6, 0.0, 1e6)]:
        t = make_sized_bounded_float_checked_sum(n, lower, upper, summation)
        for d_in in range(6):
            exact = (d_in // 2) * (Fraction(upper) - Fraction(lower)) + \
                exact_relaxation(n, lower, upper, summation)
            assert t.map(d_in) == float_up(exact)


def test_naive_map_is_exceeded_but_ours_is_not():
    """Neighbours in [0, 1] whose float sums differ by 1 + 2^-52 > U - L (the twin's
    counterexample); our map covers it."""
    for summation, v, w in [("sequential", [1.0, 1 - 2 ** -53, 1 - 2 ** -53],
                             [0.0, 1 - 2 ** -53, 1 - 2 ** -53]),
                            ("pairwise", [0.0, 0.23723352615554094, 1.0, 2 ** -53],
                             [1.0, 0.23723352615554094, 1.0, 2 ** -53])]:
        t = make_sized_bounded_float_checked_sum(len(v), 0.0, 1.0, summation)
        observed = abs(t(v) - t(w))
        assert observed == 1 + 2 ** -52
        assert observed <= t.map(t.input_metric.distance(v, w))


GRID_SIZES = [1, 2, 3, 4, 7, 100, 1000, 10 ** 6, 2 ** 20, 2 ** 31]
"""Sizes up to 2^31: opendp's Python binding wraps sizes above 2^32, so none are compared."""
GRID_BOUNDS = [(0.0, 1.0), (-1.0, 1.0), (-3.5, 2.0), (0.0, 1e6), (-1e-3, 0.0)]
GRID_D_IN = [0, 1, 2, 3, 10]


def opendp_sum(n: int, lower: float, upper: float, summation: str):
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    kind = {"sequential": "Sequential<f64>", "pairwise": "Pairwise<f64>"}[summation]
    return dp.t.make_sized_bounded_float_checked_sum(n, (lower, upper), S=kind)


@pytest.mark.parametrize("summation", ORDERS)
@pytest.mark.parametrize("lower, upper", GRID_BOUNDS)
def test_map_agrees_with_opendp(summation, lower, upper):
    """Sequential: equal. Pairwise: OpenDP rounds every float operation of its map up, we compute
    it exactly and round once, so where the relaxation dominates (d_in in {0, 1}) ours can be a few
    ulps *smaller* than OpenDP's; ours is never below the exact value (``log2_up(n) >= log2 n``,
    tested above, and ``float_up``). Once (U - L) floor(d_in/2) dominates both round to the same
    float; in every case the two are within ULP_CLOSE ulps."""
    for n in GRID_SIZES:
        ours = make_sized_bounded_float_checked_sum(n, lower, upper, summation)
        theirs = opendp_sum(n, lower, upper, summation)
        for d_in in GRID_D_IN:
            a, b = ours.map(d_in), theirs.map(d_in)
            if summation == "sequential":
                assert a == b, (n, d_in, a, b)
            else:
                assert abs(a - b) <= ULP_CLOSE * math.ulp(b), (n, d_in, a, b)
                exact = (d_in // 2) * (Fraction(upper) - Fraction(lower)) + \
                    exact_relaxation(n, lower, upper, summation)
                assert Fraction(a) >= exact


def test_pairwise_smaller_than_opendp_only_by_rounding():
    """A case where ours is below OpenDP's (n = 3): the gap is OpenDP's per-operation rounding."""
    ours = make_sized_bounded_float_checked_sum(3, 0.0, 1.0, "pairwise").map(0)
    theirs = opendp_sum(3, 0.0, 1.0, "pairwise").map(0)
    assert ours < theirs and theirs - ours <= ULP_CLOSE * math.ulp(theirs)


@pytest.mark.parametrize("summation", ORDERS)
def test_opendp_also_refuses_overflow(summation):
    dp = pytest.importorskip("opendp.prelude")
    with pytest.raises(dp.OpenDPException):
        opendp_sum(2, -1.7e308, 1.7e308, summation)
    with pytest.raises(OverflowRiskError):
        make_sized_bounded_float_checked_sum(2, -1.7e308, 1.7e308, summation)


@pytest.mark.parametrize("summation", ORDERS)
def test_function_agrees_with_opendp(summation):
    data = [0.1 * k - 0.3 for k in range(7)]
    ours = make_sized_bounded_float_checked_sum(7, -1.0, 1.0, summation)
    assert ours(data) == opendp_sum(7, -1.0, 1.0, summation)(data)


def test_fsum_meets_its_stated_specification():
    """obligations' FSUM_SPEC, checked against the running interpreter (evidence, not proof):
    fsum is the float nearest the exact sum, also near the top of the range where every exact
    prefix stays finite, and raises on an exact prefix beyond it."""
    import random
    from obligations.ieee import LARGEST_FINITE
    rng = random.Random(3)
    for _ in range(3000):
        e = rng.choice([0, 50, -60, 1000, 1021])
        rows = [rng.choice([1.0, -1.0, rng.uniform(-1, 1)]) * 2.0 ** e
                for _ in range(rng.randint(1, 7))]
        prefixes = [abs(sum(map(Fraction, rows[:k]))) for k in range(1, len(rows) + 1)]
        if max(prefixes) <= LARGEST_FINITE:
            assert math.fsum(rows) == float(sum(map(Fraction, rows)))
    with pytest.raises(OverflowError):
        math.fsum([1e308, 1e308, -1e308])


def test_the_fsum_kernel_is_the_builtin_itself():
    from obligations.make_sized_bounded_float_checked_sum import FSUM, sum_kernel
    assert sum_kernel(math.fsum) == FSUM and sum_kernel(lambda v: math.fsum(v)) is None


def _dropping_second_row(self, data):
    """Wrong kernel body: a block of two rows is summed as its first row."""
    if len(data) <= 2:
        return data[0] if data else 0.0
    middle = self.split(len(data))
    return self.combine(self(data[:middle]), self(data[middle:]))


def test_a_pairwise_body_that_drops_a_row_is_refuted_and_confirmed():
    from mechanisms.make_sized_bounded_float_checked_sum import PairwiseSum
    from obligations.make_sized_bounded_float_checked_sum import _accurate_sums
    with mock.patch.object(PairwiseSum, "__call__", _dropping_second_row):
        sequential, pairwise = _accurate_sums(make_sized_bounded_float_checked_sum)
        assert sequential.decide().proved
        decision = pairwise.decide()
        assert not decision.proved and not decision.unsupported
        replay = pairwise.replay(decision.counterexample)
    assert replay.confirmed and "[1.0, 2.0]" in replay.report, replay.report
