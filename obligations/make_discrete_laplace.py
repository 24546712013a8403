"""The catalogue entry of ``make_discrete_laplace``. It states no obligations: its standard
statements (output domain, compatibility, privacy, data-independent runtime errors) are derived
and proved by the kernel's rule of additive noise per coordinate, for every finite float
``scale >= 0`` (``proofs_tex/`` cites them)."""

from __future__ import annotations

from mechanisms.make_discrete_laplace import make_discrete_laplace
from obligations.base import Entry, example

IMPORT = "from mechanisms.make_discrete_laplace import make_discrete_laplace"


def catalogue_entry() -> Entry:
    return Entry("make_discrete_laplace", make_discrete_laplace, (),
                 "add discrete Laplace noise to an integer",
                 (example("make_discrete_laplace(1.0)", IMPORT),
                  example("make_discrete_laplace(2.5)", IMPORT)), proof=True)
