"""Chain that flattens its maps into a list deduplicated by identity ("don't apply the same map
twice"), then applies what is left.

Wrong for ``t >> t``: one map object, applied once. With ``t`` the 2-stable row duplicator
(``v -> v + v``), ``t >> t`` quadruples rows: ``[]`` vs ``[1]`` are 4 apart, the map says 2.
Hole classes: 3 (a combinator keyed by identity).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _components import duplicator  # noqa: E402
from _exact import stability_violation  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_chain_tt import build_chain_tt, make_chain_tt  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_chain_tt"
CLASSES = (3,)


def apply_all(d_in, maps):
    for m in maps:
        d_in = m(d_in)
    return d_in


def build(outer, inner):
    t = build_chain_tt(outer, inner)
    maps = tuple({id(m): m for m in (inner.stability_map, outer.stability_map)}.values())
    return replace(t, stability_map=Map(rule=apply_all, params={"maps": maps}))


make_chain_dedupe = make_chain_tt.variant("make_chain_tt_dedupe", build)
MECHANISMS = [Entry("outsider_chain_tt_dedupe_by_id", make_chain_dedupe)]


def witness() -> str:
    dup = duplicator()
    t = make_chain_dedupe(dup, dup)
    observed, claimed = stability_violation(t, [], [1], 1)
    return f"dup >> dup: [] vs [1] -> {observed} apart > map(1) = {claimed}"
