"""Impute detecting NaN by self-inequality, ``x != x`` (``negate(eq(x, x))``).

Correct: under IEEE equality a float differs from itself exactly when it is NaN (``-0.0 == -0.0``,
``inf == inf``), so the kernel is the catalogue's on every float.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_impute_constant import build_impute_constant, make_impute_constant  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_impute_constant"


def kernel(x, constant):
    return ops.where(ops.negate(ops.eq(x, x)), constant, x)


def build(constant):
    return replace(build_impute_constant(constant), function=RowTransform(kernel, {"constant": constant}))


make_impute_ne = make_impute_constant.variant("make_impute_constant_self_inequality", build)
MECHANISMS = [Entry("outsider_right_impute_self_inequality", make_impute_ne)]


def check() -> str:
    values = [math.nan, float("nan"), -math.inf, math.inf, -0.0, 0.0, 1.5, 5e-324, -1e308]
    for c in (0.0, -0.0, 7.5, math.inf):
        a, b = make_impute_ne(c)(values), make_impute_constant(c)(values)
        assert [repr(x) for x in a] == [repr(x) for x in b]
    return f"bit-identical outputs (repr) to make_impute_constant on {len(values)} values x 4 constants"
