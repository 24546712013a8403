"""IEEE-754 products in the kernel's goals (``obligations.kernel.goals.products_abstracted``):
a goal is first tried with each ``a * b`` replaced by what IEEE 754 fixes of it (NaN cases, sign)
on an unknown magnitude. The real product must be a model of that replacement, or a proof
without it could be wrong; a goal that needs the magnitude still goes to the full check."""

from __future__ import annotations

import itertools
import math

import pytest
import z3

from mechanisms import ops
from mechanisms.core import RowTransform, Transformation, Map
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.metrics import SymmetricDistance
from obligations.kernel.goals import products_abstracted, prove
from obligations.kernel.row_transform import row_transform
from obligations.kernel.rules import RuleRefused

F64 = z3.Float64()
HARD = [0.0, -0.0, 1.0, -1.0, 3.0, -2.5, 5e-324, -5e-324, 1e308, -1e308, math.inf, -math.inf,
        math.nan, 1.5e-162]
MODES = [z3.RNE(), z3.RNA(), z3.RTP(), z3.RTN(), z3.RTZ()]


def _value(term):
    return z3.simplify(term)


def _true(term) -> bool:
    return z3.is_true(z3.simplify(term))


def test_ieee_products_meet_what_replaces_them():
    """For every pair of hard operands and rounding mode, the IEEE product is NaN exactly in the
    cases named, else has the exclusive or of the signs, and its magnitude is one function of
    the mode, that sign and the operands' magnitudes (the same key never gives two values)."""
    magnitudes: dict[tuple[str, bool, str, str], str] = {}
    for mode, (a, b) in itertools.product(MODES, itertools.product(HARD, repeat=2)):
        x, y = z3.FPVal(a, F64), z3.FPVal(b, F64)
        product = _value(z3.fpMul(mode, x, y))
        invalid = math.isnan(a) or math.isnan(b) or {abs(a), abs(b)} == {0.0, math.inf}
        assert _true(z3.fpIsNaN(product)) == invalid, (str(mode), a, b)
        if invalid:
            continue
        negative = math.copysign(1, a) * math.copysign(1, b) < 0
        assert _true(z3.fpIsNegative(product)) == negative, (str(mode), a, b)
        key = (str(mode), negative, str(_value(z3.fpAbs(x))), str(_value(z3.fpAbs(y))))
        assert magnitudes.setdefault(key, str(_value(z3.fpAbs(product)))) == \
            str(_value(z3.fpAbs(product))), key


@pytest.mark.parametrize("mode", [z3.RNE(), z3.RTN()], ids=str)
def test_the_real_product_is_a_model_of_the_replacement(mode):
    """``a * b = (its IEEE value)`` stays satisfiable once the product is replaced; a value of
    the other sign, or NaN for a number (a number for NaN), does not."""
    for a, b in itertools.product([0.0, -0.0, 3.0, -2.5, math.inf, math.nan], repeat=2):
        product = z3.fpMul(mode, z3.FPVal(a, F64), z3.FPVal(b, F64))
        value = _value(product)
        wrong = z3.FPVal(1.0, F64) if _true(z3.fpIsNaN(value)) else \
            _value(z3.If(z3.fpIsZero(value), z3.fpNaN(F64), z3.fpNeg(value)))
        for expected, target in ((z3.sat, value), (z3.unsat, wrong)):
            solver = z3.Solver()
            solver.add(products_abstracted(product == target))
            assert solver.check() == expected, (str(mode), a, b, target)


def square(x):
    return x * x


def squared_into(x, lower, upper):
    return ops.where(ops.is_nan(x), lower, ops.maximum(ops.minimum(x * x, upper), lower))


def row(kernel, output=AtomDomain(float, bounds=(0.0, 100.0))) -> Transformation:
    """A float row transformation (NaN rows admitted) of ``kernel``, a function or a
    ``RowTransform``, into vectors of ``output``."""
    function = kernel if isinstance(kernel, RowTransform) else RowTransform(kernel)
    return Transformation(VectorDomain(AtomDomain(float, nan=True)), VectorDomain(output),
                          SymmetricDistance(), SymmetricDistance(), function,
                          Map(constant=lambda: 1))


def test_a_clamped_square_of_float_rows_is_proved():
    """``x * x`` clamped into ``[0, 100]``, NaN to 0: the product's magnitude is never needed."""
    built = row(RowTransform(squared_into, {"lower": 0.0, "upper": 100.0}))
    assert [t.statement.claim.value for t in row_transform("squared", built)] == [
        "output domain", "domain-metric compatibility", "stability"]


@pytest.mark.parametrize("kernel, output", [
    (square, AtomDomain(float)),  # NaN rows stay NaN: outside a domain without NaN
    pytest.param(lambda x: ops.maximum(ops.where(ops.is_nan(x), 0.0, x * x), 0.0),
                 AtomDomain(float, bounds=(0.0, 100.0)),  # no upper clamp: 11 * 11 = 121
                 marks=pytest.mark.slow),  # the full check runs to its 10 s: make test-slow
    (lambda x: ops.where(ops.is_nan(x), 0.0, ops.minimum(x * x, 100.0)),
     AtomDomain(float, bounds=(1.0, 100.0))),  # 0 * 0 = 0 is below the lower bound 1
], ids=["nan", "no-upper-clamp", "below-lower"])
def test_a_square_outside_its_domain_is_not_proved(kernel, output):
    with pytest.raises(RuleRefused, match="output domain"):
        row_transform("wrong", row(kernel, output))


@pytest.mark.slow  # over 2 s: make test-slow
def test_a_goal_needing_the_magnitude_goes_to_the_full_check():
    x = z3.FP("x", F64)
    zero = z3.FPVal(0.0, F64)
    prove("test", "x * 0 is a zero for a normal x", lambda: z3.Implies(
        z3.fpIsNormal(x), z3.fpIsZero(z3.fpMul(z3.RNE(), x, zero))))
    without = z3.Solver()  # the replacement alone does not know the magnitude
    without.add(products_abstracted(z3.Not(z3.Implies(z3.fpIsNormal(x), z3.fpIsZero(
        z3.fpMul(z3.RNE(), x, zero))))))
    assert without.check() == z3.sat
    with pytest.raises(RuleRefused, match="refuted at"):
        prove("test", "x * x >= 0", lambda: z3.fpGEQ(z3.fpMul(z3.RNE(), x, x), zero))
