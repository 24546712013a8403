"""The rows the quantile proofs replay on: values around the candidates (each candidate, between
two, below and above them), neighbouring vectors built from them, and a row domain written as the
call that builds it; shared by the proofs of the quantile scores and of the private quantile."""

from __future__ import annotations

import itertools
from typing import Any

from obligations.reports import Code


def shown(arguments: dict[str, Any]) -> dict[str, Any]:
    """``arguments`` as a reproducer writes them: a row domain as the call that builds it."""
    domain = arguments.get("atom_domain")
    if domain is None:
        return dict(arguments)
    nan = ", nan=True" if domain.nan else ""
    return {**arguments, "atom_domain": Code(
        f"AtomDomain({domain.carrier.__name__}, bounds={domain.bounds!r}{nan})",
        "from mechanisms.domains import AtomDomain")}


def rows_of(arguments: dict[str, Any]) -> list[Any]:
    """Rows around the candidates: each candidate, values between, below and above them."""
    candidates = arguments["candidates"]
    carrier = type(candidates[0])
    pool = set(candidates)
    for a, b in zip(candidates, candidates[1:]):
        pool.add(carrier((a + b) / 2) if carrier is float else (a + b) // 2)
    pool |= {candidates[0] - 1, candidates[-1] + 1}
    domain = arguments.get("atom_domain")
    return sorted(x for x in pool if domain is None or domain.member(x))


def neighbour_pairs(arguments: dict[str, Any]) -> list[tuple[list, list]]:
    """Neighbouring vectors: one or two rows inserted, one row substituted, reordered rows."""
    rows = rows_of(arguments)
    pairs: list[tuple[list, list]] = []
    for z in rows:
        pairs += [([], [z]), ([], [z, z]), (rows, rows + [z])]
    for a, b in itertools.product(rows, repeat=2):
        pairs.append(([a], [b]))
    pairs.append((rows, list(reversed(rows))))
    return pairs
