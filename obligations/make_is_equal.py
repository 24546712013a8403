"""The catalogue entry of ``make_is_equal``. It states no obligations: its standard statements
(output domain, compatibility, stability) are derived and proved by the kernel's row-transform
rule, for every value of each declared sort (``proofs_tex/`` cites them). That the kernel is
IEEE-754 equality on floats is a specification, not a standard statement: the unit tests check
it."""

from __future__ import annotations

from mechanisms.make_is_equal import make_is_equal
from obligations.base import Entry, example

IMPORT = "from mechanisms.make_is_equal import make_is_equal"


def catalogue_entry() -> Entry:
    return Entry("make_is_equal", make_is_equal, (), "map every row to the bool row == value",
                 (example("make_is_equal(0.0)", IMPORT), example("make_is_equal('a')", IMPORT)),
                 proof=True)
