"""make_impute_constant refactored with an identity test against ``math.nan``. WRONG.

The refactor: ``[constant if x is math.nan else x for x in data]`` ("``math.nan`` is the NaN
singleton, and ``is`` avoids the float comparison").

The bug: NaN is not a singleton. ``float("nan")``, a NaN parsed from a CSV field, ``inf - inf``
or ``0 * inf`` are distinct objects (and may have other payloads or sign), so ``x is math.nan`` is
false for them and the NaN row is kept. A unit test that builds its NaN row with ``math.nan``
sees the catalogue's behaviour.

Standard statement broken: **output domain**. ``make(0.0)`` on ``[float("nan")]`` (a member of
``VectorDomain(AtomDomain(float, nan=True))``) returns ``[nan]``, which is not a member of the
output domain ``VectorDomain(AtomDomain(float))`` (NaN not admitted).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import math
from dataclasses import replace

from mechanisms.make_impute_constant import build_impute_constant, make_impute_constant
from obligations.base import Entry

CONSTRUCTOR = "make_impute_constant"


def build_impute_identity(constant):
    return replace(build_impute_constant(constant),
                   function=lambda data: [constant if x is math.nan else x for x in data])


make_impute_identity = make_impute_constant.variant("make_impute_identity", build_impute_identity)
MECHANISMS = [Entry("make_impute_identity", make_impute_identity)]


def check() -> str:
    t = make_impute_identity(0.0)
    rows = [1.0, -0.0, math.inf, math.nan]
    assert t(rows) == make_impute_constant(0.0)(rows) == [1.0, -0.0, math.inf, 0.0]
    x = [float("nan")]
    assert t.input_domain.member(x)
    y = t(x)
    assert math.isnan(y[0]) and not t.output_domain.member(y)
    assert make_impute_constant(0.0)(x) == [0.0]
    return f"output domain broken: make_impute_identity(0.0)([float('nan')]) = {y}, NaN kept"
