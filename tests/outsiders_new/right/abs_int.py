"""make_abs_int(): the absolute value of every row of a vector of ints (a new row transformation).

``VectorDomain(AtomDomain(int))`` -> ``VectorDomain(AtomDomain(int))`` (an int domain bounded below
only has no form: ``bounds`` is a pair and there is no largest int);
symmetric distance on both sides; stability map ``d_in -> d_in`` (a row transform maps each
multiset element to one element, so ``d_sym(f(v), f(w)) <= d_sym(v, w)``).

Written with ``mechanisms.ops.absolute`` so the kernel runs on solver terms (README: "build must
not branch on its arguments in plain Python"). README gives no proof module for a new row
kernel: ``clamp_obligations`` is written for clamps; an obligation written by me "proves no
standard statement"; ``clamp_obligations(make_abs_int, ...)`` raises (it builds with ``lower=``,
``upper=``). So the entry has no obligations (``Entry(name, constructor)``, which README calls
legal), with an example so the kernel reads that it builds a transformation (README: "The kind of
object is read from ... the entry's first example"); whether anything proves it is what this
module records.
"""

from __future__ import annotations

import random

from mechanisms import ops
from mechanisms.core import Constructor, Map, RowTransform, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry, example


def abs_kernel(x):
    """``|x|`` on an int (or a solver term)."""
    return ops.absolute(x)


def one():
    return 1


def build_abs_int():
    return Transformation(
        input_domain=VectorDomain(AtomDomain(int)),
        output_domain=VectorDomain(AtomDomain(int)),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=RowTransform(abs_kernel),
        stability_map=Map(constant=one),
    )


make_abs_int = Constructor("make_abs_int", build_abs_int)
MECHANISMS = [Entry("make_abs_int", make_abs_int,
                    examples=(example("make_abs_int()", "from abs_int import make_abs_int"),))]


def check() -> str:
    t = make_abs_int()
    rng = random.Random(7)
    worst = 0
    for _ in range(2000):
        v = [rng.randint(-5, 5) for _ in range(rng.randint(0, 6))]
        w = list(v)
        for _ in range(rng.randint(0, 3)):  # insertions / deletions
            if w and rng.random() < 0.5:
                w.pop(rng.randrange(len(w)))
            else:
                w.insert(rng.randint(0, len(w)), rng.randint(-5, 5))
        d_in = t.input_metric.distance(v, w)
        d_out = t.output_metric.distance(t(v), t(w))
        assert d_out <= t.map(d_in), (v, w, d_out, d_in)
        assert t.output_domain.member(t(v))
        assert t(v) == [abs(x) for x in v]
        worst = max(worst, d_out - d_in)
    assert t.map(3) == 3
    return f"abs on 2000 random neighbour pairs: outputs equal [abs(x)], d_out <= d_in always (max d_out - d_in = {worst})"
