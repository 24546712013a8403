"""Noisy top-k without the ``k >= 1`` precondition (``validate`` still checks that ``k`` is an
int: "``range(k)`` handles the rest").

Wrong: ``k = -1`` is then admitted: ``range(-1)`` is empty, the release is always ``[]`` (its
true loss is 0), but the map is ``k w d_in / scale = -2 d_in / scale < 0``: no mechanism has a
negative max-divergence (for the whole output space, ``1 <= e^(-2) * 1`` is false). (The
output domain ``SizedDomain(..., -1)`` holds no vector at all, so ``[]`` is also outside it.)
Hole classes: 13 (a weakened precondition admitting parameters where the map is wrong/negative).
"""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import Constructor  # noqa: E402
from mechanisms.make_noisy_top_k import (NOISY_TOP_K_PRECONDITIONS, build_noisy_top_k,  # noqa: E402
                                         validate_noisy_top_k)
from obligations.base import Entry  # noqa: E402
from obligations.make_noisy_top_k import noisy_top_k_obligations  # noqa: E402

CONSTRUCTOR = "make_noisy_top_k"
CLASSES = (13,)

make_topk_any_k = Constructor("make_noisy_top_k_any_k", build_noisy_top_k,
                              NOISY_TOP_K_PRECONDITIONS[1:], validate_noisy_top_k)
MECHANISMS = [Entry("outsider_o2_topk_k_precondition_dropped", make_topk_any_k,
                    noisy_top_k_obligations(make_topk_any_k, "outsider_o2_topk_k_precondition_dropped"))]


def witness() -> str:
    assert NOISY_TOP_K_PRECONDITIONS[0].text == "k >= 1"
    m = make_topk_any_k(-1, 1.0)
    x, y = [0.0, 1.0], [1.0, 0.0]
    assert m(x, random.Random(0)) == [] == m(y, random.Random(0))
    assert m.map(1) < 0
    return f"k = -1 admitted: release always [] (loss 0), map(1) = {m.map(1)} < 0"
