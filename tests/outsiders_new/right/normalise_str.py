"""make_normalise_str(): a text normaliser for categorical columns: every string row is stripped
of surrounding white space and case-folded (``"  Paris " -> "paris"``), a new row transformation
on ``VectorDomain(AtomDomain(str))``, symmetric distance both sides, map ``d_in -> d_in``.

Python's ``str.strip``/``str.casefold`` have no solver form, so the kernel goes through
``mechanisms.ops.opaque`` (a deterministic function with no solver form, as
``make_cast_default``'s parsing does). README names no proof module for string row transforms and
``clamp_obligations`` needs ``(lower, upper)``, so the entry has no obligations, with an example
so that the kernel knows it builds a transformation. README says such an entry's statements are
unknown unless the build is a plan of proved constructors: this module records what a user gets.
"""

from __future__ import annotations

import random

from mechanisms import ops
from mechanisms.core import Constructor, Map, RowTransform, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.make_clamp import unit_constant
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry, example


def normalise(s: str) -> str:
    return s.strip().casefold()


def normalise_kernel(x):
    return ops.opaque("normalise", normalise, x, str)


def build_normalise_str():
    return Transformation(
        input_domain=VectorDomain(AtomDomain(str)),
        output_domain=VectorDomain(AtomDomain(str)),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=RowTransform(normalise_kernel),
        stability_map=Map(constant=unit_constant),
    )


make_normalise_str = Constructor("make_normalise_str", build_normalise_str)
MECHANISMS = [Entry("make_normalise_str", make_normalise_str,
                    examples=(example("make_normalise_str()",
                                      "from normalise_str import make_normalise_str"),))]


def check() -> str:
    t = make_normalise_str()
    assert t(["  Paris ", "PARIS", "Straße", "lyon\n"]) == ["paris", "paris", "strasse", "lyon"]
    words = ["Paris", " paris", "LYON", "lyon ", "Brest", "", " ", "Straße", "STRASSE"]
    rng = random.Random(2)
    for _ in range(3000):
        v = [rng.choice(words) for _ in range(rng.randint(0, 6))]
        w = v[:rng.randint(0, len(v))] + [rng.choice(words) for _ in range(rng.randint(0, 3))]
        d_in = t.input_metric.distance(v, w)
        assert t.output_metric.distance(t(v), t(w)) <= t.map(d_in)
        assert t.output_domain.member(t(v))
    return "normalises as documented; 3000 neighbour pairs of strings: d_out <= d_in"
