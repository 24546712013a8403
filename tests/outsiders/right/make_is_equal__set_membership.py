"""Is-equal written as set membership, ``x in {value}`` (a contributor preparing ``is_in(values)``
on the same code path).

Correct: ``x in {value}`` is ``hash(x) == hash(value) and (x is value or x == value)``. Equal
values have equal hashes (``hash(-0.0) == hash(0.0) == 0``, ``hash(True) == 1``), so the hash
test never rejects an equal row, and the only way the identity shortcut differs from ``==`` is a
NaN ``value`` identical to the row, which the precondition refuses (``value`` is never NaN). So
the kernel is exactly ``x == value`` on every admitted row and value: a row function of the
value, 1-stable, into Python bools. Checked: identical outputs to ``make_is_equal`` on special
floats, NaN rows (the same NaN object included), 10,000 random bit patterns, ints (huge ones),
strs and bools.
"""

import random
import struct
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402

from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_is_equal import build_is_equal, make_is_equal  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_is_equal"


def membership_kernel(x, value):
    return x in {value}


def build(value):
    return replace(build_is_equal(value), function=RowTransform(membership_kernel, {"value": value}))


make_is_equal_in = make_is_equal.variant("make_is_equal_set_membership", build)
MECHANISMS = [Entry("outsider_right_is_equal_set_membership", make_is_equal_in)]


def check() -> str:
    rng = random.Random(1)
    bits = lambda b: struct.unpack("<d", struct.pack("<Q", b))[0]  # noqa: E731
    special = [math.nan, bits(0x7FF0000000000001), math.inf, -math.inf, 0.0, -0.0, 5e-324,
               1.0, float("1.0"), 1.7976931348623157e308]
    floats = special + [bits(rng.getrandbits(64)) for _ in range(10_000)]
    values = [v for v in special if not math.isnan(v)] + [x for x in floats[-10:] if not math.isnan(x)]
    for value in values:
        ours, theirs = make_is_equal_in(value)(floats), make_is_equal(value)(floats)
        assert ours == theirs and all(type(b) is bool for b in ours)
    for value, rows in ((1000, [int("1000"), 1000, -1000, 10 ** 400]), (10 ** 400, [10 ** 400, 1]),
                        ("ab", ["".join(["a", "b"]), "ab", "b"]), (True, [True, False]),
                        (False, [False, True])):
        ours, theirs = make_is_equal_in(value)(rows), make_is_equal(value)(rows)
        assert ours == theirs
    return f"identical outputs to make_is_equal on {len(floats)} floats x {len(values)} values and int/str/bool rows"
