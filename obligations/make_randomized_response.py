"""Obligations of ``make_randomized_response``, for every ``t >= 2`` and ``p`` in ``[1/t, 1)``.

The symbolic build replaces the categories by ``t`` (a Z3 integer) and ``prob`` by a Z3 real; the
sampler's index arithmetic (``draw_bound``, ``lie_index``, ``response_index``) and the privacy
map run on those terms. The output distribution is stated below in SymPy; the ``distribution``
obligation proves that the sampler's code draws it, and ``privacy`` bounds every ratio of it.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any, Callable, Iterator

import mpmath
import sympy
import z3

from mechanisms import float_model, ops
from mechanisms.core import Constructor, Measurement, SymbolicSequence
from mechanisms.make_randomized_response import (NOT_A_CATEGORY, RandomizedResponse,
                                                 make_randomized_response)
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import DiscreteMetric
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.rounding import (Candidates, exact_floats, map_rounding_obligation,
                                  natural_d_in, replay_rounding)
from obligations.noise import exact_noise_goal
from obligations.reports import constructor_call, import_line, plain_report
from obligations.symbols import natural

TRUTH, LIE, UNIFORM = "y = x", "y != x, x a category", "x not a category"


def stated_probability(case: str, prob: Any, num_categories: Any) -> Any:
    """``Pr[M(x) = y]``: ``p`` if ``y = x``; ``(1 - p) / (t - 1)`` for each other category when
    ``x`` is a category; ``1 / t`` for every category when ``x`` is not one. (A symbolic ``t`` is
    an integer-valued Z3 real, so ``1 / t`` is true division.)"""
    return {TRUTH: prob,
            LIE: (1 - prob) / (num_categories - 1),
            UNIFORM: 1 / num_categories if ops.is_symbolic(num_categories)
            else Fraction(1, num_categories)}[case]


EXP = z3.Function("exp", z3.RealSort(), z3.RealSort())


def _ln_up_applications(term: Any) -> list[Any]:
    """Every ``ln_up(r)`` inside a Z3 term."""
    found, pending = [], [term]
    while pending:
        current = pending.pop()
        if z3.is_app(current) and current.decl() == ops.LN_UP:
            found.append(current)
        pending.extend(current.children() if z3.is_app(current) else [])
    return found


def exp_facts(*terms: Any) -> list[Any]:
    """What the proof may use about ``exp``: ``exp(0) = 1``, ``exp > 0`` and, for each ``ln_up(r)``
    in ``terms``, ``r >= 1`` (``ln_up`` raises otherwise, so the constructor returns nothing to
    prove) and ``exp(ln_up(r)) >= r`` (obligation ``arith.ln_up``)."""
    facts = [EXP(z3.RealVal(0)) == 1, *[EXP(term) > 0 for term in terms]]
    for term in terms:
        for application in _ln_up_applications(term):
            argument = application.arg(0)
            facts += [argument >= 1, EXP(application) >= argument]
    return facts


def _symbolic(constructor: Constructor) -> tuple[Measurement, dict[str, Any], list[Any]]:
    t, t_natural = natural("t")
    p = z3.Real("p")
    m = constructor.build(categories=SymbolicSequence(t), prob=p)
    return m, {"t": t, "p": p}, [*t_natural,
                                 *constructor.assumptions(categories=SymbolicSequence(t), prob=p)]


def _float_symbolic(constructor: Constructor) -> tuple[Measurement, dict[str, Any], list[Any]]:
    """The build on ``t`` categories and a float ``prob`` (:mod:`mechanisms.float_model`)."""
    t, t_natural = natural("t")
    p = float_model.float_parameter("p")
    arguments = {"categories": SymbolicSequence(t), "prob": p}
    return (constructor.build(**arguments), {"t": t, "p": float_model.plain(p)},
            [*t_natural, *constructor.assumptions(**arguments)])


def _rounding_candidates() -> Candidates:
    """``t`` categories ``0..t-1`` and a float ``prob`` in ``[1/t, 1)``: the model's, then seeded."""
    def arguments(counterexample: dict[str, Any], rng: random.Random) -> Iterator[tuple[dict, Any]]:
        if "t" in counterexample and "p" in counterexample:
            yield {"categories": list(range(int(counterexample["t"]))),
                   "prob": float(Fraction(counterexample["p"]))}, 1
        while True:
            t = rng.randint(2, 10)
            yield {"categories": list(range(t)), "prob": rng.uniform(1 / t, 1)}, 1
    return Candidates(arguments, exact_floats)


def stated_distribution(m: Measurement, arg: Any) -> dict[Any, Fraction]:
    """The stated distribution (:func:`stated_probability`) over ``m``'s categories on ``arg``."""
    categories, t, p = m.function.categories, len(m.function.categories), Fraction(m.function.prob)
    if arg not in categories:
        return {y: stated_probability(UNIFORM, p, t) for y in categories}
    return {y: stated_probability(TRUTH if y == arg else LIE, p, t) for y in categories}


def exact_distribution(m: Measurement, arg: Any) -> dict[Any, Fraction]:
    """The real sampler's output distribution on ``arg``, by running ``respond`` on every draw:
    ``sample`` uniform on ``[0, draw_bound)``, ``honest`` with probability ``prob`` (exact)."""
    f = m.function
    bound = f.draw_bound(f.index_of(arg), len(f.categories))
    p = Fraction(f.prob)
    distribution: dict[Any, Fraction] = {}
    for sample in range(bound):
        for honest, weight in ((True, p), (False, 1 - p)):
            y = f.respond(arg, sample, honest)
            distribution[y] = distribution.get(y, Fraction(0)) + weight / bound
    return distribution


def _concrete(constructor: Constructor, counterexample: dict[str, Any]) -> tuple[Measurement, dict]:
    t = int(counterexample.get("t", 3))
    exact_p = Fraction(counterexample.get("p", Fraction(1, 2)))
    p = float(exact_p)
    if Fraction(p) < exact_p:  # keep p >= 1/t when the model's p is not a float
        p = math.nextafter(p, 1.0)
    arguments = {"categories": list(range(t)), "prob": p}
    return constructor(**arguments), arguments


AUDITED_METHODS = ("__call__", "respond", "index_of")
"""The sampler's plumbing, fixed: only the index kernels may differ, and those are checked."""


def _sampler_is_audited(constructor: Constructor) -> ComputedGoal:
    def decide() -> Decision:
        function = constructor(categories=[0, 1, 2], prob=0.5).function
        replaced = [name for name in AUDITED_METHODS
                    if getattr(type(function), name, None) is not getattr(RandomizedResponse, name)]
        if not isinstance(function, RandomizedResponse) or replaced:
            return Decision(False, {"function": type(function).__name__, "replaced": replaced},
                            "the sampler does not draw through the checked kernels",
                            unsupported=True)
        return Decision(True, detail="RandomizedResponse.__call__ draws sample and coin, then "
                                     "respond(...) applies the kernels")

    return ComputedGoal("the sampler draws through the checked kernels (its __call__, respond and "
                        "index_of are RandomizedResponse's)", "structure", decide)


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """Exact output distributions of the real sampler on every pair of inputs among the first
    two categories and one non-member; the largest ratio against ``exp(map(d_in))``."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = _concrete(constructor, counterexample)
        t = len(arguments["categories"])
        d_in = int(counterexample.get("d_in", 1))
        claimed = m.map(d_in)
        inputs = [0, 1, t]  # two categories and a non-member
        worst, pair = Fraction(1), (0, 0)
        for x in inputs:
            for x_prime in inputs:
                if (x == x_prime) != (d_in == 0):
                    continue
                ratio = m.output_measure.max_ratio(exact_distribution(m, x),
                                                   exact_distribution(m, x_prime))
                if ratio > worst:
                    worst, pair = ratio, (x, x_prime)
        with mpmath.workdps(50):
            observed = mpmath.log(mpmath.mpf(worst.numerator) / worst.denominator)
            confirmed = observed > mpmath.mpf(claimed)
        call = constructor_call(constructor, **arguments)
        return plain_report(
            confirmed, call,
            f"inputs x = {pair[0]!r}, x' = {pair[1]!r} (d_in = {d_in}; {t} is not a category)",
            f"claimed  map(d_in) = {claimed!r}",
            f"observed max ln(Pr[M(x)=y] / Pr[M(x')=y]) = {mpmath.nstr(observed, 17)}"
            + ("  > claimed" if confirmed else ""),
            "reproduce:", f"  {import_line(constructor)}",
            "  from obligations.make_randomized_response import exact_distribution",
            f"  m = {call}",
            f"  print(m.map({d_in}), m.output_measure.divergence("
            f"exact_distribution(m, {pair[0]!r}), exact_distribution(m, {pair[1]!r})))")
    return replay


def _replay_indices(constructor: Constructor) -> Callable[[dict], Replay]:
    """Run the sampler's index arithmetic on the counterexample's draws."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        m, arguments = _concrete(constructor, counterexample)
        f, t = m.function, len(arguments["categories"])
        index, sample = int(counterexample.get("i", 0)), int(counterexample.get("s", 0))
        honest = bool(counterexample.get("honest", False))
        bound = f.draw_bound(index, t)
        lie = f.lie_index(sample, index)
        chosen = f.response_index(index, lie, honest)
        problems = []
        if bound < 1:
            problems.append(f"draw_bound = {bound}: rng.randrange({bound}) raises")
        if not 0 <= sample < max(bound, 1):
            problems.append(f"sample {sample} is outside [0, {bound})")
        if not 0 <= chosen < t:
            problems.append(f"response index {chosen} is outside [0, {t})")
        if index != NOT_A_CATEGORY and lie == index:
            problems.append(f"lie_index({sample}, {index}) = {lie} tells the truth")
        distribution = exact_distribution(m, index if index != NOT_A_CATEGORY else t) \
            if bound >= 1 and all(0 <= f.lie_index(s, index) < t for s in range(bound)) else {}
        stated = {y: stated_probability(TRUTH if y == index else LIE if index != NOT_A_CATEGORY
                                        else UNIFORM, Fraction(arguments["prob"]), t)
                  for y in range(t)}
        if distribution and distribution != stated:
            problems.append(f"sampler draws {dict(sorted(distribution.items()))}, "
                            f"the stated distribution is {stated}")
        return plain_report(bool(problems), constructor_call(constructor, **arguments),
                            f"input index {index}, sample {sample}, honest {honest}",
                            *problems or ["the real code behaves as claimed here"])
    return replay


def randomized_response_obligations(constructor: Constructor = make_randomized_response,
                                    prefix: str = "randomized_response") -> tuple[Obligation, ...]:

    def index_symbols() -> tuple[Any, ...]:
        m, params, assumptions = _symbolic(constructor)
        i, s, s2 = z3.Ints("i s s2")
        honest = z3.Bool("honest")
        member = z3.And(0 <= i, i < params["t"])
        return m, params, assumptions, i, s, s2, honest, member

    def index_goals(name_prefix: str) -> list[Any]:
        m, params, assumptions, i, s, s2, honest, member = index_symbols()
        f, t = m.function, params["t"]
        drawable = z3.And(0 <= s, s < f.draw_bound(i, t))
        names = {**params, "i": i, "s": s, "honest": honest}
        chosen = f.response_index(i, f.lie_index(s, i), honest)
        replay = _replay_indices(constructor)
        return [
            _sampler_is_audited(constructor),
            Z3Goal(f"{name_prefix}: draw_bound(i, t) >= 1, so the uniform draw never fails",
                   f.draw_bound(i, t) >= 1,
                   [*assumptions, z3.Or(member, i == NOT_A_CATEGORY)], names, replay),
            Z3Goal(f"{name_prefix}: the chosen index is in [0, t), a category",
                   z3.And(0 <= chosen, chosen < t),
                   [*assumptions, z3.Or(member, i == NOT_A_CATEGORY), drawable], names, replay),
        ]

    def distribution_goals() -> list[Any]:
        m, params, assumptions, i, s, s2, honest, member = index_symbols()
        f, t, p = m.function, params["t"], params["p"]
        lie, lie2 = f.lie_index(s, i), f.lie_index(s2, i)
        drawable = lambda x: z3.And(0 <= x, x < f.draw_bound(i, t))  # noqa: E731
        names = {**params, "i": i, "s": s, "s2": s2, "honest": honest}
        replay = _replay_indices(constructor)
        t_sym, p_sym = sympy.symbols("t p", positive=True)

        def sums_to_one() -> Decision:
            member_total = stated_probability(TRUTH, p_sym, t_sym) \
                + (t_sym - 1) * stated_probability(LIE, p_sym, t_sym)
            outsider_total = t_sym * stated_probability(UNIFORM, p_sym, t_sym)
            residues = [sympy.simplify(member_total - 1), sympy.simplify(outsider_total - 1)]
            if all(r == 0 for r in residues):
                return Decision(True, detail="p + (t-1)(1-p)/(t-1) = 1 and t * 1/t = 1")
            return Decision(False, {"residues": residues}, "the stated distribution does not sum to 1")

        return [
            _sampler_is_audited(constructor),
            Z3Goal("a member's lie is a category other than the truth",
                   z3.And(0 <= lie, lie < t, lie != i),
                   [*assumptions, member, drawable(s)], names, replay),
            Z3Goal("a member's lies are t - 1 distinct draws, one per other category",
                   z3.And(f.draw_bound(i, t) == t - 1, z3.Implies(s != s2, lie != lie2)),
                   [*assumptions, member, drawable(s), drawable(s2)], names, replay),
            Z3Goal("a non-member's t draws are t distinct categories",
                   z3.And(f.draw_bound(i, t) == t, 0 <= lie, lie < t,
                          z3.Implies(s != s2, lie != lie2)),
                   [*assumptions, i == NOT_A_CATEGORY, drawable(s), drawable(s2)], names, replay),
            Z3Goal("the output is the truth exactly when honest and a member, else the lie",
                   f.response_index(i, lie, honest) == z3.If(z3.And(honest, member), i, lie),
                   [*assumptions, z3.Or(member, i == NOT_A_CATEGORY), drawable(s)], names, replay),
            Z3Goal("every stated probability lies in [0, 1]",
                   z3.And(*[z3.And(0 <= stated_probability(c, p, t), stated_probability(c, p, t) <= 1)
                            for c in (TRUTH, LIE, UNIFORM)]),
                   assumptions, params, replay),
            ComputedGoal("the stated distribution sums to 1 (SymPy)", "sympy", sums_to_one),
        ]

    def privacy_goals() -> list[Any]:
        m, params, assumptions = _symbolic(constructor)
        t, p = params["t"], params["p"]
        d_in, d_in_natural = natural("d_in")
        epsilon = m.map(d_in)
        bound = EXP(epsilon)
        pr = lambda case: stated_probability(case, p, t)  # noqa: E731
        # (description, Pr[M(x) = y], Pr[M(x') = y]) for every pair of distinct inputs and output
        cases = [
            ("x, x' categories, y = x", pr(TRUTH), pr(LIE)),
            ("x, x' categories, y = x'", pr(LIE), pr(TRUTH)),
            ("x, x' categories, y another category", pr(LIE), pr(LIE)),
            ("x a category, x' not, y = x", pr(TRUTH), pr(UNIFORM)),
            ("x a category, x' not, y another category", pr(LIE), pr(UNIFORM)),
            ("x not a category, x' a category, y = x'", pr(UNIFORM), pr(TRUTH)),
            ("x not a category, x' a category, y another", pr(UNIFORM), pr(LIE)),
            ("x, x' not categories", pr(UNIFORM), pr(UNIFORM)),
        ]
        names = {**params, "d_in": d_in}
        replay = _replay_privacy(constructor)
        facts = exp_facts(epsilon)
        goals: list[Any] = [exact_noise_goal(lambda: _concrete(constructor, {})[0]),
                            _sampler_is_audited(constructor), metric_premise(
            lambda: m, DiscreteMetric, MaxDivergence, "the privacy proof (d_in = 0 iff x = x')")]
        goals += [Z3Goal(f"d_in >= 1, {name}: Pr[M(x)=y] <= exp(map(d_in)) Pr[M(x')=y]",
                        numerator <= bound * denominator,
                        [*assumptions, *d_in_natural, d_in >= 1, *facts], names, replay)
                 for name, numerator, denominator in cases]
        goals.append(Z3Goal("d_in = 0 (x = x'): 1 <= exp(map(0))", 1 <= bound,
                            [*assumptions, *d_in_natural, d_in == 0, *facts], names, replay))
        return goals

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every input, the output is one of the categories, hence a value of their "
                   "type T: the chosen index is always in [0, t).",
                   r"\forall x:\ \mathtt{function}(x) \in \mathtt{categories}",
                   lambda: index_goals("output")),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "The discrete metric is defined on the atom domain of the category type.",
                   r"d_{Discrete} \sim \mathrm{AtomDomain}(T)",
                   lambda: [compatibility_goal(
                       constructor, lambda: [_symbolic(constructor)[0],
                                             constructor.build(categories=["a", "b"], prob=0.5)],
                       {"categories": ["a", "b", "c"], "prob": 0.5})]),
        Obligation(f"{prefix}.runtime_errors", Kind.RUNTIME_ERRORS,
                   "function(x) raises for no input x: the uniform draw has a non-empty range and "
                   "the category index stays in range, whatever x is; so whether it errors (only on "
                   "entropy failure) cannot depend on the data.",
                   r"\forall x, x':\ \mathtt{function}(x) \text{ errs} \iff "
                   r"\mathtt{function}(x') \text{ errs}",
                   lambda: index_goals("no error")),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   "The sampler draws the stated distribution: Pr[y = x] = p and Pr[y] = (1-p)/(t-1) "
                   "for each other category when x is a category; Pr[y] = 1/t when it is not. The "
                   "sampler must draw through the index kernels checked here (a uniform sample "
                   "below draw_bound, an exact Bernoulli(prob) coin, then respond).",
                   r"\Pr[M(x) = y] = \begin{cases} p & y = x \\ \frac{1-p}{t-1} & y \ne x \in C "
                   r"\\ \frac{1}{t} & x \notin C \end{cases}",
                   distribution_goals),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "For every pair of inputs and every output y, Pr[M(x) = y] <= exp(map(d_in)) "
                   "Pr[M(x') = y]; the worst ratio, p(t-1)/(1-p), is at most exp(map(1)) because "
                   "the map rounds ln up (arith.ln_up).",
                   r"\max_{x \ne x', y} \frac{\Pr[M(x) = y]}{\Pr[M(x') = y]} = "
                   r"\frac{p(t-1)}{1-p} \le e^{\mathtt{map}(1)}",
                   privacy_goals, uses=("arith.ln_up", f"{prefix}.distribution",
                                        f"{prefix}.map_rounding")),
        map_rounding_obligation(prefix, lambda: _float_symbolic(constructor), natural_d_in,
                                replay_rounding(constructor, _rounding_candidates()),
                                "ln(p (t - 1) / (1 - p)) (0 at d_in = 0)", uses=("arith.ln_up",)),
    )


IMPORT = "from mechanisms.make_randomized_response import make_randomized_response"


def catalogue_entry() -> Entry:
    return Entry("make_randomized_response", make_randomized_response,
                 randomized_response_obligations(), "randomized response over t categories",
                 (example("make_randomized_response(['a', 'b', 'c'], 0.75)", IMPORT,
                          distribution=stated_distribution),
                  example("make_randomized_response([True, False], 0.6)", IMPORT,
                          distribution=stated_distribution)), proof=True)
