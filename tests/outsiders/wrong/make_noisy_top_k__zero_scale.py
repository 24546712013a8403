"""Noisy top-k with OpenDP's precondition ``scale >= 0`` (OpenDP admits ``scale = 0``, a
deterministic top-k with map ``+inf``); the catalogue's kernel and maps otherwise.

Wrong: ``scale = 0.0`` is admitted, the map is ``+inf`` (``div_up`` by zero), which is a valid
bound, but the function cannot run: each round's rejection sampler divides by the scale
(``(m - s_i) / 0``) and raises ``ZeroDivisionError`` on every admitted score vector with at
least ``k`` entries. A raise on admitted inputs (the measurement is unusable, and in a pipeline
it crashes or not depending on the length of the data).
Hole classes: 13 (a weakened precondition).
"""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.core import Precondition  # noqa: E402
from mechanisms.errors import SelectionScaleError  # noqa: E402
from mechanisms.make_noisy_top_k import (NOISY_TOP_K_PRECONDITIONS,  # noqa: E402
                                         build_noisy_top_k, make_noisy_top_k)
from obligations.base import Entry  # noqa: E402
from obligations.make_noisy_top_k import noisy_top_k_obligations  # noqa: E402

CONSTRUCTOR = "make_noisy_top_k"
CLASSES = (13,)

make_topk_zero = make_noisy_top_k.variant("make_noisy_top_k_zero_scale", build_noisy_top_k)
make_topk_zero.preconditions = tuple(
    Precondition("scale >= 0", lambda scale, **_: ops.le(0, scale),
                 lambda scale, **_: SelectionScaleError(scale))
    if p.text == "scale > 0" else p
    for p in NOISY_TOP_K_PRECONDITIONS)
assert [p.text for p in make_topk_zero.preconditions].count("scale >= 0") == 1
MECHANISMS = [Entry("outsider_topk_zero_scale", make_topk_zero,
                    noisy_top_k_obligations(make_topk_zero, "outsider_topk_zero_scale"))]


def witness() -> str:
    m = make_topk_zero(1, 0.0)
    v = [1.0, 2.0]
    assert m.input_domain.member(v)
    try:
        m(v, random.Random(0))
    except ZeroDivisionError as e:
        return f"scale 0.0 admitted (map(1) = {m.map(1)}); m({v}) raises ZeroDivisionError: {e}"
    raise AssertionError("no raise")
