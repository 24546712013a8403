"""mechanisms.make_fully_adaptive_composition: the odometer's queryable, its running loss (rounded
up, never below the exact sum), its typed refusals, and the comparison with OpenDP 0.16."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from mechanisms.core import Map, Measurement
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import (DomainError, OdometerMeasureError, OdometerMetricError,
                               QueryMismatchError)
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_fully_adaptive_composition import (NOTHING_SPENT, OdometerStep,
                                                        make_fully_adaptive_composition)
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_privacy_filter import make_privacy_filter
from mechanisms.make_randomized_response import make_randomized_response
from mechanisms.measures import (FixedSmoothedMaxDivergence, MaxDivergence,
                                 ZeroConcentratedDivergence)
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from mechanisms.queryable import Odometer, Queryable

INTS = AtomDomain(int)


def odometer(measure=MaxDivergence()) -> Odometer:
    return make_fully_adaptive_composition(INTS, AbsoluteDistance(), measure)


def test_answers_are_the_queries_outputs_and_the_loss_adds_up():
    queryable = odometer()(5, random.Random(0))
    assert isinstance(queryable, Queryable) and queryable.privacy_loss(1) == 0.0
    answers = [queryable(make_discrete_laplace(s)) for s in (1.0, 2.0, 4.0)]
    assert all(isinstance(a, int) for a in answers)
    assert queryable.privacy_loss(1) == 1.75 and queryable.privacy_loss(2) == 3.5
    assert queryable.privacy_loss(0) == 0.0


def test_answers_are_the_query_run_on_the_data_with_the_shared_source():
    """The same seed gives the answers the queries give when run in turn on one source."""
    queries = [make_discrete_laplace(1.0), make_discrete_laplace(3.0)]
    queryable = odometer()(7, random.Random(11))
    rng = random.Random(11)
    assert [queryable(q) for q in queries] == [q(7, rng) for q in queries]


def test_the_loss_is_never_below_the_exact_sum_and_rounds_up_one_ulp_at_most():
    rng = random.Random(3)
    for _ in range(50):
        queryable = odometer()(0)
        scales = [rng.uniform(0.1, 10.0) for _ in range(rng.randint(1, 6))]
        for scale in scales:
            queryable(make_discrete_laplace(scale))
        exact = sum(Fraction(make_discrete_laplace(s).map(1)) for s in scales)
        assert Fraction(queryable.privacy_loss(1)) >= exact


def test_zcdp_odometer_adds_rho():
    queryable = odometer(ZeroConcentratedDivergence())(3, random.Random(1))
    queryable(make_gaussian(1.0))
    queryable(make_gaussian(2.0))
    assert queryable.privacy_loss(1) == 0.5 + 0.125


def test_mismatched_queries_are_refused_before_anything_changes():
    queryable = odometer()(3, random.Random(1))
    queryable(make_discrete_laplace(1.0))
    state = queryable.state
    with pytest.raises(QueryMismatchError) as caught:
        queryable(make_gaussian(1.0))  # zCDP query on a pure-DP odometer
    assert caught.value.attribute == "output_measure"
    with pytest.raises(QueryMismatchError) as caught:
        queryable(make_randomized_response([0, 1], 0.75))  # discrete metric
    assert caught.value.attribute in ("input_domain", "input_metric")
    with pytest.raises(QueryMismatchError) as caught:
        queryable("not a measurement")
    assert caught.value.attribute == "type"
    assert queryable.state is state and queryable.privacy_loss(1) == 1.0


def test_interactive_queries_are_refused():
    inner = make_privacy_filter(odometer(), 1, 1.0)
    queryable = odometer()(3)
    with pytest.raises(QueryMismatchError) as caught:
        queryable(inner)
    assert caught.value.attribute == "output_domain"
    assert queryable.state is NOTHING_SPENT


def test_a_query_that_raises_is_still_charged():
    """Charged before it runs: a query whose function raises still counts (conservative)."""
    def boom(x, rng=None):
        raise RuntimeError("boom")
    m = make_discrete_laplace(1.0)
    raising = Measurement(m.input_domain, m.output_domain, m.input_metric, m.output_measure,
                          boom, m.privacy_map)
    queryable = odometer()(3)
    with pytest.raises(RuntimeError):
        queryable(raising)
    assert queryable.privacy_loss(1) == 1.0


def test_bad_arguments_are_refused_with_typed_errors():
    with pytest.raises(OdometerMeasureError):
        make_fully_adaptive_composition(INTS, AbsoluteDistance(), FixedSmoothedMaxDivergence())
    with pytest.raises(OdometerMetricError):
        make_fully_adaptive_composition(INTS, SymmetricDistance(), MaxDivergence())
    with pytest.raises(DomainError):
        odometer()("not an int")
    vectors = make_fully_adaptive_composition(VectorDomain(INTS), SymmetricDistance(),
                                              MaxDivergence())
    assert vectors.input_metric == SymmetricDistance()


def test_the_state_is_the_composed_map():
    queryable = odometer()(0)
    queryable(make_discrete_laplace(2.0))
    assert isinstance(queryable.state, Map) and isinstance(queryable.transition, OdometerStep)
    assert queryable.state(3) == 1.5


# --- agreement with OpenDP ----------------------------------------------------------------------

dp = pytest.importorskip("opendp.prelude")
dp.enable_features("contrib")


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("d_in", [0, 1, 3])
def test_pure_loss_agrees_with_opendp(seed, d_in):
    """OpenDP's odometer over Laplace queries of the same scales: equal losses after every query
    on this grid (OpenDP's Laplace map at an int d_in is d_in / scale rounded up, as ours)."""
    rng = random.Random(seed)
    scales = [rng.choice([0.5, 1.0, 1.5, 2.0, 3.0, 7.0]) for _ in range(4)]
    ours = odometer()(5)
    theirs = dp.c.make_fully_adaptive_composition(dp.atom_domain(T=int),
                                                  dp.absolute_distance(T=int),
                                                  dp.max_divergence())(5)
    for scale in scales:
        ours(make_discrete_laplace(scale))
        theirs(dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale))
        assert ours.privacy_loss(d_in) == pytest.approx(theirs.privacy_loss(d_in), rel=1e-15)


def test_zcdp_loss_agrees_with_opendp():
    ours = odometer(ZeroConcentratedDivergence())(5)
    theirs = dp.c.make_fully_adaptive_composition(dp.atom_domain(T=int),
                                                  dp.absolute_distance(T=int),
                                                  dp.zero_concentrated_divergence())(5)
    for scale in (1.0, 2.0, 0.5):
        ours(make_gaussian(scale))
        theirs(dp.m.make_gaussian(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale))
        assert ours.privacy_loss(2) == pytest.approx(theirs.privacy_loss(2), rel=1e-15)
