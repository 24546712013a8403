"""make_clamp_label(lower, upper): clamp every row into [lower, upper] and format it as a string
label (for a group-by on the clamped value downstream), a new row transformation
``VectorDomain(AtomDomain(T, nan=...))`` -> ``VectorDomain(AtomDomain(str))``, symmetric distance
both sides, map ``d_in -> d_in``; NaN -> lower. The formatting has no solver form, so it goes
through ``ops.opaque`` as ``make_cast_default`` does; proof module ``clamp_obligations``.

MISTAKE: ``str(-0.0)`` is ``"-0.0"`` and ``str(0.0)`` is ``"0.0"``, but ``-0.0`` and ``0.0`` are
one multiset element (equal floats): the datasets ``[-0.0]`` and ``[0.0]`` are at symmetric
distance 0 and their outputs ``["-0.0"]`` and ``["0.0"]`` at distance 2 > map(0) = 0. (The
catalogue's cast formats ``x + 0.0``; this author copied the idea without that detail.)
"""

from __future__ import annotations

from mechanisms import ops
from mechanisms.core import Constructor, Map, RowTransform, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.make_clamp import BOUND_PRECONDITIONS, clamp_kernel, unit_constant, validate_bounds
from mechanisms.metrics import SymmetricDistance
from obligations.base import Entry, example
from obligations.make_clamp import clamp_obligations


def label(x) -> str:
    return str(x)


def clamp_label_kernel(x, lower, upper):
    return ops.opaque("label", label, clamp_kernel(x, lower, upper), str)


def build_clamp_label(lower, upper):
    carrier = ops.carrier_of(lower)
    return Transformation(
        input_domain=VectorDomain(AtomDomain(carrier, nan=carrier is float)),
        output_domain=VectorDomain(AtomDomain(str)),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=RowTransform(clamp_label_kernel, {"lower": lower, "upper": upper}),
        stability_map=Map(constant=unit_constant),
    )


make_clamp_label = Constructor("make_clamp_label", build_clamp_label, BOUND_PRECONDITIONS,
                               validate_bounds)
MECHANISMS = [Entry("make_clamp_label", make_clamp_label,
                    clamp_obligations(make_clamp_label, "clamp_label"),
                    examples=(example("make_clamp_label(-1.0, 1.0)",
                                      "from clamp_label_str import make_clamp_label"),))]


def witness() -> str:
    t = make_clamp_label(-1.0, 1.0)
    v, w = [-0.0], [0.0]
    d_in = t.input_metric.distance(v, w)
    d_out = t.output_metric.distance(t(v), t(w))
    assert d_in == 0 and d_out > t.map(d_in), (d_in, d_out, t.map(d_in))
    return f"[-0.0] vs [0.0]: d_in = 0, outputs {t(v)} vs {t(w)} at d_out = {d_out} > map(0) = {t.map(0)}"
