"""mechanisms.make_pureDP_to_approxDP: refusals, the same function and domains, the map
``(eps, 0)``, the least delta of real components at the claimed epsilon, and the comparison with
opendp 0.16's ``make_approximate``. No statistical test: the function is the measurement's own
object, so seeded runs are compared draw for draw."""

from __future__ import annotations

import math
import random

import mpmath
import pytest

from mechanisms.errors import CombinatorError
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_pureDP_to_approxDP import make_pureDP_to_approxDP
from mechanisms.make_randomized_response import make_randomized_response
from mechanisms.make_zCDP_to_approxDP import make_zCDP_to_approxDP
from mechanisms.measures import FixedSmoothedMaxDivergence
from obligations.make_pureDP_to_approxDP import discrete_laplace_window, observed_delta
from obligations.exact_delta import needed_delta


@pytest.mark.parametrize("measurement", [make_gaussian(1.0), None, 3, "laplace",
                                         make_zCDP_to_approxDP(make_gaussian(1.0), 1e-6)])
def test_anything_but_a_pure_dp_measurement_is_refused(measurement):
    with pytest.raises(CombinatorError) as info:
        make_pureDP_to_approxDP(measurement)
    assert info.value.measurement is measurement


def test_domains_metric_function_and_measure_are_the_measurements():
    inner = make_discrete_laplace(2.0)
    m = make_pureDP_to_approxDP(inner)
    assert m.output_measure == FixedSmoothedMaxDivergence()
    assert (m.input_domain, m.output_domain, m.input_metric, m.function) == \
        (inner.input_domain, inner.output_domain, inner.input_metric, inner.function)
    assert [m(7, random.Random(s)) for s in range(20)] == [inner(7, random.Random(s))
                                                          for s in range(20)]


@pytest.mark.parametrize("scale", [0.5, 1.0, 3.0, 0.1])
@pytest.mark.parametrize("d_in", [0, 1, 2, 5, 1000])
def test_map_is_epsilon_and_zero(scale, d_in):
    inner = make_discrete_laplace(scale)
    assert make_pureDP_to_approxDP(inner).map(d_in) == (inner.map(d_in), 0)


def test_infinite_epsilon_at_scale_zero():
    assert make_pureDP_to_approxDP(make_discrete_laplace(0.0)).map(1) == (math.inf, 0)


def test_randomized_response_needs_no_delta_at_its_epsilon_and_some_below_it():
    m = make_pureDP_to_approxDP(make_randomized_response([0, 1], 0.75))
    epsilon, delta = m.map(1)
    assert delta == 0 and observed_delta(m, 0, 1, epsilon) <= mpmath.mpf(10) ** -40
    assert observed_delta(m, 0, 1, epsilon / 2) > 0.1     # 3/4 - sqrt(3)/4 ~ 0.317


@pytest.mark.parametrize("d", [1, 2, 3])
def test_discrete_laplace_needs_no_delta_at_d_over_scale(d):
    m = make_pureDP_to_approxDP(make_discrete_laplace(1.0))
    epsilon, delta = m.map(d)
    assert observed_delta(m, 0, d, epsilon) <= mpmath.mpf(10) ** -40
    assert observed_delta(m, 0, d, epsilon * 0.9) > 0.01


def test_needed_delta_on_a_two_point_law():
    p, q = {0: 0.75, 1: 0.25}, {0: 0.25, 1: 0.75}
    assert abs(needed_delta(p, q, 0.0) - 0.5) < 1e-40
    assert needed_delta(p, q, math.log(3) + 1e-12) == 0
    assert needed_delta(p, q, math.inf) == 0


def test_laplace_window_holds_almost_all_mass():
    p, q = discrete_laplace_window(2.0, 0, 3)
    with mpmath.workdps(60):
        assert abs(mpmath.fsum(p.values()) - 1) < 1e-35
        assert abs(mpmath.fsum(q.values()) - 1) < 1e-35


# --- OpenDP -----------------------------------------------------------------------------------

dp = pytest.importorskip("opendp.prelude")
dp.enable_features("contrib")


@pytest.mark.parametrize("scale", [0.5, 1.0, 2.0, 3.0, 10.0])
@pytest.mark.parametrize("d_in", [0, 1, 3, 10])
def test_map_equals_opendps_make_approximate(scale, d_in):
    """opendp's make_approximate(make_geometric) maps to (eps, 0.0); the epsilons are equal (both
    the discrete Laplace's d_in / scale rounded up) and the deltas are 0 and 0.0."""
    ours = make_pureDP_to_approxDP(make_discrete_laplace(scale)).map(d_in)
    space = dp.atom_domain(T=int), dp.absolute_distance(T=int)
    theirs = dp.c.make_approximate(dp.m.make_geometric(*space, scale=scale)).map(d_in)
    assert ours == tuple(theirs)
