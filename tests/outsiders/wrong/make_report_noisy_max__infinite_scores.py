"""Report-noisy-max whose score bounds use a mutated float maximum, ``(-inf, inf)`` ("every
float"), for the catalogue's ``(-max float, max float)``.

Wrong: ``+inf`` scores are now members of the input domain, and the exact sampler takes
``Fraction(inf)``, which raises: the measurement fails on some datasets and not on others (a
data-dependent runtime error), e.g. ``[inf, 0.0]`` raises and ``[0.0, 0.0]`` does not.
Hole classes: 12 (a mutated constant: the float maximum).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402
import random  # noqa: E402

from mechanisms.domains import AtomDomain, VectorDomain  # noqa: E402
from mechanisms.make_report_noisy_max import build_report_noisy_max, make_report_noisy_max  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_report_noisy_max import report_noisy_max_obligations  # noqa: E402

CONSTRUCTOR = "make_report_noisy_max"
CLASSES = (12,)

EVERY_FLOAT = (-math.inf, math.inf)


def build(scale, optimize="max", T=float):
    m = build_report_noisy_max(scale, optimize, T)
    domain = VectorDomain(AtomDomain(float, bounds=EVERY_FLOAT)) if T is float else m.input_domain
    return replace(m, input_domain=domain)


make_rnm_inf = make_report_noisy_max.variant("make_report_noisy_max_every_float", build)
MECHANISMS = [Entry("outsider_rnm_infinite_scores", make_rnm_inf,
                    report_noisy_max_obligations(make_rnm_inf, "outsider_rnm_infinite_scores"))]


def witness() -> str:
    m = make_rnm_inf(1.0)
    bad, good = [math.inf, 0.0], [0.0, 0.0]
    assert m.input_domain.member(bad) and m.input_domain.member(good)
    assert m(good, random.Random(0)) in (0, 1)
    try:
        m(bad, random.Random(0))
    except (OverflowError, ValueError) as error:
        return f"[inf, 0.0] is admitted and raises {type(error).__name__}; [0.0, 0.0] returns"
    raise AssertionError("no error on [inf, 0.0]")
