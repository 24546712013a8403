"""The exact refutation of an output-domain statement: an input in the input domain on which the
running function (a measurement's with a seeded rng) returns a value that the output domain's own
membership test rejects, or raises. A run stopped by its time limit refutes nothing."""

from __future__ import annotations

import random
from typing import Any

from mechanisms.core import Measurement, Transformation
from checker.limits import time_limit  # the checker's guard, trusted as the kernel is
from obligations.kernel.goals import require
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, Statement
from obligations.kernel.theorems import _REFUTER, Refutation
from obligations.refuters.base import refuters

REFUTE_RULE = "an output outside the output domain"
SEEDS = 3
"""Seeded runs of a measurement's function on the input."""
RUN_SECONDS = 5.0
"""A run still going after this long is stopped, and refutes nothing."""


def _refuted(statement: Statement, built: Any, x: Any, call: str) -> Refutation:
    subject = call or statement.subject
    require(REFUTE_RULE, statement.claim is Claim.OUTPUT_DOMAIN
            and type(built) in (Transformation, Measurement),
            f"the statement refuted is not the output domain of {subject}")
    require(REFUTE_RULE, built.input_domain.member(x), f"{x!r} is not in the input domain of "
            f"{subject}")
    runs = [None] if type(built) is Transformation else list(range(SEEDS))
    for seed in runs:
        try:
            with time_limit(RUN_SECONDS):  # its expiry is no raise of the function's
                try:
                    output = built.function(x) if seed is None else \
                        built.function(x, random.Random(seed))
                except Exception as error:  # noqa: BLE001 - an admitted input on which it raises
                    found = f"raises {type(error).__name__}: {error}"
                else:
                    found = "" if built.output_domain.member(output) else \
                        f"returns {output!r}, which {built.output_domain} does not hold"
        except TimeoutError:
            raise RuleRefused(REFUTE_RULE, f"{subject} does not return within {RUN_SECONDS} s "
                              f"on {x!r}: nothing is refuted") from None
        if not found:
            continue
        run = "" if seed is None else f" (random.Random({seed}))"
        witness = f"{subject}: on {x!r}{run} the function {found}"
        return Refutation(_REFUTER, statement, REFUTE_RULE, witness, found, str(built.output_domain))
    raise RuleRefused(REFUTE_RULE, f"{subject} returns a member of its output domain on {x!r}")


refute_object, refute_constructor = refuters(REFUTE_RULE, _refuted)
"""The refutation at an input of the output domain of one object, or of a constructor."""
