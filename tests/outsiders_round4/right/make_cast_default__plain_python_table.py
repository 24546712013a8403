"""make_cast_default refactored as a dispatch table of plain-Python cast helpers.

Each of the 16 casts is a small function written with Python's own operations and try/except
(``int(s)``, ``float(s)``, ``str(x + 0.0)``, ``int(x) if math.isfinite(x) else 0``, ...), and the
function is a callable class that loops over the rows with the helper of ``(from_type,
to_type)``; the catalogue writes the same kernels with ``ops`` (``opaque``, ``where``,
``truncate``, ``to_float``) so that they run on solver terms.

Why it is correct, cast by cast against the catalogue's kernels:
``str->int``/``str->float``: ``int(s)``/``float(s)`` with ``ValueError -> 0``/``0.0`` is exactly
``parse_int``/``parse_float`` (an over-long digit string raises ``ValueError`` in both);
``str->bool``: ``s != ""``; ``int->str``: ``str(n)`` with ``ValueError -> ""`` (digit limit);
``int->float``: ``float(n)``, ``OverflowError -> 0.0`` (the catalogue rounds to nearest, maps the
overflow to inf and then non-finite to ``0.0``; ``float(n)`` never returns a non-finite value
otherwise); ``int->bool``/``float->bool``: ``x != 0`` (NaN true, ``-0.0`` false);
``float->str``: ``str(x + 0.0)`` (``-0.0`` printed as ``0.0``); ``float->int``:
``int(x)`` truncates finite floats, ``0`` for NaN and inf (the catalogue's ``truncate`` guarded by
``is_finite``); ``bool->str/int/float``: ``str(b)``, ``int(b)``, ``float(b)``; identities return the
row itself. Every output has the catalogue's value and type (floats bit for bit).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import math
import struct
from dataclasses import dataclass, replace

from mechanisms.make_cast_default import CAST_TYPES, build_cast_default, make_cast_default
from obligations.base import Entry

CONSTRUCTOR = "make_cast_default"


def _str_to_int(s):
    try:
        return int(s)
    except ValueError:
        return 0


def _str_to_float(s):
    try:
        return float(s)
    except ValueError:
        return 0.0


def _to_str(x):
    try:
        return str(x)
    except ValueError:
        return ""


def _int_to_float(n):
    try:
        return float(n)
    except OverflowError:
        return 0.0


def _float_to_int(x):
    return int(x) if math.isfinite(x) else 0


def _same(x):
    return x


TABLE = {
    (str, str): _same, (str, int): _str_to_int, (str, float): _str_to_float,
    (str, bool): lambda s: s != "",
    (int, str): _to_str, (int, int): _same, (int, float): _int_to_float,
    (int, bool): lambda n: n != 0,
    (float, str): lambda x: _to_str(x + 0.0), (float, int): _float_to_int, (float, float): _same,
    (float, bool): lambda x: x != 0,
    (bool, str): _to_str, (bool, int): int, (bool, float): float, (bool, bool): _same,
}


@dataclass(frozen=True)
class TableCast:
    from_type: type
    to_type: type

    def __call__(self, data):
        cast = TABLE[(self.from_type, self.to_type)]
        out = []
        for row in data:
            out.append(cast(row))
        return out


def build_cast_table(from_type, to_type):
    return replace(build_cast_default(from_type, to_type), function=TableCast(from_type, to_type))


make_cast_table = make_cast_default.variant("make_cast_table", build_cast_table)
MECHANISMS = [Entry("make_cast_table", make_cast_table)]


def _key(x):
    return ("f", struct.pack("<d", x)) if type(x) is float else (type(x).__name__, x)


ROWS = {
    str: ["", " ", "0", "-0", "3.5", "  3 ", "1_000", "1e400", "-1e400", "nan", "-nan", "inf",
          "Infinity", "abc", "\u0663", "0x10", "9" * 5001, "-" + "9" * 400, "True", "1" * 4300],
    int: [0, 1, -1, 2 ** 53 + 1, 2 ** 63, 10 ** 308 * 2, 2 ** 1024, -(2 ** 1024),
          2 ** 1024 - 2 ** 970, 10 ** 5000, -(10 ** 400)],
    float: [0.0, -0.0, 0.5, -0.5, 1.9999999999999998, -2.5, 5e-324, 1.7976931348623157e308,
            math.inf, -math.inf, math.nan, -math.nan, 1e16, 123456789.123],
    bool: [True, False],
}


def check() -> str:
    compared = 0
    for from_type in CAST_TYPES:
        for to_type in CAST_TYPES:
            new, ref = make_cast_table(from_type, to_type), make_cast_default(from_type, to_type)
            assert (new.input_domain, new.output_domain, new.input_metric, new.output_metric) == \
                (ref.input_domain, ref.output_domain, ref.input_metric, ref.output_metric)
            rows = ROWS[from_type]
            vectors = [[]] + [[x] for x in rows] + [rows, rows[::-1]]
            for v in vectors:
                a, b = new(v), ref(v)
                assert type(a) is list and [_key(x) for x in a] == [_key(x) for x in b], \
                    (from_type, to_type, v[:3])
                compared += 1
            for d in range(0, 20):
                assert new.map(d) == ref.map(d)
    return f"equal (value, type, float bits) to make_cast_default on all 16 casts, {compared} vectors"
