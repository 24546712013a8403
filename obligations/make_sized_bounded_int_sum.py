"""The catalogue entry of ``make_sized_bounded_int_sum``. It states no obligations: its standard
statements (output domain, compatibility, stability) are derived and proved by the kernel's fold
rule on a sized domain, for every argument the constructor admits (``proofs_tex/`` cites them)."""

from __future__ import annotations

from mechanisms.make_sized_bounded_int_sum import make_sized_bounded_int_sum
from obligations.base import Entry, example

IMPORT = "from mechanisms.make_sized_bounded_int_sum import make_sized_bounded_int_sum"


def catalogue_entry() -> Entry:
    return Entry("make_sized_bounded_int_sum", make_sized_bounded_int_sum, (),
                 "sum of exactly size ints in [lower, upper]",
                 (example("make_sized_bounded_int_sum(3, -3, 5)", IMPORT),
                  example("make_sized_bounded_int_sum(4, 0, 10)", IMPORT)), proof=True)
