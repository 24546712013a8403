"""Impute whose kernel tests ``x == nan`` (``ops.eq(x, math.nan)``).

Wrong: NaN equals nothing, itself included, so no row is ever imputed and NaN reaches an output
domain that promises none.
Hole classes: none listed (plain NaN-handling bug).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402

from _exact import out_of_domain  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_impute_constant import build_impute_constant, make_impute_constant  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_impute_constant"
CLASSES = ()


def eq_nan_kernel(x, constant):
    return ops.where(ops.eq(x, math.nan), constant, x)


def build(constant):
    t = build_impute_constant(constant)
    return replace(t, function=RowTransform(eq_nan_kernel, {"constant": constant}))


make_impute_eq = make_impute_constant.variant("make_impute_constant_eq_nan", build)
MECHANISMS = [Entry("outsider_impute_eq_nan", make_impute_eq)]


def witness() -> str:
    out = out_of_domain(make_impute_eq(0.0), [1.0, math.nan])
    assert math.isnan(out[1])
    return f"impute(0.0)([1.0, nan]) = {out}"
