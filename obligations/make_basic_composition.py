"""The catalogue entry of ``make_basic_composition``. It states no obligations: its standard
statements (output domain, compatibility, privacy, data-independent runtime errors) are derived
and proved by the kernel's composition rule, for every list of measurements the constructor
admits, bounded to lists of at most three (``proofs_tex/`` cites them)."""

from __future__ import annotations

from mechanisms.make_basic_composition import make_basic_composition
from obligations.base import Entry, example

RR = "make_randomized_response([0, 1], 0.75)"
IMPORTS = ("from mechanisms.make_basic_composition import make_basic_composition",
           "from mechanisms.make_randomized_response import make_randomized_response",
           "from mechanisms.make_gaussian import make_gaussian")


def catalogue_entry() -> Entry:
    return Entry("make_basic_composition", make_basic_composition, (),
                 "run several pure-DP or zCDP measurements on the same input",
                 (example(f"make_basic_composition([{RR}, make_randomized_response([0, 1], 0.6)])",
                          *IMPORTS[:2]),
                  example("make_basic_composition([make_gaussian(1.0), make_gaussian(2.0)])",
                          IMPORTS[0], IMPORTS[2])),
                 proof=True)
