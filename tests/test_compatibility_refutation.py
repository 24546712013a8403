"""The refutation of domain-metric compatibility (obligations/refuters/compatibility.py): two
members of a domain between which the catalogue's metric has no distance, on the inputs or on
the running function's outputs."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import pytest

from mechanisms.core import Map, Transformation
from mechanisms.domains import AtomDomain
from mechanisms.make_clamp import make_clamp
from mechanisms.metrics import AbsoluteDistance, SymmetricDistance
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, object_statements
from obligations.refuters.compatibility import refute_object, undefined


def _compatibility(name: str, built: object):
    return next(s for s in object_statements(name, built) if s.claim is Claim.COMPATIBILITY)


def test_an_absolute_distance_between_vector_outputs_is_refuted_on_the_outputs():
    built = replace(make_clamp(0.0, 1.0), output_metric=AbsoluteDistance())
    refutation = refute_object(_compatibility("t", built), built, [], [0.5], 1)
    assert "output metric AbsoluteDistance() between [] and [0.5]" in refutation.witness
    assert "raises TypeError" in refutation.witness


def test_an_absolute_distance_on_atoms_that_may_be_nan_is_refuted_by_its_nan_distance():
    built = Transformation(AtomDomain(float, nan=True), AtomDomain(float), AbsoluteDistance(),
                           AbsoluteDistance(), lambda x: 0.0, Map(rule=lambda d: d))
    refutation = refute_object(_compatibility("t", built), built, math.nan, 1.0, 1)
    assert "input metric AbsoluteDistance() between nan and 1.0" in refutation.witness
    assert "returns nan, which is not a distance" in refutation.witness


def test_a_metric_with_a_distance_on_both_sides_refutes_nothing():
    built = make_clamp(0.0, 1.0)
    with pytest.raises(RuleRefused, match="have a distance"):
        refute_object(_compatibility("t", built), built, [], [0.5], 1)


def test_inputs_outside_the_input_domain_refute_nothing():
    built = replace(make_clamp(0.0, 1.0), output_metric=AbsoluteDistance())
    with pytest.raises(RuleRefused, match="not in the input domain"):
        refute_object(_compatibility("t", built), built, ["a"], [0.5], 1)


def test_a_metric_outside_the_catalogue_is_not_trusted_to_refute():
    class Undefined(SymmetricDistance):
        def distance(self, v, w):
            raise TypeError("never defined")
    built = replace(make_clamp(0.0, 1.0), input_metric=Undefined())
    with pytest.raises(RuleRefused):
        refute_object(_compatibility("t", built), built, [], [0.5], 1)


@pytest.mark.parametrize("distance, is_undefined", [
    (0, False), (Fraction(1, 3), False), (math.inf, False), ((0, 1, Fraction(1, 2)), False),
    (math.nan, True), (-1, True), ("1", True), (True, True), (None, True), ((0, -1), True),
    ((), True)])
def test_what_is_a_distance(distance, is_undefined):
    assert undefined(distance) is is_undefined
