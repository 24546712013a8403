"""Resize whose function object subclasses the catalogue's ``Resize`` and overrides ``__call__``
to keep the *first* ``size`` rows in arrival order ("cheaper than sorting").

Wrong: symmetric distance ignores order, so a permutation (``d_in = 0``) must give the same
multiset; ``[1, 2]`` and ``[2, 1]`` resized to 1 give ``[1]`` and ``[2]``, 2 apart.
Hole classes: 2 (a subclass of a kernel class overrides the method that runs).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import stability_violation  # noqa: E402
from mechanisms.domains import AtomDomain  # noqa: E402
from mechanisms.make_resize import Resize, build_resize, make_resize, pad_count, resize_key  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_resize import resize_obligations  # noqa: E402

CONSTRUCTOR = "make_resize"
CLASSES = (2,)


@dataclass(frozen=True)
class StreamingResize(Resize):
    def __call__(self, data):
        kept = list(data[:self.size])
        return kept + [self.constant] * self.pad(len(data), self.size)


def build(size, constant, atom_domain):
    t = build_resize(size, constant, atom_domain)
    return replace(t, function=StreamingResize(resize_key, pad_count, size, constant))


make_resize_first = make_resize.variant("make_resize_first_rows", build)
MECHANISMS = [Entry("outsider_resize_keeps_first_rows", make_resize_first,
                    resize_obligations(make_resize_first, "outsider_resize_keeps_first_rows"))]


def witness() -> str:
    t = make_resize_first(1, 0, AtomDomain(int))
    observed, claimed = stability_violation(t, [1, 2], [2, 1], 0)
    return f"resize(1): [1, 2] vs [2, 1] (d_in = 0) give outputs {observed} apart > map(0) = {claimed}"
