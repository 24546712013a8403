"""Chain whose map applies the components in the wrong order, ``inner(outer(d_in))``.

Wrong: resize to 2 rows (map ``2 d``) then a sized int sum on ``[0, 10]`` (map
``(d // 2) 10``): the right map at 1 is ``(2 // 2) 10 = 10``, the swapped one ``2 ((1 // 2) 10) = 0``;
``[]`` and ``[10]`` give sums 0 and 10.
Hole classes: none listed (plain wrong chain order).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.domains import AtomDomain  # noqa: E402
from mechanisms.make_chain_tt import build_chain_tt, make_chain_tt  # noqa: E402
from mechanisms.make_resize import make_resize  # noqa: E402
from mechanisms.make_sized_bounded_int_sum import make_sized_bounded_int_sum  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_chain_tt"
CLASSES = ()


def swapped(d_in, outer, inner):
    return inner(outer(d_in))


def build(outer, inner):
    t = build_chain_tt(outer, inner)
    return replace(t, stability_map=Map(rule=swapped, params={
        "outer": outer.stability_map, "inner": inner.stability_map}))


make_chain_swapped = make_chain_tt.variant("make_chain_tt_swapped", build)
MECHANISMS = [Entry("outsider_chain_tt_swapped_map", make_chain_swapped)]


def witness() -> str:
    resize = make_resize(2, 0, AtomDomain(int, bounds=(0, 10)))
    total = make_sized_bounded_int_sum(2, 0, 10)
    t = make_chain_swapped(total, resize)
    observed, claimed = stability_violation(t, [], [10], 1)
    return f"resize(2) then sum on [0, 10]: [] vs [10] sums {observed} apart > map(1) = {claimed}"
