"""make_clamp refactored as the textbook ``min(max(x, lower), upper)``. WRONG.

The refactor replaces the ``ops`` kernel with Python's builtins in a comprehension:
``[min(max(x, lower), upper) for x in data]``, dropping the explicit NaN case as "min/max
already handle everything".

The bug: Python's ``max(a, b)`` returns ``a`` unless ``b > a``, and every comparison with NaN is
false, so ``max(nan, lower)`` is ``nan`` and ``min(nan, upper)`` is ``nan``: a NaN row passes
through unclamped. (The catalogue's order ``max(min(x, upper), lower)`` with NaN sent to
``lower`` first.) On every non-NaN row, ``-0.0`` and ``+-inf`` included, the result is the
catalogue's, bit for bit.

Standard statement broken: **output domain**. ``make_clamp_builtin(0.0, 1.0)`` on ``[nan]`` (the
input domain admits NaN) returns ``[nan]``, not a member of ``VectorDomain(AtomDomain(float,
bounds=(0.0, 1.0)))`` (no NaN).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import math
import struct
from dataclasses import replace

from mechanisms.make_clamp import build_clamp, make_clamp
from obligations.base import Entry

CONSTRUCTOR = "make_clamp"


def build_clamp_builtin(lower, upper):
    return replace(build_clamp(lower, upper),
                   function=lambda data: [min(max(x, lower), upper) for x in data])


make_clamp_builtin = make_clamp.variant("make_clamp_builtin", build_clamp_builtin)
MECHANISMS = [Entry("make_clamp_builtin", make_clamp_builtin)]


def check() -> str:
    rows = [0.0, -0.0, 2.0, -2.0, 0.5, math.inf, -math.inf, 5e-324]
    for lower, upper in ((0.0, 1.0), (-0.0, 0.0), (-1.0, -0.0), (0.0, 0.0), (-math.inf, math.inf)):
        a, b = make_clamp_builtin(lower, upper)(rows), make_clamp(lower, upper)(rows)
        assert [struct.pack("<d", x) for x in a] == [struct.pack("<d", x) for x in b]
    assert make_clamp_builtin(-3, 3)([5, -5, 0, 10 ** 400]) == make_clamp(-3, 3)([5, -5, 0, 10 ** 400])
    t = make_clamp_builtin(0.0, 1.0)
    x = [float("nan")]
    assert t.input_domain.member(x)
    y = t(x)
    assert math.isnan(y[0]) and not t.output_domain.member(y)
    assert make_clamp(0.0, 1.0)(x) == [0.0]
    return f"output domain broken: make_clamp_builtin(0.0, 1.0)([nan]) = {y}, NaN outside [0, 1]"
