"""The catalogue entry of ``make_vector_laplace``. It states no obligations: its standard
statements (output domain, compatibility, privacy, data-independent runtime errors) are derived
and proved by the kernel's rule of additive noise per coordinate, for every argument the
constructor admits (``proofs_tex/`` cites them)."""

from __future__ import annotations

from mechanisms.make_vector_laplace import make_vector_laplace
from obligations.base import Entry, example

IMPORT = "from mechanisms.make_vector_laplace import make_vector_laplace"


def catalogue_entry() -> Entry:
    return Entry("make_vector_laplace", make_vector_laplace, (),
                 "add independent discrete Laplace noise to each coordinate of an int vector",
                 (example("make_vector_laplace(1.0)", IMPORT),
                  example("make_vector_laplace(2.5)", IMPORT)), proof=True)
