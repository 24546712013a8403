"""Impute whose function object is a ``RowTransform`` subclass with a list-comprehension
``__call__`` testing ``x is math.nan`` (the kernel and ``scalar`` stay the catalogue's).

Wrong: NaNs parsed from data are other objects than ``math.nan``; ``float("nan") is math.nan``
is false, so they are not imputed and NaN escapes the output domain.
Hole classes: 2 (a subclass overrides the method that runs).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402

from _exact import out_of_domain  # noqa: E402
from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_impute_constant import (build_impute_constant, impute_kernel,  # noqa: E402
                                             make_impute_constant)
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_impute_constant"
CLASSES = (2,)


@dataclass(frozen=True)
class FastImpute(RowTransform):
    def __call__(self, data):
        constant = self.params["constant"]
        return [constant if x is math.nan else x for x in data]


def build(constant):
    t = build_impute_constant(constant)
    return replace(t, function=FastImpute(impute_kernel, {"constant": constant}))


make_impute_is = make_impute_constant.variant("make_impute_constant_is_nan", build)
MECHANISMS = [Entry("outsider_impute_identity_nan_check", make_impute_is)]


def witness() -> str:
    parsed_nan = float("nan")
    out = out_of_domain(make_impute_is(0.0), [parsed_nan])
    assert math.isnan(out[0])
    return f"impute(0.0)([float('nan')]) = {out}"
