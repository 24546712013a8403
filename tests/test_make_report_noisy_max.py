"""make_report_noisy_max: values, edge cases, typed errors, the drawn distribution, and agreement
with opendp's make_noisy_max."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

from dataclasses import replace

import pytest
import z3
from scipy import stats

from checker.results import Verdict
from checker.runner import Task, check_obligation
from mechanisms import ops
from mechanisms.errors import CarrierError, DomainError, OptimizeError, SelectionScaleError
from mechanisms.arith import div_up
from mechanisms.make_report_noisy_max import NoisyMax, build_report_noisy_max, make_report_noisy_max
from obligations.make_report_noisy_max import report_noisy_max_obligations, stated_distribution
from obligations.noisy_max import ScriptedRng, code_distribution, quotients_defined

ALPHA = 1e-6
"""False-alarm rate of each statistical test."""


def test_map_is_two_d_in_over_scale_rounded_up():
    m = make_report_noisy_max(0.7)
    exact = Fraction(2) * Fraction(3.0) / Fraction(0.7)
    assert Fraction(m.map(3.0)) >= exact
    assert math.nextafter(m.map(3.0), 0) < exact
    assert m.map(0) == 0 and m.map(math.inf) == math.inf
    assert make_report_noisy_max(2, T=int).map(3) == 3.0


def test_div_up_is_never_below_the_exact_quotient():
    rng = random.Random(7)
    for _ in range(2000):
        a, b = rng.uniform(0, 1e6), rng.uniform(1e-9, 1e3)
        q = div_up(a, b)
        assert Fraction(q) >= Fraction(a) / Fraction(b)
        assert Fraction(math.nextafter(q, 0)) < Fraction(a) / Fraction(b)


def test_equal_scores_return_the_uniform_draw():
    m = make_report_noisy_max(1.0)
    for u in range(4):
        assert m([0.0, -0.0, 0.0, 0.0], ScriptedRng(u)) == u


def test_output_is_an_int_index():
    m = make_report_noisy_max(1.0)
    rng = random.Random(1)
    for _ in range(200):
        out = m([0.5, 2.0, -1.0], rng)
        assert type(out) is int and 0 <= out < 3


def test_single_candidate_and_huge_scores():
    rng = random.Random(2)
    assert make_report_noisy_max(1.0)([3.5], rng) == 0
    assert make_report_noisy_max(1.0)([-1e308, 1e308], rng) == 1
    assert make_report_noisy_max(1, T=int)([10 ** 40, 0, -10 ** 40], rng) == 0
    assert make_report_noisy_max(1, optimize="min", T=int)([10 ** 40, 0, -10 ** 40], rng) == 2


def test_gammas_are_exact_rationals():
    m = make_report_noisy_max(0.1)
    assert m.function.gammas([0.1, 0.3]) == [(Fraction(0.3) - Fraction(0.1)) / Fraction(0.1), 0]
    gammas = make_report_noisy_max(3, T=int).function.gammas([0, 1, 10 ** 30])
    assert gammas == [Fraction(10 ** 30, 3), Fraction(10 ** 30 - 1, 3), 0]
    assert all(type(g) is Fraction for g in gammas)


@pytest.mark.slow  # over 2 s: make test-slow
@pytest.mark.parametrize("optimize", ["max", "min"])
def test_sampler_draws_the_exponential_mechanism(optimize):
    """Chi-square goodness of fit, seeded, false alarm at most ALPHA."""
    scores, n = [0.0, 1.0, 2.5, -0.5], 20000
    m = make_report_noisy_max(1.5, optimize=optimize)
    rng = random.Random(11 if optimize == "max" else 12)
    counts = Counter(m(scores, rng) for _ in range(n))
    expected = [float(p) * n for p in stated_distribution(1.5, optimize, scores)]
    _, p_value = stats.chisquare([counts[i] for i in range(len(scores))], expected)
    assert p_value > ALPHA


def test_code_distribution_is_the_stated_one():
    for optimize in ("max", "min"):
        m = make_report_noisy_max(0.3, optimize=optimize)
        for scores in ([0.0, 1.0, 3.0], [2.0, -1.0, 2.0], [1e-300]):
            code, stated = code_distribution(m, scores), stated_distribution(0.3, optimize, scores)
            assert all(abs(a - b) < 1e-40 for a, b in zip(code, stated))


def test_worst_ratio_approaches_but_stays_below_the_map():
    m, d = make_report_noisy_max(1.0), 1.0
    for k in (3, 30, 300):
        p = code_distribution(m, [d] + [0.0] * (k - 1))
        q = code_distribution(m, [0.0] + [d] * (k - 1))
        assert math.log(p[0] / q[0]) <= m.map(d)
    assert math.log(p[0] / q[0]) > 0.99 * m.map(d)


class _OffsetNoisyMax(NoisyMax):
    """Correct, written differently: every exponent raised by the same 3 (``a_i`` scaled by
    ``e^-3``, the same law, slower): no candidate has ``gamma = 0``."""

    rejection_gamma = staticmethod(
        lambda score, best, scale: 3 + (best - score) / ops.exact(scale))


def test_gammas_with_a_common_offset_are_proved():
    """The law needs the exponents finite, >= 0 and differing as the stated law's, not an argmax
    with ``gamma = 0``: a common offset cancels in ``a_i / sum_j a_j``."""
    def build(scale, optimize="max", T=float):
        real = build_report_noisy_max(scale, optimize, T)
        return replace(real, function=_OffsetNoisyMax(real.function.scale, real.function.sign))
    variant = make_report_noisy_max.variant("make_rnm_offset", build)
    verdicts = {o.id: check_obligation(Task("make_rnm_offset", o), seconds=60).verdict
                for o in report_noisy_max_obligations(variant, "rnm_offset")}
    assert set(verdicts.values()) == {Verdict.PROVED}, verdicts
    for optimize in ("max", "min"):
        m = variant(0.7, optimize)
        assert min(m.function.gammas([0.0, 1.0, 3.0])) == 3
        code, stated = code_distribution(m, [0.0, 1.0, 3.0]), stated_distribution(0.7, optimize,
                                                                                  [0.0, 1.0, 3.0])
        assert all(abs(a - b) < 1e-40 for a, b in zip(code, stated))


def test_every_quotient_and_negative_power_is_guarded():
    s, best, scale = z3.Reals("s best scale")
    conditions = quotients_defined((best - s) / scale + 1 / (best * best) + best ** -1)
    assert {str(c) for c in conditions} == {"scale != 0", "best*best != 0",
                                            "Or(best != 0, -1 >= 0)"}
    assert quotients_defined(best - s + z3.RealVal("1/2")) == []


@pytest.mark.parametrize("scale", [0.0, -1.0, math.nan, math.inf, True, "1", None, Fraction(1)])
def test_bad_scale_is_refused(scale):
    with pytest.raises(SelectionScaleError) as error:
        make_report_noisy_max(scale)
    assert error.value.scale is scale


def test_bad_optimize_and_carrier_are_refused():
    with pytest.raises(OptimizeError) as error:
        make_report_noisy_max(1.0, optimize="argmax")
    assert error.value.optimize == "argmax"
    with pytest.raises(CarrierError) as error:
        make_report_noisy_max(1.0, T=str)
    assert error.value.carrier is str


@pytest.mark.parametrize("T", [float, int])
def test_empty_scores_are_outside_the_domain(T):
    """The input domain holds exactly the vectors the function handles: ``[]`` is refused by
    ``Measurement.__call__`` (DomainError) before the function runs, and the domain says so."""
    m = make_report_noisy_max(1.0, T=T)
    assert m.input_domain.min_size == 1 and not m.input_domain.member([])
    assert "min_size=1" in str(m.input_domain)
    with pytest.raises(DomainError) as error:
        m([], random.Random(0))
    assert error.value.value == [] and error.value.domain == m.input_domain


def test_every_admitted_length_returns_an_index():
    """Every admitted vector (length >= 1, both orientations and score types) gives an int index
    in range: no admitted input raises."""
    rng = random.Random(4)
    for optimize in ("max", "min"):
        for T in (float, int):
            m = make_report_noisy_max(0.5, optimize=optimize, T=T)
            for n in range(1, 9):
                scores = [T(rng.randint(-3, 3)) for _ in range(n)]
                assert m.input_domain.member(scores)
                for _ in range(5):
                    index = m(scores, rng)
                    assert type(index) is int and 0 <= index < n
                    assert m.output_domain.member(index)


@pytest.mark.parametrize("scores", [[math.nan], [0.0, math.inf], [-math.inf], [1], [True]])
def test_non_finite_or_mistyped_float_scores_are_outside_the_domain(scores):
    with pytest.raises(DomainError):
        make_report_noisy_max(1.0)(scores, random.Random(0))


def test_int_domain_refuses_floats():
    with pytest.raises(DomainError):
        make_report_noisy_max(1, T=int)([1.0], random.Random(0))


def _opendp_noisy_max(T: type, scale: float, negate: bool = False, monotonic: bool = False):
    import opendp.prelude as dp
    dp.enable_features("contrib")
    element = dp.atom_domain(T=T, nan=False) if T is float else dp.atom_domain(T=T)
    return dp.m.make_noisy_max(dp.vector_domain(element), dp.linf_distance(T=T, monotonic=monotonic),
                               dp.max_divergence(), scale, negate=negate)


@pytest.mark.parametrize("scale", [1e-3, 0.1, 0.7, 1.0, 3.0, 1e5])
@pytest.mark.parametrize("d_in", [0.0, 0.1, 1.0, 2.5, 3.0, 1e3])
def test_float_map_agrees_with_opendp(scale, d_in):
    """Ours is the least float >= 2 d_in / scale; opendp rounds each operation up, so it is equal
    or larger (by an ulp or two). Both are never below the exact value."""
    ours, theirs = make_report_noisy_max(scale).map(d_in), _opendp_noisy_max(float, scale).map(d_in)
    exact = 2 * Fraction(d_in) / Fraction(scale)
    assert exact <= Fraction(ours) <= Fraction(theirs)
    assert theirs <= math.nextafter(math.nextafter(ours, math.inf), math.inf)


@pytest.mark.parametrize("scale", [1, 2, 7])
@pytest.mark.parametrize("d_in", [0, 1, 5])
def test_int_map_agrees_with_opendp(scale, d_in):
    ours = make_report_noisy_max(float(scale), T=int).map(d_in)
    theirs = _opendp_noisy_max(int, float(scale)).map(d_in)
    assert Fraction(2 * d_in, scale) <= Fraction(ours) <= Fraction(theirs)


def test_monotonic_opendp_map_is_half_of_ours():
    """OpenDP's monotonic metric (every score moves the same way) halves the map; we do not
    offer it, so ours is the larger, non-monotonic map."""
    assert _opendp_noisy_max(float, 1.0, monotonic=True).map(1.0) == 1.0
    assert make_report_noisy_max(1.0).map(1.0) == 2.0


def test_opendp_agrees_on_the_favoured_index():
    """With well separated scores both mechanisms report the top (or, negated, the bottom) one."""
    scores = [0.0, 100.0, -50.0]
    rng = random.Random(5)
    assert _opendp_noisy_max(float, 1.0)(scores) == make_report_noisy_max(1.0)(scores, rng) == 1
    assert _opendp_noisy_max(float, 1.0, negate=True)(scores) == \
        make_report_noisy_max(1.0, optimize="min")(scores, rng) == 2


@pytest.mark.slow  # over 2 s: make test-slow
def test_the_squared_exponent_twin_is_never_private():
    """Its privacy goals are nonlinear: refuted and confirmed in a fresh process (0.5 s), but in a
    long-running test worker the solver has been seen to time out on them (a fresh clone's CI).
    So the twin's confirmed refutation is asserted on its distribution (tests/twins) and here
    only that its privacy is never proved."""
    from checker.results import Verdict
    from checker.runner import Task, check_obligation
    from tests.twins.make_report_noisy_max import make_rnm_squared_exponent
    from obligations.make_report_noisy_max import report_noisy_max_obligations
    privacy = next(o for o in report_noisy_max_obligations(make_rnm_squared_exponent, "rnm_sq")
                   if o.id == "rnm_sq.privacy")
    result = check_obligation(Task("make_rnm_squared_exponent", privacy), seconds=60)
    assert result.verdict in (Verdict.REFUTED, Verdict.UNKNOWN), result.verdict
