"""The catalogue entry of ``make_gaussian``. It states no obligations: its standard statements
(output domain, compatibility, privacy in zCDP, data-independent runtime errors) are derived and
proved by the kernel's rule of additive noise per coordinate, for every finite float
``scale >= 0``, citing CKS 2020, Theorem 4 for the discrete Gaussian's zCDP loss
(``proofs_tex/`` cites them)."""

from __future__ import annotations

from mechanisms.make_gaussian import make_gaussian
from obligations.base import Entry, example

IMPORT = "from mechanisms.make_gaussian import make_gaussian"


def catalogue_entry() -> Entry:
    return Entry("make_gaussian", make_gaussian, (),
                 "add discrete Gaussian noise to an integer (zCDP)",
                 (example("make_gaussian(1.0)", IMPORT), example("make_gaussian(3.5)", IMPORT)),
                 proof=True)
