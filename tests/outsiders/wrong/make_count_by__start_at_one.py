"""Count-by whose counter starts at one: ``CountBy(increment, start=1)`` (the "first sight of a
key counts 1" line written as ``counts.setdefault(x, 1)`` followed by the increment, the
classic off-by-one).

Wrong: every present key is counted ``h(z) + 1``, an absent key ``0``. ``["a"]`` and ``[]``
are at symmetric distance 1; their histograms ``{"a": 2}`` and ``{}`` differ by 2 on key
``"a"``: ``(l0, l1, linf) = (1, 2, 2)``, not within ``map(1) = (1, 1, 1)``. (Also not the
histogram: a key seen once is released as 2.)
Hole classes: none listed (a kernel bug: the first row of every key).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.make_count_by import (CountBy, build_count_by, count_by_increment,  # noqa: E402
                                      make_count_by)
from obligations.base import Entry  # noqa: E402
from obligations.make_count_by import count_by_obligations  # noqa: E402

CONSTRUCTOR = "make_count_by"
CLASSES = ()


def build(carrier):
    return replace(build_count_by(carrier), function=CountBy(count_by_increment, 1))


make_count_by_start_one = make_count_by.variant("make_count_by_start_at_one", build)
MECHANISMS = [Entry("outsider_count_by_start_at_one", make_count_by_start_one,
                    count_by_obligations(make_count_by_start_one, "outsider_count_by_start_at_one"))]


def witness() -> str:
    t = make_count_by_start_one(str)
    v, w = ["a"], []
    assert t.input_metric.distance(v, w) == 1
    observed, claimed = t.output_metric.distance(t(v), t(w)), t.map(1)
    assert t(v) == {"a": 2}
    assert not t.output_metric.within(observed, claimed), (observed, claimed)
    return f"{v} vs {w}: histograms {t(v)} and {t(w)}, {observed} apart, not within map(1) = {claimed}"
