"""Twins of the row transforms beyond the seeds' (tests/wrong_variants.py) and the modules of
impute, drop-null and cast: preconditions no bound or constant meets (never proved, the witness
is refused) and overriding subclasses of the trusted kernels (unsupported)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

from mechanisms import ops
from mechanisms.core import Constructor, Precondition, RowTransform
from mechanisms.errors import BoundsOrderError, NaNConstantError
from mechanisms.make_clamp import (BOUND_PRECONDITIONS, build_clamp, make_clamp,
                                   validate_bounds)
from mechanisms.make_drop_null import Filter, build_drop_null, make_drop_null
from mechanisms.make_impute_constant import (IMPUTE_PRECONDITIONS, build_impute_constant,
                                             validate_constant)
from obligations.base import Entry
from obligations.make_clamp import clamp_obligations


@dataclass(frozen=True)
class ListedRows(RowTransform):
    """Outside the proof: overrides ``__call__`` (here harmlessly; the checker cannot tell)."""

    def __call__(self, data: Sequence[Any]) -> list[Any]:
        return list(map(self.scalar, data))


@dataclass(frozen=True)
class ListedFilter(Filter):
    """Right: overrides ``__call__`` with the same filter, which no object rule reads; proved,
    bounded, by equality in value to ``make_drop_null`` (tests/test_equivalence_rule.py)."""

    def __call__(self, data: Sequence[Any]) -> list[Any]:
        return list(filter(lambda x: ops.truthy(self.scalar(x)), data))


def build_clamp_listed(lower, upper):
    built = build_clamp(lower, upper)
    return replace(built, function=ListedRows(built.function.kernel, built.function.params))


def build_drop_null_listed(carrier=float):
    built = build_drop_null(carrier)
    return replace(built, function=ListedFilter(built.function.keep, built.function.params))


make_clamp_vacuous = Constructor(
    "make_clamp_vacuous", build_clamp,
    (*BOUND_PRECONDITIONS, Precondition("upper < lower", lambda lower, upper: ops.lt(upper, lower),
                                        lambda lower, upper: BoundsOrderError(lower, upper))),
    validate_bounds)
make_impute_vacuous = Constructor(
    "make_impute_vacuous", build_impute_constant,
    (*IMPUTE_PRECONDITIONS, Precondition("constant is NaN", lambda constant: ops.is_nan(constant),
                                         lambda constant: NaNConstantError(constant))),
    validate_constant)
make_clamp_listed = make_clamp.variant("make_clamp_listed", build_clamp_listed)
make_drop_null_listed = make_drop_null.variant("make_drop_null_listed", build_drop_null_listed)

MECHANISMS: list[Entry] = []
EXPECTED_REFUTATIONS: set[str] = set()
TWIN_OF: dict[str, str] = {}
UNSUPPORTED = [
    Entry("make_clamp_vacuous", make_clamp_vacuous, clamp_obligations(make_clamp_vacuous,
                                                                      "clamp_vacuous")),
    Entry("make_impute_vacuous", make_impute_vacuous),
    Entry("make_clamp_listed", make_clamp_listed, clamp_obligations(make_clamp_listed,
                                                                    "clamp_listed")),
]
