"""Wrong twins of ``make_resize``: one refuted per obligation, and one that keeps rows in input
order (a function of the vector, not of the multiset)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from mechanisms import ops
from mechanisms.core import Map
from mechanisms.domains import AtomDomain
from mechanisms.make_resize import Resize, build_resize, make_resize
from mechanisms.metrics import AbsoluteDistance
from obligations.base import Entry
from obligations.make_resize import resize_obligations


def pad_one_short(length: Any, size: Any) -> Any:
    """Wrong: ``max(size - length - 1, 0)`` leaves a short vector one row short of ``size``."""
    return ops.maximum(size - length - 1, 0)


def input_order_key(x: Any) -> tuple[Any]:
    """Wrong: every row ties, so the stable sort keeps the first ``size`` rows in input order."""
    return (0,)


def unit(d_in: Any) -> Any:
    """Wrong: resizing is 2-stable, not 1-stable."""
    return d_in


def half_scale(d_in: Any) -> Any:
    """Wrong: ``d_in / 0.5``, a float: below the exact ``2 d_in`` for ``d_in = 2^53 + 1``."""
    return d_in / 0.5


class DividedPadResize(Resize):
    """Wrong: the padding written ``[constant] / pad``, a TypeError on every input."""

    def __call__(self, data: Sequence[Any]) -> list[Any]:
        kept = sorted(data, key=self.key)[:self.size]
        return kept + [self.constant] / self.pad(len(data), self.size)  # type: ignore[operator]


def build_resize_divided_pad(size: Any, constant: Any, atom_domain: AtomDomain):
    built = build_resize(size, constant, atom_domain)
    f = built.function
    return replace(built, function=DividedPadResize(f.key, f.pad, f.size, f.constant))


def build_resize_float_map(size: Any, constant: Any, atom_domain: AtomDomain):
    return replace(build_resize(size, constant, atom_domain), stability_map=Map(rule=half_scale))


def build_resize_pad_short(size: Any, constant: Any, atom_domain: AtomDomain):
    built = build_resize(size, constant, atom_domain)
    return replace(built, function=replace(built.function, pad=pad_one_short))


def build_resize_input_order(size: Any, constant: Any, atom_domain: AtomDomain):
    built = build_resize(size, constant, atom_domain)
    return replace(built, function=replace(built.function, key=input_order_key))


def build_resize_absolute_output(size: Any, constant: Any, atom_domain: AtomDomain):
    """Wrong: absolute distance is for numbers, not vectors."""
    return replace(build_resize(size, constant, atom_domain), output_metric=AbsoluteDistance())


def build_resize_unit_map(size: Any, constant: Any, atom_domain: AtomDomain):
    return replace(build_resize(size, constant, atom_domain), stability_map=Map(rule=unit))


make_resize_pad_short = make_resize.variant("make_resize_pad_short", build_resize_pad_short)
make_resize_input_order = make_resize.variant("make_resize_input_order", build_resize_input_order)
make_resize_absolute_output = make_resize.variant("make_resize_absolute_output",
                                                  build_resize_absolute_output)
make_resize_unit_map = make_resize.variant("make_resize_unit_map", build_resize_unit_map)
make_resize_divided_pad = make_resize.variant("make_resize_divided_pad",
                                              build_resize_divided_pad)
make_resize_float_map = make_resize.variant("make_resize_float_map", build_resize_float_map)

class FirstRowsResize(Resize):
    """Wrong: keeps the first ``size`` rows in arrival order, so a reordering (``d_in = 0``)
    changes the output."""

    def __call__(self, data: Sequence[Any]) -> list[Any]:
        return list(data[:self.size]) + [self.constant] * self.pad(len(data), self.size)


def build_resize_first_rows(size: Any, constant: Any, atom_domain: AtomDomain):
    real = build_resize(size, constant, atom_domain)
    f = real.function
    return replace(real, function=FirstRowsResize(f.key, f.pad, f.size, f.constant))


make_resize_first_rows = make_resize.variant("make_resize_first_rows", build_resize_first_rows)

MECHANISMS = [
    Entry("make_resize_pad_short", make_resize_pad_short,
          resize_obligations(make_resize_pad_short, "resize_pad_short")),
    Entry("make_resize_input_order", make_resize_input_order,
          resize_obligations(make_resize_input_order, "resize_input_order")),
    Entry("make_resize_absolute_output", make_resize_absolute_output,
          resize_obligations(make_resize_absolute_output, "resize_absolute_output")),
    Entry("make_resize_unit_map", make_resize_unit_map,
          resize_obligations(make_resize_unit_map, "resize_unit_map")),
    Entry("make_resize_divided_pad", make_resize_divided_pad,
          resize_obligations(make_resize_divided_pad, "resize_divided_pad")),
    Entry("make_resize_float_map", make_resize_float_map,
          resize_obligations(make_resize_float_map, "resize_float_map")),
    Entry("make_resize_first_rows", make_resize_first_rows,
          resize_obligations(make_resize_first_rows, "resize_first_rows")),
]

EXPECTED_REFUTATIONS = {
    "resize_pad_short.output_domain",
    "resize_input_order.stability",
    "resize_absolute_output.compatibility",
    "resize_unit_map.stability",
    "resize_divided_pad.output_domain",
    "resize_float_map.map_rounding",
    "resize_first_rows.stability",
}

TWIN_OF = {
    "resize.output_domain": "resize_pad_short.output_domain",
    "resize.compatibility": "resize_absolute_output.compatibility",
    "resize.stability": "resize_unit_map.stability",
    "resize.map_rounding": "resize_float_map.map_rounding",
}
