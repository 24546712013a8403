"""Count with the map ``d_in // 2``, copied from the sized sums ("a change is a substitution,
worth two in symmetric distance").

Wrong: the count's input domain is *unsized*, so one added row is ``d_in = 1`` and changes the count
by 1, while ``1 // 2 = 0``. The map leans on a fact (even symmetric distance) that only sized
domains guarantee, written as a nonlinear integer map.
Hole classes: 8 (precision fact the domain does not give), 9 (nonlinear integer map).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_count import build_count, make_count  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_count"
CLASSES = (8, 9)


def pairs_map(d_in):
    return ops.floor_div(d_in, 2)


def build(carrier):
    return replace(build_count(carrier), stability_map=Map(rule=pairs_map))


make_count_halved = make_count.variant("make_count_halved", build)
MECHANISMS = [Entry("outsider_count_halved_map", make_count_halved)]


def witness() -> str:
    t = make_count_halved(int)
    observed, claimed = stability_violation(t, [], [7], 1)
    return f"count([]) vs count([7]): distance {observed} > map(1) = {claimed}"
