"""Private selection whose output domain is the runs' own ``measurement.output_domain`` ("the
selection returns one of the runs' releases"), not ``OptionDomain(...)``.

Wrong: with a threshold the search returns ``None`` when the stopping coin fires before a score
reaches the threshold, and ``None`` is not a ``(score, candidate)`` pair. Run on the real
function with threshold ``4`` above the score's upper bound ``3``: every release is ``None``,
outside the declared output domain (a downstream ``release[0]`` raises ``TypeError``).
Hole classes: none listed (an output outside the declared domain).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import out_of_domain  # noqa: E402
from mechanisms.make_basic_composition import make_basic_composition  # noqa: E402
from mechanisms.make_geometric import make_geometric  # noqa: E402
from mechanisms.make_select_private_candidate import (build_select_private_candidate,  # noqa: E402
                                                      make_select_private_candidate)
from obligations.base import Entry  # noqa: E402
from obligations.make_select_private_candidate import select_private_candidate_obligations  # noqa: E402

CONSTRUCTOR = "make_select_private_candidate"
CLASSES = ()


def build(measurement, stop_probability, threshold=None):
    m = build_select_private_candidate(measurement, stop_probability, threshold)
    return replace(m, output_domain=measurement.output_domain)


make_spc_unwrapped = make_select_private_candidate.variant(
    "make_select_private_candidate_unwrapped", build)
MECHANISMS = [Entry("outsider_spc_unwrapped_output_domain", make_spc_unwrapped,
                    select_private_candidate_obligations(make_spc_unwrapped,
                                                         "outsider_spc_unwrapped_output_domain"))]


def witness() -> str:
    inner = make_basic_composition([make_geometric(1.0, (0, 3)), make_geometric(50.0, (0, 1))])
    m = make_spc_unwrapped(inner, 0.5, 4)
    out = out_of_domain(m, 2)
    return f"threshold 4 above the scores' bound 3: release {out!r}, not in {m.output_domain}"
