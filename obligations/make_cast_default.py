"""The catalogue entry of ``make_cast_default``. It states no obligations: its standard
statements (output domain, compatibility, stability) are derived and proved by the kernel's
row-transform rule, for each of the 16 casts between ``str``, ``int``, ``float`` and ``bool``
(``proofs_tex/`` cites them); parsing and formatting, which have no solver form, are assumed
total (the rule says so). What each cast computes is a specification, not a standard statement:
the unit tests check it."""

from __future__ import annotations

from mechanisms.make_cast_default import make_cast_default
from obligations.base import Entry, example

IMPORT = "from mechanisms.make_cast_default import make_cast_default"


def catalogue_entry() -> Entry:
    return Entry("make_cast_default", make_cast_default, (),
                 "cast rows between str, int, float and bool, with a default where a cast fails",
                 (example("make_cast_default(str, float)", IMPORT),
                  example("make_cast_default(float, int)", IMPORT)), proof=True)
