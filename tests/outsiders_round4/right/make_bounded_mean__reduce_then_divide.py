"""make_bounded_mean refactored as ``functools.reduce(operator.add, data, 0.0) / n``.

Why it is correct: ``reduce(operator.add, v, 0.0)`` computes ``((0.0 + v0) + v1) + ...``, the
catalogue's sequential ``Fold(add_step, ...)`` from ``0.0``, one IEEE-754 addition per row in the
same order (``0.0 + -0.0`` is ``0.0`` in both), and the result is divided once by the int ``n``
(a float division by ``float(n)``, exact for ``n <= 2^53``), the catalogue's ``mean_finalize``.
The builtin ``sum`` is deliberately not used: from Python 3.12 on it sums floats with
compensation, another rounding. Bit-for-bit equal outputs; the map is the reference's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import functools
import itertools
import operator
import random
import struct
from dataclasses import replace

from mechanisms.make_bounded_mean import build_bounded_mean, make_bounded_mean
from obligations.base import Entry

CONSTRUCTOR = "make_bounded_mean"


def build_mean_reduce(lower, upper, n):
    return replace(build_bounded_mean(lower, upper, n),
                   function=lambda data: functools.reduce(operator.add, data, 0.0) / n)


make_mean_reduce = make_bounded_mean.variant("make_mean_reduce", build_mean_reduce)
MECHANISMS = [Entry("make_mean_reduce", make_mean_reduce)]


def _bits(x):
    return struct.pack("<d", x)


BOUNDS = [(0.0, 1.0), (-1.0, 1.0), (-0.0, 0.0), (-1e300, 1e300), (0.0, 5e-324), (18.0, 99.0)]


def check() -> str:
    rng = random.Random(19)
    compared = 0
    for lower, upper in BOUNDS:
        rows = sorted({lower, upper, max(lower, min(upper, -0.0)), (lower + upper) / 2,
                       max(lower, min(upper, 0.1))}, key=repr)
        for n in (1, 2, 3, 6, 10):
            new, ref = make_mean_reduce(lower, upper, n), make_bounded_mean(lower, upper, n)
            assert (new.input_domain, new.output_domain, new.input_metric, new.output_metric) == \
                (ref.input_domain, ref.output_domain, ref.input_metric, ref.output_metric)
            if n <= 3:
                vectors = [list(p) for p in itertools.product(rows, repeat=n)]
            else:
                vectors = [[rng.choice(rows + [rng.uniform(lower, upper)]) for _ in range(n)]
                           for _ in range(200)]
            for v in vectors:
                a, b = new(v), ref(v)
                assert type(a) is float and _bits(a) == _bits(b), (n, v)
                compared += 1
            for d in range(0, 12):
                assert new.map(d) == ref.map(d)
    return f"bit-for-bit equal means to make_bounded_mean on {compared} cases, equal maps"
