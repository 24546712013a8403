"""Obligations of ``make_gaussian``, for every finite float ``scale >= 0``.

The privacy proof takes CKS 2020, Theorem 4 as given: ``x + Y`` with ``Y`` discrete Gaussian of
parameter ``sigma`` and integer sensitivity ``D`` is ``D^2 / (2 sigma^2)``-zCDP. The goals check
its premises on the built code (one exact draw of ``sample_discrete_gaussian`` with
``sigma = scale``, added to the integer input) and that the map bounds the theorem's ``rho``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable

import z3

from mechanisms import ops
from mechanisms.core import Constructor
from mechanisms.make_gaussian import make_gaussian
from mechanisms.measures import ZeroConcentratedDivergence
from mechanisms.metrics import AbsoluteDistance
from mechanisms.samplers import sample_discrete_gaussian
from obligations.base import Entry, Kind, Obligation, Replay, Z3Goal, example
from obligations.compatibility import metric_premise
from obligations.make_discrete_laplace import (concrete, fields_agree, integer_noise_obligations,
                                               kernel_goal, law_goals, negative_scale_refused,
                                               no_noise_only_at_zero, symbolic,
                                               zero_scale_map_is_infinite)
from obligations.rounding import (map_rounding_obligation, parameter_candidates, real_d_in,
                                  replay_rounding, symbolic_build)
from obligations.noise import exact_noise_goal
from obligations.noise_draws import BOUND as DRAW_BRANCH
from obligations.reports import (bound_assertion, constructor_call, import_line, literal,
                                 plain_report, reproducer, show)

CKS_SAMPLER = "Canonne, Kamath and Steinke 2020, Algorithm 3 (exact discrete Gaussian sampler)"
CKS_ZCDP = "Canonne, Kamath and Steinke 2020, Theorem 4 (discrete Gaussian is D^2/(2 sigma^2)-zCDP)"


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """For integers ``x, x'`` the Renyi divergence of order 2 (any integer order ``alpha``) of
    ``x + N_Z(0, s^2)`` from ``x' + N_Z(0, s^2)`` is exactly ``alpha (x - x')^2 / (2 s^2)``: the
    shifted normaliser equals the unshifted one. So ``rho = (x - x')^2 / (2 s^2)`` is attained,
    ``s`` the running function's scale; with no noise (``s <= 0``) the outputs are point masses
    and ``rho = +inf`` for ``x != x'``. The model's inputs, then ``x = 0, x' = 1, d_in = 1``."""
    def observed_rho(scale: Fraction, x: int, x2: int) -> Any:
        if scale > 0:
            return Fraction((x - x2) ** 2) / (2 * scale * scale)
        return math.inf if x != x2 else 0

    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = concrete(constructor, counterexample)
        noise = Fraction(m.function.scale)
        model = int(counterexample.get("x", 0)), int(counterexample.get("x2", 0))
        candidates = [(*model, Fraction(counterexample.get("d_in", abs(model[0] - model[1])))),
                      (0, 1, Fraction(1))]
        for x, x2, d_in in candidates:
            observed, claimed = observed_rho(noise, x, x2), m.map(d_in)
            confirmed = abs(x - x2) <= d_in and observed > claimed
            if confirmed:
                break
        call = constructor_call(constructor, **arguments)
        return plain_report(
            confirmed, call, f"inputs x = {x}, x' = {x2}, d_in = {show(d_in)}",
            f"the function's noise scale: {show(noise)}" + ("" if noise > 0 else " (no noise)"),
            f"claimed  map(d_in) = {claimed!r}",
            f"observed D_2(M(x) || M(x')) / 2 = (x - x')^2 / (2 s^2) = {show(observed)}"
            + ("  > claimed" if confirmed else ""),
            *reproducer(import_line(constructor), f"m = {call}", "s = Fraction(m.function.scale)",
                        f"claimed = m.map({literal(d_in)})",
                        f"observed = Fraction(({x} - {x2}) ** 2) / (2 * s * s) if s > 0 else "
                        + ("float('inf')" if x != x2 else "0"),
                        bound_assertion("D_2(M(x) || M(x')) / 2 = (x - x')^2 / (2 s^2)",
                                        f"map({literal(d_in)})")))
    return replay


def discrete_gaussian_point_mass(sigma: Fraction) -> float | None:
    """``Pr[Y = 0] = 1 / sum_k exp(-k^2 / (2 sigma^2))``, bounded above by cutting the sum at
    ``|k| <= 10 sigma + 1`` (the trivial bound ``1`` for ``sigma < 1/16``); ``None`` (no bound used)
    for ``sigma > 1000``."""
    if sigma < Fraction(1, 16):
        return 1.0
    if sigma > 1000:
        return None
    cut = math.ceil(10 * sigma) + 1
    return 1 / math.fsum(math.exp(-k * k / (2 * float(sigma) ** 2)) for k in range(-cut, cut + 1))


def gaussian_obligations(constructor: Constructor = make_gaussian,
                         prefix: str = "gaussian") -> tuple[Obligation, ...]:
    sample = {"scale": 2.0}

    def distribution_goals() -> list[Any]:
        return law_goals(constructor, sample_discrete_gaussian, sample,
                         lambda s: -1 / (2 * s * s), discrete_gaussian_point_mass)

    def privacy_goals() -> list[Any]:
        m, params, assumptions = symbolic(constructor)
        scale, noise = params["scale"], ops.exact(m.function.scale)
        x, x2 = z3.Ints("x x2")
        d_in = z3.Real("d_in")
        rho = m.map(d_in)
        replay = _replay_privacy(constructor)
        return [
            exact_noise_goal(lambda: constructor(**sample)),
            kernel_goal(constructor, sample_discrete_gaussian, sample),
            fields_agree(lambda: symbolic(constructor), constructor, [sample, {"scale": 0.5}],
                         ("scale",)),
            metric_premise(lambda: m, AbsoluteDistance, ZeroConcentratedDivergence,
                           "CKS 2020, Theorem 4 (integer sensitivity |x - x'|)"),
            Z3Goal("the function's sigma > 0, |x - x'| <= d_in: the theorem's "
                   "(x - x')^2 / (2 sigma^2) <= map(d_in)",
                   (x - x2) * (x - x2) / (2 * noise * noise) <= rho,
                   [*assumptions, noise > 0, d_in >= 0, ops.absolute(x - x2) <= d_in],
                   {**params, "x": x, "x2": x2, "d_in": d_in}, replay),
            no_noise_only_at_zero(noise, scale, assumptions, params, replay),
            negative_scale_refused(constructor, replay),
            zero_scale_map_is_infinite(constructor, replay),
        ]

    return (
        *integer_noise_obligations(constructor, prefix, sample_discrete_gaussian, sample),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   "function(x) has the law of x + Y with Pr[Y = z] = exp(-z^2/(2 scale^2)) / "
                   "Z(scale): one draw of the exact CKS sampler at the function's sigma, which "
                   "is the constructor's scale, shifted by +-draw one-to-one (no noise when "
                   "scale = 0).",
                   r"\Pr[M(x) = y] \propto e^{-(y - x)^2 / (2\,\mathtt{scale}^2)}",
                   distribution_goals, cites=(CKS_SAMPLER,), bound=DRAW_BRANCH),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "For all integers x, x' with |x - x'| <= d_in, M(x) and M(x') are "
                   "map(d_in)-zCDP close, for the law the running function draws at its own "
                   "sigma s: by CKS 2020 Theorem 4 they are (x - x')^2/(2 s^2)-close for s > 0, "
                   "and map(d_in) >= that; s <= 0 (no noise) only at scale = 0, where "
                   "map(d_in) = +inf.",
                   r"|x - x'| \le d_{in} \implies D_\alpha(M(x) \| M(x')) \le "
                   r"\alpha \cdot \mathtt{map}(d_{in})\ \forall \alpha > 1",
                   privacy_goals, uses=(f"{prefix}.distribution", f"{prefix}.map_rounding"),
                   cites=(CKS_ZCDP,),
                   bound="scale = 0: map(d_in) = +inf evaluated at d_in in {2^-1074, 1, 2^1023}"),
        map_rounding_obligation(prefix, symbolic_build(constructor, floats=("scale",)), real_d_in,
                                replay_rounding(constructor, parameter_candidates(("scale",))),
                                "d_in^2 / (2 scale^2)"),
    )


IMPORT = "from mechanisms.make_gaussian import make_gaussian"


def catalogue_entry() -> Entry:
    return Entry("make_gaussian", make_gaussian, gaussian_obligations(),
                 "add discrete Gaussian noise to an integer (zCDP)",
                 (example("make_gaussian(1.0)", IMPORT), example("make_gaussian(3.5)", IMPORT)),
                 proof=True)
