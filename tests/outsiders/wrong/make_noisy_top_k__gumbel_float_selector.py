"""Noisy top-k whose per-round selector is report-noisy-max by Gumbel noise in floats (the
textbook one-shot trick, as in OpenDP's documentation): ``argmax_i o s_i + scale * G_i`` with
``G_i = -log(-log(U_i))``, ``U_i = rng.random()``; a ``NoisyMax`` subclass whose ``__call__``
is replaced, handed to the catalogue's ``NoisyTopK`` (the peeling is unchanged).

Wrong: ``random()`` returns multiples of ``2^-53`` in ``[0, 1)``, so the float Gumbel noise is
bounded: ``G <= -log(-log(1 - 2^-53)) ~ 36.74`` and, for ``U > 0``, ``G >= -log(-log(2^-53)) ~
-3.60`` (``U = 0`` raises ``ValueError``: math domain error). With ``k = 1``, scale 1, ``s = [0,
100]`` vs ``s' = [30, 70]`` (LInf 30): under ``s`` index 0 can never win (``0 + 36.74 < 100 -
3.60``), under ``s'`` it wins on the draws ``U = (1 - 2^-53, 2^-53)`` (a positive probability):
``Pr[0 | s'] > 0 = Pr[0 | s]``, an infinite privacy loss > ``map(30) = 60``. Checked on the real
code with a scripted ``random()`` (G is increasing in U, so the extreme draws decide).
Hole classes: 5 (a float sampler), 2 (a subclass overrides the method that runs).
"""

import math
import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.make_noisy_top_k import NoisyTopK, build_noisy_top_k, make_noisy_top_k  # noqa: E402
from mechanisms.make_report_noisy_max import NoisyMax  # noqa: E402
from mechanisms.measures import MaxDivergence  # noqa: E402
from mechanisms.samplers import system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_noisy_top_k import noisy_top_k_obligations  # noqa: E402

CONSTRUCTOR = "make_noisy_top_k"
CLASSES = (5, 2)


@dataclass(frozen=True)
class GumbelNoisyMax(NoisyMax):
    def __call__(self, scores, rng=None):
        rng = system_rng(rng)
        noisy = [self.sign * float(s) + float(self.scale) * -math.log(-math.log(rng.random()))
                 for s in scores]
        return max(range(len(scores)), key=noisy.__getitem__)


def build(k, scale, optimize="max", measure=MaxDivergence(), monotonic=False, T=float):
    m = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    selector = GumbelNoisyMax(m.function.selector.scale, m.function.selector.sign)
    return replace(m, function=NoisyTopK(selector, m.function.k))


make_topk_gumbel = make_noisy_top_k.variant("make_noisy_top_k_gumbel_float_selector", build)
MECHANISMS = [Entry("outsider_topk_gumbel_float_selector", make_topk_gumbel,
                    noisy_top_k_obligations(make_topk_gumbel, "outsider_topk_gumbel_float_selector"))]


class ScriptedRandom:
    def __init__(self, draws):
        self.draws = list(draws)

    def random(self):
        return self.draws.pop(0)


def witness() -> str:
    m = make_topk_gumbel(1, 1.0)
    s, s2 = [0.0, 100.0], [30.0, 70.0]
    assert m.input_metric.distance(s, s2) == 30
    top, bottom = 1 - 2.0 ** -53, 2.0 ** -53   # random()'s largest value and least positive one
    assert m(s2, ScriptedRandom([top, bottom])) == [0]      # Pr[0 | s'] > 0
    assert m(s, ScriptedRandom([top, bottom])) == [1]       # the draws most favourable to 0 lose
    try:
        m(s, ScriptedRandom([0.0, 0.5]))
        raised = "no raise"
    except ValueError as e:
        raised = f"ValueError ({e})"
    return (f"scale 1: Pr[[0] | {s2}] > 0 = Pr[[0] | {s}] (LInf 30): infinite loss > "
            f"map(30) = {m.map(30)}; a draw U = 0.0 gives {raised}")
