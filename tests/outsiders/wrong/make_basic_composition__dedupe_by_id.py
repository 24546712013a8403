"""Basic composition that sums the maps of the *distinct* components, keyed by ``id()`` ("a
measurement listed twice is the same query").

Wrong: ``[M, M]`` runs ``M`` twice with fresh randomness, two independent releases; the map
counts one. With ``M`` discrete Laplace of scale 1: loss 2, claimed 1.
Hole classes: 3 (a combinator deduplicating by identity).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import dl_shift_loss, exact, sampler_scale  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_basic_composition import build_basic_composition, make_basic_composition  # noqa: E402
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from mechanisms.make_partition_map import partition_bound  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_basic_composition"
CLASSES = (3,)


def build(measurements):
    m = build_basic_composition(measurements)
    distinct = {id(c): c.privacy_map for c in measurements}
    return replace(m, privacy_map=Map(rule=partition_bound, params={
        "maps": tuple(distinct.values()), "combine": ops.add_up}))


make_comp_dedupe = make_basic_composition.variant("make_basic_composition_dedupe", build)
MECHANISMS = [Entry("outsider_comp_dedupe_by_id", make_comp_dedupe)]


def witness() -> str:
    laplace = make_discrete_laplace(1.0)
    m = make_comp_dedupe([laplace, laplace])
    assert len(m.function.functions) == 2
    loss = sum(dl_shift_loss(1, sampler_scale(f)) for f in m.function.functions)
    assert loss > exact(m.map(1))
    return f"[M, M] with M = DL(1): loss {loss} > map(1) = {m.map(1)}"
