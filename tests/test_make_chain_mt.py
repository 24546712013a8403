"""mechanisms.make_chain_mt: a measurement after a transformation, errors, ``>>``, and OpenDP."""

from __future__ import annotations

import math
import random

import pytest

from mechanisms.core import Measurement
from mechanisms.errors import CombinatorError, DomainError
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_chain_mt import make_chain_mt
from mechanisms.make_clamp import make_clamp
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_randomized_response import make_randomized_response
from mechanisms.measures import MaxDivergence
from obligations.witnesses import make_constant, make_present
from obligations.witnesses import make_times


def test_function_domains_measure_and_map():
    rr = make_randomized_response([0, 1], 0.75)
    m = make_chain_mt(rr, make_present())
    assert isinstance(m, Measurement)
    assert m.output_measure == MaxDivergence()
    assert m.input_domain == make_present().input_domain
    assert m.map(0) == 0
    assert [m.map(d) for d in (1, 2, 7)] == [rr.map(1)] * 3
    assert m.map(1) >= math.log(3)
    assert m([5, 6], random.Random(1)) in (0, 1)
    with pytest.raises(DomainError):
        m([1.5])


def test_constant_outer_ignores_the_data():
    m = make_chain_mt(make_constant("y"), make_present())
    assert m([], random.Random(0)) == m([1, 2, 3], random.Random(0)) == "y"
    assert m.map(5) == 0


def test_rshift_is_make_chain_mt():
    laplace = make_discrete_laplace(2.0)
    total = make_bounded_int_sum(0, 10)
    assert (total >> laplace).map(3) == make_chain_mt(laplace, total).map(3) == 15.0


def test_domain_mismatch_is_a_combinator_error_with_both_domains():
    clamp = make_clamp(0.0, 1.0)
    rr = make_randomized_response([0, 1], 0.75)
    with pytest.raises(CombinatorError, match="output domain") as info:
        make_chain_mt(rr, clamp)
    assert (info.value.inner, info.value.outer) == (clamp.output_domain, rr.input_domain)


def test_metric_mismatch_is_a_combinator_error_with_both_metrics():
    rr = make_randomized_response([0, 1], 0.75)
    with pytest.raises(CombinatorError, match="metric") as info:
        make_chain_mt(rr, make_times(1))
    assert (info.value.inner, info.value.outer) == (make_times(1).output_metric, rr.input_metric)


@pytest.mark.parametrize("outer, inner", [
    (make_times(2), make_present()),                                   # a transformation outside
    (make_randomized_response([0, 1], 0.75), make_randomized_response([0, 1], 0.75)),
    (make_discrete_laplace(1.0), None),
])
def test_wrong_kinds_are_refused(outer, inner):
    with pytest.raises(CombinatorError):
        make_chain_mt(outer, inner)


def test_empirical_frequencies_match_randomized_response():
    """Seeded: 20000 draws of RR(0.75) after ``present`` on a non-empty input; the count of 1s is
    Binomial(20000, 0.75), and |count - 15000| > 6 sd has probability below 1e-8."""
    m = make_chain_mt(make_randomized_response([0, 1], 0.75), make_present())
    rng = random.Random(20261121)
    ones = sum(m([3], rng) for _ in range(20000))
    assert abs(ones - 15000) <= 6 * math.sqrt(20000 * 0.75 * 0.25)


# --- the chain's function: any code that applies inner, then outer with the draw ---------------

def _statements(name: str, constructor) -> dict:
    """The constructor's standard statements as the gate certifies them, by claim."""
    from obligations.base import Entry
    from tests.helpers import statements_by_claim
    return statements_by_claim(Entry(name, constructor))


def _closure_chain(name: str, calls: str):
    from dataclasses import replace
    from mechanisms.make_chain_mt import build_chain_mt

    def build(outer, inner):
        first, second = inner.function, outer.function
        function = eval(f"lambda x, rng=None: {calls}", {"first": first, "second": second})
        return replace(build_chain_mt(outer, inner), function=function)
    return make_chain_mt.variant(name, build)


def test_the_outsiders_closure_chain_is_proved():
    """A closure ``(x, rng) -> outer(inner(x), rng)``: every standard statement proved."""
    certified = _statements("closure", _closure_chain("closure", "second(first(x), rng)"))
    assert all(c.proved for c in certified.values()), [c.why for c in certified.values()]


@pytest.mark.parametrize("calls", ["second(first(x), rng) + second(first(x), rng)",
                                   "second(first(x), rng + 1)",
                                   "second(second(first(x), rng), rng)"])
def test_other_uses_of_the_draw_are_never_proved(calls):
    """Noise drawn twice and added, another draw, noise on noise: not the composition."""
    from obligations.kernel.statements import Claim
    certified = _statements("other_draws", _closure_chain("other_draws", calls))
    assert not certified[Claim.PRIVACY].proved


def test_a_second_body_chosen_by_type_is_never_proved():
    """Composition on solver terms, a scaled inner output on real lists: refuted on real
    components, never proved."""
    from obligations.kernel.statements import Claim
    from tests.twins.make_chain_mt import make_chain_mt_typed_branch
    privacy = _statements("typed", make_chain_mt_typed_branch)[Claim.PRIVACY]
    assert not privacy.proved and privacy.refutation is not None


# --- agreement with OpenDP ---------------------------------------------------------------------

dp = pytest.importorskip("opendp.prelude")
dp.enable_features("contrib", "honest-but-curious")


@pytest.mark.parametrize("upper, scale", [(10, 2.0), (1, 0.5), (100, 3.0), (7, 1.0)])
def test_sum_then_discrete_laplace_map_agrees_with_opendp(upper, scale):
    """Bounded sum then discrete Laplace in both libraries: d_in * upper / scale, rounded up in
    both; equal on a grid of d_in."""
    ours = make_chain_mt(make_discrete_laplace(scale), make_bounded_int_sum(0, upper))
    domain = dp.vector_domain(dp.atom_domain(bounds=(0, upper), T=dp.i64))
    total = dp.t.make_sum(domain, dp.symmetric_distance())
    theirs = dp.c.make_chain_mt(dp.m.make_laplace(total.output_domain, total.output_metric, scale),
                                total)
    for d_in in range(0, 30, 4):
        assert ours.map(d_in) == pytest.approx(theirs.map(d_in), rel=1e-15)
        assert ours.map(d_in) >= d_in * upper / scale


def test_present_then_randomized_response_map_agrees_with_opendp():
    """OpenDP's user transformation with the same function and map, chained into its RR: equal
    maps to within the last ulp (ours rounds ln up, certified)."""
    inner = dp.t.make_user_transformation(
        dp.vector_domain(dp.atom_domain(T=dp.i32)), dp.symmetric_distance(),
        dp.atom_domain(T=dp.i32), dp.discrete_distance(), lambda v: min(len(v), 1),
        lambda d: min(d, 1))
    theirs = dp.c.make_chain_mt(dp.m.make_randomized_response([0, 1], 0.75, T=dp.i32), inner)
    ours = make_chain_mt(make_randomized_response([0, 1], 0.75), make_present())
    for d_in in range(6):
        assert ours.map(d_in) >= theirs.map(d_in)
        assert ours.map(d_in) - theirs.map(d_in) <= 4 * math.ulp(max(theirs.map(d_in), 1.0))
