"""``make_bin_midpoints(lower, upper, width)``: coarsen integer rows to the midpoints of bins of
``width`` (ages to 5-year groups, say), as a row-by-row transformation.

A ``Transformation`` from ``VectorDomain(AtomDomain(int))`` to
``VectorDomain(AtomDomain(int, bounds=(lower, upper)))``, ``SymmetricDistance`` on both sides,
whose function is a ``mechanisms.core.RowTransform`` with kernel
``x -> lower + ((clamp(x) - lower) // width) * width + width // 2``: each row is clamped to
``[lower, upper]``, then replaced by the midpoint of its bin ``[lower + k width,
lower + (k + 1) width)``. Stability map ``d_in -> d_in`` (one row in, one row out).

Preconditions: ``lower <= upper``, ``width >= 1`` (ints).

MISTAKE: the last bin may be cut short by ``upper``, and its midpoint is then above ``upper``:
the kernel leaves the output domain it declares. With ``[0, 9]`` and ``width = 4`` the last
bin is ``[8, 9]`` and the rows ``8`` and ``9`` become ``10``. (The midpoint should be clamped to
``upper``, or the bins aligned so that the range is a whole number of bins.)
"""

from __future__ import annotations

from mechanisms import ops
from mechanisms.core import Constructor, Map, Precondition, RowTransform, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import BoundsOrderError, ConstructorError, IntBoundTypeError
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry, example


def midpoint_kernel(x, lower, upper, width):
    clamped = ops.maximum(ops.minimum(x, upper), lower)
    start = lower + ops.floor_div(clamped - lower, width) * width
    return start + ops.floor_div(width, 2)


def one():
    return 1


def build_bin_midpoints(lower: int, upper: int, width: int) -> Transformation:
    return Transformation(
        input_domain=VectorDomain(AtomDomain(int)),
        output_domain=VectorDomain(AtomDomain(int, bounds=(lower, upper))),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=RowTransform(midpoint_kernel, {"lower": lower, "upper": upper, "width": width}),
        stability_map=Map(constant=one),
    )


def validate(lower, upper, width):
    if type(lower) is not int or type(upper) is not int:
        raise IntBoundTypeError(lower, upper)
    if type(width) is not int:
        raise ConstructorError(f"width must be an int, got {width!r}", width=width)


PRECONDITIONS = (
    Precondition("lower <= upper", lambda lower, upper, **_: ops.le(lower, upper),
                 lambda lower, upper, **_: BoundsOrderError(lower, upper)),
    Precondition("width >= 1", lambda width, **_: ops.le(1, width),
                 lambda width, **_: ConstructorError(f"width must be >= 1, got {width!r}",
                                                     width=width)),
)

make_bin_midpoints = Constructor("make_bin_midpoints", build_bin_midpoints, PRECONDITIONS,
                                 validate)

MECHANISMS = [Entry("make_bin_midpoints", make_bin_midpoints,
                    examples=(example("make_bin_midpoints(0, 99, 10)",
                                      "from bin_midpoint_rows import make_bin_midpoints"),))]


def witness() -> str:
    t = make_bin_midpoints(0, 9, 4)
    rows = [0, 5, 9]
    assert t.input_domain.member(rows)
    out = t(rows)
    assert out == [2, 6, 10], out
    assert not t.output_domain.member(out), out
    return (f"make_bin_midpoints(0, 9, 4): rows {rows} give {out}; 10 is outside the declared "
            f"output domain {t.output_domain}")
