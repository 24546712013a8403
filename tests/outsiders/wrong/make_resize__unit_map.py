"""Resize with map ``d_in`` ("one row in, one row out").

Wrong: adding a row to a short vector replaces one pad by the row, so the output changes by two
(one row in, one pad out): ``[]`` and ``[1]`` resized to 1 with constant 0 are ``[0]`` and ``[1]``.
Hole classes: none listed (plain off-by-a-factor sensitivity).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.domains import AtomDomain  # noqa: E402
from mechanisms.make_clamp import unit_constant  # noqa: E402
from mechanisms.make_resize import build_resize, make_resize  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_resize import resize_obligations  # noqa: E402

CONSTRUCTOR = "make_resize"
CLASSES = ()


def build(size, constant, atom_domain):
    return replace(build_resize(size, constant, atom_domain), stability_map=Map(constant=unit_constant))


make_resize_unit = make_resize.variant("make_resize_unit_map", build)
MECHANISMS = [Entry("outsider_resize_unit_map", make_resize_unit,
                    resize_obligations(make_resize_unit, "outsider_resize_unit_map"))]


def witness() -> str:
    t = make_resize_unit(1, 0, AtomDomain(int))
    observed, claimed = stability_violation(t, [], [1], 1)
    return f"resize(1, 0): [] vs [1] give outputs {observed} apart > map(1) = {claimed}"
