"""Count whose stability map is written as a rule ``d_in -> d_in`` instead of a linear map with
constant 1.

Correct: the same function and the same map values (``linear_value(d, 1) = d`` exactly for
integers); a count is 1-stable.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import Map  # noqa: E402
from mechanisms.make_count import build_count, make_count  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_count"


def identity_map(d_in):
    return d_in


def build(carrier):
    return replace(build_count(carrier), stability_map=Map(rule=identity_map))


make_count_rule = make_count.variant("make_count_rule_map", build)
MECHANISMS = [Entry("outsider_right_count_rule_map", make_count_rule)]


def check() -> str:
    for d in range(0, 200):
        assert make_count_rule(int).map(d) == make_count(int).map(d) == d
    return "map(d) = d = make_count's map for d in 0..199"
