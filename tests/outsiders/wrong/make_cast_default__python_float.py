"""Cast int -> float with Python's ``float(n)`` on concrete numbers ("faster than the guarded
helper"); solver terms get the catalogue's guarded kernel.

Wrong: ``float(10**400)`` raises ``OverflowError``, so the transformation raises on a member of
its input domain (and only for some datasets: a data-dependent failure), where the catalogue casts
to the default ``0.0``.
Hole classes: 11 (branch on ``ops.is_symbolic``).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_cast_default import (CAST_KERNELS, build_cast_default,  # noqa: E402
                                          int_to_float, make_cast_default)
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_cast_default"
CLASSES = (11,)


def fast_int_to_float(n):
    return int_to_float(n) if ops.is_symbolic(n) else float(n)


KERNELS = {**CAST_KERNELS, (int, float): fast_int_to_float}


def build(from_type, to_type):
    t = build_cast_default(from_type, to_type)
    return replace(t, function=RowTransform(KERNELS[(from_type, to_type)]))


make_cast_fast = make_cast_default.variant("make_cast_default_python_float", build)
MECHANISMS = [Entry("outsider_cast_python_float", make_cast_fast)]


def witness() -> str:
    t = make_cast_fast(int, float)
    assert t.input_domain.member([10 ** 400])
    assert t([1, 2]) == [1.0, 2.0]
    try:
        t([10 ** 400])
    except OverflowError as error:
        return f"cast(int, float)([10**400]) raises OverflowError ({error}); [1, 2] does not"
    raise AssertionError("no OverflowError")
