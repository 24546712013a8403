"""The catalogue entry of ``make_chain_tt``. It states no obligations: its standard statements
(output domain, compatibility, stability) are derived and proved by the kernel's chain rule, read
from the code on stand-in components, for every pair of components that meet their own
statements (``proofs_tex/`` cites them)."""

from __future__ import annotations

from mechanisms.make_chain_tt import make_chain_tt
from obligations.base import Entry, example

IMPORTS = ("from mechanisms.make_chain_tt import make_chain_tt",
           "from obligations.witnesses import make_count_scaled, make_shift, make_times")


def catalogue_entry() -> Entry:
    return Entry("make_chain_tt", make_chain_tt, (),
                 "chain two transformations: outer after inner",
                 (example("make_chain_tt(make_times(3), make_count_scaled(2))", *IMPORTS),
                  example("make_chain_tt(make_shift(200), make_shift(100))", *IMPORTS)),
                 proof=True)
