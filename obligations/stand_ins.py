"""Parts of the stand-in components that the combinators' proofs quantify over: a map about which
nothing is known (an uninterpreted real function), a float domain between two unknown bounds, and
the row shift of the components whose outputs tell them apart, and the lists of stand-ins a
composition's proofs read."""

from __future__ import annotations

from typing import Any

import z3

from mechanisms.core import Map
from mechanisms.domains import AtomDomain


def applied(d_in: Any, f: Any) -> Any:
    """``f(d_in)``: the rule of a map whose function ``f`` is a parameter."""
    return f(d_in)


def shifted(x: int, offset: int) -> int:
    """``x + offset``: a row kernel that moves every row by a fixed offset."""
    return x + offset


def interval(name: str) -> AtomDomain:
    """Non-NaN floats in ``[name_lo, name_hi]``, both bounds Z3 reals."""
    return AtomDomain(float, bounds=(z3.Real(f"{name}_lo"), z3.Real(f"{name}_hi")))


def symbolic_map(name: str) -> Map:
    """A map about which nothing is known: an uninterpreted ``R -> R`` function."""
    return Map(rule=applied, params={"f": z3.Function(f"{name}_map", z3.RealSort(), z3.RealSort())})


MAX_COMPONENTS_CHECKED = 4
"""The longest list of stand-in components a composition's proof reads."""
PATTERNS = ((0,), (0, 1), (0, 1, 2), (0, 1, 2, 3), (0, 0), (0, 1, 0), (1, 0, 0, 1))
"""Component lists as indices into the stand-ins: ``k = 1..4`` distinct ones, and lists that
hold one component (the same object) more than once."""
