"""Round-to-nearest stand-ins for the rounding-up primitives, called by the ``rounding`` mutants.

The runner copies this file to the root of each isolated copy as ``_mutation_nearest.py``, and a
mutant replaces ``float_up(q)`` by ``__import__('_mutation_nearest').float_nearest(q)`` (likewise
``ln_up``, ``sqrt_up``), so the mutated module needs no new import line. On solver terms each is
what the code would compute with a correctly rounded operation (``float_model.rounded``), the
same model the checker's own round-to-nearest twins use (``tests/twins``); on numbers it is the
Python float operation. Only the project's public modules are used.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from mechanisms import float_model, ops


def float_nearest(q: Any) -> Any:
    """``float(q)``: the nearest float, possibly below ``q``."""
    if ops.is_symbolic(q):
        return float_model.rounded(q)
    return q if ops.exact_numbers() else float(q)


def ln_nearest(r: Any) -> Any:
    """``math.log(r)``: to nearest, possibly below ``ln r``."""
    if ops.is_z3(r):
        if float_model.active() is not None:
            return float_model.rounded(float_model.LN(ops.exact(r)))
        return ops.ln_up(r)
    if ops.is_symbolic(r) or ops.exact_numbers():
        return ops.ln_up(r)
    return math.log(Fraction(r)) if isinstance(r, Fraction) else math.log(r)


def sqrt_nearest(x: Any) -> Any:
    """``math.sqrt(x)``: to nearest, possibly below ``sqrt x``."""
    if ops.is_z3(x):
        if float_model.active() is not None:
            return float_model.rounded(float_model.square_root(ops.exact(x)))
        return ops.sqrt_up(x)
    if ops.is_symbolic(x) or ops.exact_numbers():
        return ops.sqrt_up(x)
    return math.sqrt(x)
