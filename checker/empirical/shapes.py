"""Outputs of any shape read as features: numbers, categories, tuples of mixed types and varying
length (a sparse vector's answers then its noisy value, ``(False, False, True, 3.2)``), nested
lists, dicts (their items in key order), NaN and +-inf.

Each output gets a hashable *key* (NaN as the one value :data:`NAN`, lists as tuples, dicts as
their sorted items), so outputs can be counted as values; and *features*: its length and, at each
position ``j`` of its flattened form (up to :data:`MAX_POSITIONS`), its value as a category (a
bool, a string, ``None``, NaN, or :data:`MISSING` past the output's end) or as a number.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Sequence

import numpy as np

MAX_POSITIONS = 16
"""Positions of a flattened output read as features."""


class OutputError(TypeError):
    """An output the tester cannot read as a value: it names the output and its type."""

    def __init__(self, output: Any) -> None:
        self.output = output
        super().__init__(f"cannot read the output {output!r} of type {type(output).__name__}: an "
                         "output must be a number, bool, string, bytes, None, or a tuple, list, "
                         "array, dict or set of those; return one of these (say, a tuple of the "
                         "fields that are released)")


class _Marker:
    """A value of its own, equal only to itself, shown as ``name``: one object per name, in
    this process and after a trip through pickle (runs drawn in a forked worker hold them)."""

    _made: dict[str, _Marker] = {}

    def __new__(cls, name: str) -> _Marker:
        if name not in cls._made:
            marker = cls._made[name] = super().__new__(cls)
            marker.name = name
        return cls._made[name]

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return _Marker, (self.name,)

    def __repr__(self) -> str:
        return self.name


NAN = _Marker("nan")
"""NaN as an output value: ``float('nan') != float('nan')``, but outputs must be countable."""

MISSING = _Marker("missing")
"""The value at a position past an output's end."""

NULL = _Marker("None")
"""``None`` as an output value (``None`` itself marks "not a category" in the features)."""

_ATOMS = (bool, str, bytes, int, float, np.bool_, np.integer, np.floating)


_NUMBER_TYPES: dict[type, bool] = {float: True, int: True, bool: False, str: False}


def is_number(v: Any) -> bool:
    """A number, not a bool (``True`` is an ``int`` to Python, a category here)."""
    return number_type(type(v))


def number_type(kind: type) -> bool:
    """Values of this type are numbers (see :func:`is_number`)."""
    found = _NUMBER_TYPES.get(kind)
    if found is None:
        found = _NUMBER_TYPES[kind] = issubclass(kind, (int, float, np.integer, np.floating)) \
            and not issubclass(kind, (bool, np.bool_))
    return found


_CODES: dict[Any, int] = {}
VALUES: list[Any] = []
"""``VALUES[code(v)]`` is ``v``: categories and few-valued outputs interned as integers, so that
events compare integer arrays."""

NONE = -1
"""The code of "no category here" (the position holds a number)."""


def code(value: Any, by_repr: bool = False) -> int:
    """The value's integer code, the same in every :class:`Features`. Atoms are told apart by
    type (``True``, ``1`` and ``1.0`` get three codes); whole outputs (tuples) by ``repr``."""
    if value is None and not by_repr:
        return NONE
    name = repr(value) if by_repr else (type(value), value)
    found = _CODES.get(name)
    if found is None:
        found = _CODES[name] = len(VALUES)
        VALUES.append(value)
    return found


def codes_from(base: int) -> list[Any]:
    """The values given codes ``base`` and on, in order (for :func:`adopt` in another process)."""
    return VALUES[base:]


def adopt(made: Features, base: int, values: Sequence[Any]) -> Features:
    """``made`` in a forked process whose code table agreed with this one below ``base`` and
    gave ``values`` the codes ``base``, ``base + 1``...: the same features in this process's
    codes (each process numbers the values it meets first in its own order)."""
    mapping = np.array([code(v) for v in values], dtype=int)

    def ours(codes: np.ndarray) -> np.ndarray:
        new = codes >= base
        if not new.any():
            return codes
        return np.where(new, mapping[np.where(new, codes - base, 0)], codes)
    return Features(made.keys, made.lengths, made.categories, made.numbers, made.scalar,
                    [ours(c) for c in made.category_codes])


_PLAIN = frozenset({bool, str, bytes, int})
"""Types whose values are their own keys."""


def key(v: Any) -> Any:
    """``v`` as a hashable value: NaN as :data:`NAN`, ``None`` as :data:`NULL`, NumPy scalars as
    Python ones, sequences as tuples, dicts as tuples of ``(key, value)`` in key order, sets
    sorted. Raises :class:`OutputError` for anything else."""
    kind = type(v)
    if kind in _PLAIN:
        return v
    if kind is float:
        return v if v == v else NAN
    if v is None:
        return NULL
    if isinstance(v, _ATOMS):
        return key(v.item()) if isinstance(v, np.generic) else key(kind.__base__(v))
    if isinstance(v, (tuple, list, np.ndarray)):
        return tuple(x if type(x) in _PLAIN else key(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted(((key(k), key(x)) for k, x in v.items()), key=repr))
    if isinstance(v, (set, frozenset)):
        return tuple(sorted((key(x) for x in v), key=repr))
    raise OutputError(v)


def flat(k: Any) -> tuple:
    """The atoms of a key in order (nested tuples flattened)."""
    if type(k) is not tuple:
        return (k,)
    if not any(type(part) is tuple for part in k):
        return k
    return tuple(atom for part in k for atom in flat(part))


@dataclass(frozen=True)
class Features:
    """Outputs as columns. ``scalar``: the outputs are not tuples (one position, ``output``)."""

    keys: np.ndarray
    """The outputs' keys (object array)."""
    lengths: np.ndarray
    """Lengths of the flattened outputs (-1 for scalar outputs)."""
    categories: list[np.ndarray]
    """Per position: the value where it is not a number, else ``None`` (object arrays)."""
    numbers: list[np.ndarray]
    """Per position: the value where it is a number (+-inf included), else NaN (floats)."""
    scalar: bool
    category_codes: list[np.ndarray]
    """Per position: :func:`code` of the category (:data:`NONE` where a number is)."""

    @cached_property
    def key_codes(self) -> np.ndarray:
        """:func:`code` of each whole output (worth it only when few values repeat)."""
        return np.fromiter((code(k, by_repr=True) for k in self.keys.tolist()), dtype=int,
                           count=len(self.keys))

    def __len__(self) -> int:
        return len(self.keys)

    def name(self, j: int) -> str:
        return "output" if self.scalar else f"output[{j}]"

    def take(self, index: slice | np.ndarray) -> Features:
        return Features(self.keys[index], self.lengths[index],
                        [c[index] for c in self.categories], [n[index] for n in self.numbers],
                        self.scalar, [c[index] for c in self.category_codes])

    @staticmethod
    def concat(parts: Sequence[Features]) -> Features:
        width = min(len(p.numbers) for p in parts)
        return Features(np.concatenate([p.keys for p in parts]),
                        np.concatenate([p.lengths for p in parts]),
                        [np.concatenate([p.categories[j] for p in parts]) for j in range(width)],
                        [np.concatenate([p.numbers[j] for p in parts]) for j in range(width)],
                        all(p.scalar for p in parts),
                        [np.concatenate([p.category_codes[j] for p in parts])
                         for j in range(width)])


def _objects(items: Sequence[Any]) -> np.ndarray:
    """A one-dimensional object array (``np.array`` would make rows of tuples into a matrix)."""
    array = np.empty(len(items), dtype=object)
    array[:] = list(items)
    return array


def _numeric_matrix(outputs: np.ndarray) -> Features:
    """Fast path for a float array: one row per output (or one number per output)."""
    scalar = outputs.ndim == 1
    matrix = outputs[:, None] if scalar else outputs.reshape(len(outputs), -1)
    keys = _objects([key(row) for row in (outputs if scalar else matrix).tolist()])
    width = min(matrix.shape[1], MAX_POSITIONS)
    numbers = [matrix[:, j].astype(float) for j in range(width)]
    categories = [_objects(np.where(np.isnan(column), NAN, None).tolist()) for column in numbers]
    lengths = np.full(len(outputs), -1 if scalar else matrix.shape[1], dtype=int)
    codes = [np.where(np.isnan(column), code(NAN), NONE) for column in numbers]
    return Features(keys, lengths, categories, numbers, scalar, codes)


def _by_kinds(rows: list[tuple | None], keys: list[Any], width: int) -> dict[tuple, list[int]]:
    """The rows' indices grouped by the types of their first ``width`` atoms (a scalar in a
    tuple-valued sample counts as a row of one atom, its key)."""
    groups: dict[tuple, list[int]] = {}
    for i, r in enumerate(rows):
        atoms = r[:width] if r is not None else (keys[i],)
        groups.setdefault(tuple(type(a) for a in atoms), []).append(i)
    return groups


def features(outputs: Sequence[Any], positions: int = MAX_POSITIONS) -> Features:
    """The features of ``outputs`` (raises :class:`OutputError` on an output of no known kind)."""
    if isinstance(outputs, np.ndarray) and outputs.dtype.kind in "fiu" and outputs.ndim <= 2:
        return _numeric_matrix(outputs)
    keys = [key(v) for v in outputs]
    scalar = not any(isinstance(k, tuple) for k in keys)
    rows = [(k,) if scalar else (flat(k) if isinstance(k, tuple) else None) for k in keys]
    lengths = np.fromiter((-1 if r is None or scalar else len(r) for r in rows), dtype=int,
                          count=len(rows))
    width = min(positions, max((len(r) for r in rows if r is not None), default=0))
    categories = [_objects([MISSING] * len(rows)) for _ in range(width)]
    numbers = [np.full(len(rows), np.nan) for _ in range(width)]
    codes = [np.full(len(rows), code(MISSING), dtype=int) for _ in range(width)]
    for kinds, index in _by_kinds(rows, keys, width).items():
        block = np.empty((len(index), len(kinds)), dtype=object)
        block[:] = [rows[i][:len(kinds)] if rows[i] is not None else (keys[i],) for i in index]
        for j, kind in enumerate(kinds):
            column = block[:, j]
            if number_type(kind):
                numbers[j][index] = column.astype(float)
                categories[j][index], codes[j][index] = None, NONE
            else:
                categories[j][index] = column
                codes[j][index] = [code(v) for v in column.tolist()]
    return Features(_objects(keys), lengths, categories, numbers, scalar, codes)
