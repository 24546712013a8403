"""``make_geometric(scale, bounds)``: discrete Laplace noise on an integer, clamped to bounds.

``function(x) = clamp(clamp(x, L, U) + Y, L, U)`` with ``(L, U) = bounds`` and
``Pr[Y = z] = exp(-|z| / scale) / Z(scale)`` on the integers, drawn exactly by
:func:`mechanisms.samplers.sample_discrete_laplace` (CKS 2020, Algorithm 2); no noise when
``scale = 0``. Input domain ``AtomDomain(int)``, output domain ``AtomDomain(int, bounds=(L, U))``,
``AbsoluteDistance`` -> ``MaxDivergence``. Privacy map ``d_in -> d_in / scale`` rounded up, ``0``
for ``d_in = 0`` (``make_discrete_laplace``'s). Why: clamping the input moves no two integers
further apart, ``|clamp(x) - clamp(x')| <= |x - x'|``; the discrete Laplace at ``clamp(x)`` has
point ratios at most ``exp(|clamp(x) - clamp(x')| / scale)``; and the outer clamp is a fixed
function of ``clamp(x) + Y`` (post-processing), so each output's probability is a sum of point
probabilities that each meet the ratio.

Preconditions: ``scale`` a finite float ``>= 0`` (``ScaleError``); ``bounds`` a pair of ints
(``BoundsPairError``, ``IntBoundTypeError``) with ``L <= U`` (``BoundsOrderError``).

OpenDP 0.16's ``make_geometric(..., bounds=(L, U))`` (``sample_discrete_laplace_linear``) clamps
the input to the bounds, draws the two-sided geometric with at most ``U - L - 1`` Bernoulli trials
(a draw at least ``U - L`` from the clamped input lands outside or on the bounds anyway), and
clamps the output: the same law as here, ``clamp(clamp(x) + Y)``, so its truncation of the draw is
absorbed by the output clamp; it runs in constant time. Ours draws with the exact CKS rejection
sampler, whose running time depends on the draw (not on ``x`` beyond the clamp): this form does
not claim OpenDP's constant time. OpenDP keeps the caller's input domain (here always
``AtomDomain(int)``) and rounds its Bernoulli probability ``1 - exp(-1/scale)`` down in floats;
ours draws at the exact rational scale.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from mechanisms import ops
from mechanisms.core import Constructor, Map, Measurement, Precondition, TupleOf
from mechanisms.domains import AtomDomain
from mechanisms.errors import BoundsOrderError, BoundsPairError, IntBoundTypeError
from mechanisms.make_clamp import clamp_kernel
from mechanisms.make_discrete_laplace import SCALE_PRECONDITIONS, laplace_map, validate_scale
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import AbsoluteDistance
from mechanisms.samplers import sample_discrete_laplace, system_rng


@dataclass(frozen=True)
class BoundedIntegerNoise:
    """``x -> release(x, Y)`` with ``Y = sampler(scale, rng)`` an integer (no noise when
    ``scale = 0``) and ``release(x, z) = clamp(clamp(x) + z)`` to ``[lower, upper]``."""

    scale: Any
    lower: Any
    upper: Any
    sampler: Callable[[Any, Any], int]

    def clamp(self, value: Any) -> Any:
        """``value`` clamped to ``[lower, upper]``."""
        return clamp_kernel(value, self.lower, self.upper)

    def release(self, arg: Any, noise: Any) -> Any:
        """The output for a given draw: the clamped input plus the draw, clamped again."""
        return self.clamp(self.clamp(arg) + noise)

    def __call__(self, arg: int, rng: Any = None) -> int:
        noise = self.sampler(self.scale, system_rng(rng)) if self.scale > 0 else 0
        return self.release(arg, noise)


def validate_geometric(scale: Any, bounds: Any) -> None:
    """``scale`` a float; ``bounds`` a pair of ints (not bools)."""
    validate_scale(scale)
    if not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
        raise BoundsPairError(bounds)
    if any(type(b) is not int for b in bounds):
        raise IntBoundTypeError(*bounds)


def bounds_ordered(scale: Any, bounds: Any) -> Any:
    return ops.le(bounds[0], bounds[1])


def bounds_order_error(scale: Any, bounds: Any) -> BoundsOrderError:
    return BoundsOrderError(bounds[0], bounds[1])


GEOMETRIC_PRECONDITIONS = (*SCALE_PRECONDITIONS,
                           Precondition("lower <= upper", bounds_ordered, bounds_order_error))


def build_geometric(scale: Any, bounds: Any) -> Measurement:
    lower, upper = bounds
    return Measurement(
        input_domain=AtomDomain(int),
        output_domain=AtomDomain(int, bounds=(lower, upper)),
        input_metric=AbsoluteDistance(),
        output_measure=MaxDivergence(),
        function=BoundedIntegerNoise(scale, lower, upper, sample_discrete_laplace),
        privacy_map=Map(rule=laplace_map, params={"scale": scale}),
    )


make_geometric = Constructor("make_geometric", build_geometric, GEOMETRIC_PRECONDITIONS,
                             validate_geometric,
                             sorts={"scale": float, "bounds": TupleOf((int, int))})
