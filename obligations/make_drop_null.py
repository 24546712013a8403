"""The catalogue entry of ``make_drop_null``. It states no obligations: its standard statements
(output domain, compatibility, stability) are derived and proved by the kernel's row-filter rule,
for every argument the constructor admits (``proofs_tex/`` cites them)."""

from __future__ import annotations

from mechanisms.make_drop_null import make_drop_null
from obligations.base import Entry, example

IMPORT = "from mechanisms.make_drop_null import make_drop_null"


def catalogue_entry() -> Entry:
    return Entry("make_drop_null", make_drop_null, (), "remove the NaN rows of a float vector",
                 (example("make_drop_null(float)", IMPORT),), proof=True)
