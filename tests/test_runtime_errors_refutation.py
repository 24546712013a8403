"""The refutation of data-independent runtime errors (obligations/refuters/runtime_errors.py):
one input on which the function raises before any draw, so at every draw, and another on which
a seeded run returns."""

from __future__ import annotations

import random

import pytest

from mechanisms.core import Map, Measurement
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import SymmetricDistance
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, object_statements
from obligations.refuters.runtime_errors import refute_object


def _measurement(function) -> Measurement:
    return Measurement(VectorDomain(AtomDomain(int)), AtomDomain(int), SymmetricDistance(),
                       MaxDivergence(), function, Map(rule=lambda d_in: d_in))


def _refute(built: Measurement, x, other):
    statement = next(s for s in object_statements("m", built)
                     if s.claim is Claim.RUNTIME_ERRORS)
    return refute_object(statement, built, x, other, 1)


def count_unless_empty(data, rng):
    """Raises on the empty dataset before drawing; else the count plus a draw."""
    if not data:
        raise ValueError("no rows")
    return len(data) + rng.randrange(3)


def draws_then_raises_on_empty(data, rng):
    noise = rng.randrange(3)
    if not data:
        raise ValueError("no rows")
    return len(data) + noise


def test_a_raise_before_any_draw_on_one_input_only_is_refuted():
    refutation = _refute(_measurement(count_unless_empty), [], [1])
    assert "on [] the function raises ValueError: no rows before any draw" in refutation.witness
    assert "on [1] it returns (random.Random(0))" in refutation.witness


def test_a_raise_after_a_draw_refutes_nothing():
    """Whether it raises at every draw is not known from one run: nothing is claimed."""
    with pytest.raises(RuleRefused, match="does not raise on"):
        _refute(_measurement(draws_then_raises_on_empty), [], [1])


def test_a_raise_on_both_inputs_refutes_nothing():
    with pytest.raises(RuleRefused, match="raises on"):
        _refute(_measurement(count_unless_empty), [], [])
    with pytest.raises(RuleRefused, match="does not raise on"):
        _refute(_measurement(count_unless_empty), [1], [])


def test_the_rng_that_forbids_draws_is_not_caught_by_the_functions_handlers():
    def swallows(data, rng):
        try:
            return rng.random()
        except Exception:  # noqa: BLE001 - a function that hides its own errors
            raise ValueError("hidden") from None
    with pytest.raises(RuleRefused, match="does not raise on"):
        _refute(_measurement(swallows), [], [1])
    assert isinstance(swallows([1], random.Random(0)), float)


def test_a_draw_its_own_handler_hides_refutes_nothing():
    def hides_the_draw(data, rng):
        try:
            rng.random()
        except BaseException:  # noqa: BLE001 - swallows even the refuter's signal
            pass
        if not data:
            raise ValueError("no rows")
        return len(data)
    with pytest.raises(RuleRefused, match="does not raise on"):
        _refute(_measurement(hides_the_draw), [], [1])


def test_a_raise_chosen_by_other_randomness_refutes_nothing():
    """A function that draws from the random module itself may raise by chance, on any input."""
    def raises_at_random(data, rng):
        if random.random() < 0.5:
            raise ValueError("unlucky")
        return len(data)
    with pytest.raises(RuleRefused, match="draws randomness"):
        _refute(_measurement(raises_at_random), [], [1])
