"""Transformation chain with an extra precondition: the intermediate metric must be compatible
with the intermediate domain (``inner.output_metric.compatible(inner.output_domain)``).

Correct (stricter preconditions): the body is the catalogue's, so every chain it builds is one
the catalogue builds; it may refuse more, never accept more. Checked: on catalogue chains it builds
equal maps and outputs, and it refuses what the catalogue refuses.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import Constructor, Precondition  # noqa: E402
from mechanisms.domains import AtomDomain  # noqa: E402
from mechanisms.errors import CombinatorError  # noqa: E402
from mechanisms.make_chain_tt import (CHAIN_PRECONDITIONS, build_chain_tt, make_chain_tt,  # noqa: E402
                                      metric_mismatch, validate_chain_tt)
from mechanisms.make_clamp import make_clamp  # noqa: E402
from mechanisms.make_count import make_count  # noqa: E402
from mechanisms.make_resize import make_resize  # noqa: E402
from mechanisms.make_sized_bounded_int_sum import make_sized_bounded_int_sum  # noqa: E402
from mechanisms.make_cast_default import make_cast_default  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_chain_tt"


def intermediate_compatible(outer, inner):
    return inner.output_metric.compatible(inner.output_domain)


PRECONDITIONS = CHAIN_PRECONDITIONS + (
    Precondition("inner.output_metric fits inner.output_domain", intermediate_compatible,
                 metric_mismatch),)
make_chain_strict = Constructor("make_chain_tt_strict", build_chain_tt, PRECONDITIONS,
                                validate_chain_tt)
MECHANISMS = [Entry("outsider_right_chain_tt_stricter_precondition", make_chain_strict)]


def check() -> str:
    good = [(make_sized_bounded_int_sum(2, 0, 10), make_resize(2, 0, AtomDomain(int, bounds=(0, 10)))),
            (make_count(float), make_cast_default(float, float))]
    for outer, inner in good:
        ours, theirs = make_chain_strict(outer, inner), make_chain_tt(outer, inner)
        v = [3, 10, 1] if inner.input_domain.member([3, 10, 1]) else [0.5, float("nan")]
        assert ours(v) == theirs(v) and all(ours.map(d) == theirs.map(d) for d in range(5))
    for outer, inner in [(make_count(float), make_clamp(0.0, 1.0))]:
        for constructor in (make_chain_strict, make_chain_tt):
            try:
                constructor(outer, inner)
            except CombinatorError:
                continue
            raise AssertionError("mismatched chain accepted")
    return "equal chains where the catalogue builds them; refuses what it refuses"
