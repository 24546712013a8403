"""Is-equal with a "fast path" for concrete int and str values: ``x is value`` ("ints and strs are
interned, so identity is equality and skips the rich comparison"), keeping ``ops.eq`` for solver
terms and for floats and bools.

Wrong: only small ints (-5..256) and some string literals are cached/interned. ``1000`` parsed
from a file (``int("1000")``) or a string built at run time (``"".join(["a", "b"])``) is another
object than the ``value`` literal, so ``[1000]`` and ``[int("1000")]``, the same multiset
(symmetric distance 0), give ``[True]`` and ``[False]``: ``d_out = 2 > map(0) = 0``. The solver
is shown ``x == value``; the program runs ``x is value``.
Hole classes: 11 (branch on ``ops.is_symbolic``), 10 (shows only on non-interned objects).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_is_equal import build_is_equal, make_is_equal  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_is_equal"
CLASSES = (11, 10)


def fast_kernel(x, value):
    if not ops.is_symbolic(x) and not ops.is_symbolic(value) and type(value) in (int, str):
        return x is value
    return ops.eq(x, value)


def build(value):
    return replace(build_is_equal(value), function=RowTransform(fast_kernel, {"value": value}))


make_is_equal_fast = make_is_equal.variant("make_is_equal_interned_fast_path", build)
MECHANISMS = [Entry("outsider_is_equal_interned_fast_path", make_is_equal_fast)]


def witness() -> str:
    t = make_is_equal_fast(1000)
    v, w = [1000], [int("1000")]
    observed, claimed = stability_violation(t, v, w, 0)
    s = make_is_equal_fast("ab")
    observed_s, claimed_s = stability_violation(s, ["ab"], ["".join(["a", "b"])], 0)
    return (f"is_equal(1000): [1000] vs [int('1000')] (distance 0) give {t(v)} vs {t(w)}, "
            f"d_out = {observed} > map(0) = {claimed}; str 'ab': {observed_s} > {claimed_s}")
