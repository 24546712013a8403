"""Basic composition whose map is the *max* of the component maps ("the worst component").

Wrong: independent components' losses add. Two discrete Laplace measurements of scale 1 on inputs
0 and 1: each costs exactly 1 at its worst outputs, together 2, claimed ``max(1, 1) = 1``.
Hole classes: none listed (plain max instead of sum).
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
CLASSES = ()


def build(measurements):
    m = build_basic_composition(measurements)
    return replace(m, privacy_map=Map(rule=partition_bound, params={
        "maps": tuple(c.privacy_map for c in measurements), "combine": ops.maximum}))


make_comp_max = make_basic_composition.variant("make_basic_composition_max", build)
MECHANISMS = [Entry("outsider_comp_max_map", make_comp_max)]


def witness() -> str:
    m = make_comp_max([make_discrete_laplace(1.0), make_discrete_laplace(1.0)])
    loss = sum(dl_shift_loss(1, sampler_scale(f)) for f in m.function.functions)
    assert loss > exact(m.map(1))
    return f"DL(1) twice: loss {loss} (product law) > map(1) = {m.map(1)}"
