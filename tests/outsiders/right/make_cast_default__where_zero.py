"""Cast float -> str normalising the signed zero with ``where(x == 0, 0.0, x)`` before
formatting (instead of ``x + 0.0``).

Correct: both send ``-0.0`` and ``0.0`` to ``0.0`` and leave every other float (NaN and
``+-inf`` included) unchanged, so the kernel formats the same string for each multiset element;
the other casts are the catalogue's.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_cast_default import (CAST_KERNELS, build_cast_default,  # noqa: E402
                                          format_value, make_cast_default)
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_cast_default"


def float_to_str(x):
    return ops.opaque("format_float", format_value, ops.where(ops.eq(x, 0), 0.0, x), str)


KERNELS = {**CAST_KERNELS, (float, str): float_to_str}


def build(from_type, to_type):
    return replace(build_cast_default(from_type, to_type),
                   function=RowTransform(KERNELS[(from_type, to_type)]))


make_cast_wz = make_cast_default.variant("make_cast_default_where_zero", build)
MECHANISMS = [Entry("outsider_right_cast_where_zero", make_cast_wz)]


def check() -> str:
    values = [math.nan, -math.inf, math.inf, -0.0, 0.0, 1.5, -2.25, 5e-324, 1e300]
    assert make_cast_wz(float, str)(values) == make_cast_default(float, str)(values)
    assert make_cast_wz(float, int)(values) == make_cast_default(float, int)(values)
    return f"equal strings to make_cast_default(float, str) on {len(values)} values"
