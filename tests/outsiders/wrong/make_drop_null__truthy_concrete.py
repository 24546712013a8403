"""Drop-null whose keep predicate is the catalogue's on solver terms but ``bool(x)`` on numbers
(``filter(None, data)``, "the idiomatic fast path").

Wrong: ``bool(nan)`` is ``True``, so NaN rows are kept (and ``0.0`` rows are dropped); NaN
escapes the output domain. The solver sees only the correct branch.
Hole classes: 11 (branch on ``ops.is_symbolic``).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402

from _exact import out_of_domain  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.make_drop_null import Filter, build_drop_null, is_not_null, make_drop_null  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_drop_null"
CLASSES = (11,)


def keep(x):
    if ops.is_symbolic(x):
        return is_not_null(x)
    return bool(x)


def build(carrier=float):
    return replace(build_drop_null(carrier), function=Filter(keep))


make_drop_truthy = make_drop_null.variant("make_drop_null_truthy", build)
MECHANISMS = [Entry("outsider_drop_null_truthy_concrete", make_drop_truthy)]


def witness() -> str:
    out = out_of_domain(make_drop_truthy(float), [0.0, math.nan, 2.0])
    assert any(math.isnan(x) for x in out)
    return f"drop_null([0.0, nan, 2.0]) = {out}"
