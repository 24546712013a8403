"""The catalogue entry of ``make_vector_gaussian``. It states no obligations: its standard
statements (output domain, compatibility, privacy, data-independent runtime errors) are derived
and proved by the kernel's rule of additive noise per coordinate, for every argument the
constructor admits (``proofs_tex/`` cites them)."""

from __future__ import annotations

from mechanisms.make_vector_gaussian import make_vector_gaussian
from obligations.base import Entry, example

IMPORT = "from mechanisms.make_vector_gaussian import make_vector_gaussian"


def catalogue_entry() -> Entry:
    return Entry("make_vector_gaussian", make_vector_gaussian, (),
                 "add independent discrete Gaussian noise to each coordinate of an int vector "
                 "(zCDP)",
                 (example("make_vector_gaussian(1.0)", IMPORT),
                  example("make_vector_gaussian(3.5)", IMPORT)), proof=True)
