"""The catalogue entry of ``make_chain_mt``. It states no obligations: its standard statements
(output domain, compatibility, privacy, data-independent runtime errors) are derived and proved
by the kernel's chain rule, read from the code on stand-in components, for every pair of
components that meet their own statements (``proofs_tex/`` cites them)."""

from __future__ import annotations

from mechanisms.make_chain_mt import make_chain_mt
from obligations.base import Entry, example


def catalogue_entry() -> Entry:
    imports = ("from mechanisms.make_chain_mt import make_chain_mt",
               "from mechanisms.make_discrete_laplace import make_discrete_laplace",
               "from obligations.witnesses import make_times")
    return Entry("make_chain_mt", make_chain_mt, (),
                 "chain a transformation into a measurement",
                 (example("make_chain_mt(make_discrete_laplace(2.0), make_times(3))", *imports),),
                 proof=True)
