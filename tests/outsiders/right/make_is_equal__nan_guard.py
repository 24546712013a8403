"""Is-equal with an explicit NaN guard: ``not isnan(x) and x == value`` (a defensive kernel a
reviewer asks for: "say what happens to NaN rows").

Correct: the guard changes the answer only where ``isnan(x)``, and there IEEE equality is already
``False`` (NaN equals nothing); on ints, strs and bools ``is_nan`` is ``False`` and the kernel is
``x == value``. So the kernel is the catalogue's on every row: a row function of the value (the
guard and ``==`` both treat ``-0.0`` and ``0.0`` alike and every NaN alike), 1-stable, into
bools. Checked: identical outputs to ``make_is_equal`` on special floats, every NaN payload
class, 20,000 random binary64 bit patterns against several values, and ints, strs and bools.
"""

import random
import struct
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_is_equal import build_is_equal, make_is_equal  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_is_equal"


def guarded_kernel(x, value):
    return ops.all_of(ops.negate(ops.is_nan(x)), ops.eq(x, value))


def build(value):
    return replace(build_is_equal(value), function=RowTransform(guarded_kernel, {"value": value}))


make_is_equal_guarded = make_is_equal.variant("make_is_equal_nan_guard", build)
MECHANISMS = [Entry("outsider_right_is_equal_nan_guard", make_is_equal_guarded)]


def _from_bits(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def check() -> str:
    rng = random.Random(0)
    special = [math.nan, -math.nan, _from_bits(0x7FF0000000000001), _from_bits(0xFFF8000000000001),
               math.inf, -math.inf, 0.0, -0.0, 5e-324, -5e-324, 1.0, 1.5, 1.7976931348623157e308]
    randoms = [_from_bits(rng.getrandbits(64)) for _ in range(20_000)]
    floats = special + randoms
    count = 0
    for value in [v for v in special if not math.isnan(v)] + randoms[:20]:
        if math.isnan(value):
            continue
        ours, theirs = make_is_equal_guarded(value)(floats), make_is_equal(value)(floats)
        assert ours == theirs and all(type(b) is bool for b in ours)
        count += 1
    for value, rows in ((0, [0, -1, 10 ** 400, 2 ** 53 + 1]), (10 ** 400, [10 ** 400, 0]),
                        ("a", ["a", "", "A", "a\x00"]), ("", ["", " "]),
                        (True, [True, False]), (False, [True, False])):
        ours, theirs = make_is_equal_guarded(value)(rows), make_is_equal(value)(rows)
        assert ours == theirs and all(type(b) is bool for b in ours)
    for d in range(50):
        assert make_is_equal_guarded(0.0).map(d) == make_is_equal(0.0).map(d) == d
    return (f"identical outputs to make_is_equal on {len(floats)} floats x {count} float values, "
            "and on int/str/bool rows; same map")
