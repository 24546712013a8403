"""Resize whose padding line was mistyped ``[constant] / pad`` (for ``* pad``), computed before
the length test so that both branches share it.

Wrong: ``list / int`` raises ``TypeError`` on every input, short or long. Domains and the map
``2 d_in`` are the catalogue's.
Hole classes: 14 (the function raises on every input).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from typing import Any, Callable  # noqa: E402

from mechanisms.make_resize import build_resize, make_resize, pad_count, resize_key  # noqa: E402
from mechanisms.domains import AtomDomain  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_resize import resize_obligations  # noqa: E402

CONSTRUCTOR = "make_resize"
CLASSES = (14,)


@dataclass(frozen=True)
class PaddedResize:
    key: Callable[[Any], Any]
    pad: Callable[[Any, Any], Any]
    size: Any
    constant: Any

    def __call__(self, data):
        padding = [self.constant] / self.pad(len(data), self.size)
        kept = sorted(data, key=self.key)[:self.size]
        return kept + padding


def build(size, constant, atom_domain):
    t = build_resize(size, constant, atom_domain)
    return replace(t, function=PaddedResize(resize_key, pad_count, size, constant))


make_resize_typo = make_resize.variant("make_resize_pad_typo", build)
MECHANISMS = [Entry("outsider_resize_pad_typo", make_resize_typo,
                    resize_obligations(make_resize_typo, "outsider_resize_pad_typo"))]


def witness() -> str:
    t = make_resize_typo(2, 0, AtomDomain(int))
    raised = 0
    for v in ([], [1], [1, 2], [3, 1, 2], list(range(10))):
        try:
            t(v)
        except TypeError:
            raised += 1
    assert raised == 5
    return "resize(2, 0) raises TypeError on all 5 inputs (lengths 0, 1, 2, 3, 10)"
