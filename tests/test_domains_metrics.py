"""Domains, metrics, the max-divergence measure and chaining (mechanisms.domains/metrics/measures/core)."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanisms.core import Map, Measurement, RowTransform, Transformation, make_chain
from mechanisms.domains import AtomDomain, ProductDomain, SizedDomain, VectorDomain
from mechanisms.errors import (BoundsOrderError, CombinatorError, DomainError, NaNBoundError)
from mechanisms.make_bounded_mean import make_bounded_mean
from mechanisms.make_clamp import make_clamp
from mechanisms.make_randomized_response import make_randomized_response
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import (AbsoluteDistance, DiscreteMetric, LInfDistance, ProductMetric,
                                SymmetricDistance, multiset_key)
from obligations.symbols import same_element

NAN = math.nan
INF = math.inf


# --- AtomDomain -------------------------------------------------------------------------------

def test_atom_domain_carrier_is_exact_type():
    assert AtomDomain(int).member(3)
    assert not AtomDomain(int).member(True)      # bool is a subclass of int, but not an int atom
    assert not AtomDomain(int).member(3.0)
    assert AtomDomain(float).member(1.5)
    assert not AtomDomain(float).member(1)       # an int is not a float atom
    assert AtomDomain(bool).member(False)
    assert not AtomDomain(bool).member(0)
    assert AtomDomain(str).member("a")
    assert not AtomDomain(str).member(1)


def test_atom_domain_nan_only_when_allowed():
    assert not AtomDomain(float).member(NAN)
    assert AtomDomain(float, nan=True).member(NAN)
    assert AtomDomain(float, nan=True).member(-INF)
    assert AtomDomain(float).member(INF)         # infinities are not NaN


def test_atom_domain_nan_requires_float_carrier():
    with pytest.raises(TypeError):
        AtomDomain(int, nan=True)


def test_atom_domain_bounds_are_inclusive():
    d = AtomDomain(float, bounds=(0.0, 10.0))
    assert d.member(0.0) and d.member(10.0) and d.member(-0.0) and d.member(5.5)
    assert not d.member(math.nextafter(0.0, -1.0))
    assert not d.member(math.nextafter(10.0, 11.0))
    assert not d.member(NAN)
    assert not d.member(INF)
    di = AtomDomain(int, bounds=(-2, 2))
    assert di.member(-2) and di.member(2)
    assert not di.member(3) and not di.member(-3)


@pytest.mark.parametrize("bounds, name", [((NAN, 1.0), "lower"), ((0.0, NAN), "upper")])
def test_atom_domain_nan_bound_raises(bounds, name):
    with pytest.raises(NaNBoundError) as info:
        AtomDomain(float, bounds=bounds)
    assert info.value.name == name
    assert math.isnan(info.value.value)


def test_atom_domain_reversed_bounds_raise():
    with pytest.raises(BoundsOrderError) as info:
        AtomDomain(float, bounds=(2.0, 1.0))
    assert (info.value.lower, info.value.upper) == (2.0, 1.0)
    AtomDomain(float, bounds=(1.0, 1.0))          # a one-point interval is fine


# --- VectorDomain, SizedDomain, ProductDomain -------------------------------------------------

def test_vector_domain_membership():
    d = VectorDomain(AtomDomain(int))
    assert d.member([]) and d.member([1, 2, 3]) and d.member((4, 5))
    assert not d.member([1, True])
    assert not d.member([1, 2.0])
    assert not d.member(3)
    assert not d.member({1, 2})                   # a set is not a vector
    assert not d.member("12")


def test_vector_domain_minimum_length():
    d = VectorDomain(AtomDomain(int), min_size=2)
    assert d.member([1, 2]) and d.member((1, 2, 3)) and d.member([0] * 50)
    assert not d.member([]) and not d.member([1])
    assert not d.member([1, 2.0])                 # entries still checked
    assert str(d) == "VectorDomain(AtomDomain(int), min_size=2)"
    assert str(VectorDomain(AtomDomain(int))) == "VectorDomain(AtomDomain(int))"
    assert VectorDomain(AtomDomain(int), min_size=0) == VectorDomain(AtomDomain(int))
    assert d != VectorDomain(AtomDomain(int))
    assert VectorDomain(AtomDomain(int), min_size=-1).member([])   # no length is excluded
    assert LInfDistance().compatible(d) and SymmetricDistance().compatible(d)


def test_vector_domain_length_condition_on_solver_terms():
    """``admits_length`` is written with ops: on a solver length, a solver minimum, or both."""
    import z3
    n, k = z3.Int("n"), z3.Int("k")
    assert z3.is_expr(VectorDomain(AtomDomain(int), min_size=1).admits_length(n))
    symbolic = VectorDomain(AtomDomain(float), min_size=k)
    condition = symbolic.admits_length(n)
    solver = z3.Solver()
    solver.add(condition != (k <= n))
    assert solver.check() == z3.unsat
    assert "min_size=k" in str(symbolic)
    with pytest.raises(TypeError):                # no concrete answer on a solver minimum
        symbolic.member([1.0])


def test_sized_domain_checks_length_and_elements():
    d = SizedDomain(VectorDomain(AtomDomain(float, bounds=(0.0, 1.0))), 3)
    assert d.member([0.0, 0.5, 1.0])
    assert not d.member([0.0, 0.5])
    assert not d.member([0.0, 0.5, 1.0, 1.0])
    assert not d.member([0.0, 0.5, 2.0])
    assert not d.member([0.0, 0.5, NAN])


def test_product_domain_membership():
    d = ProductDomain((VectorDomain(AtomDomain(int)), VectorDomain(AtomDomain(float))))
    assert d.member(([1, 2], [0.5]))
    assert d.member([[], []])
    assert not d.member(([1, 2],))                # too few partitions
    assert not d.member(([1], [0.5], []))         # too many
    assert not d.member(([0.5], [1]))             # partitions swapped
    assert not d.member("ab")


# --- SymmetricDistance ------------------------------------------------------------------------

def test_symmetric_distance_ignores_order():
    d = SymmetricDistance()
    assert d.distance([1, 2, 3], [3, 1, 2]) == 0
    assert d.distance([], []) == 0


def test_symmetric_distance_counts_multiplicities():
    d = SymmetricDistance()
    assert d.distance([1, 1, 2], [1, 2]) == 1
    assert d.distance([1, 1, 1], [2]) == 4
    assert d.distance([1, 2], [3, 4]) == 4
    assert d.distance([], [7, 7]) == 2


def test_symmetric_distance_nan_is_one_element():
    d = SymmetricDistance()
    other_nan = float("nan")
    assert other_nan is not NAN
    assert d.distance([NAN], [other_nan]) == 0
    assert d.distance([NAN, NAN], [other_nan]) == 1
    assert d.distance([NAN], [1.0]) == 2


def test_symmetric_distance_signed_zeros_are_one_element():
    d = SymmetricDistance()
    assert d.distance([-0.0], [0.0]) == 0
    assert d.distance([-0.0, 0.0], [0.0]) == 1


# --- AbsoluteDistance -------------------------------------------------------------------------

def test_absolute_distance_is_exact_for_floats():
    d = AbsoluteDistance().distance(0.1, 0.3)
    assert isinstance(d, Fraction)
    assert d == Fraction(0.3) - Fraction(0.1)
    assert d != Fraction(1, 5)                    # the floats are not 1/10 and 3/10
    assert AbsoluteDistance().distance(0.3, 0.1) == d


def test_absolute_distance_ints_and_infinity():
    assert AbsoluteDistance().distance(3, -4) == 7
    assert AbsoluteDistance().distance(INF, 1.0) == INF
    assert AbsoluteDistance().distance(1.0, -INF) == INF


def test_absolute_distance_of_equal_infinities_is_zero():
    assert AbsoluteDistance().distance(INF, INF) == 0
    assert AbsoluteDistance().distance(-INF, -INF) == 0


# --- DiscreteMetric, ProductMetric ------------------------------------------------------------

def test_discrete_metric():
    d = DiscreteMetric()
    assert d.distance(1, 1) == 0
    assert d.distance(1, 2) == 1
    assert d.distance("a", "a") == 0
    assert d.distance(NAN, float("nan")) == 0
    assert d.distance(NAN, 0.0) == 1
    assert d.distance(-0.0, 0.0) == 0


def test_product_metric_sums_over_partitions():
    m = ProductMetric((SymmetricDistance(), SymmetricDistance()))
    assert m.distance(([1], [2]), ([1], [2])) == 0
    assert m.distance(([1], [2]), ([], [3])) == 1 + 2
    mixed = ProductMetric((SymmetricDistance(), AbsoluteDistance()))
    assert mixed.distance(([1, 2], 0.1), ([1], 0.3)) == 1 + (Fraction(0.3) - Fraction(0.1))


@pytest.mark.parametrize("v, w", [(([1],), ([1], [2])), (([1], [2]), ([1],)),
                                  (([1], [2], [3]), ([1], [2], [3]))])
def test_product_metric_wrong_partition_count(v, w):
    with pytest.raises(ValueError):
        ProductMetric((SymmetricDistance(), SymmetricDistance())).distance(v, w)


# --- compatible() ---------------------------------------------------------------------------

VEC = VectorDomain(AtomDomain(int))
SIZED = SizedDomain(VectorDomain(AtomDomain(float, bounds=(0.0, 1.0))), 2)
ATOM_INT = AtomDomain(int)
ATOM_FLOAT = AtomDomain(float)
ATOM_NAN = AtomDomain(float, nan=True)
ATOM_STR = AtomDomain(str)


@pytest.mark.parametrize("metric, domain, expected", [
    (SymmetricDistance(), VEC, True),
    (SymmetricDistance(), SIZED, True),
    (SymmetricDistance(), ATOM_INT, False),
    (SymmetricDistance(), ProductDomain((VEC,)), False),
    (AbsoluteDistance(), ATOM_INT, True),
    (AbsoluteDistance(), ATOM_FLOAT, True),
    (AbsoluteDistance(), AtomDomain(float, bounds=(0.0, 1.0)), True),
    (AbsoluteDistance(), ATOM_NAN, False),
    (AbsoluteDistance(), ATOM_STR, False),
    (AbsoluteDistance(), VEC, False),
    (DiscreteMetric(), ATOM_STR, True),
    (DiscreteMetric(), ATOM_NAN, True),
    (DiscreteMetric(), VEC, False),
    (ProductMetric((SymmetricDistance(), AbsoluteDistance())), ProductDomain((VEC, ATOM_INT)), True),
    (ProductMetric((SymmetricDistance(), AbsoluteDistance())), ProductDomain((ATOM_INT, VEC)), False),
    (ProductMetric((SymmetricDistance(),)), ProductDomain((VEC, VEC)), False),
    (ProductMetric((SymmetricDistance(),)), VEC, False),
])
def test_compatible(metric, domain, expected):
    assert metric.compatible(domain) is expected


# --- MaxDivergence ----------------------------------------------------------------------------

def test_max_divergence_of_small_distributions():
    p = {"a": Fraction(1, 2), "b": Fraction(1, 2)}
    q = {"a": Fraction(1, 4), "b": Fraction(3, 4)}
    assert MaxDivergence().max_ratio(p, q) == 2
    assert MaxDivergence().max_ratio(q, p) == 2
    assert MaxDivergence().divergence(p, q) == pytest.approx(math.log(2), rel=1e-15)


def test_max_divergence_identical_distributions():
    p = {0: Fraction(1, 3), 1: Fraction(2, 3)}
    assert MaxDivergence().max_ratio(p, dict(p)) == 1
    assert MaxDivergence().divergence(p, dict(p)) == 0.0
    # an outcome listed with probability 0 on both sides changes nothing
    assert MaxDivergence().max_ratio({0: Fraction(1)}, {0: Fraction(1), 1: Fraction(0)}) == 1


def test_max_divergence_zero_versus_nonzero_is_infinite():
    p = {"a": Fraction(1)}
    q = {"a": Fraction(1, 2), "b": Fraction(1, 2)}
    assert MaxDivergence().max_ratio(p, q) == INF
    assert MaxDivergence().divergence(p, q) == INF
    assert MaxDivergence().divergence(q, p) == INF


# --- chaining ---------------------------------------------------------------------------------

def test_chain_clamp_into_bounded_mean_is_refused():
    clamp = make_clamp(0.0, 10.0)
    mean = make_bounded_mean(0.0, 10.0, 3)
    with pytest.raises(CombinatorError, match="output domain") as info:
        clamp >> mean
    assert info.value.inner == clamp.output_domain
    assert info.value.outer == mean.input_domain
    with pytest.raises(CombinatorError):
        make_chain(mean, clamp)


def test_chain_refuses_metric_mismatch():
    dom = VectorDomain(AtomDomain(int))
    first = Transformation(dom, dom, SymmetricDistance(), DiscreteMetric(),
                           RowTransform(lambda x: x), Map(constant=lambda: 1))
    second = Transformation(dom, dom, SymmetricDistance(), SymmetricDistance(),
                            RowTransform(lambda x: x), Map(constant=lambda: 1))
    with pytest.raises(CombinatorError, match="metric") as info:
        first >> second
    assert info.value.inner == DiscreteMetric()
    assert info.value.outer == SymmetricDistance()


def test_chain_refuses_measurement_first():
    rr = make_randomized_response([0, 1], 0.75)
    with pytest.raises(CombinatorError):
        make_chain(make_clamp(0, 1), rr)


def _int_vector_transformation(kernel, constant):
    dom = VectorDomain(AtomDomain(int))
    return Transformation(dom, dom, SymmetricDistance(), SymmetricDistance(),
                          RowTransform(kernel), Map(constant=lambda: constant))


def test_chain_of_transformations():
    plus_one = _int_vector_transformation(lambda x: x + 1, 1)
    double = _int_vector_transformation(lambda x: 2 * x, 3)
    chained = plus_one >> double                  # double(plus_one(v))
    assert isinstance(chained, Transformation)
    assert chained([1, 2, 3]) == [4, 6, 8]
    assert (double >> plus_one)([1, 2, 3]) == [3, 5, 7]
    assert chained.map(2) == 6
    assert chained.check(2, 6) is True
    assert chained.check(2, 5) is False
    assert chained.input_domain == plus_one.input_domain
    with pytest.raises(DomainError):
        chained([1, True])


def test_chain_transformation_into_measurement():
    to_category = Transformation(VectorDomain(AtomDomain(int)), AtomDomain(int),
                                 SymmetricDistance(), DiscreteMetric(),
                                 lambda v: len(v) % 3, Map(constant=lambda: 1))
    rr = make_randomized_response([0, 1, 2], 0.5)
    chained = to_category >> rr
    assert isinstance(chained, Measurement)
    assert chained.map(0) == 0
    assert chained.map(1) == rr.map(1)
    assert chained([5, 6], random.Random(0)) in (0, 1, 2)
    with pytest.raises(DomainError):
        chained([1.0])


# --- same_element agrees with multiset_key ----------------------------------------------------

any_float = st.floats(allow_nan=True, allow_infinity=True)
special = st.sampled_from([NAN, float("nan"), -0.0, 0.0, INF, -INF, 1.0, 5e-324])


@settings(max_examples=200, derandomize=True)
@given(a=st.one_of(any_float, special), b=st.one_of(any_float, special))
def test_same_element_agrees_with_multiset_key(a, b):
    assert same_element(a, b) == (multiset_key(a) == multiset_key(b))
    assert (SymmetricDistance().distance([a], [b]) == 0) == bool(same_element(a, b))


def test_linf_distance_is_the_largest_coordinate_move_and_fits_numeric_vectors():
    from fractions import Fraction
    from mechanisms.metrics import LInfDistance
    metric = LInfDistance()
    assert metric.distance([1.0, 2.0], [1.5, 0.0]) == 2
    assert metric.distance([0.1], [0.2]) == abs(Fraction(0.1) - Fraction(0.2))  # exact
    assert metric.distance([], []) == 0
    assert metric.distance([1], [1, 2]) == math.inf  # different lengths are never close
    assert metric.compatible(VectorDomain(AtomDomain(float)))
    assert metric.compatible(SizedDomain(VectorDomain(AtomDomain(int)), 3))
    assert not metric.compatible(VectorDomain(AtomDomain(float, nan=True)))
    assert not metric.compatible(AtomDomain(float))


def test_check_compares_pairs_and_triples_componentwise():
    """(epsilon, delta) = (1, 1e-7) is not within (2, 1e-8), which Python's tuple order says it is."""
    from mechanisms.core import at_most
    assert (1.0, 1e-7) <= (2.0, 1e-8)  # lexicographic: what check must not use
    assert not at_most((1.0, 1e-7), (2.0, 1e-8))
    assert at_most((1, 2, 1), (1, 2, 2)) and not at_most((2, 1, 1), (1, 3, 3))
    assert at_most(0.5, 1) and not at_most(2, 1)
    with pytest.raises(TypeError):
        at_most((1.0, 0.0), 1.0)
