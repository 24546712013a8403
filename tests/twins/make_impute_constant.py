"""Wrong twins of ``make_impute_constant``: one refuted per standard statement."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mechanisms import ops
from mechanisms.core import Map, RowTransform
from mechanisms.make_impute_constant import build_impute_constant, make_impute_constant
from mechanisms.metrics import AbsoluteDistance
from obligations.base import Entry
from obligations.kernel.statements import Claim


def impute_infinities(x: Any, constant: Any) -> Any:
    """Wrong: replaces the infinities instead of NaN, so NaN stays in the output."""
    return ops.where(ops.is_finite(x), x, ops.where(ops.is_nan(x), x, constant))


def half(d_in: Any) -> Any:
    """Wrong: imputation is 1-stable, not 1/2-stable."""
    return d_in / 2


def build_impute_infinities(constant: Any):
    return replace(build_impute_constant(constant),
                   function=RowTransform(impute_infinities, {"constant": constant}))


def build_impute_absolute_output(constant: Any):
    """Wrong: absolute distance is not defined on vectors."""
    return replace(build_impute_constant(constant), output_metric=AbsoluteDistance())


def build_impute_half_map(constant: Any):
    return replace(build_impute_constant(constant), stability_map=Map(rule=half))


make_impute_infinities = make_impute_constant.variant("make_impute_infinities",
                                                      build_impute_infinities)
make_impute_absolute_output = make_impute_constant.variant("make_impute_absolute_output",
                                                           build_impute_absolute_output)
make_impute_half_map = make_impute_constant.variant("make_impute_half_map", build_impute_half_map)

MECHANISMS = [Entry("make_impute_infinities", make_impute_infinities),
              Entry("make_impute_absolute_output", make_impute_absolute_output),
              Entry("make_impute_half_map", make_impute_half_map)]

STATEMENT_TWIN_OF = {
    ("make_impute_constant", Claim.OUTPUT_DOMAIN): ("make_impute_infinities", Claim.OUTPUT_DOMAIN),
    ("make_impute_constant", Claim.COMPATIBILITY): ("make_impute_absolute_output",
                                                    Claim.COMPATIBILITY),
    ("make_impute_constant", Claim.STABILITY): ("make_impute_half_map", Claim.STABILITY),
}
