"""When an additive-noise kernel draws: once per call exactly when its noise scale is positive.

The noise kernels' ``__call__`` (``IntegerNoise``, ``FloatGridLaplace``) is trusted code with one
branch: draw ``Y = sampler(scale)`` when ``scale > 0``, else add no noise (the limit law at
``scale = 0``, where the map is ``+inf``). The proofs take that branch as the law, so this goal runs
the real ``__call__`` with a recording sampler in the sampler's place and checks the branch at
:data:`SCALES`: ``0``, the smallest positive float, and values up to the largest float. A
condition comparing the scale with one constant (the kernel's form) that differs from
``scale > 0`` on floats draws wrongly at one of them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, ContextManager

from obligations.base import ComputedGoal, Decision, Replay
from obligations.ieee import LARGEST_FINITE, SMALLEST_SUBNORMAL
from obligations.reports import plain_report

SCALES = (0.0, float(SMALLEST_SUBNORMAL), 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, float(LARGEST_FINITE))
"""The scales at which the branch is run: both sides of ``0`` and of every constant up to 3."""

BOUND = ("the kernel's draw branch evaluated at scale in {0, 2^-1074, 1/4, 1/2, 1, 3/2, 2, 3, "
         "the largest float}")
"""What an obligation using :func:`draws_exactly_when_positive` states as its bound."""

DRAW = 3
"""What the recording sampler returns."""

RUNS = 256
"""Seeded runs of the real function per input when a wrong branch is replayed."""

CONFIRMING_CHANCE = 1e-9
"""A point mass is confirmed when the stated law gives ``RUNS`` equal draws at most this chance."""


class RecordingSampler:
    """Stands for the sampler: returns :data:`DRAW` and records each call's ``(scale, rng)``."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, Any]] = []

    def __call__(self, scale: Any, rng: Any) -> int:
        self.calls.append((scale, rng))
        return DRAW


Installer = Callable[[Any, RecordingSampler], tuple[Any, ContextManager[Any]]]
"""``(function, recorder) -> (function to call, context)``: puts the recorder where the running
function finds its sampler (a field, or a module global for the duration of the context)."""


@dataclass(frozen=True)
class NoiseKernel:
    """What the goal needs to know about one additive-noise constructor's running function."""

    name: str
    measurement_at: Callable[[float], Any]
    """The constructor at a scale, ``None`` when it refuses that scale."""
    noise_scale: Callable[[Any], Any]
    """The scale the law says the function draws at (read from the running function)."""
    install: Installer
    outputs: Callable[[Any, int], set[Any]]
    """``(function, z)``: the outputs on input ``0`` the law allows for the draw ``z`` (the noise
    being symmetric, ``+z`` and ``-z`` both), computed with the function's own checked steps."""
    largest_point_mass: Callable[[Any], Any]
    """An upper bound on the law's largest point probability (``None``: none known)."""

    def function_at(self, scale: float) -> Any:
        m = self.measurement_at(scale)
        return None if m is None else m.function


def draws_exactly_when_positive(kernel: NoiseKernel) -> ComputedGoal:
    """Proved when, at every admitted scale of :data:`SCALES`, one call ``f(0, rng)`` calls the
    sampler exactly once, with the noise scale and the caller's ``rng``, if that is positive,
    never if it is ``0``, and returns an output the law allows for the draw it got."""
    def decide() -> Decision:
        checked = []
        for scale in SCALES:
            f = kernel.function_at(scale)
            if f is None:
                continue
            recorder, rng = RecordingSampler(), random.Random(0)
            call, context = kernel.install(f, recorder)
            with context:
                output = call(0, rng)
            expected = Fraction(kernel.noise_scale(f))
            wanted = [(expected, rng)] if expected > 0 else []
            got = [(Fraction(s), r) for s, r in recorder.calls]
            if got != wanted:
                return Decision(False, {"scale": scale},
                                f"at scale {scale!r} (noise scale {expected}) the kernel made "
                                f"{len(got)} sampler call(s) {[str(s) for s, _ in got]}, the law "
                                f"needs {len(wanted)}"
                                + (" with the caller's rng" if wanted else ""))
            allowed = kernel.outputs(f, DRAW if wanted else 0)
            if output not in allowed:
                return Decision(False, {"scale": scale},
                                f"at scale {scale!r} the kernel returned {output!r} on input 0 for "
                                f"the draw {DRAW if wanted else 0}; the law allows "
                                f"{sorted(allowed)}")
            checked.append(scale)
        if not checked:
            return Decision(False, {}, "the constructor admits none of the scales the branch is "
                            "run at", unsupported=True)
        return Decision(True, detail=f"one draw exactly when the noise scale is positive, and the "
                        f"output it allows, at scale in {{{', '.join(map(repr, checked))}}}")
    return ComputedGoal(f"the function of {kernel.name}: one draw exactly when the noise scale "
                        "is positive", "evaluated", decide, _replay(kernel))


def _replay(kernel: NoiseKernel) -> Callable[[dict], Replay]:
    """Runs the real measurement, built at the counterexample's scale and then at each of
    :data:`SCALES`, :data:`RUNS` times (seeds ``0..RUNS-1``) on the inputs ``0`` and ``1``.
    Confirmed when it raises at an admitted scale; when at noise scale ``0`` its output on ``0`` is
    not the point mass the law states; or when each input always gives one output, the two
    outputs differ (an infinite loss) while ``map(1)`` is finite, and the stated law gives that
    chance at most :data:`CONFIRMING_CHANCE` (so over the scales tried a correct kernel is
    confirmed with chance below ``len(SCALES) + 1`` times that)."""
    def at(scale: float) -> Replay | None:
        m = kernel.measurement_at(scale)
        if m is None:
            return None
        call = f"{kernel.name}(scale={scale!r})"
        try:
            outputs = [{m(x, random.Random(seed)) for seed in range(RUNS)} for x in (0, 1)]
        except Exception as error:  # noqa: BLE001 - any exception is the finding
            return plain_report(True, f"{call} raises {type(error).__name__}: {error}",
                                "an admitted scale, so the function must return an output")
        if Fraction(kernel.noise_scale(m.function)) == 0:
            allowed = kernel.outputs(m.function, 0)
            if outputs[0] <= allowed:
                return None
            return plain_report(True, f"{call}: noise scale 0, the law is the point mass at "
                                f"{sorted(allowed)} on input 0", f"the real function returned "
                                f"{sorted(outputs[0] - allowed)}")
        p = kernel.largest_point_mass(m.function)
        chance = float(Fraction(p) ** RUNS) if p is not None else 1.0
        if any(len(o) != 1 for o in outputs) or outputs[0] == outputs[1] or \
                m.map(1.0) == float("inf") or chance > CONFIRMING_CHANCE:
            return None
        (y,), (y2,) = outputs
        return plain_report(True, f"{call} adds no noise: {RUNS} seeded runs give {y!r} on x = 0 "
                            f"and {y2!r} on x' = 1", f"under the stated law this has chance at "
                            f"most {chance:.3g}; the outputs are point masses with disjoint "
                            f"supports, an infinite loss > map(1) = {m.map(1.0)!r}")

    def replay(counterexample: dict[str, Any]) -> Replay:
        first = [float(counterexample["scale"])] if "scale" in counterexample else []
        for scale in [*first, *SCALES]:
            found = at(scale)
            if found is not None:
                return found
        return plain_report(False, f"{kernel.name}: at every scale tried the real function "
                            "either draws noise, or has an infinite map, or adds no noise where "
                            "the law says none")
    return replay
