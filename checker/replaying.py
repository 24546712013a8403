"""Run a counterexample through the real implementation, never letting a crash pass for a result."""

from __future__ import annotations

import traceback
from typing import Any, Callable

from mechanisms.errors import ConstructorError
from obligations.base import Replay


def replay_counterexample(replay: Callable[[dict[str, Any]], Replay] | None,
                          counterexample: dict[str, Any]) -> tuple[bool, str]:
    """``(confirmed, report)``; an obligation without a replay, or a replay that raises, leaves
    the refutation unconfirmed and says why."""
    if replay is None:
        return False, "no replay is defined for this goal; the counterexample is the solver's only"
    try:
        outcome = replay(counterexample)
    except ConstructorError as refusal:
        return False, ("the constructor refuses the counterexample's arguments, so the real code "
                       f"cannot exhibit it: {type(refusal).__name__}: {refusal}")
    except Exception:  # a failing replay is reported, not hidden
        return False, "replay raised:\n" + traceback.format_exc(limit=4)
    return outcome.confirmed, outcome.report
