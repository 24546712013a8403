"""make_resize refactored with ``heapq.nsmallest`` in place of a full sort.

The function keeps ``heapq.nsmallest(size, data, key=resize_key)`` (the catalogue's NaN-last
key) and pads with ``constant`` in an explicit loop up to ``size`` rows: an O(n log size)
selection instead of sorting the whole vector.

Why it is correct: the standard library documents ``heapq.nsmallest(n, iterable, key=key)`` as
equivalent to ``sorted(iterable, key=key)[:n]``; CPython's implementation decorates each element
with its input position, so ties (``-0.0`` and ``0.0``, NaNs of any payload, equal ints) come out
in input order, exactly as the stable ``sorted`` does, and the same row objects are returned.
When the vector is short the kept part is the whole sorted vector, followed by
``size - len(data)`` copies of ``constant``, the catalogue's ``max(size - len, 0)``. The output is
the same list, object for object; domains, metrics and the map ``2 d_in`` are the reference's.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import heapq
import itertools
import math
import random
import struct
from dataclasses import dataclass, replace

from mechanisms.domains import AtomDomain
from mechanisms.make_resize import build_resize, make_resize, resize_key
from obligations.base import Entry

CONSTRUCTOR = "make_resize"


@dataclass(frozen=True)
class HeapResize:
    size: int
    constant: object

    def __call__(self, data):
        kept = heapq.nsmallest(self.size, data, key=resize_key)
        while len(kept) < self.size:
            kept.append(self.constant)
        return kept


def build_resize_heapq(size, constant, atom_domain):
    return replace(build_resize(size, constant, atom_domain), function=HeapResize(size, constant))


make_resize_heapq = make_resize.variant("make_resize_heapq", build_resize_heapq)
MECHANISMS = [Entry("make_resize_heapq", make_resize_heapq)]


def _key(x):
    return ("f", struct.pack("<d", x)) if type(x) is float else ("i", x)


NAN2 = struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000123))[0]
FLOATS = [0.0, -0.0, 1.0, -1.0, 5e-324, math.inf, -math.inf, math.nan, -math.nan, NAN2]
INTS = [0, 1, -1, 2 ** 64, -(10 ** 400), 10 ** 400]


def check() -> str:
    rng = random.Random(5)
    compared = 0
    cases = []
    for size in (1, 2, 3, 5):
        cases += [(size, 0.0, AtomDomain(float, nan=True), FLOATS),
                  (size, -0.0, AtomDomain(float, nan=True), FLOATS),
                  (size, math.nan, AtomDomain(float, nan=True), FLOATS),
                  (size, 1.0, AtomDomain(float), [x for x in FLOATS if not math.isnan(x)]),
                  (size, 0.0, AtomDomain(float, bounds=(-1.0, 1.0)), [0.0, -0.0, 1.0, -1.0, 5e-324]),
                  (size, 0, AtomDomain(int), INTS),
                  (size, 3, AtomDomain(int, bounds=(-3, 3)), [-3, 0, 3, 1])]
    for size, constant, atom_domain, rows in cases:
        new, ref = make_resize_heapq(size, constant, atom_domain), make_resize(size, constant,
                                                                               atom_domain)
        assert (new.input_domain, new.output_domain, new.input_metric, new.output_metric) == \
            (ref.input_domain, ref.output_domain, ref.input_metric, ref.output_metric)
        vectors = [list(p) for n in range(4) for p in itertools.product(rows, repeat=n)]
        vectors += [[rng.choice(rows) for _ in range(rng.randrange(12))] for _ in range(200)]
        for v in vectors:
            a, b = new(v), ref(v)
            assert type(a) is list and [_key(x) for x in a] == [_key(x) for x in b], (size, v)
            assert all(x is y for x, y in zip(a, b))
            compared += 1
        for d in range(0, 30):
            assert new.map(d) == ref.map(d)
    return f"equal (object for object) to make_resize on {compared} (arguments, vector) pairs"
