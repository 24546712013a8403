"""Basic composition summing the component maps with plain float ``+`` (rounded to nearest),
"add_up is slow".

Wrong: the float sum can fall below the exact sum of the losses. Discrete Laplace of scales 1 and
``2^53``: maps 1.0 and ``2^-53`` (both exact), float sum ``1.0`` (ties to even), real loss of the
pair exactly ``1 + 2^-53``.
Hole classes: 4 (a map computed in floats where exact is modelled).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import dl_shift_loss, exact, sampler_scale  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_basic_composition import build_basic_composition, make_basic_composition  # noqa: E402
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from mechanisms.make_partition_map import partition_bound  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_basic_composition"
CLASSES = (4,)


def plus(a, b):
    return a + b


def build(measurements):
    m = build_basic_composition(measurements)
    return replace(m, privacy_map=Map(rule=partition_bound, params={
        "maps": tuple(c.privacy_map for c in measurements), "combine": plus}))


make_comp_plus = make_basic_composition.variant("make_basic_composition_float_sum", build)
MECHANISMS = [Entry("outsider_comp_float_sum", make_comp_plus)]


def witness() -> str:
    m = make_comp_plus([make_discrete_laplace(1.0), make_discrete_laplace(2.0 ** 53)])
    loss = sum(dl_shift_loss(1, sampler_scale(f)) for f in m.function.functions)
    assert loss > exact(m.map(1))
    return f"DL(1) and DL(2^53): loss 1 + 2^-53 > map(1) = {m.map(1)!r}"
