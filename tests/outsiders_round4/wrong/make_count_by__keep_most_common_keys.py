"""make_count_by refactored to keep only the 1000 most common keys (a memory guard). WRONG.

The refactor: ``dict(collections.Counter(data).most_common(MAX_KEYS))`` with ``MAX_KEYS = 1000``,
meant to bound the size of the released histogram.

The bug: which keys survive the cut depends on the other keys' counts, so one added row can push
a key out of the histogram and pull another in. On any input with at most 1000 distinct keys
it equals the catalogue.

Standard statement broken: **stability**. ``v`` = the keys ``0 .. 1000`` once each (1001 keys,
ties kept in first-seen order, so key 1000 is cut) and ``w = v + [1000]`` are at symmetric
distance 1; in ``f(w)`` key 1000 (count 2) enters and key 999 is cut, so the outputs are at
L01Inf distance ``(2, 3, 2)`` > ``map(1) = (1, 1, 1)``.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from collections import Counter
from dataclasses import replace

from mechanisms.core import at_most
from mechanisms.make_count_by import build_count_by, make_count_by
from obligations.base import Entry

CONSTRUCTOR = "make_count_by"
MAX_KEYS = 1000


def capped_histogram(data):
    return dict(Counter(data).most_common(MAX_KEYS))


def build_count_by_capped(carrier):
    return replace(build_count_by(carrier), function=capped_histogram)


make_count_by_capped = make_count_by.variant("make_count_by_capped", build_count_by_capped)
MECHANISMS = [Entry("make_count_by_capped", make_count_by_capped)]


def check() -> str:
    t, ref = make_count_by_capped(int), make_count_by(int)
    for v in ([], [3, 1, 3], list(range(1000)) * 2):
        assert t(v) == ref(v)
    v = list(range(MAX_KEYS + 1))
    w = v + [MAX_KEYS]
    d_in = t.input_metric.distance(v, w)
    assert d_in == 1
    out_v, out_w = t(v), t(w)
    assert MAX_KEYS not in out_v and MAX_KEYS - 1 in out_v
    assert out_w[MAX_KEYS] == 2 and MAX_KEYS - 1 not in out_w
    d_out = t.output_metric.distance(out_v, out_w)
    assert d_out == (2, 3, 2) and not at_most(d_out, t.map(d_in))
    return (f"stability broken: keys 0..{MAX_KEYS} and the same plus [{MAX_KEYS}] at d_in=1; "
            f"outputs at {d_out} > map(1) = {t.map(1)}")
