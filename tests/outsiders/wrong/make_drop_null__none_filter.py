"""Drop-null whose function object subclasses ``Filter`` with a ``__call__`` keeping
``x is not None`` (the pandas habit), while ``keep``/``scalar`` stay the catalogue's.

Wrong: NaN is not None, so NaN rows are kept and the output domain (no NaN) is broken.
Hole classes: 2 (a subclass overrides the method that runs).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402

from _exact import out_of_domain  # noqa: E402
from mechanisms.make_drop_null import Filter, build_drop_null, is_not_null, make_drop_null  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_drop_null"
CLASSES = (2,)


@dataclass(frozen=True)
class NoneFilter(Filter):
    def __call__(self, data):
        return [x for x in data if x is not None]


def build(carrier=float):
    return replace(build_drop_null(carrier), function=NoneFilter(is_not_null))


make_drop_none = make_drop_null.variant("make_drop_null_none", build)
MECHANISMS = [Entry("outsider_drop_null_none_filter", make_drop_none)]


def witness() -> str:
    out = out_of_domain(make_drop_none(float), [1.0, math.nan])
    assert any(math.isnan(x) for x in out)
    return f"drop_null([1.0, nan]) = {out}"
