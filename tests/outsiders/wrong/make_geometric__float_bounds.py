"""Bounded geometric whose argument check is widened to accept float bounds ("``bounds=(0.0,
100.0)`` is what users type; the clamp works on floats"), the rest unchanged.

Wrong: with ``bounds = (0.0, 10.0)`` an input below or above the bounds is clamped to the float
bound, so the release ``0.0 + Y`` is a float, outside the declared output domain
``AtomDomain(int, bounds=(0.0, 10.0))`` (whose carrier is ``int``): the real function on
``x = -5``. Which type comes out depends on whether the input was clamped, so the type of the
release leaks whether the data was out of range.
Hole classes: none listed (a type check widened: a domain that does not fit).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from mechanisms.core import Constructor  # noqa: E402
from mechanisms.errors import BoundsPairError  # noqa: E402
from mechanisms.make_discrete_laplace import validate_scale  # noqa: E402
from mechanisms.make_geometric import GEOMETRIC_PRECONDITIONS, build_geometric  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_geometric"
CLASSES = ()


def validate_numeric_bounds(scale, bounds):
    validate_scale(scale)
    if not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
        raise BoundsPairError(bounds)
    if any(type(b) not in (int, float) for b in bounds):
        raise BoundsPairError(bounds)


make_geo_float = Constructor("make_geometric_float_bounds", build_geometric,
                             GEOMETRIC_PRECONDITIONS, validate_numeric_bounds)
MECHANISMS = [Entry("outsider_geo_float_bounds", make_geo_float)]


def witness() -> str:
    m = make_geo_float(1.0, (0.0, 10.0))
    rng = random.Random(0)
    inside = m(5, rng)
    assert m.output_domain.member(inside) or True  # an in-range input keeps an int sum
    out = m(-5, rng)
    assert m.input_domain.member(-5) and not m.output_domain.member(out)
    return f"bounds (0.0, 10.0): release on -5 is {out!r} (a float), outside {m.output_domain}"
