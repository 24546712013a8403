"""The exact refutation of data-independent runtime errors: an input on which the measurement's
function raises before it draws anything (its rng raises at the first use, which no draw was
made from, and the function raises something else), so it raises at every draw, and another
input on which a seeded run returns. At that run's draws the second input does not raise while
the first does. The function's code may draw only from the rng it is given (it loads no random
module but through the known samplers), so no other randomness chose the raise."""

from __future__ import annotations

import random
from typing import Any

from checker.limits import time_limit  # the checker's guard, trusted as the kernel is
from mechanisms.core import Measurement
from obligations.kernel.code_checks import KNOWN_LAW_MODULE, one_body_no_randomness
from obligations.kernel.goals import require
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, Statement
from obligations.kernel.theorems import _REFUTER, Refutation
from obligations.refuters.base import refuters, shown

REFUTE_RULE = "a raise before any draw on one input, a return on the other"
SEED = 0
RUN_SECONDS = 5.0
"""A run still going after this long refutes nothing."""


class _Drawn(BaseException):
    """Raised by :class:`_NoDraws` at a draw: not an ``Exception``, so the function's own
    handlers do not take it for its error."""


class _NoDraws(random.Random):
    """An rng whose every draw raises :class:`_Drawn`, and records that it was asked."""

    asked = False

    def random(self) -> float:
        self.asked = True
        raise _Drawn

    def getrandbits(self, k: int) -> int:
        self.asked = True
        raise _Drawn


def _raised_before_drawing(built: Any, x: Any) -> str | None:
    """What ``built.function(x)`` raises before its first draw, or None (it returns, or draws
    first, even where its own handler hides the draw)."""
    rng = _NoDraws()
    try:
        built.function(x, rng)
    except _Drawn:
        return None
    except Exception as error:  # noqa: BLE001 - the function's own raise, at every draw
        return None if rng.asked else f"{type(error).__name__}: {error}"
    return None


def _refuted(statement: Statement, built: Any, x: Any, other: Any, _d_in: Any,
             call: str) -> Refutation:
    subject = call or statement.subject
    require(REFUTE_RULE, statement.claim is Claim.RUNTIME_ERRORS and type(built) is Measurement,
            f"the statement refuted is not the runtime errors of the measurement {subject}")
    require(REFUTE_RULE, built.input_domain.member(x) and built.input_domain.member(other),
            f"{x!r} or {other!r} is not in the input domain of {subject}")
    one_body_no_randomness(REFUTE_RULE, [built.function], f"the function of {subject}",
                           trusted=(KNOWN_LAW_MODULE,), draws=True)
    try:
        with time_limit(RUN_SECONDS):  # its expiry is no raise of the function's
            raised = _raised_before_drawing(built, x)
            require(REFUTE_RULE, raised is not None,
                    f"{subject} does not raise on {x!r} before drawing")
            try:
                built.function(other, random.Random(SEED))
            except Exception as error:  # noqa: BLE001 - both raise: nothing refuted
                require(REFUTE_RULE, False, f"{subject} raises on {other!r} too ({error})")
    except TimeoutError:
        raise RuleRefused(REFUTE_RULE, f"{subject} does not return within {RUN_SECONDS} s on "
                          f"{x!r} or {other!r}: nothing is refuted") from None
    witness = (f"{subject}: on {shown(x)} the function raises {raised} before any draw, so at "
               f"every draw; on {shown(other)} it returns (random.Random({SEED}))")
    return Refutation(_REFUTER, statement, REFUTE_RULE, witness, raised, "no raise")


refute_object, refute_constructor = refuters(REFUTE_RULE, _refuted)
"""The refutation at two inputs of the runtime errors of one measurement, or of a constructor."""
