"""Chain whose domain precondition was inverted (``!=`` for ``==``) in a refactor.

Wrong both ways: every well-formed chain is refused, and mismatched ones are accepted. A float
clamp chained into a sized *int* sum of ``[0, 1]`` is built; its map ``(d // 2) 1`` is 0 at
``d_in = 1``, but ``[]`` and ``[10.0]`` (clamped to ``[0, 10]``) give sums 0 and 10.0.
Hole classes: none listed (plain inverted domain equality check in a chain).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms.core import Constructor, Precondition  # noqa: E402
from mechanisms.errors import CombinatorError  # noqa: E402
from mechanisms.make_chain_tt import (build_chain_tt, domain_mismatch, make_chain_tt,  # noqa: E402
                                      metric_mismatch, metrics_meet, validate_chain_tt)
from mechanisms.make_cast_default import make_cast_default  # noqa: E402
from mechanisms.make_clamp import make_clamp  # noqa: E402
from mechanisms.make_count import make_count  # noqa: E402
from mechanisms.make_sized_bounded_int_sum import make_sized_bounded_int_sum  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_chain_tt"
CLASSES = ()


def domains_meet(outer, inner):
    return outer.input_domain != inner.output_domain


PRECONDITIONS = (
    Precondition("outer.input_domain == inner.output_domain", domains_meet, domain_mismatch),
    Precondition("outer.input_metric == inner.output_metric", metrics_meet, metric_mismatch),
)
make_chain_neq = Constructor("make_chain_tt_inverted", build_chain_tt, PRECONDITIONS,
                             validate_chain_tt)
MECHANISMS = [Entry("outsider_chain_tt_inverted_domain_check", make_chain_neq)]


def witness() -> str:
    try:
        make_chain_neq(make_count(float), make_cast_default(float, float))
    except CombinatorError:
        pass
    else:
        raise AssertionError("a well-formed chain was accepted")
    t = make_chain_neq(make_sized_bounded_int_sum(2, 0, 1), make_clamp(0.0, 10.0))
    observed, claimed = stability_violation(t, [], [10.0], 1)
    return f"clamp >> int sum accepted: d_out = {observed} > map(1) = {claimed}; cast >> count refused"
