"""Obligations of ``make_laplace`` (floats through the grid ``2^k``), for every finite float
``scale >= 0`` and every integer ``k >= -1074``.

The specification side is the checker's own (:mod:`obligations.ieee`): a finite float ``x`` is
``a u`` for an integer ``a``, ``u = 2^-1074``, and the grid ``2^k`` is ``2^(k + 1074) u``. Nothing
is taken from the mechanism's constants. The goals run the code itself on Z3 terms: its
``float_units`` on ``x = a u``, the function's ``grid_index``, ``grid_scale``, ``grid_to_float``
and multiple (Z3's integer power ``2^(k - K_MIN)``), and the map. The distribution goals tie each
to the specification; the privacy goal is the exact pmf argument on the grid (discrete Laplace at
the function's own noise scale, CKS 2020 Algorithm 2, cited) plus the rounding lemma
``|i - i'| m <= |a - a'| + m - 1`` (OpenDP's relaxation ``2^k - 2^-1074``).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable

import z3

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from mechanisms.errors import DPCertError
from mechanisms.make_laplace import FloatGridLaplace, make_laplace
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import AbsoluteDistance
from obligations.base import ComputedGoal, Entry, Kind, Obligation, Replay, Z3Goal, example, is_true
from obligations.compatibility import metric_premise
from obligations.integer_noise import (CKS, discrete_laplace_point_mass, exp_product_facts,
                                       runs_into_output_domain, zero_scale_map_is_infinite)
from obligations.exponential import EXP
from obligations.noise import exact_noise_goal
from obligations.noise_draws import BOUND as DRAW_BRANCH
from obligations.reports import (bound_assertion, claim_assertion, constructor_call, import_line,
                                 literal, plain_report, reproducer, show)
from obligations.kernel.reviewed import reviewed
from obligations.float_grid import (SAMPLE, SAMPLES, U, ZERO_SCALE_BOUND, concrete_grid,
                                    grid_center, grid_domain_obligations, grid_draws_goal,
                                    grid_fields_agree, grid_kernel_goal, grid_law_goals,
                                    grid_map_rounding, grid_noise_scale, grid_output_type,
                                    nearest_float_or_none, number_text, replay_builds,
                                    replay_grid_output, rounding_unit_pairs, symbolic_grid,
                                    units_goal)


def _kernel(constructor: Constructor) -> Any:
    return grid_kernel_goal(constructor, FloatGridLaplace)


def _at_scale(constructor: Constructor, scale: float) -> Measurement | None:
    """The constructor at ``scale`` and :data:`SAMPLE`'s ``k``, or ``None`` if it refuses them."""
    try:
        return constructor(scale=scale, k=SAMPLE["k"])
    except DPCertError:
        return None


def _draws(constructor: Constructor) -> ComputedGoal:
    """One exact discrete Laplace draw at the function's noise scale ``scale / 2^k`` exactly when
    it is positive (its largest point probability is ``tanh(1 / (2 n))``)."""
    return grid_draws_goal(constructor, _at_scale, "sample_discrete_laplace",
                           discrete_laplace_point_mass)


def _replay_law(constructor: Constructor) -> Callable[[dict], Replay]:
    """The law the running function draws against the stated one, on exact events: the mode
    (the output at the centre index, the unique most likely output for a positive noise scale)
    on the model's input and on ties, then ``ln(Pr[2^k + c] / Pr[c])`` at the centre ``c`` of 0."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = concrete_grid(constructor, counterexample)
        f, scale, k = m.function, Fraction(arguments["scale"]), arguments["k"]
        step = Fraction(2) ** k
        call = constructor_call(constructor, **arguments)
        start = [import_line(constructor), "from mechanisms.make_laplace import float_units",
                 f"m = {call}", "f = m.function",
                 "noise = Fraction(f.grid_scale(f.scale, f.multiple))"]
        problems: list[str] = []
        snippet: list[str] = []
        inputs = [float(int(counterexample.get("a", 0)) * U), float(step / 2), float(-step / 2),
                  float(step / 2 - U), 0.0, float(3 * step)]
        for x in inputs:
            stated = math.floor(Fraction(x) / step + Fraction(1, 2))
            real = f.grid_to_float(grid_center(m, x), f.multiple)
            if real != ops.to_float(stated * step):
                problems.append(f"on x = {x!r} the most likely output is {real!r}, stated "
                                f"{ops.to_float(stated * step)!r} (the grid point nearest x, "
                                "ties up)")
                snippet = reproducer(
                    *start, "import math",
                    f"mode = f.grid_to_float(f.grid_index(float_units({x!r}), f.multiple), "
                    "f.multiple)",
                    f"stated = float(math.floor(Fraction({x!r}) / {literal(step)} + "
                    f"Fraction(1, 2)) * {literal(step)})",
                    claim_assertion("mode == stated", f"on x = {x!r} the most likely output is "
                                    "{mode!r}, stated {stated!r} (the grid point nearest x, ties "
                                    "up)"))
                break
        noise = grid_noise_scale(m)
        if not problems and scale > 0 and noise > 0:
            zero, one = f.grid_to_float(grid_center(m, 0.0), f.multiple), ops.to_float(step)
            hits = [j for j in range(-3, 4)
                    if f.grid_to_float(grid_center(m, 0.0) + j, f.multiple) == one]
            real = (f"ln(Pr[M(0) = {one!r}] / Pr[M(0) = {zero!r}]) = "
                    + (show(-Fraction(abs(hits[0])) / noise) if hits else "-inf (never drawn)"))
            if not hits or Fraction(abs(hits[0])) / noise != step / scale:
                problems.append(f"{real}, stated {show(-step / scale)}")
                snippet = reproducer(
                    *start, "c = f.grid_index(float_units(0.0), f.multiple)",
                    f"hits = [j for j in range(-3, 4) if f.grid_to_float(c + j, f.multiple) == "
                    f"{one!r}]",
                    f"stated = {literal(step / scale)}  # -ln(Pr[M(0) = {one!r}] / Pr[M(0) = 0])",
                    claim_assertion("hits and Fraction(abs(hits[0])) / noise == stated",
                                    f"ln(Pr[M(0) = {one!r}] / Pr[M(0) = 0]) is not -{{stated}}: "
                                    f"{one!r} is {{hits}} grid steps from the mode, the noise "
                                    "scale {noise} steps"))
        if not problems and (noise > 0) != (scale > 0):
            problems.append(f"the noise scale in grid steps is {show(noise)}, the stated law's "
                            f"{show(scale / step)}")
            snippet = reproducer(*start, claim_assertion(
                f"(noise > 0) == {scale > 0}", "the noise scale in grid steps is {noise}, the "
                f"stated law's {scale / step}"))
        return plain_report(bool(problems), call,
                            *problems or ["the real function draws the stated law"], *snippet)
    return replay


def _observed_loss(m: Measurement, x: float, x2: float, j: int) -> Any:
    """``ln(Pr[j | x] / Pr[j | x'])`` on the grid, from the exact pmf of the real function's
    noise: ``(|j - i'| - |j - i|) / n``, ``n`` its grid scale; a point mass if ``n <= 0``."""
    i, i2, noise = grid_center(m, x), grid_center(m, x2), grid_noise_scale(m)
    if noise > 0:
        return Fraction(abs(j - i2) - abs(j - i)) / noise
    return math.inf if i != i2 and j == i else 0


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """The model's inputs ``a u, a' u`` and grid output, the same pair shifted by a few units,
    the pairs ``(2u, u)``, ``(u, 0)``, then for the stated step ``2^k`` and the function's real
    step ``h`` the worst rounding pairs around ``h / 2`` (``d_in = u``) and ``(h, 0)``: the exact loss of the running function
    (its own ``float_units``, grid and noise) against the claimed map."""
    def candidates(m: Measurement, arguments: dict[str, Any],
                   counterexample: dict[str, Any]) -> list[tuple[float, float, int, Fraction]]:
        a, a2 = int(counterexample.get("a", 0)), int(counterexample.get("a2", 0))
        j = int(counterexample.get("j", 0))
        pairs = rounding_unit_pairs(m, arguments, counterexample)
        model = (nearest_float_or_none(a * U), nearest_float_or_none(a2 * U))
        found = [(*model, j, Fraction(counterexample.get("d_in", 0)))] if None not in model else []
        for units, units2 in pairs:
            x, x2 = nearest_float_or_none(units * U), nearest_float_or_none(units2 * U)
            if x is None or x2 is None:
                continue  # beyond the float range: no input of the domain
            d_in = abs(Fraction(x) - Fraction(x2))
            if d_in > 0:
                found += [(x, x2, out, d_in) for out in (j, grid_center(m, x), grid_center(m, x2))]
        return found

    def replay(counterexample: dict[str, Any]) -> Replay:
        builds = replay_builds(constructor, counterexample)
        for m, arguments in builds:
            call = constructor_call(constructor, **arguments)
            for x, x2, out, d_in in candidates(m, arguments, counterexample):
                if d_in <= 0 or abs(Fraction(x) - Fraction(x2)) > d_in:
                    continue
                observed, claimed = _observed_loss(m, x, x2, out), m.map(d_in)
                if observed > claimed:
                    break
            else:
                continue
            break
        else:
            return plain_report(False, constructor_call(constructor, **builds[0][1]),
                                "no pair exceeds the claimed map on replay")
        return plain_report(
            True, call,
            f"inputs x = {x!r}, x' = {x2!r}, d_in = {number_text(d_in)}, grid output j = {out}",
            f"claimed  map(d_in) = {claimed!r}",
            f"observed ln(Pr[j | x] / Pr[j | x']) = {number_text(observed)}  > claimed",
            *reproducer(import_line(constructor), "from mechanisms.make_laplace import float_units",
                        f"m = {call}", "f = m.function",
                        f"i, i2 = (f.grid_index(float_units(v), f.multiple) for v in ({x!r}, "
                        f"{x2!r}))", "noise = Fraction(f.grid_scale(f.scale, f.multiple))",
                        f"claimed = m.map({literal(d_in)})",
                        f"observed = Fraction(abs({out} - i2) - abs({out} - i)) / noise if "
                        f"noise > 0 else (float('inf') if i != i2 and {out} == i else 0)",
                        bound_assertion(f"ln(Pr[j | x] / Pr[j | x']) at grid output j = {out}",
                                        f"map({literal(d_in)})")))
    return replay


@reviewed
def laplace_obligations(constructor: Constructor = make_laplace,
                        prefix: str = "laplace") -> tuple[Obligation, ...]:

    def output_domain_goals() -> list[Any]:
        m, params, assumptions = symbolic_grid(constructor)
        j = z3.Int("j")
        multiple = m.function.multiple
        return [_kernel(constructor), grid_fields_agree(constructor), grid_output_type(constructor),
                Z3Goal("grid_to_float(j, m) is in the output domain (not NaN) for every integer j",
                       is_true(m.output_domain.contains(m.function.grid_to_float(j, multiple))),
                       assumptions, {**params, "j": j}, replay_grid_output(constructor)),
                runs_into_output_domain(constructor, SAMPLES, (0.0, -0.0, 1.5, -3e300, math.inf,
                                                               5e-324))]

    def distribution_goals() -> list[Any]:
        replay = _replay_law(constructor)
        multiple, steps = grid_law_goals(constructor, replay, "noise scale")
        return [_kernel(constructor), _draws(constructor), grid_fields_agree(constructor),
                multiple, units_goal(constructor, replay), *steps]

    def privacy_goals() -> list[Any]:
        m, params, assumptions = symbolic_grid(constructor)
        f, scale = m.function, params["scale"]
        a, a2, j, grid = z3.Ints("a a2 j m")
        d_in = z3.Real("d_in")
        i, i2 = f.grid_index(a, grid), f.grid_index(a2, grid)
        noise = ops.exact(f.grid_scale(f.scale, grid))
        epsilon = z3.substitute(ops.exact(m.map(d_in)), (f.multiple, grid)) \
            if ops.is_z3(f.multiple) else m.map(d_in)
        loss, loss2 = -ops.absolute(j - i) / noise, -ops.absolute(j - i2) / noise
        rounding = ops.absolute(i - i2) * grid <= ops.absolute(a - a2) + grid - 1
        names = {**params, "a": a, "a2": a2, "j": j, "d_in": d_in, "m": grid}
        generalized = [*assumptions, grid >= 1]  # every m >= 1, the function's multiple among them
        replay = _replay_privacy(constructor)
        return [
            exact_noise_goal(lambda: constructor(**SAMPLE)),
            _kernel(constructor), grid_fields_agree(constructor),
            metric_premise(lambda: m, AbsoluteDistance, MaxDivergence,
                           "the privacy proof (|x - x'| <= d_in)"),
            Z3Goal("the function's grid multiple m >= 1", f.multiple >= 1, assumptions, params,
                   replay),
            units_goal(constructor, replay),
            Z3Goal("rounding lemma: |grid_index(a, m) - grid_index(a', m)| m <= |a - a'| + m - 1",
                   rounding, generalized, names, replay),
            Z3Goal("the function's grid scale n > 0, d_in > 0, |x - x'| <= d_in, with the "
                   "rounding lemma: exp(-|j-i|/n) <= exp(map(d_in)) exp(-|j-i'|/n)",
                   EXP(loss) <= EXP(epsilon) * EXP(loss2),
                   [*generalized, noise > 0, d_in > 0,
                    z3.ToReal(ops.absolute(a - a2)) * z3.RealVal(U) <= d_in, rounding,
                    *exp_product_facts(loss, epsilon, loss2)], names, replay),
            Z3Goal("the function adds noise (grid scale > 0) for every admitted scale but 0",
                   z3.Or(noise > 0, scale == 0), [*generalized, grid == f.multiple], names,
                   replay),
            Z3Goal("d_in = 0 (then x = x'): map(0) >= 0", 0 <= m.map(z3.RealVal(0)),
                   assumptions, params, replay),
            zero_scale_map_is_infinite(
                lambda scale: constructor(scale=scale, k=SAMPLE["k"]), replay),
        ]

    return (
        *grid_domain_obligations(constructor, prefix, "FloatGridLaplace", output_domain_goals),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   "function(x) = the float nearest (i + Z) 2^k, with i 2^k the grid point nearest "
                   "to x (ties up, +-inf clamped to +-max float) and Pr[Z = z] proportional to "
                   "exp(-|z| 2^k / scale), one exact CKS draw; 2^k and 2^-1074 are IEEE-754's, "
                   "not the code's.",
                   r"\Pr[\,i + Z = j\,] \propto e^{-|j - i| 2^k / \mathtt{scale}}",
                   distribution_goals, cites=(CKS,), bound=DRAW_BRANCH),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "For all finite floats x, x' with |x - x'| <= d_in and every grid output j, "
                   "Pr[j | x] <= exp(map(d_in)) Pr[j | x'] for the law the running function "
                   "draws (its float_units, grid index and noise scale n): the grid indices "
                   "differ by at most (|x - x'| + 2^k - 2^-1074) / 2^k; rounding j to a float is "
                   "post-processing; n <= 0 (no noise) only at scale = 0, where map = +inf.",
                   r"|x - x'| \le d_{in} \implies \Pr[M(x) = y] \le e^{\mathtt{map}(d_{in})} "
                   r"\Pr[M(x') = y]",
                   privacy_goals, uses=(f"{prefix}.map_rounding",),
                   bound=ZERO_SCALE_BOUND),
        grid_map_rounding(constructor, prefix, "(d_in + 2^k - 2^-1074) / scale"),
    )


IMPORT = "from mechanisms.make_laplace import make_laplace"


def catalogue_entry() -> Entry:
    return Entry("make_laplace", make_laplace, laplace_obligations(),
                 "add Laplace noise to a float through the grid 2^k",
                 (example("make_laplace(1.0)", IMPORT), example("make_laplace(2.0, -10)", IMPORT)),
                 proof=True)
