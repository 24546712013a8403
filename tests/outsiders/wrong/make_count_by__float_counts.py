"""Count-by whose counts are floats, ``increment(c) = c + 1.0`` from ``start = 0.0`` ("the
noise added next is a float anyway"), the output domain still ``MapDomain(key, AtomDomain(int))``.

Wrong: ``{"a": 1.0}`` is not in the declared output domain (a float count is not an int, and
a chained integer mechanism such as the discrete Laplace refuses it or is proved for another
type); past 2^53 rows of one key the float counts also stop increasing.
Hole classes: none listed (an output outside the declared domain).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import out_of_domain  # noqa: E402
from mechanisms.make_count_by import CountBy, build_count_by, make_count_by  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_count_by import count_by_obligations  # noqa: E402

CONSTRUCTOR = "make_count_by"
CLASSES = ()


def float_increment(count):
    return count + 1.0


def build(carrier):
    return replace(build_count_by(carrier), function=CountBy(float_increment, 0.0))


make_count_by_float = make_count_by.variant("make_count_by_float_counts", build)
MECHANISMS = [Entry("outsider_count_by_float_counts", make_count_by_float,
                    count_by_obligations(make_count_by_float, "outsider_count_by_float_counts"))]


def witness() -> str:
    t = make_count_by_float(str)
    out = out_of_domain(t, ["a", "b", "a"])
    return f"count_by(['a', 'b', 'a']) = {out}: float counts outside MapDomain(str, int)"
