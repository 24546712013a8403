"""Vector Laplace whose input domain is widened to float vectors,
``VectorDomain(AtomDomain(float))`` ("users pass numpy float arrays; integer noise works on
floats too"), the output domain left at ``VectorDomain(AtomDomain(int))``.

Wrong: the kernel adds an integer draw to each coordinate, so a float coordinate stays a float
(``0.5 + z`` is ``0.5``-offset, ``inf + z`` is ``inf``): the release on ``[0.5, 2.0]`` is outside
the declared output domain, run on the real function. (The privacy argument also changes: the
noise no longer hides a fractional part; it is the same at every output, so
``[0.5]`` vs ``[0.0]`` have disjoint supports at L1 distance 0.5.)
The same widening as ``make_vector_gaussian__float_vectors``, on the Laplace kernel.
Hole classes: none listed (a domain widened without the kernel).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import math  # noqa: E402
import random  # noqa: E402

from _exact import out_of_domain  # noqa: E402
from mechanisms.domains import AtomDomain, VectorDomain  # noqa: E402
from mechanisms.make_vector_laplace import build_vector_laplace, make_vector_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_vector_laplace"
CLASSES = ()


def build(scale):
    return replace(build_vector_laplace(scale), input_domain=VectorDomain(AtomDomain(float)))


make_vl_float = make_vector_laplace.variant("make_vector_laplace_float_vectors", build)
MECHANISMS = [Entry("outsider_vl_float_vectors", make_vl_float)]


def witness() -> str:
    m = make_vl_float(1.0)
    out = out_of_domain(m, [0.5, 2.0])
    rng = random.Random(0)
    fractional = {math.modf(m([0.5], rng)[0])[0] for _ in range(50)}
    integral = {math.modf(m([0.0], rng)[0])[0] for _ in range(50)}
    assert fractional.isdisjoint(integral)
    return (f"scale 1: release on [0.5, 2.0] is {out!r}; fractional parts {fractional} vs "
            f"{integral} (disjoint supports at distance 0.5, map {m.map(0.5)})")
