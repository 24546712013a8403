"""Sentences every report format shares: the gate verdict with what it leaves out, the options it
was reached under, what each verdict trusts and what no verdict covers; and the anchors their
links point to.

The table of what each verdict trusts is README's ("Trust model: what a verdict trusts"), word
for word (a test keeps the two equal); its cells are Markdown (backticks for code).
"""

from __future__ import annotations

import re
from typing import Any

VERDICT_TRUSTS = (
    ("proved", "Z3 and SymPy; the shared layer above (`ops`, `arith`, `core`, `float_model`, "
               "`domains`) and the trusted kernels' own plumbing (`__call__` of the classes "
               "listed, shown in the proofs); CPython's semantics of `int`, `Fraction` and "
               "IEEE-754 binary64 as the standard model states it (Higham 2002, IEEE 754 §4.3, "
               "cited); `randrange` uniform; the results a verdict `cites` and the assumptions it "
               "names (`assumes`); for `bounded:`, only the instance named"),
    ("refuted (confirmed)", "nothing but Python: the replay ran the real code and saw the stated "
                            "inequality broken (a distance above the map, an exact or rigorously "
                            "bounded loss above the claim, a raise on an admitted input)"),
    ("refuted (not confirmed)", "the solver's model only: no run of the real code showed it (the "
                                "report says why: the constructor refuses the model's arguments, "
                                "or no realizable inputs were found)"),
    ("unknown, error", "nothing: the gate fails"),
)
"""README's "What each verdict trusts" table: (verdict, what it trusts), in Markdown."""

NOT_COVERED = (
    "Timing and other side channels: the obligations are about the values and the laws of the "
    "outputs; how long a mechanism runs, and what it leaks that way, is not modelled.",
    "Steps the human proofs argue by hand (each proof says which, e.g. make_laplace's infinite "
    "inputs and its rounding to a float as post-processing): a reviewer's reading covers them, "
    "recorded by dpcert vet, not a solver.",
    "The cited results themselves (listed under the trust base): taken as given; the goals check "
    "only that the code meets their premises.",
    "Bounded instances: an obligation whose verdict says bounded: is checked on that instance "
    "only (listed below).",
)
"""What no verdict covers, in the order a report lists it."""


def plural(count: int, noun: str) -> str:
    """``1 proof``, ``2 proofs``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def gate_sentence(gate: dict[str, Any]) -> str:
    """``passed``, ``passed (not strict: 1 stale proof not counted)`` or ``failed: ...``, from a
    report's ``gate`` object."""
    if not gate["passed"]:
        return "failed: " + "; ".join(gate["failures"])
    return "passed" + (f" ({'; '.join(gate['not_counted'])})" if gate["not_counted"] else "")


def conditions(options: dict[str, Any]) -> list[str]:
    """The options a verdict was reached under, one phrase each."""
    empirical = (f"empirical tests on: {options['samples']} samples per input, alpha "
                 f"{options['alpha']:g}, seed {options['seed']}" if options["empirical"]
                 else "empirical tests off")
    return [
        "strict: stale proofs fail the gate" if options["strict"]
        else "not strict: stale proofs do not fail the gate",
        f"arithmetic {options['arithmetic']}: " + (
            "proofs under exact arithmetic fail the gate" if options["arithmetic"] == "ieee"
            else "proofs under exact arithmetic are accepted"),
        f"timeout {options['timeout']:g} s per obligation",
        empirical,
        f"shard {options['shard']}",
    ]


def anchor(prefix: str, name: str) -> str:
    """A link target for a mechanism or an obligation, safe in any attribute or URL fragment:
    ``obligation-clamp.stability``."""
    return f"{prefix}-{re.sub(r'[^A-Za-z0-9_.-]+', '-', name)}"
