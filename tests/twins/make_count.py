"""Wrong twins of ``make_count``: one refuted per standard statement, and the same for the builtin
``len`` as the function (read as the fold it computes: its map and output domain are still
checked); a wrapper around ``len`` and a ``Fold`` with its own ``__call__`` are outside the rule."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mechanisms.core import Fold, Map
from mechanisms.domains import AtomDomain
from mechanisms.make_count import build_count, make_count
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry
from obligations.kernel.statements import Claim
from tests.twins._statements import statement_twin_entries


def float_step(count: Any, x: Any) -> Any:
    """Wrong: ``count + 1.0`` turns the count into a float, outside ``AtomDomain(int)``."""
    return count + 1.0


def double_step(count: Any, x: Any) -> Any:
    """Wrong: every row counts twice, so one added row moves the count by 2."""
    return count + 2


def half(d_in: Any) -> Any:
    """Wrong: a count is 1-stable, not 1/2-stable."""
    return d_in / 2


def float_identity(d_in: Any) -> Any:
    """Wrong: ``d_in * 1.0``, a float: below the exact ``d_in`` for ``d_in = 2^53 + 1``."""
    return d_in * 1.0


def floor_half(d_in: Any) -> Any:
    """Wrong: ``d_in // 2``; one added row moves ``len`` by 1 > ``1 // 2``."""
    return d_in // 2


def build_count_len_half_map(carrier: type):
    return replace(build_count(carrier), function=len, stability_map=Map(rule=floor_half))


def build_count_len_float_output(carrier: type):
    """Wrong: ``len`` returns an ``int``, outside ``AtomDomain(float)``."""
    return replace(build_count(carrier), function=len, output_domain=AtomDomain(float))


def build_count_len_wrapper(carrier: type):
    """Right: a lambda around ``len`` is not the builtin the fold rule reads; proved, bounded,
    by equality in value to ``make_count`` (tests/test_equivalence_rule.py)."""
    return replace(build_count(carrier), function=lambda v: len(v))


class EveryOtherRow(Fold):
    """Outside the method: a ``Fold`` whose own ``__call__`` counts every other row."""

    def __call__(self, data: Any) -> Any:
        return super().__call__(data[::2])


def build_count_every_other_row(carrier: type):
    built = build_count(carrier)
    f = built.function
    return replace(built, function=EveryOtherRow(f.step, f.finalize, f.init, f.params))


def build_count_float_map(carrier: type):
    return replace(build_count(carrier), stability_map=Map(rule=float_identity))


def build_count_float(carrier: type):
    built = build_count(carrier)
    return replace(built, function=replace(built.function, step=float_step))


def build_count_double(carrier: type):
    built = build_count(carrier)
    return replace(built, function=replace(built.function, step=double_step))


def build_count_symmetric_output(carrier: type):
    """Wrong: symmetric distance is for vectors, the count is one integer."""
    return replace(build_count(carrier), output_metric=SymmetricDistance())


def build_count_half_map(carrier: type):
    return replace(build_count(carrier), stability_map=Map(rule=half))


make_count_float = make_count.variant("make_count_float", build_count_float)
make_count_double = make_count.variant("make_count_double", build_count_double)
make_count_symmetric_output = make_count.variant("make_count_symmetric_output",
                                                 build_count_symmetric_output)
make_count_half_map = make_count.variant("make_count_half_map", build_count_half_map)
make_count_float_map = make_count.variant("make_count_float_map", build_count_float_map)
make_count_len_half_map = make_count.variant("make_count_len_half_map", build_count_len_half_map)
make_count_len_float_output = make_count.variant("make_count_len_float_output",
                                                 build_count_len_float_output)
make_count_len_wrapper = make_count.variant("make_count_len_wrapper", build_count_len_wrapper)
make_count_every_other_row = make_count.variant("make_count_every_other_row",
                                                build_count_every_other_row)

STATEMENT_TWIN_OF = {
    ("make_count", Claim.OUTPUT_DOMAIN): ("make_count_float", Claim.OUTPUT_DOMAIN),
    ("make_count", Claim.COMPATIBILITY): ("make_count_symmetric_output", Claim.COMPATIBILITY),
    ("make_count", Claim.STABILITY): ("make_count_half_map", Claim.STABILITY),
}
REFUTED_STATEMENTS = {("make_count_double", Claim.STABILITY),
                      ("make_count_len_half_map", Claim.STABILITY),
                      ("make_count_len_float_output", Claim.OUTPUT_DOMAIN)}
MECHANISMS = statement_twin_entries(globals(), STATEMENT_TWIN_OF.values(), REFUTED_STATEMENTS)
UNSUPPORTED = [Entry("make_count_every_other_row", make_count_every_other_row)]
