"""The catalogue entry of ``make_geometric``. It states no obligations: its standard statements
(output domain, compatibility, privacy, data-independent runtime errors) are derived and proved
by the kernel's rule of additive noise per coordinate, for every argument the constructor admits
(``proofs_tex/`` cites them)."""

from __future__ import annotations

from mechanisms.make_geometric import make_geometric
from obligations.base import Entry, example

IMPORT = "from mechanisms.make_geometric import make_geometric"


def catalogue_entry() -> Entry:
    return Entry("make_geometric", make_geometric, (),
                 "add discrete Laplace noise to an integer, clamped to bounds",
                 (example("make_geometric(1.0, (0, 10))", IMPORT),
                  example("make_geometric(2.5, (-5, 5))", IMPORT)), proof=True)
