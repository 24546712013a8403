"""Noisy top-k on "float scores" declared as ``AtomDomain(float)`` (non-NaN floats, ``±inf``
admitted), the kernel, metric and map the catalogue's: a contributor reused the plain float atom
domain instead of report-noisy-max's finite-score domain.

Wrong: an admitted input ``[inf, 0.0]`` makes the release raise (the exact sampler takes each
score as a ``Fraction``, and ``Fraction(inf)`` raises ``OverflowError``): a raise on an admitted
input (and a data-dependent one: ``[1.0, 0.0]`` is answered). LInf distance between ``[inf, 0]``
and ``[1, 0]`` is infinite, so no finite map is claimed for that pair; the crash itself is the
violation.
Hole classes: 12 (a mutated constant the proof might borrow: the score domain's bounds).
"""

import random
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.domains import AtomDomain, VectorDomain  # noqa: E402
from mechanisms.make_noisy_top_k import build_noisy_top_k, make_noisy_top_k  # noqa: E402
from mechanisms.measures import MaxDivergence  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_noisy_top_k import noisy_top_k_obligations  # noqa: E402

CONSTRUCTOR = "make_noisy_top_k"
CLASSES = (12,)


def build(k, scale, optimize="max", measure=MaxDivergence(), monotonic=False, T=float):
    m = build_noisy_top_k(k, scale, optimize, measure, monotonic, T)
    return replace(m, input_domain=VectorDomain(AtomDomain(T)))


make_topk_inf = make_noisy_top_k.variant("make_noisy_top_k_float_domain_inf", build)
MECHANISMS = [Entry("outsider_o2_topk_float_domain_inf", make_topk_inf,
                    noisy_top_k_obligations(make_topk_inf, "outsider_o2_topk_float_domain_inf"))]


def witness() -> str:
    m = make_topk_inf(1, 1.0)
    x = [float("inf"), 0.0]
    assert m.input_domain.member(x)
    assert m([1.0, 0.0], random.Random(0)) in ([0], [1])
    try:
        m(x, random.Random(0))
    except (OverflowError, ValueError) as error:
        return f"[inf, 0.0] admitted and the release raises {type(error).__name__}: {error}"
    raise AssertionError("no raise")
