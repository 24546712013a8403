"""The float model: each float operation on a Z3 term is rounded within the standard model; the
rounding-up primitives are fresh floats at or above their exact values; the exact model drops
every rounding."""

from __future__ import annotations

from fractions import Fraction

import z3

from mechanisms import float_model, ops
from mechanisms.arith import div_up, float_up


def valid(claim, facts) -> bool:
    solver = z3.Solver()
    solver.add(*facts, z3.Not(claim))
    return solver.check() == z3.unsat


def test_a_float_division_may_round_below_the_quotient_but_div_up_may_not():
    with float_model.rounding_model() as model:
        scale = float_model.float_parameter("scale")
        d_in = z3.Real("d_in")
        nearest, upward = d_in / scale, div_up(d_in, scale)
    exact = d_in / float_model.plain(scale)
    assumptions = [*model.facts, d_in > 0, float_model.plain(scale) > 0]
    assert not valid(float_model.plain(nearest) >= exact, assumptions)
    assert valid(float_model.plain(upward) >= exact, assumptions)
    assert valid(float_model.plain(nearest) >= exact * (1 - float_model.UNIT_ROUNDOFF)
                 - float_model.UNDERFLOW, assumptions)


def test_multiplying_by_a_power_of_two_is_exact_and_other_products_round():
    with float_model.rounding_model() as model:
        x = float_model.float_parameter("x")
        doubled, tripled = 2 * x, 3 * x
    plain_x = float_model.plain(x)
    assert valid(float_model.plain(doubled) == 2 * plain_x, model.facts)
    assert not valid(float_model.plain(tripled) == 3 * plain_x, model.facts)


def test_one_exact_value_is_rounded_up_to_one_float():
    with float_model.rounding_model():
        q = z3.Real("q")
        assert float_model.plain(float_up(q)).eq(float_model.plain(float_up(q)))


def test_the_exact_model_drops_every_rounding_on_terms_and_numbers():
    with float_model.exact_model():
        q = z3.Real("q")
        assert float_up(q).eq(q) and div_up(q, 3).eq(q / 3)
        assert div_up(1.0, 3.0) == Fraction(1, 3) and float_up(Fraction(1, 3)) == Fraction(1, 3)
        assert ops.add_up(0.1, 0.2) == Fraction(0.1) + Fraction(0.2)
    assert div_up(1.0, 3.0) == 0.33333333333333337  # outside any model: the float, rounded up


def test_where_keeps_a_float_a_float():
    with float_model.rounding_model():
        x = float_model.float_parameter("x")
        chosen = ops.where(z3.Bool("b"), x, 0)
        assert isinstance(chosen, float_model.FloatTerm)
        assert isinstance(chosen + 1, float_model.FloatTerm)


def test_python_ints_keep_python_semantics_on_z3():
    """An int parameter is an IntTerm: ``//`` is Python's floor (negative divisors too), ``/``
    is true division, a float rounded under the rounding model, so it may fall below the
    exact quotient; ``+ - *`` of ints stay exact ints."""
    import z3
    from mechanisms import ops
    n, m = float_model.int_parameter("n"), float_model.int_parameter("m")
    solver = z3.Solver()
    solver.add(m != 0, n // m != z3.ToInt(z3.ToReal(n) / z3.ToReal(m)))
    assert solver.check() == z3.unsat
    assert isinstance(n * m - 3 + ops.floor_div(n, 2), float_model.IntTerm)
    assert not isinstance(n / 2, float_model.IntTerm)
    with float_model.rounding_model() as model:
        quotient = n * m / 2
        assert isinstance(quotient, float_model.FloatTerm)
        assert isinstance(1.0 / n, float_model.FloatTerm)
        below = z3.Solver()
        below.add(*model.facts, float_model.plain(quotient) < z3.ToReal(n * m) / 2)
        assert below.check() == z3.sat
