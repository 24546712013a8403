"""Is-equal declaring its output domain ``VectorDomain(AtomDomain(int))`` ("``bool`` is a
subclass of ``int`` in Python, and an int output lets ``make_bounded_int_sum(0, 1)`` chain after
it to count the matches").

Wrong: the catalogue's atoms are typed exactly (``True`` is not an ``int`` atom: ``AtomDomain``
tests ``type(x) is int``), and the kernel returns Python bools, so every output of every
non-empty input lies outside the declared output domain, and a chained integer sum would be
handed rows its own input domain refuses.
Hole classes: none listed (plain output-domain declaration bug).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import out_of_domain  # noqa: E402
from mechanisms.domains import AtomDomain, VectorDomain  # noqa: E402
from mechanisms.make_is_equal import build_is_equal, make_is_equal  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_is_equal"
CLASSES = ()


def build(value):
    return replace(build_is_equal(value), output_domain=VectorDomain(AtomDomain(int)))


make_is_equal_int = make_is_equal.variant("make_is_equal_int_output_domain", build)
MECHANISMS = [Entry("outsider_is_equal_int_output_domain", make_is_equal_int)]


def witness() -> str:
    outs = []
    for value, row in ((0.0, 0.0), (3, 4), ("a", "a"), (True, False)):
        t = make_is_equal_int(value)
        out = out_of_domain(t, [row])
        assert type(out[0]) is bool
        outs.append(f"is_equal({value!r})([{row!r}]) = {out}")
    return "; ".join(outs) + " -- bools, outside VectorDomain(AtomDomain(int))"
