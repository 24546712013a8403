"""Count-by whose map says "one person moves one count by one": ``d_in -> (d_in, d_in, 1)``
(the per-key bound written for the usual ``d_in = 1`` and never generalised; a Laplace on each
count is then calibrated to sensitivity 1 whatever ``d_in`` is).

Wrong: the map holds only for ``d_in <= 1``. ``["a", "a"]`` and ``[]`` are at symmetric
distance 2; their histograms ``{"a": 2}`` and ``{}`` are at ``(l0, l1, linf) = (1, 2, 2)``, and
``linf = 2 > 1``, the map's third component at ``d_in = 2``.
Hole classes: none listed (a map that holds only for d_in = 1).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import Map  # noqa: E402
from mechanisms.make_count_by import build_count_by, make_count_by  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_count_by import count_by_obligations  # noqa: E402

CONSTRUCTOR = "make_count_by"
CLASSES = ()


def unit_linf_map(d_in):
    return d_in, d_in, 1


def build(carrier):
    return replace(build_count_by(carrier), stability_map=Map(rule=unit_linf_map))


make_count_by_unit_linf = make_count_by.variant("make_count_by_unit_linf", build)
MECHANISMS = [Entry("outsider_count_by_unit_linf", make_count_by_unit_linf,
                    count_by_obligations(make_count_by_unit_linf, "outsider_count_by_unit_linf"))]


def witness() -> str:
    t = make_count_by_unit_linf(str)
    v, w = ["a", "a"], []
    assert t.input_domain.member(v) and t.input_domain.member(w)
    assert t.input_metric.distance(v, w) == 2
    observed, claimed = t.output_metric.distance(t(v), t(w)), t.map(2)
    assert not t.output_metric.within(observed, claimed), (observed, claimed)
    return f"{v} vs {w} (d_in 2): histograms {observed} apart, not within map(2) = {claimed}"
