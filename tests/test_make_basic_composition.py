"""mechanisms.make_basic_composition: tuples of independent outputs, summed maps, errors, OpenDP."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from fractions import Fraction

import pytest

from mechanisms import ops
from mechanisms.core import Map, Measurement
from mechanisms.domains import ProductDomain
from mechanisms.errors import CombinatorError, DomainError
from mechanisms.make_basic_composition import build_basic_composition, make_basic_composition
from mechanisms.make_chain_mt import make_chain_mt
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_randomized_response import make_randomized_response
from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence
from obligations.kernel.composition import composition_for_every_argument
from obligations.kernel.rules import RuleRefused
from obligations.kernel.theorems import PremiseKind
from obligations.witnesses import make_constant, make_present


def rr(prob: float = 0.75) -> Measurement:
    return make_randomized_response([0, 1], prob)


def test_outputs_are_a_tuple_in_the_product_domain():
    m = make_basic_composition([rr(), make_constant("y")])
    output = m(1, random.Random(3))
    assert isinstance(output, tuple) and output[1] == "y" and output[0] in (0, 1)
    assert m.output_domain == ProductDomain((rr().output_domain, make_constant("y").output_domain))
    assert m.output_domain.member(output)
    assert m.output_measure == MaxDivergence()
    with pytest.raises(DomainError):
        m("not an int")


def test_pure_map_is_the_sum_rounded_up():
    m = make_basic_composition([rr(0.75), rr(0.6), rr(0.9)])
    maps = [Fraction(rr(p).map(1)) for p in (0.75, 0.6, 0.9)]
    assert Fraction(m.map(1)) >= sum(maps)
    assert m.map(0) == 0
    one = make_basic_composition([rr(0.75)])
    assert one.map(1) == rr(0.75).map(1)


def test_float_sums_never_round_below_the_exact_sum():
    """0.1 + 0.2 rounds to nearest above the exact sum of the two floats, 0.1 + 0.7 below it:
    add_up moves the latter up one float."""
    for first, second in ((0.1, 0.2), (0.1, 0.7), (1e-17, 1.0), (0.3, 0.6)):
        m = make_basic_composition([make_discrete_laplace(1 / first), make_discrete_laplace(1 / second)])
        exact = Fraction(make_discrete_laplace(1 / first).map(1)) + Fraction(make_discrete_laplace(1 / second).map(1))
        assert Fraction(m.map(1)) >= exact
        assert Fraction(math.nextafter(m.map(1), 0.0)) < exact


def test_zcdp_map_is_the_sum():
    m = make_basic_composition([make_gaussian(1.0), make_gaussian(2.0), make_gaussian(3.0)])
    assert m.output_measure == ZeroConcentratedDivergence()
    assert Fraction(m.map(1)) >= Fraction(1, 2) + Fraction(1, 8) + Fraction(1, 18)
    assert m.map(0) == 0
    assert make_basic_composition([make_gaussian(0.0), make_gaussian(1.0)]).map(1) == math.inf
    assert len(m(5, random.Random(1))) == 3


def test_huge_integer_inputs_pass_through():
    m = make_basic_composition([make_gaussian(1.0), make_gaussian(1.0)])
    output = m(10 ** 30, random.Random(2))
    assert all(isinstance(y, int) and abs(y - 10 ** 30) < 100 for y in output)


def test_empirical_frequencies_are_independent():
    """Seeded: 20000 draws of two RR(0.75) on input 1; the count of (1, 1) is
    Binomial(20000, 9/16), and a deviation beyond 6 sd has probability below 1e-8."""
    m = make_basic_composition([rr(), rr()])
    rng = random.Random(20261122)
    both = sum(m(1, rng) == (1, 1) for _ in range(20000))
    assert abs(both - 20000 * 9 / 16) <= 6 * math.sqrt(20000 * 9 / 16 * 7 / 16)


@pytest.mark.parametrize("measurements", [[], (), "ab", None])
def test_empty_or_non_list_is_refused(measurements):
    with pytest.raises(CombinatorError):
        make_basic_composition(measurements)


def test_non_measurement_is_refused_with_its_position():
    with pytest.raises(CombinatorError) as info:
        make_basic_composition([rr(), make_present()])
    assert info.value.position == 1


def test_metric_mismatch_carries_both_metrics():
    with pytest.raises(CombinatorError, match="input_metric") as info:
        make_basic_composition([make_gaussian(1.0), rr()])
    assert (info.value.position, info.value.first, info.value.other) == \
        (1, make_gaussian(1.0).input_metric, rr().input_metric)


def test_domain_mismatch_carries_both_domains():
    text = make_randomized_response(["a", "b"], 0.75)
    with pytest.raises(CombinatorError, match="input_domain") as info:
        make_basic_composition([rr(), text])
    assert (info.value.first, info.value.other) == (rr().input_domain, text.input_domain)


def test_measure_mismatch_carries_both_measures():
    with pytest.raises(CombinatorError, match="output_measure") as info:
        make_basic_composition([make_discrete_laplace(1.0), make_gaussian(1.0)])
    assert (info.value.first, info.value.other) == (MaxDivergence(), ZeroConcentratedDivergence())


def test_unsupported_measure_is_refused():
    from dataclasses import replace
    from mechanisms.measures import FixedSmoothedMaxDivergence
    approx = replace(rr(), output_measure=FixedSmoothedMaxDivergence())
    with pytest.raises(CombinatorError, match="only MaxDivergence") as info:
        make_basic_composition([approx])
    assert info.value.measure == FixedSmoothedMaxDivergence()


def test_chained_components_compose():
    m = make_basic_composition([make_chain_mt(rr(), make_present())] * 2)
    assert m.map(3) >= 2 * math.log(3)


# --- agreement with OpenDP -------------------------------------------------------------------

dp = pytest.importorskip("opendp.prelude")
dp.enable_features("contrib")


def opendp_gaussian(scale: float):
    return dp.m.make_gaussian(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale)


@pytest.mark.parametrize("probs", [(0.75,), (0.75, 0.6), (0.9, 0.55, 0.75), (0.99,) * 4])
@pytest.mark.parametrize("d_in", [0, 1, 3])
def test_pure_map_agrees_with_opendp(probs, d_in):
    """OpenDP sums the component maps with upward rounding as well; ours is never below the exact
    sum and equals OpenDP's on this grid."""
    ours = make_basic_composition([rr(p) for p in probs]).map(d_in)
    theirs = dp.c.make_composition([dp.m.make_randomized_response([0, 1], p) for p in probs]).map(d_in)
    assert ours == pytest.approx(theirs, rel=1e-15)
    assert Fraction(ours) >= sum(Fraction(rr(p).map(d_in)) for p in probs)


@pytest.mark.parametrize("scales", [(1.0,), (1.0, 2.0), (1.0, 2.0, 3.0), (0.5, 7.0)])
@pytest.mark.parametrize("d_in", [0, 1, 3])
def test_zcdp_map_agrees_with_opendp(scales, d_in):
    ours = make_basic_composition([make_gaussian(s) for s in scales]).map(d_in)
    theirs = dp.c.make_composition([opendp_gaussian(s) for s in scales]).map(d_in)
    assert ours == pytest.approx(theirs, rel=1e-15)
    assert Fraction(ours) >= sum(Fraction(d_in) ** 2 / (2 * Fraction(s) ** 2) for s in scales)


def _right_fold(d_in, maps):
    """The component maps summed right to left with ``add_up`` (no ``combine`` parameter)."""
    total = maps[-1](d_in)
    for m in reversed(maps[:-1]):
        total = ops.add_up(m(d_in), total)
    return total


def _exact_sum(d_in, maps):
    """``math.fsum`` of the component maps: it raises on solver terms."""
    return math.fsum(m(d_in) for m in maps)


def _with_rule(rule):
    def build(measurements):
        return replace(build_basic_composition(measurements), privacy_map=Map(
            rule=rule, params={"maps": tuple(m.privacy_map for m in measurements)}))
    return make_basic_composition.variant(f"make_composition{rule.__name__}", build)


def test_a_map_of_any_rule_is_proved_on_the_bounded_lists():
    """A right fold is not the catalogue's left fold: the kernel's composition rule reads it on
    its stand-in lists all the same, and every theorem says it is bounded to them."""
    theorems = composition_for_every_argument(_with_rule(_right_fold))
    assert len(theorems) == 4
    assert all(t.rests_on(PremiseKind.BOUNDED) for t in theorems)


def test_a_rule_that_does_not_run_on_solver_terms_is_never_proved():
    with pytest.raises(RuleRefused, match="map\\(d_in\\) raises"):
        composition_for_every_argument(_with_rule(_exact_sum))
