"""make_count_by refactored with ``itertools.groupby`` but without sorting first. WRONG.

The refactor: ``{key: len(list(run)) for key, run in itertools.groupby(data)}``.

The bug: ``groupby`` groups *consecutive* equal rows only. When a key's rows are not adjacent the
comprehension writes that key once per run, and the last run's length overwrites the earlier
ones, so the count is the length of the key's last run, not its number of rows. On sorted (or
grouped) input, which is what most unit tests feed a histogram, it agrees with the catalogue.

Standard statement broken: **stability**. ``v = [1, 1, 2, 1]`` and ``w = [1, 1, 1]`` are at
symmetric distance 1, but ``f(v) = {1: 1, 2: 1}`` and ``f(w) = {1: 3}`` are at L01Inf distance
``(l0, l1, linf) = (2, 3, 2)``, above ``map(1) = (1, 1, 1)`` in every component.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import itertools
from dataclasses import replace

from mechanisms.core import at_most
from mechanisms.make_count_by import build_count_by, make_count_by
from obligations.base import Entry

CONSTRUCTOR = "make_count_by"


def run_histogram(data):
    return {key: len(list(run)) for key, run in itertools.groupby(data)}


def build_count_by_groupby(carrier):
    return replace(build_count_by(carrier), function=run_histogram)


make_count_by_groupby = make_count_by.variant("make_count_by_groupby", build_count_by_groupby)
MECHANISMS = [Entry("make_count_by_groupby", make_count_by_groupby)]


def check() -> str:
    t, ref = make_count_by_groupby(int), make_count_by(int)
    # agrees with the catalogue whenever equal rows are adjacent
    for v in ([], [1], [1, 1, 2], [2, 2, 2, 3, 5, 5], ["a", "a", "b"]):
        if all(type(x) is int for x in v):
            assert t(v) == ref(v)
    v, w = [1, 1, 2, 1], [1, 1, 1]
    d_in = t.input_metric.distance(v, w)
    assert d_in == 1
    out_v, out_w = t(v), t(w)
    assert out_v == {1: 1, 2: 1} and out_w == {1: 3}
    d_out = t.output_metric.distance(out_v, out_w)
    assert d_out == (2, 3, 2)
    assert not at_most(d_out, t.map(d_in))
    assert at_most(ref.output_metric.distance(ref(v), ref(w)), ref.map(d_in))
    return (f"stability broken: {v} and {w} at d_in={d_in}; outputs {out_v} and {out_w} at "
            f"{d_out} > map({d_in}) = {t.map(d_in)}")
