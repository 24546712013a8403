"""mechanisms.make_drop_null: the function, its domains and map, the refusal, agreement with
OpenDP."""

from __future__ import annotations

import math

import opendp.prelude as dp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import CarrierError, DomainError
from mechanisms.make_drop_null import make_drop_null
from mechanisms.metrics import SymmetricDistance

dp.enable_features("contrib")

NAN, INF = math.nan, math.inf


def same_floats(a: list[float], b: list[float]) -> bool:
    """Equal entry by entry, with the sign of zero compared too."""
    return len(a) == len(b) and all(
        x == y and math.copysign(1, x) == math.copysign(1, y) for x, y in zip(a, b))


def test_drops_nan_and_keeps_the_rest_in_order():
    t = make_drop_null()
    out = t([NAN, INF, -0.0, float("nan"), -INF, 0.0, 5e-324, NAN])
    assert same_floats(out, [INF, -0.0, -INF, 0.0, 5e-324])
    assert t([]) == [] and t([NAN, NAN]) == []
    assert t.output_domain.member(out)


def test_domains_and_metrics():
    t = make_drop_null(float)
    assert t.input_domain == VectorDomain(AtomDomain(float, nan=True))
    assert t.output_domain == VectorDomain(AtomDomain(float))
    assert t.input_metric == t.output_metric == SymmetricDistance()


@pytest.mark.parametrize("data", [[1.0, 2], [1.0, "a"], [None], 3.0, [True]])
def test_rejects_input_outside_domain(data):
    t = make_drop_null()
    with pytest.raises(DomainError) as info:
        t(data)
    assert info.value.value is data and info.value.domain == t.input_domain


@pytest.mark.parametrize("carrier", [int, str, bool, None, "float"])
def test_carrier_error(carrier):
    with pytest.raises(CarrierError) as info:
        make_drop_null(carrier)
    assert info.value.carrier is carrier and info.value.supported == (float,)


def test_map_and_check():
    t = make_drop_null()
    for d in (0, 1, 2, 17, 10 ** 20):
        assert t.map(d) == d and t.check(d, d)
    assert not t.check(3, 2)


def test_distance_can_shrink_but_never_grow():
    t = make_drop_null()
    v, w = [1.0], [NAN, NAN, 1.0]
    assert t.input_metric.distance(v, w) == 2
    assert t.output_metric.distance(t(v), t(w)) == 0


specials = st.sampled_from([NAN, INF, -INF, -0.0, 0.0, 1.0])


@settings(max_examples=200, derandomize=True)
@given(v=st.lists(specials, max_size=7), w=st.lists(specials, max_size=7))
def test_is_1_stable_and_lands_in_the_output_domain(v, w):
    t = make_drop_null()
    assert t.output_domain.member(t(v))
    d_in = t.input_metric.distance(v, w)
    assert t.output_metric.distance(t(v), t(w)) <= t.map(d_in)


# --- agreement with OpenDP ---------------------------------------------------------------------

GRID = [[], [NAN], [NAN, 1.0, INF, -INF, -0.0, NAN], [5e-324, -2.5, 0.0], [NAN] * 5]


def test_agrees_with_opendp():
    ours = make_drop_null(float)
    theirs = dp.t.make_drop_null(dp.vector_domain(dp.atom_domain(T=float, nan=True)),
                                 dp.symmetric_distance())
    for d_in in (0, 1, 2, 3, 10, 1000, 2 ** 32 - 1):
        assert ours.map(d_in) == theirs.map(d_in)
    for data in GRID:
        assert same_floats(ours(data), theirs(data))
