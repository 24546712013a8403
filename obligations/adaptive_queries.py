"""The queries the proofs of adaptive composition share (the odometer and the privacy filter):
priced queries whose map is a flat cost, stand-in queries whose map is unknown, their exact maps,
the theorems cited for pure DP and zCDP, and the reproducers' imports."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import z3

from mechanisms import float_model
from mechanisms.core import Constructor, Map, Measurement
from mechanisms.domains import AtomDomain
from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence
from mechanisms.metrics import AbsoluteDistance
from obligations.rounding import float_valued_map


INTS = AtomDomain(int)
MEASURES = (MaxDivergence(), ZeroConcentratedDivergence())
FULLY_ADAPTIVE_PURE = ("Rogers, Roth, Ullman and Vadhan 2016 (arXiv:1605.08294), privacy "
                       "filters: adaptively chosen epsilon_i-DP steps, stopped before their sum "
                       "passes epsilon, are epsilon-DP")


FULLY_ADAPTIVE_ZCDP = ("Whitehouse, Ramdas, Rogers and Wu 2023 (arXiv:2203.05481), fully "
                       "adaptive composition: adaptively chosen rho_i-zCDP steps, stopped before "
                       "their sum passes rho, are rho-zCDP")
SETUP = ("from mechanisms.domains import AtomDomain", "from mechanisms.metrics import AbsoluteDistance",
         "from mechanisms.measures import MaxDivergence, ZeroConcentratedDivergence",
         "from mechanisms.make_discrete_laplace import make_discrete_laplace",
         "from mechanisms.make_gaussian import make_gaussian")


def real(value: Any) -> Any:
    """A number or a (float) term as a plain Z3 real."""
    if isinstance(value, z3.ExprRef):
        return float_model.plain(value)
    return z3.RealVal(Fraction(value))


def flat_cost(d_in: Any, cost: Any) -> Any:
    """The flat map ``d -> cost``."""
    return cost


def zero_release(arg: Any, rng: Any = None) -> int:
    return 0


def make_priced_query(cost: float, measure: Any = MaxDivergence()) -> Measurement:
    """A query on ints (absolute distance) that releases the constant 0 and states the flat map
    ``d -> cost``: a valid (loose) measurement for every ``cost >= 0``, since a constant loses
    nothing; replays use it to ask a filter or an odometer for an exact cost."""
    return Measurement(INTS, INTS, AbsoluteDistance(), measure, zero_release,
                       Map(rule=flat_cost, params={"cost": cost}))


def stand_in_query(name: str, measure: Any) -> Measurement:
    """A query of the odometer's domain, metric and measure: function ``g(x, r)`` and map ``m``
    uninterpreted (the map's value a float under the rounding model)."""
    g = z3.Function(f"{name}_g", z3.IntSort(), z3.RealSort(), z3.IntSort())
    return Measurement(INTS, INTS, AbsoluteDistance(), measure, g, float_valued_map(name))


def exact_map(query: Measurement, d_in: Any) -> Any:
    """The stand-in's map at ``d_in`` as the specification states it: its uninterpreted
    function applied, exactly."""
    return query.privacy_map.params["f"](d_in)


def odometer_of(constructor: Constructor, measure: Any) -> Any:
    return constructor(input_domain=INTS, input_metric=AbsoluteDistance(), output_measure=measure)
