"""``make_resize(size, constant, atom_domain)``: vectors of any length to vectors of exactly ``size``.

``v -> sorted(v, key=resize_key)[:size] + [constant] * max(size - len(v), 0)``: when ``v`` is too
long, keep its ``size`` least rows in a total order of multiset elements (NaN last, ``-0.0`` tied
with ``0.0``); when too short, pad with ``constant``, which must be in the row domain
``atom_domain`` (an ``AtomDomain`` of ``float`` or ``int``, bounded or not, NaN admitted or not).
Symmetric distance on both sides; stability map ``d_in -> 2 d_in``: one insertion or deletion
changes the output multiset by at most 2 (one row in, one row or pad out).

Difference from OpenDP (``make_resize(input_domain, input_metric, size, constant)``): OpenDP drops a
uniformly random subset of the rows of a long vector; a transformation here is a deterministic
function, so it keeps the least rows, a function of the multiset alone. Both maps are ``2 d_in``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from mechanisms import ops
from mechanisms.core import Constructor, Map, Precondition, Transformation
from mechanisms.domains import AtomDomain, SizedDomain, VectorDomain
from mechanisms.errors import ConstantDomainError, RowDomainError, SizeError
from mechanisms.metrics import SymmetricDistance

RESIZE_CARRIERS = (float, int)


def resize_key(x: Any) -> tuple[Any, Any]:
    """``(is_nan(x), 0 if NaN else x)``: a total order on rows, NaN last and every NaN alike."""
    nan = ops.is_nan(x)
    return nan, ops.where(nan, 0, x)


def pad_count(length: Any, size: Any) -> Any:
    """``max(size - length, 0)`` copies of the constant fill a short vector up to ``size``."""
    return ops.maximum(size - length, 0)


@dataclass(frozen=True)
class Resize:
    """``v -> sorted(v, key)[:size] + [constant] * pad(len(v), size)``."""

    key: Callable[[Any], Any]
    pad: Callable[[Any, Any], Any]
    size: Any
    constant: Any

    def __call__(self, data: Sequence[Any]) -> list[Any]:
        kept = sorted(data, key=self.key)[:self.size]
        return kept + [self.constant] * self.pad(len(data), self.size)


def double_constant() -> int:
    """Resizing is 2-stable: ``d_out = d_in * 2``."""
    return 2


def validate_resize(size: Any, constant: Any, atom_domain: Any) -> None:
    """``size`` is an ``int``; the row domain an ``AtomDomain`` of float or int."""
    if type(size) is not int:
        raise SizeError(size)
    if not isinstance(atom_domain, AtomDomain) or atom_domain.carrier not in RESIZE_CARRIERS:
        raise RowDomainError(atom_domain, RESIZE_CARRIERS)
    if not atom_domain.member(constant):
        raise ConstantDomainError(constant, atom_domain)


RESIZE_PRECONDITIONS = (
    Precondition("size >= 1", lambda size, **_: ops.le(1, size),
                 lambda size, **_: SizeError(size)),
    Precondition("constant is in the row domain",
                 lambda constant, atom_domain, **_: atom_domain.contains(constant),
                 lambda constant, atom_domain, **_: ConstantDomainError(constant, atom_domain)),
)


def build_resize(size: Any, constant: Any, atom_domain: AtomDomain) -> Transformation:
    return Transformation(
        input_domain=VectorDomain(atom_domain),
        output_domain=SizedDomain(VectorDomain(atom_domain), size),
        input_metric=SymmetricDistance(),
        output_metric=SymmetricDistance(),
        function=Resize(resize_key, pad_count, size, constant),
        stability_map=Map(constant=double_constant),
    )


make_resize = Constructor("make_resize", build_resize, RESIZE_PRECONDITIONS, validate_resize)
