"""Obligations of ``make_float_gaussian`` (discrete Gaussian on floats through the grid ``2^k``),
for every finite float ``scale >= 0`` and every integer ``k >= -1074``.

The grid half is ``make_laplace``'s, with its public goals (:mod:`obligations.make_laplace`): the
specification of a float ``x = a u`` (``u = 2^-1074``, IEEE-754's, not the code's), the code's
``float_units``, grid index, grid multiple and ``grid_to_float`` proved equal to it, on Z3 terms,
and the rounding lemma ``|i - i'| m <= |a - a'| + m - 1``. The privacy proof takes CKS 2020,
Theorem 4 as given (``i + Z``, ``Z`` discrete Gaussian of parameter ``sigma``, is
``D^2 / (2 sigma^2)``-zCDP for integer inputs ``D`` apart); the goals check its premises on the
built code (one exact draw of ``sample_discrete_gaussian`` at the function's own
``sigma = scale / 2^k``, added to the grid index) and that the map bounds the theorem's ``rho``
for every ``D`` the rounding lemma allows: ``D^2 / (2 sigma^2) = (D 2^k)^2 / (2 scale^2) <=
((d_in + 2^k - 2^-1074) / scale)^2 / 2``. Rounding the noisy grid point to a float is
post-processing.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable

import z3

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from mechanisms.make_float_gaussian import FloatGridGaussian, make_float_gaussian
from mechanisms.measures import ZeroConcentratedDivergence
from mechanisms.metrics import AbsoluteDistance
from obligations.base import (ComputedGoal, Entry, Kind, Obligation, Replay, Z3Goal, example,
                              is_true, on_solver_terms)
from obligations.compatibility import metric_premise
from obligations.integer_noise import (CKS_SAMPLER, CKS_ZCDP, ZERO_SCALE_DIVISORS,
                                       discrete_gaussian_point_mass, runs_into_output_domain,
                                       zero_scale_map_is_infinite)
from obligations.float_grid import (SAMPLE, SAMPLES, U, ZERO_SCALE_BOUND, concrete_grid,
                                    grid_center, grid_domain_obligations, grid_draws_goal,
                                    grid_fields_agree, grid_kernel_goal, grid_law_goals,
                                    grid_map_rounding, grid_noise_scale, grid_output_type,
                                    nearest_float_or_none, number_text, replay_builds,
                                    replay_grid_output, rounding_unit_pairs, symbolic_grid,
                                    units_goal)
from obligations.noise import exact_noise_goal
from obligations.noise_draws import BOUND as DRAW_BRANCH
from obligations.reports import (bound_assertion, claim_assertion, constructor_call, import_line,
                                 literal, plain_report, reproducer, show)
from obligations.row_transforms import admits
from obligations.witnesses import domain_premise_goal, map_runs, probes_witness_goal
from obligations.kernel.reviewed import reviewed


def _kernel(constructor: Constructor) -> Any:
    return grid_kernel_goal(constructor, FloatGridGaussian)


def _at_scale(constructor: Constructor, scale: float) -> Measurement | None:
    try:
        return constructor(scale=scale, k=SAMPLE["k"])
    except Exception:  # noqa: BLE001 - a refused scale is skipped by the draw-branch goal
        return None


def _draws(constructor: Constructor) -> ComputedGoal:
    """One exact discrete Gaussian draw at the function's ``sigma = scale / 2^k`` exactly when it
    is positive."""
    return grid_draws_goal(constructor, _at_scale, "sample_discrete_gaussian",
                           discrete_gaussian_point_mass)


def _replay_law(constructor: Constructor) -> Callable[[dict], Replay]:
    """The law the running function draws against the stated one: the mode (the centre grid
    point, the unique most likely output when sigma > 0) on the model's input and on ties, then
    sigma itself: ``ln(Pr[c + 1] / Pr[c]) = -1 / (2 sigma^2)`` on the grid is one-to-one in
    sigma, so a sigma other than ``scale / 2^k`` is a different law."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = concrete_grid(constructor, counterexample)
        f, scale, k = m.function, Fraction(arguments["scale"]), arguments["k"]
        step = Fraction(2) ** k
        call = constructor_call(constructor, **arguments)
        start = [import_line(constructor), "from mechanisms.make_laplace import float_units",
                 f"m = {call}", "f = m.function",
                 "sigma = Fraction(f.grid_scale(f.scale, f.multiple))"]
        for x in (float(int(counterexample.get("a", 0)) * U), float(step / 2), float(-step / 2),
                  float(step / 2 - U), 0.0, float(3 * step)):
            stated = ops.to_float(math.floor(Fraction(x) / step + Fraction(1, 2)) * step)
            real = f.grid_to_float(grid_center(m, x), f.multiple)
            if real != stated:
                return plain_report(
                    True, call, f"on x = {x!r} the most likely output is {real!r}, stated "
                    f"{stated!r} (the grid point nearest x, ties up)",
                    *reproducer(*start, "import math",
                                f"mode = f.grid_to_float(f.grid_index(float_units({x!r}), "
                                "f.multiple), f.multiple)",
                                f"stated = float(math.floor(Fraction({x!r}) / {literal(step)} + "
                                f"Fraction(1, 2)) * {literal(step)})",
                                claim_assertion("mode == stated", f"on x = {x!r} the most likely "
                                                "output is {mode!r}, stated {stated!r}")))
        sigma, wanted = grid_noise_scale(m), scale / step
        if sigma != wanted and (sigma > 0 or wanted > 0):
            return plain_report(
                True, call, f"the running function's sigma in grid steps is {show(sigma)}, the "
                f"stated law's scale / 2^k = {show(wanted)}: ln(Pr[c+1] / Pr[c]) differ",
                *reproducer(*start, claim_assertion(
                    f"sigma == {literal(wanted)}", "the function draws at sigma = {sigma} grid "
                    f"steps, the stated law at {show(wanted)}")))
        return plain_report(False, call, "the real function draws the stated law")
    return replay


def _observed_rho(m: Measurement, x: float, x2: float) -> Any:
    """The Renyi divergence of order ``alpha``, over ``alpha``, of the grid outputs on ``x`` and
    ``x'``: exactly ``(i - i')^2 / (2 sigma^2)`` (the shifted normaliser is the unshifted one),
    ``+inf`` for point masses on different indices."""
    i, i2, sigma = grid_center(m, x), grid_center(m, x2), grid_noise_scale(m)
    if sigma > 0:
        return Fraction((i - i2) ** 2) / (2 * sigma * sigma)
    return math.inf if i != i2 else 0


DISTANCES = (2, 3, 4, 6, 10, 100)
"""Grid steps apart, besides one, of the privacy replay's pairs ``(n 2^k, 0)``: a map that is
right at one step may fall below the theorem's ``rho`` only further out."""


def is_float_number(value: Any) -> bool:
    """A Python float that is not NaN: the inputs the privacy proof is about."""
    return type(value) is float and not math.isnan(value)


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """The model's inputs, then worst rounding pairs (``d_in = u`` across a tie, ``(2^k, 0)``)
    at the model's, the finest and the next grid and at a few scales: the exact ``rho`` of the
    running function's grid law against the claimed map. The grid points ``j 2^k``, ``|j| <
    2^53``, are distinct floats, so rounding to floats keeps this divergence up to the far tails."""
    def pairs(m: Measurement, arguments: dict[str, Any],
              counterexample: dict[str, Any]) -> list[tuple[float, float, Fraction]]:
        units = rounding_unit_pairs(
            m, arguments, counterexample,
            lambda step: [(math.floor(n * step / U), 0) for n in DISTANCES])
        found = []
        for b, b2 in units:
            x, x2 = nearest_float_or_none(b * U), nearest_float_or_none(b2 * U)
            if x is not None and x2 is not None and x != x2:
                found.append((x, x2, abs(Fraction(x) - Fraction(x2))))
        return found

    def replay(counterexample: dict[str, Any]) -> Replay:
        builds = replay_builds(constructor, counterexample)
        for m, arguments in builds:
            for x, x2, d_in in pairs(m, arguments, counterexample):
                observed, claimed = _observed_rho(m, x, x2), m.map(d_in)
                if observed > claimed:
                    call = constructor_call(constructor, **arguments)
                    return plain_report(
                        True, call, f"inputs x = {x!r}, x' = {x2!r}, d_in = {number_text(d_in)}",
                        f"claimed  map(d_in) = {claimed!r}",
                        f"observed D_alpha(M(x) || M(x')) / alpha = (i - i')^2 / (2 sigma^2) = "
                        f"{number_text(observed)}  > claimed",
                        *reproducer(
                            import_line(constructor),
                            "from mechanisms.make_laplace import float_units", f"m = {call}",
                            "f = m.function",
                            f"i, i2 = (f.grid_index(float_units(v), f.multiple) for v in "
                            f"({x!r}, {x2!r}))",
                            "sigma = Fraction(f.grid_scale(f.scale, f.multiple))",
                            f"claimed = m.map({literal(d_in)})",
                            "observed = Fraction((i - i2) ** 2) / (2 * sigma * sigma) if sigma "
                            "> 0 else (float('inf') if i != i2 else 0)",
                            bound_assertion("rho = (i - i')^2 / (2 sigma^2) of the grid law",
                                            f"map({literal(d_in)})")))
        return plain_report(False, constructor_call(constructor, **builds[0][1]),
                            "no pair exceeds the claimed map on replay")
    return replay


@reviewed
def float_gaussian_obligations(constructor: Constructor = make_float_gaussian,
                               prefix: str = "float_gaussian") -> tuple[Obligation, ...]:

    def output_domain_solver_goals() -> list[Any]:
        m, params, assumptions = symbolic_grid(constructor)
        j = z3.Int("j")
        return [Z3Goal("grid_to_float(j, m) is in the output domain (not NaN) for every integer j",
                       is_true(m.output_domain.contains(m.function.grid_to_float(
                           j, m.function.multiple))),
                       assumptions, {**params, "j": j}, replay_grid_output(constructor))]

    def output_domain_goals() -> list[Any]:
        return [_kernel(constructor), probes_witness_goal(constructor, SAMPLE),
                grid_fields_agree(constructor), grid_output_type(constructor),
                *on_solver_terms("the output domain", output_domain_solver_goals),
                runs_into_output_domain(constructor, SAMPLES, (0.0, -0.0, 1.5, -3e300, math.inf,
                                                               5e-324))]

    def distribution_goals() -> list[Any]:
        replay = _replay_law(constructor)
        return [_kernel(constructor), _draws(constructor), grid_fields_agree(constructor),
                units_goal(constructor, replay),
                *on_solver_terms("the distribution", distribution_solver_goals)]

    def distribution_solver_goals() -> list[Any]:
        multiple, steps = grid_law_goals(constructor, _replay_law(constructor), "sigma")
        return [multiple, *steps]

    def privacy_goals() -> list[Any]:
        replay = _replay_privacy(constructor)
        return [
            exact_noise_goal(lambda: constructor(**SAMPLE)),
            _kernel(constructor), grid_fields_agree(constructor),
            units_goal(constructor, replay),
            *on_solver_terms("the privacy bound", privacy_solver_goals),
            *([map_runs(zero_scale_map_is_infinite(
                lambda scale: constructor(scale=scale, k=SAMPLE["k"]), replay), constructor,
                [({"scale": 0.0, "k": SAMPLE["k"]}, d) for d in ZERO_SCALE_DIVISORS])]
              if admits(constructor, {"scale": 0.0, "k": SAMPLE["k"]}) else []),
            domain_premise_goal(constructor, SAMPLE, "non-NaN floats", is_float_number),
        ]

    def privacy_solver_goals() -> list[Any]:
        m, params, assumptions = symbolic_grid(constructor)
        f, scale = m.function, params["scale"]
        a, a2, grid, shift = z3.Ints("a a2 m D")
        d_in = z3.Real("d_in")
        i, i2 = f.grid_index(a, grid), f.grid_index(a2, grid)
        sigma = ops.exact(f.grid_scale(f.scale, grid))
        rho = z3.substitute(ops.exact(m.map(d_in)), (f.multiple, grid)) \
            if ops.is_z3(f.multiple) else ops.exact(m.map(d_in))
        rounding = ops.absolute(i - i2) * grid <= ops.absolute(a - a2) + grid - 1
        within = ops.absolute(shift) * grid <= ops.absolute(a - a2) + grid - 1
        names = {**params, "a": a, "a2": a2, "d_in": d_in, "m": grid, "D": shift}
        generalized = [*assumptions, grid >= 1]  # every m >= 1, the function's multiple among them
        replay = _replay_privacy(constructor)
        return [
            metric_premise(lambda: m, AbsoluteDistance, ZeroConcentratedDivergence,
                           "CKS 2020, Theorem 4 (integer sensitivity |i - i'| on the grid)"),
            Z3Goal("the function's grid multiple m >= 1", f.multiple >= 1, assumptions, params,
                   replay),
            Z3Goal("rounding lemma: |grid_index(a, m) - grid_index(a', m)| m <= |a - a'| + m - 1",
                   rounding, generalized, names, replay),
            Z3Goal("the function's sigma > 0, |x - x'| = |a - a'| u <= d_in, and any integer D "
                   "with |D| m <= |a - a'| + m - 1 (the grid indices' difference, by the rounding "
                   "lemma): the theorem's D^2 / (2 sigma^2) <= map(d_in)",
                   shift * shift / (2 * sigma * sigma) <= rho,
                   [*generalized, sigma > 0, d_in >= 0,
                    z3.ToReal(ops.absolute(a - a2)) * z3.RealVal(U) <= d_in, within],
                   names, replay),
            Z3Goal("the function adds noise (sigma > 0) for every admitted scale but 0",
                   z3.Or(sigma > 0, scale == 0), [*generalized, grid == f.multiple], names,
                   replay),
        ]

    return (
        *grid_domain_obligations(constructor, prefix, "FloatGridGaussian",
                                 output_domain_goals),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   "function(x) = the float nearest (i + Z) 2^k, with i 2^k the grid point nearest "
                   "to x (ties up, +-inf clamped to +-max float) and Pr[Z = z] proportional to "
                   "exp(-z^2 / (2 sigma^2)), sigma = scale / 2^k, one exact CKS draw; 2^k and "
                   "2^-1074 are IEEE-754's, not the code's.",
                   r"\Pr[\,i + Z = j\,] \propto e^{-(j - i)^2 2^{2k} / (2\,\mathtt{scale}^2)}",
                   distribution_goals, cites=(CKS_SAMPLER,), bound=DRAW_BRANCH),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "For all finite floats x, x' with |x - x'| <= d_in, M(x) and M(x') are "
                   "map(d_in)-zCDP close for the law the running function draws (its float_units, "
                   "grid index and sigma): the grid indices differ by an integer D with "
                   "|D| 2^k <= |x - x'| + 2^k - 2^-1074, CKS 2020 Theorem 4 gives "
                   "D^2 / (2 sigma^2), and map(d_in) >= that; rounding to a float is "
                   "post-processing; sigma <= 0 (no noise) only at scale = 0, where map = +inf.",
                   r"|x - x'| \le d_{in} \implies D_\alpha(M(x) \| M(x')) \le "
                   r"\alpha \cdot \mathtt{map}(d_{in})\ \forall \alpha > 1",
                   privacy_goals, uses=(f"{prefix}.distribution", f"{prefix}.map_rounding"),
                   cites=(CKS_ZCDP,),
                   bound=ZERO_SCALE_BOUND),
        grid_map_rounding(constructor, prefix, "((d_in + 2^k - 2^-1074) / scale)^2 / 2"),
    )


IMPORT = "from mechanisms.make_float_gaussian import make_float_gaussian"


def catalogue_entry() -> Entry:
    return Entry("make_float_gaussian", make_float_gaussian, float_gaussian_obligations(),
                 "add discrete Gaussian noise to a float through the grid 2^k (zCDP)",
                 (example("make_float_gaussian(1.0)", IMPORT),
                  example("make_float_gaussian(2.0, -10)", IMPORT)),
                 proof=True)
