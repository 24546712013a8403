"""Cast float -> str formatting ``str(x)`` directly (the ``+ 0.0`` normalisation dropped as
"a no-op").

Wrong: ``-0.0`` and ``0.0`` are one multiset element (symmetric distance 0 between ``[0.0]`` and
``[-0.0]``) but format as ``"0.0"`` and ``"-0.0"``, two distinct strings: ``d_out = 2 > map(0)``.
Hole classes: 10 (a bug that shows only on the signed zero).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import RowTransform  # noqa: E402
from mechanisms.make_cast_default import (CAST_KERNELS, build_cast_default,  # noqa: E402
                                          format_value, make_cast_default)
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_cast_default"
CLASSES = (10,)


def float_to_str(x):
    return ops.opaque("format_float", format_value, x, str)


KERNELS = {**CAST_KERNELS, (float, str): float_to_str}


def build(from_type, to_type):
    t = build_cast_default(from_type, to_type)
    return replace(t, function=RowTransform(KERNELS[(from_type, to_type)]))


make_cast_raw = make_cast_default.variant("make_cast_default_raw_format", build)
MECHANISMS = [Entry("outsider_cast_signed_zero", make_cast_raw)]


def witness() -> str:
    t = make_cast_raw(float, str)
    observed, claimed = stability_violation(t, [0.0], [-0.0], 0)
    return f"cast(float, str): [0.0] vs [-0.0] (d_in = 0) -> {t([0.0])} vs {t([-0.0])}, {observed} > {claimed}"
