"""The catalogue entry of ``make_impute_constant``. It states no obligations: its standard
statements (output domain, compatibility, stability) are derived and proved by the kernel's
row-transform rule, for every argument the constructor admits (``proofs_tex/`` cites them)."""

from __future__ import annotations

from mechanisms.make_impute_constant import make_impute_constant
from obligations.base import Entry, example

IMPORT = "from mechanisms.make_impute_constant import make_impute_constant"


def catalogue_entry() -> Entry:
    return Entry("make_impute_constant", make_impute_constant, (),
                 "replace NaN entries of a float vector by a constant",
                 (example("make_impute_constant(0.0)", IMPORT),
                  example("make_impute_constant(float('inf'))", IMPORT)),
                 proof=True)
