"""Obligations of ``make_vector_gaussian``, for every finite float ``scale >= 0`` and vectors of
every length.

Output domain, compatibility and distribution are ``make_vector_laplace``'s goals with the
discrete Gaussian sampler (:func:`obligations.make_vector_laplace.vector_noise_obligations`). The
privacy proof takes CKS 2020, Theorem 4 as given for one coordinate (``x + Y``, ``Y`` discrete
Gaussian of parameter ``sigma``, is ``(x - x')^2 / (2 sigma^2)``-zCDP) and adds the coordinates'
Renyi divergences (independent coordinates: the divergence of a product is the sum, argued in the
proof). The goals prove, by induction on the length, that the sum
``R_n = sum_i (v_i - v'_i)^2 / (2 sigma^2)`` is ``Q_n / (2 sigma^2)`` with ``Q_n`` the sum of
squares (the L2 step ``Q + (x - x')^2`` stated from its definition, and proved equal to the input
metric's own ``step``), that a ``d_in`` at or above the metric's rounded-up root bounds ``Q`` by
``d_in^2``, and that ``Q / (2 sigma^2) <= map(d_in)``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable

import z3

from mechanisms import ops
from mechanisms.core import Constructor, Measurement
from mechanisms.make_vector_gaussian import make_vector_gaussian
from mechanisms.measures import ZeroConcentratedDivergence
from mechanisms.metrics import L1Distance, L2Distance
from mechanisms.samplers import sample_discrete_gaussian
from obligations.base import Entry, Kind, Obligation, Replay, Z3Goal, example
from obligations.compatibility import metric_premise
from obligations.integer_noise import (CKS_SAMPLER, CKS_ZCDP, concrete, fields_agree,
                                       negative_scale_refused, no_noise_only_at_zero, symbolic)
from obligations.make_vector_laplace import (LENGTHS_BOUND, WINDOW, empty_vectors_goal,
                                             metric_fold_goal, scale_map_rounding,
                                             separated_probes, separation_lines,
                                             separation_reproducer, vector_edge_goals,
                                             vector_kernel_goal, vector_noise_obligations)
from obligations.noise import exact_noise_goal
from obligations.reports import (bound_assertion, constructor_call, import_line, literal,
                                 plain_report, reproducer, show)

SAMPLE = {"scale": 2.0}
SQRT_UP_FACTS = "sqrt_up(q) >= 0 and sqrt_up(q)^2 >= q for q >= 0 (certified by the code exactly)"


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """The exact zCDP ``rho`` of the running function's law, ``sum_i (v_i - v'_i)^2 / (2 s^2)``
    (attained at integer orders: each coordinate's shifted normaliser is the unshifted one, and
    independent coordinates' divergences add), ``+inf`` for point masses with ``v != v'``, on the
    model's one-coordinate vectors, then on ``[0]`` against ``[1]`` and ``[3]``, ``[0, 0]``
    against ``[1, 1]`` and ``[0, 0, 0, 0]`` against ``[1, 1, 1, 1]``, at ``d_in`` the input
    metric's own distance (for L2, the exact distance rounded up; the true one when an integer)."""
    def observed_rho(scale: Fraction, v: list[int], v2: list[int]) -> Any:
        if scale > 0:
            return Fraction(sum((a - b) ** 2 for a, b in zip(v, v2))) / (2 * scale * scale)
        return math.inf if v != v2 else 0

    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = concrete(constructor, counterexample)
        noise = Fraction(m.function.scale)
        model = [int(counterexample.get(k, 0)) for k in ("x", "x2")]
        candidates = [([model[0]], [model[1]]), ([0], [1]), ([0], [3]), ([0, 0], [1, 1]),
                      ([0] * 4, [1] * 4)]
        for v, v2 in candidates:
            d_in = m.input_metric.distance(v, v2)  # the claim: distance(v, v') <= d_in
            observed, claimed = observed_rho(noise, v, v2), m.map(d_in)
            confirmed = observed > claimed
            if confirmed:
                break
        call = constructor_call(constructor, **arguments)
        return plain_report(
            confirmed, call, f"inputs v = {v}, v' = {v2}, d_in = {d_in!r} (the input metric's "
            f"distance, {m.input_metric})",
            f"the function's noise scale: {show(noise)}" + ("" if noise > 0 else " (no noise)"),
            f"claimed  map(d_in) = {claimed!r}",
            f"observed D_alpha(M(v) || M(v')) / alpha = sum_i (v_i - v'_i)^2 / (2 s^2) = "
            f"{show(observed)}" + ("  > claimed" if confirmed else ""),
            *reproducer(import_line(constructor), f"m = {call}", "s = Fraction(m.function.scale)",
                        f"v, v2 = {v}, {v2}", f"claimed = m.map({literal(d_in)})",
                        "observed = Fraction(sum((a - b) ** 2 for a, b in zip(v, v2))) / "
                        "(2 * s * s) if s > 0 else " + ("float('inf')" if v != v2 else "0"),
                        bound_assertion("rho = sum_i (v_i - v'_i)^2 / (2 s^2)",
                                        f"map({literal(d_in)})")))
    return replay


def gaussian_tail_loss(constructor: Constructor, arguments: dict[str, Any]
                       ) -> Callable[[Measurement, list[Any], list[Any]], Replay]:
    """Replay of a foreign input (zCDP, at order ``alpha = 2``): with ``y = shift(v, 0)``
    unreachable from ``v'`` for ``|z| <= W`` (``W = WINDOW``), data processing onto the event
    ``{y}`` gives ``D_2(M(v) || M(v')) >= ln(P^2 / Q)`` with ``P = Pr[M(v) = y] >= 1 / Z(s)``,
    ``Z(s) <= 1 + sqrt(2 pi) s``, and ``Q = Pr[M(v') = y] <= 2 e^{-(W+1)^2/(2 s^2)} /
    ((1 - e^{-(W+1)/(2 s^2)}) Z(s))``, so ``D_2 >= (W+1)^2 / (2 s^2) - ln(1 + sqrt(2 pi) s) +
    ln(1 - e^{-(W+1)/(2 s^2)}) - ln 2``, against the claim ``D_2 <= 2 map(d_in)``."""
    call = constructor_call(constructor, **arguments)

    def loss(m: Measurement, members: list[Any], outside: list[Any]) -> Replay:
        found = separated_probes(m, members, outside)
        if found is None:
            return plain_report(False, f"{call}: no pair of probe members separated on replay")
        s, v, v2, y, d_in = found
        w = WINDOW + 1
        lower = (w * w / (2 * s * s) - math.log1p(math.sqrt(2 * math.pi) * s)
                 + math.log1p(-math.exp(-w / (2 * s * s))) - math.log(2))
        claimed = m.map(d_in)
        confirmed = lower > 2 * float(claimed) + 1e-6
        return plain_report(
            confirmed, *separation_lines(call, m, v, v2, y, d_in),
            f"claimed  map(d_in) = {claimed!r}: D_2(M(v) || M(v')) <= 2 map(d_in)",
            f"observed D_2(M(v) || M(v')) >= ln(P^2 / Q) >= {lower!r}"
            + ("  > 2 map(d_in)" if confirmed else ""),
            *reproducer(*separation_reproducer(constructor, call, v, v2),
                        f"w = {w}",
                        "observed = (w * w / (2 * s * s) - math.log1p(math.sqrt(2 * math.pi) * s)"
                        " + math.log1p(-math.exp(-w / (2 * s * s))) - math.log(2))",
                        f"claimed = 2 * m.map({literal(d_in)})",
                        bound_assertion("D_2(M(v) || M(v')) (lower bound)",
                                        f"2 map({literal(d_in)})")))
    return loss


def vector_gaussian_obligations(constructor: Constructor = make_vector_gaussian,
                                prefix: str = "vector_gaussian") -> tuple[Obligation, ...]:

    def privacy_goals() -> list[Any]:
        m, params, assumptions = symbolic(constructor)
        scale, sigma = params["scale"], ops.exact(m.function.scale)
        x, x2 = z3.Ints("x x2")
        rho, total, d_in, l1 = z3.Reals("R Q d_in A")
        metric_step = getattr(m.input_metric, "step", None)
        metric_root = getattr(m.input_metric, "root", None)
        on_l1 = isinstance(m.input_metric, L1Distance)

        def step(q: Any, a: Any, b: Any) -> Any:
            """The squared L2 distance's step, from its definition: ``q + (a - b)^2``."""
            return q + (a - b) * (a - b)

        def l1_step(q: Any, a: Any, b: Any) -> Any:
            """The L1 distance's step, from its definition: ``q + |a - b|``."""
            return q + z3.If(a >= b, a - b, b - a)

        def coordinate(a: Any, b: Any) -> Any:
            """CKS 2020, Theorem 4's rho of one coordinate: ``(a - b)^2 / (2 sigma^2)``."""
            return (a - b) * (a - b) / (2 * sigma * sigma)

        names = {**params, "x": x, "x2": x2, "R": rho, "Q": total, "d_in": d_in}
        replay = _replay_privacy(constructor)
        positive = [*assumptions, sigma > 0]
        root_goals = []
        if metric_root is not None and not on_l1:
            root = metric_root(total)
            root_goals = [Z3Goal(
                "a bound d_in >= distance = root(Q), the metric's rounded-up square root, gives "
                f"d_in^2 >= Q ({SQRT_UP_FACTS})", total <= d_in * d_in,
                [total >= 0, d_in >= root, root >= 0, root * root >= total], names, replay)]
        if on_l1:
            l1_names = {**names, "A": l1}
            metric_goals = [
                metric_premise(lambda: m, L1Distance, ZeroConcentratedDivergence,
                               "||v - v'||_2 <= ||v - v'||_1, then CKS 2020, Theorem 4 per "
                               "coordinate, the sum of squares <= d_in^2"),
                metric_fold_goal(constructor, L1Distance, SAMPLE),
                *([Z3Goal("the input metric's step is the L1 distance's: step(A, x, x') = "
                          "A + |x - x'|", metric_step(l1, x, x2) == l1_step(l1, x, x2),
                          assumptions, l1_names, replay)] if metric_step is not None else []),
                Z3Goal("induction step of ||.||_2^2 <= ||.||_1^2 (one more coordinate): "
                       "0 <= Q <= A^2, A >= 0 imply 0 <= Q + (x - x')^2 <= (A + |x - x'|)^2, "
                       "A + |x - x'| >= 0",
                       z3.And(step(total, x, x2) >= 0, l1_step(l1, x, x2) >= 0,
                              step(total, x, x2) <= l1_step(l1, x, x2) * l1_step(l1, x, x2)),
                       [total >= 0, l1 >= 0, total <= l1 * l1], l1_names, replay),
                Z3Goal("a bound d_in >= distance = A (the L1 fold, exact) gives d_in^2 >= Q "
                       "when Q <= A^2, A >= 0",
                       total <= d_in * d_in,
                       [total >= 0, l1 >= 0, total <= l1 * l1, d_in >= l1], l1_names, replay),
            ]
        else:
            metric_goals = [
                metric_premise(lambda: m, L2Distance, ZeroConcentratedDivergence,
                               "CKS 2020, Theorem 4 per coordinate, the sum of squares <= d_in^2"),
                metric_fold_goal(constructor, L2Distance, SAMPLE),
                *([Z3Goal("the input metric's step is the squared L2 distance's: step(Q, x, x') "
                          "= Q + (x - x')^2", metric_step(total, x, x2) == step(total, x, x2),
                          assumptions, names, replay)] if metric_step is not None else []),
            ]
        return [
            exact_noise_goal(lambda: constructor(**SAMPLE)),
            vector_kernel_goal(constructor, sample_discrete_gaussian, SAMPLE),
            fields_agree(lambda: symbolic(constructor), constructor, [SAMPLE, {"scale": 0.5}],
                         ("scale",)),
            *metric_goals,
            empty_vectors_goal(constructor, SAMPLE),
            Z3Goal("induction step (one more coordinate): R = Q / (2 sigma^2) implies "
                   "R + (x - x')^2 / (2 sigma^2) = (Q + (x - x')^2) / (2 sigma^2)",
                   rho + coordinate(x, x2) == step(total, x, x2) / (2 * sigma * sigma),
                   [*positive, rho == total / (2 * sigma * sigma)], names, replay),
            *root_goals,
            Z3Goal("the bound: the function's sigma > 0, 0 <= Q <= d_in^2, d_in >= 0: "
                   "Q / (2 sigma^2) <= map(d_in)",
                   total / (2 * sigma * sigma) <= m.map(d_in),
                   [*positive, total >= 0, d_in >= 0, total <= d_in * d_in], names, replay),
            no_noise_only_at_zero(sigma, scale, assumptions, params, replay),
            negative_scale_refused(constructor, replay),
            *vector_edge_goals(constructor, replay, gaussian_tail_loss),
        ]

    return (
        *vector_noise_obligations(
            constructor, prefix, sample_discrete_gaussian, SAMPLE,
            "Pr[Y_i = z] = exp(-z^2/(2 scale^2)) / Z(scale)",
            r"\Pr[M(v) = y] = \prod_i e^{-(y_i - v_i)^2 / (2\,\mathtt{scale}^2)} / "
            r"Z(\mathtt{scale})", lambda s: -1 / (2 * s * s), CKS_SAMPLER),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "For vectors v, v' of every length n with L2 distance <= d_in (or L1 "
                   "distance <= d_in, as ||v - v'||_2 <= ||v - v'||_1: by induction on n, "
                   "Q + (x - x')^2 <= (A + |x - x'|)^2 when Q <= A^2, A >= 0), M(v) and M(v') "
                   "are map(d_in)-zCDP close, for the law the running function draws at its own "
                   "sigma s: each coordinate is (v_i - v'_i)^2/(2 s^2)-close by CKS 2020 "
                   "Theorem 4, independent coordinates' Renyi divergences add, and by induction "
                   "on n the sum is ||v - v'||_2^2 / (2 s^2) <= d_in^2 / (2 s^2) <= map(d_in); "
                   "vectors of different lengths are at distance +inf, where map = +inf; s <= 0 "
                   "(no noise) only at scale = 0, where map(d_in) = +inf.",
                   r"\|v - v'\|_2 \le d_{in} \implies D_\alpha(M(v) \| M(v')) \le "
                   r"\alpha \cdot \mathtt{map}(d_{in})\ \forall \alpha > 1",
                   privacy_goals, uses=(f"{prefix}.distribution", f"{prefix}.map_rounding"),
                   cites=(CKS_ZCDP,), bound=LENGTHS_BOUND),
        scale_map_rounding(constructor, prefix, "d_in^2 / (2 scale^2)"),
    )


IMPORT = "from mechanisms.make_vector_gaussian import make_vector_gaussian"


def catalogue_entry() -> Entry:
    return Entry("make_vector_gaussian", make_vector_gaussian, vector_gaussian_obligations(),
                 "add independent discrete Gaussian noise to each coordinate of an int vector "
                 "(zCDP)",
                 (example("make_vector_gaussian(1.0)", IMPORT),
                  example("make_vector_gaussian(3.5)", IMPORT)), proof=True)
