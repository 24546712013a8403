"""Mechanisms of the real ``opendp`` package, audited black-box by ``dpcert audit``.

Each correct measurement is paired with its own claim (``measurement.map(1)``); each
under-noised variant is built from the same opendp constructor with less noise than the claim it
is paired with, as a mis-configured pipeline would.
"""

from __future__ import annotations

import opendp.prelude as dp

dp.enable_features("contrib")

CATEGORIES = ["a", "b", "c"]

randomized_response = dp.m.make_randomized_response(CATEGORIES, prob=0.75)
RR_EPSILON = randomized_response.map(1)

laplace = dp.m.make_laplace(dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float),
                            scale=1.0)
LAPLACE_EPSILON = laplace.map(1.0)

laplace_under_noised = dp.m.make_laplace(dp.atom_domain(T=float, nan=False),
                                         dp.absolute_distance(T=float), scale=0.5)
"""Claims LAPLACE_EPSILON (that of scale 1.0); with scale 0.5 it is twice that."""

randomized_response_too_honest = dp.m.make_randomized_response(CATEGORIES, prob=0.9)
"""Claims RR_EPSILON (that of prob 0.75); with prob 0.9 its loss is ln(0.9 * 2 / 0.1) = ln 18."""

if __name__ == "__main__":
    print(f"RR_EPSILON = {RR_EPSILON!r}\nLAPLACE_EPSILON = {LAPLACE_EPSILON!r}")
