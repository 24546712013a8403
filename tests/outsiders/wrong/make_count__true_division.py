"""Count whose finalize "normalises" with true division, ``count / 1`` (left over from a
refactor that shared the finalize with a mean).

Wrong: ``/`` returns a float, so the output ``3.0`` is not a member of the promised
``AtomDomain(int)`` (the domain test is by exact type), and for counts beyond ``2^53`` the float
is not even the count.
Hole classes: 4 (true division where an integer is modelled).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import out_of_domain  # noqa: E402
from mechanisms.core import Fold  # noqa: E402
from mechanisms.make_count import build_count, count_step, make_count  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_count"
CLASSES = (4,)


def normalised(count, per=1):
    return count / per


def build(carrier):
    return replace(build_count(carrier), function=Fold(count_step, normalised, 0))


make_count_div = make_count.variant("make_count_true_division", build)
MECHANISMS = [Entry("outsider_count_true_division", make_count_div)]


def witness() -> str:
    t = make_count_div(str)
    out = out_of_domain(t, ["a", "b", "c"])
    assert type(out) is float
    return f"count(['a','b','c']) = {out!r}, a float outside AtomDomain(int)"
