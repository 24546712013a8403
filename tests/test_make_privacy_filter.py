"""mechanisms.make_privacy_filter: the budget is never passed, refusals change nothing, the map,
typed errors, and the comparison with OpenDP 0.16 (equal until the first refusal; then OpenDP's
filter is exhausted, ours answers cheaper queries)."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from mechanisms.core import Map, Measurement
from mechanisms.domains import AtomDomain, QueryableDomain
from mechanisms.errors import (BudgetExceededError, DomainError, FilterArgumentError,
                               FilterDistanceError, QueryMismatchError)
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_fully_adaptive_composition import make_fully_adaptive_composition
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_privacy_filter import FilterStep, make_privacy_filter
from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence
from mechanisms.metrics import AbsoluteDistance
from mechanisms.queryable import Queryable

INTS = AtomDomain(int)


def odometer(measure=MaxDivergence()):
    return make_fully_adaptive_composition(INTS, AbsoluteDistance(), measure)


def priced(cost: float) -> Measurement:
    """A query releasing a constant, whose map is the flat ``cost`` (a valid, loose bound)."""
    m = make_discrete_laplace(1.0)
    return Measurement(m.input_domain, m.output_domain, m.input_metric, m.output_measure,
                       lambda x, rng=None: 0, Map(rule=lambda d, c: c, params={"c": cost}))


def test_the_filter_is_a_measurement_of_queryables():
    f = make_privacy_filter(odometer(), 1, 1.5)
    assert f.output_domain == QueryableDomain() and f.output_measure == MaxDivergence()
    assert f.input_domain == INTS and f.input_metric == AbsoluteDistance()
    queryable = f(4, random.Random(0))
    assert isinstance(queryable, Queryable) and f.output_domain.member(queryable)
    assert isinstance(queryable.transition, FilterStep) and queryable.state == 0.0
    with pytest.raises(DomainError):
        f(1.5)


def test_map_is_d_out_up_to_d_in_and_refused_above():
    f = make_privacy_filter(odometer(), 2, 1.5)
    assert f.map(0) == f.map(1) == f.map(2) == 1.5
    with pytest.raises(FilterDistanceError) as caught:
        f.map(3)
    assert caught.value.distance == 3 and caught.value.d_in == 2
    with pytest.raises(FilterDistanceError):
        f.map(math.nextafter(2.0, 3.0))


def test_queries_are_charged_at_d_in_and_refused_past_d_out():
    queryable = make_privacy_filter(odometer(), 2, 1.5)(4, random.Random(0))
    queryable(make_discrete_laplace(4.0))          # costs 2 / 4 = 0.5
    assert queryable.state == 0.5
    with pytest.raises(BudgetExceededError) as caught:
        queryable(make_discrete_laplace(1.0))      # would cost 2 more
    assert caught.value.pending == 2.5 and caught.value.budget == 1.5
    assert caught.value.spent == 0.5 and queryable.state == 0.5
    queryable(make_discrete_laplace(2.0))          # 1 more: 1.5 <= 1.5, accepted
    assert queryable.state == 1.5 == queryable.privacy_loss(2)
    with pytest.raises(BudgetExceededError):
        queryable(priced(5e-324))                  # the least positive float is too much now
    queryable(priced(0.0))                         # a free query is still answered
    assert queryable.state == 1.5


def test_a_refused_query_is_not_run_and_changes_nothing():
    runs = []
    m = make_discrete_laplace(1.0)
    spy = Measurement(m.input_domain, m.output_domain, m.input_metric, m.output_measure,
                      lambda x, rng=None: runs.append(x), m.privacy_map)
    queryable = make_privacy_filter(odometer(), 1, 0.5)(4)
    inner = queryable.respond.state
    with pytest.raises(BudgetExceededError):
        queryable(spy)
    assert runs == [] and queryable.state == 0.0 and queryable.respond.state is inner


def test_infinite_and_nan_costs_are_refused():
    queryable = make_privacy_filter(odometer(), 1, 1e300)(0)
    for cost in (math.inf, math.nan):
        with pytest.raises(BudgetExceededError):
            queryable(priced(cost))
    assert queryable.state == 0.0


def test_rounding_up_refuses_what_round_to_nearest_would_accept():
    """1 + 2^-60 rounds to nearest to 1.0; the filter's sum rounds it up, past d_out = 1.0."""
    queryable = make_privacy_filter(odometer(), 1, 1.0)(0)
    queryable(priced(1.0))
    assert 1.0 + 2.0 ** -60 == 1.0
    with pytest.raises(BudgetExceededError):
        queryable(priced(2.0 ** -60))


def test_a_remainder_rounded_to_nearest_is_never_the_test():
    """2^-60 then 1.0 under d_out = 1.0: fl(1.0 - 2^-60) = 1.0 would admit the second query (a
    "remaining budget" test); the filter compares the rounded-up sum, so it refuses it."""
    queryable = make_privacy_filter(odometer(), 1, 1.0)(0)
    queryable(priced(2.0 ** -60))
    assert 1.0 <= 1.0 - 2.0 ** -60
    with pytest.raises(BudgetExceededError):
        queryable(priced(1.0))
    assert Fraction(2.0 ** -60) <= Fraction(queryable.state) <= 1.0


def test_a_nan_cost_does_not_open_the_budget():
    """A NaN cost is refused and leaves the state a number: the next costs of 1.0 are charged
    against 1.0 as if it had never been asked (one answered, the next refused)."""
    queryable = make_privacy_filter(odometer(), 1, 1.0)(0)
    with pytest.raises(BudgetExceededError):
        queryable(priced(math.nan))
    queryable(priced(1.0))
    with pytest.raises(BudgetExceededError):
        queryable(priced(1.0))
    assert queryable.state == 1.0


def test_seeded_adaptive_sequences_never_pass_the_budget():
    """Seeded random sequences of costs (the next cost drawn from the answers so far): the exact
    sum of the accepted costs stays <= d_out, and the state is the rounded-up running sum."""
    rng = random.Random(5)
    for _ in range(100):
        d_out = rng.uniform(0.0, 3.0)
        queryable = make_privacy_filter(odometer(), 1, d_out)(0)
        accepted: list[float] = []
        for _ in range(30):
            cost = rng.choice([rng.uniform(0.0, 1.0), rng.random() * 1e-16, 0.1, 0.3])
            try:
                queryable(priced(cost))
                accepted.append(cost)
            except BudgetExceededError:
                pass
            assert sum(Fraction(c) for c in accepted) <= Fraction(queryable.state) <= d_out


def test_zcdp_filter():
    queryable = make_privacy_filter(odometer(ZeroConcentratedDivergence()), 1, 0.6)(3)
    queryable(make_gaussian(1.0))                  # rho = 1/2
    with pytest.raises(BudgetExceededError):
        queryable(make_gaussian(1.0))
    queryable(make_gaussian(4.0))                  # rho = 1/32
    assert queryable.state == 0.5 + 1 / 32


def test_mismatched_queries_are_refused_before_anything_is_charged():
    queryable = make_privacy_filter(odometer(), 1, 5.0)(3)
    with pytest.raises(QueryMismatchError):
        queryable(make_gaussian(1.0))
    assert queryable.state == 0.0 and queryable.privacy_loss(1) == 0.0
    queryable(make_discrete_laplace(2.0))
    assert queryable.state == 0.5 == queryable.privacy_loss(1)


@pytest.mark.parametrize("arguments, name", [
    ({"odometer": "no", "d_in": 1, "d_out": 1.0}, "odometer"),
    ({"d_in": -1, "d_out": 1.0}, "d_in"), ({"d_in": 1, "d_out": -0.5}, "d_out"),
    ({"d_in": 1, "d_out": math.nan}, "d_out"), ({"d_in": math.inf, "d_out": 1.0}, "d_in"),
    ({"d_in": True, "d_out": 1.0}, "d_in"), ({"d_in": 1, "d_out": "1"}, "d_out")])
def test_bad_arguments_are_refused_with_typed_errors(arguments, name):
    with pytest.raises(FilterArgumentError) as caught:
        make_privacy_filter(**{"odometer": odometer(), **arguments})
    assert caught.value.name == name


# --- agreement with OpenDP ----------------------------------------------------------------------

dp = pytest.importorskip("opendp.prelude")
dp.enable_features("contrib")


@pytest.mark.parametrize("seed", range(8))
def test_acceptance_agrees_with_opendp_until_the_first_refusal(seed):
    """Laplace queries of seeded scales against OpenDP's filter at the same d_in, d_out: the same
    queries are accepted up to the first refusal; after it OpenDP's filter refuses everything
    (exhausted), ours answers the queries that still fit."""
    rng = random.Random(seed)
    d_in, d_out = rng.choice([1, 2]), rng.choice([1.0, 1.5, 2.5])
    ours = make_privacy_filter(odometer(), d_in, d_out)(5)
    theirs = dp.c.make_privacy_filter(dp.c.make_fully_adaptive_composition(
        dp.atom_domain(T=int), dp.absolute_distance(T=int), dp.max_divergence()),
        d_in=d_in, d_out=d_out)(5)
    checks_after_refusal = 1  # OpenDP's refusals are slow (a backtrace each): check one more
    refused = False
    for _ in range(8):
        scale = rng.choice([0.5, 1.0, 2.0, 4.0, 8.0])
        try:
            ours(make_discrete_laplace(scale))
            ours_ok = True
        except BudgetExceededError:
            ours_ok = False
        if refused and not checks_after_refusal:
            continue
        try:
            theirs(dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale))
            theirs_ok = True
        except dp.OpenDPException:
            theirs_ok = False
        if not refused:
            assert ours_ok == theirs_ok
        else:
            assert not theirs_ok
            checks_after_refusal -= 1
        refused = refused or not theirs_ok
    assert Fraction(ours.state) <= d_out
