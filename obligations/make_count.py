"""The catalogue entry of ``make_count``. It states no obligations: its standard statements
(output domain, compatibility, stability) are derived and proved by the kernel's fold rule, for
every argument the constructor admits (``proofs_tex/`` cites them)."""

from __future__ import annotations

from mechanisms.make_count import make_count
from obligations.base import Entry, example

IMPORT = "from mechanisms.make_count import make_count"


def catalogue_entry() -> Entry:
    return Entry("make_count", make_count, (),
                 "number of rows, as an int (symmetric -> absolute distance)",
                 (example("make_count(float)", IMPORT), example("make_count(str)", IMPORT)),
                 proof=True)
