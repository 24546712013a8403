"""Obligations of ``make_randomized_response``, for every ``t >= 2`` and ``p`` in ``[1/t, 1)``.

The symbolic build replaces the categories by ``t`` (a Z3 integer) and ``prob`` by a Z3 real; the
sampler's index arithmetic (``draw_bound``, ``lie_index``, ``response_index``) and the privacy
map run on those terms. The output distribution is stated below; the ``distribution`` obligation
proves that the sampler's code draws it, and ``privacy`` bounds every ratio of it. A function off
the trusted kernel (its own ``__call__`` or ``respond``) is read path by path instead: its running
``__call__`` is enumerated on stand-ins (:func:`path_law`), and the exact laws the replays compare
come from the same enumeration at concrete categories (:func:`exact_distribution`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterator

import sympy
import z3

from mechanisms import float_model, ops
from mechanisms.core import Constructor, Measurement, SymbolicSequence, length
from mechanisms.make_randomized_response import (NOT_A_CATEGORY, RandomizedResponse,
                                                 make_randomized_response)
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import DiscreteMetric
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.kernels import kernel_deviations, trusted_kernel_goal
from obligations.rounding import (Candidates, exact_floats, map_rounding_obligation, natural_d_in,
                                  replay_rounding)
from obligations.noise import exact_noise_goal
from obligations.reports import (claim_assertion, constructor_call, import_line, plain_report,
                                 reproducer, returns)
from obligations.symbols import natural
from obligations.witnesses import excluded_goals
from obligations.kernel.reviewed import reviewed
from obligations.exponential import EXP, exp_facts, ln_up_domain_goal
from obligations.path_enumeration import (Categories, Chosen, Context, Member, NotEnumerable,
                                          OutsidePathMethod, Outsider, Path, admitted_build_report,
                                          built, enumerate_paths, exact_distribution, exact_loss,
                                          exact_loss_replay, float_at_least, loss_violation,
                                          running_copy, running_loss_goal)

TRUTH, LIE, UNIFORM = "y = x", "y != x, x a category", "x not a category"


def stated_probability(case: str, prob: Any, num_categories: Any) -> Any:
    """``Pr[M(x) = y]``: ``p`` if ``y = x``; ``(1 - p) / (t - 1)`` for each other category when
    ``x`` is a category; ``1 / t`` for every category when ``x`` is not one. (A symbolic ``t`` is
    an integer-valued Z3 real, so ``1 / t`` is true division.)"""
    return {TRUTH: prob,
            LIE: (1 - prob) / (num_categories - 1),
            UNIFORM: 1 / num_categories if ops.is_symbolic(num_categories)
            else Fraction(1, num_categories)}[case]


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


SHAPES = ("truth", "others", "all")
"""What one coin branch of the sampler can do with the ``B`` uniform draws, for an input of index
``i`` among ``t`` categories: always the truth ``i``; a bijection onto the ``t - 1`` other
categories; a bijection onto all ``t``. Each gives the output law (weight on ``i``, weight on each
other category) below; a sampler whose branches have none of these shapes is outside the
counting method (its law is still compared exactly on small ``t``)."""


def shape_weights(shape: str, t: Any) -> tuple[Any, Any]:
    """``(Pr[y = i], Pr[y = c])`` for ``c != i``, given the branch: 1/0, 0/(1/(t-1)), 1/t each."""
    return {"truth": (1, 0), "others": (0, 1 / (t - 1)), "all": (1 / t, 1 / t)}[shape]


def branch_shape(f: Any, member: bool, honest: bool, t: int = 5) -> str | None:
    """The shape of one coin branch of the running kernels, by enumeration at ``t`` categories
    (index 1, or a non-member); :func:`shape_goals` then proves it for every ``t``."""
    index = 1 if member else NOT_A_CATEGORY
    bound = f.draw_bound(index, t)
    outputs = [f.response_index(index, f.lie_index(s, index), honest) for s in range(bound)] \
        if isinstance(bound, int) and 1 <= bound <= 4 * t else []
    if member and outputs and all(o == index for o in outputs):
        return "truth"
    if member and sorted(outputs) == [c for c in range(t) if c != index]:
        return "others"
    if sorted(outputs) == list(range(t)):
        return "all"
    return None


def stated_law(prob: Any, t: int, index: int) -> dict[int, Fraction]:
    """The law stated for ``make_randomized_response(range(t), prob)`` on the input of index
    ``index`` (``NOT_A_CATEGORY`` for a non-member): :func:`stated_probability`."""
    p = Fraction(prob)
    if index == NOT_A_CATEGORY:
        return {y: stated_probability(UNIFORM, p, t) for y in range(t)}
    return {y: stated_probability(TRUTH if y == index else LIE, p, t) for y in range(t)}


def _parameters(counterexample: dict[str, Any]) -> list[tuple[int, float]]:
    """``(t, prob)`` to replay: the model's (``prob`` rounded up to a float), then small simple
    ones, ``t`` in 2..5 and ``prob`` in ``1/t``, 1/2, 3/4, 9/10 (those in ``[1/t, 1)``)."""
    found: list[tuple[int, float]] = []
    if "t" in counterexample and "p" in counterexample:
        t = int(counterexample["t"])
        if 1 <= t <= 50:
            found.append((t, float_at_least(Fraction(counterexample["p"]))))
    for t in range(2, 6):
        for q in (Fraction(1, t), Fraction(1, 2), Fraction(3, 4), Fraction(9, 10)):
            if Fraction(1, t) <= q < 1:
                found.append((t, float_at_least(q)))
    return list(dict.fromkeys(found))


def _built(constructor: Constructor, t: int, prob: float) -> tuple[Measurement | None, str]:
    """``constructor(range(t), prob)``, or None and the error it raised."""
    return built(constructor, categories=list(range(t)), prob=prob)


def _law_reproducer(constructor: Constructor, call: str, t: int, prob: float) -> list[str]:
    """The ``reproduce:`` block of :func:`_law_violation`: the real sampler's exact pmf on the
    same three inputs, each asserted equal to the stated law (a draw that raises fails too)."""
    return reproducer(
        import_line(constructor), "from mechanisms.make_randomized_response import NOT_A_CATEGORY",
        "from obligations.make_randomized_response import exact_distribution, stated_law",
        f"m = {call}", f"for arg in (0, {t - 1}, {t}):",
        *[f"    {line}" for line in returns("drawn = exact_distribution(m, arg)",
                                         "a draw on {arg!r}")],
        f"    stated = stated_law({prob!r}, {t}, arg if arg < {t} else NOT_A_CATEGORY)",
        "    stated = {y: q for y, q in stated.items() if q}",
        "    " + claim_assertion("drawn == stated", "on input {arg!r} the sampler draws {drawn}, "
                                "the stated law is {stated}"))


def _law_violation(m: Measurement, t: int, prob: float) -> str:
    """How the real sampler's exact pmf (on two categories and a non-member) departs from the
    stated law, or ``""``."""
    for arg in (0, t - 1, t):
        try:
            drawn = exact_distribution(m, arg)
        except NotEnumerable:  # no exact law: nothing to confirm
            return ""
        except Exception as error:  # the real function raises on a draw
            return f"on input {arg!r} a draw raises {type(error).__name__}: {error}"
        stated = stated_law(prob, t, arg if arg < t else NOT_A_CATEGORY)
        if drawn != {y: q for y, q in stated.items() if q}:
            return f"on input {arg!r} the sampler draws {dict(sorted(drawn.items()))}, " \
                   f"the stated law is {stated}"
    return ""


def _privacy_violation(constructor: Constructor, m: Measurement, t: int, prob: float) -> str:
    """The exact loss at ``d_in`` 0 and 1 above the map, or ``""``."""
    return loss_violation(lambda d_in: _privacy_loss(constructor, m, t, prob, d_in), (1, 0))


def _replay_law(constructor: Constructor) -> Callable[[dict], Replay]:
    """The real sampler's exact pmf (every draw through ``respond``, exact coin) against the law
    stated for the arguments, on two categories and a non-member, at the model's ``(t, p)`` and
    small ones: confirmed when the pmf differs or a draw raises."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        for t, prob in _parameters(counterexample):
            m, _ = _built(constructor, t, prob)
            found = _law_violation(m, t, prob) if m is not None else ""
            if found:
                call = constructor_call(constructor, categories=list(range(t)), prob=prob)
                return plain_report(True, call, found, *_law_reproducer(constructor, call, t, prob))
        return plain_report(False, "the real sampler draws the stated law on every probe")
    return replay


def _replay_privacy(constructor: Constructor) -> Callable[[dict], Replay]:
    """Exact output distributions of the real sampler on every pair of inputs among the first
    two categories and one non-member; the largest ratio against ``exp(map(d_in))``, at the
    model's ``(t, p, d_in)`` and small ones."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        return exact_loss_replay(
            int(counterexample.get("d_in", 1)), _parameters(counterexample),
            lambda point: _built(constructor, *point)[0],
            lambda m, point, d_in: _privacy_loss(constructor, m, *point, d_in),
            lambda error: f"a draw raises {type(error).__name__}: {error} "
                          "(output_domain and runtime_errors report it)")
    return replay


def _running_loss_goal(constructor: Constructor) -> ComputedGoal:
    """Goal: at the small parameters of :func:`_parameters` (``t`` in 2..5, ``prob`` in ``1/t``,
    1/2, 3/4, 9/10), the built object's map, computed on numbers as it runs, is at or above the
    exact privacy loss of its running sampler (exact pmfs, ``d_in`` 0 and 1). It evaluates the
    body that runs on numbers, which the symbolic goals do not see when the code branches on
    solver terms; it proves nothing beyond these parameters."""
    points = _parameters({})

    def violation(point: tuple[int, float]) -> str:
        m, _ = _built(constructor, *point)
        return _privacy_violation(constructor, m, *point) if m is not None else ""
    return running_loss_goal(
        f"the running map bounds the running sampler's exact loss at {len(points)} small "
        "parameters (t <= 5)", points, violation, lambda point: {"t": point[0], "p": point[1]},
        f"the exact loss is within the map at {len(points)} parameters",
        _replay_privacy(constructor))


def _privacy_loss(constructor: Constructor, m: Measurement, t: int, prob: float,
                  d_in: int) -> tuple[bool, list[str]]:
    """:func:`exact_loss` on two categories and a non-member, by ``m``'s own output measure."""
    return exact_loss(constructor, {"categories": list(range(t)), "prob": prob}, m, d_in,
                      [0, 1, t], exact_distribution, lambda m: m.output_measure,
                      "m.output_measure", f"; {t} is not a category",
                      ["from obligations.make_randomized_response import exact_distribution"])


def _replay_constructor(constructor: Constructor) -> Callable[[dict], Replay]:
    """Build at the model's ``(t, p)``: confirmed when the constructor admits the parameters (no
    typed precondition error) yet fails inside its body (``ln_up`` of an argument below 1)."""
    def replay(counterexample: dict[str, Any]) -> Replay:
        for t, prob in _parameters(counterexample)[:1] or [(3, 0.25)]:
            call = constructor_call(constructor, categories=list(range(t)), prob=prob)
            if not all(ops.truthy(c) for c in constructor.assumptions(
                    categories=list(range(t)), prob=prob)):
                return plain_report(False, call, "the preconditions refuse these parameters")
            return admitted_build_report(constructor, call, *_built(constructor, t, prob))
        return plain_report(False, "no parameters to replay")
    return replay


KERNELS = ("draw_bound", "lie_index", "response_index")
"""The members of :class:`RandomizedResponse` whose code the kernel route runs on terms."""


def _sampler_is_audited(constructor: Constructor) -> ComputedGoal:
    return trusted_kernel_goal(
        "the randomized response function",
        lambda: constructor(categories=[0, 1, 2], prob=0.5).function, RandomizedResponse,
        checked=KERNELS)


# ---------------------------------------------------------------- the law of the code that runs


@dataclass(frozen=True)
class PathLaw:
    """The running ``__call__`` enumerated on ``t`` symbolic categories, for a member of index
    ``i`` and for a non-member: per path its shape (:data:`SHAPES`, found at ``t = 5``), the
    goals that prove each shape and the output range for every ``t``, and the law they give,
    ``(Pr[y = x], Pr[y = c != x], Pr[y] for a non-member)``, or None when a path has no shape."""

    goals: list[Any]
    law: tuple[Any, Any, Any] | None
    shapes: list[str | None]


def _at_five(term: Any, t: Any, i: Any, p: Any) -> Any:
    """``term`` at ``t = 5``, ``i = 1``, ``p = 1/2`` as a Python int, or None."""
    value = z3.simplify(z3.substitute(term, (t, z3.RealVal(5)), (i, z3.IntVal(1)),
                                      (p, z3.RealVal(Fraction(1, 2)))) if ops.is_z3(term)
                        else z3.IntVal(term))
    if z3.is_int_value(value):
        return value.as_long()
    exact = value.as_fraction() if z3.is_rational_value(value) else None
    return int(exact) if exact is not None and exact.denominator == 1 else None


def _path_shape(path: Path, member: bool, t: Any, i: Any, p: Any) -> str | None:
    """The shape of one path, by enumerating its draw at ``t = 5`` (input index 1 or none)."""
    if path.raised is not None or not type(path.output) is Chosen or len(path.draws) > 1:
        return None
    if not path.draws:
        return "truth" if member and _at_five(path.output.index, t, i, p) == 1 else None
    (s, bound), = path.draws
    b = _at_five(bound, t, i, p)
    if b is None or not 1 <= b <= 20:
        return None
    outputs = [_at_five(z3.substitute(path.output.index, (s, z3.IntVal(v)))
                        if ops.is_z3(path.output.index) else path.output.index, t, i, p)
               for v in range(b)]
    if member and outputs == [1] * b:
        return "truth"
    if member and sorted(outputs) == [0, 2, 3, 4]:
        return "others"
    return "all" if sorted(outputs) == [0, 1, 2, 3, 4] else None


def _shape_claim(shape: str, path: Path, t: Any, i: Any) -> tuple[Any, list[Any], dict[str, Any]]:
    """For every parameter: the draw maps to the truth, to the ``t - 1`` others one each, or to
    all ``t`` one each (injective, image inside the set, as many draws as its points)."""
    out = path.output.index
    if not path.draws:
        return out == i, [], {}
    (s, bound), = path.draws
    s2 = float_model.as_int(z3.Int(f"{s}_other"))
    out2 = z3.substitute(out, (s, s2)) if ops.is_z3(out) else out
    injective = z3.Implies(s != s2, out != out2)
    claim = {"truth": z3.And(out == i),
             "others": z3.And(bound == t - 1, 0 <= out, out < t, out != i, injective),
             "all": z3.And(bound == t, 0 <= out, out < t, injective)}[shape]
    return claim, [0 <= s, s < bound, 0 <= s2, s2 < bound], {"s": s, "s'": s2}


def path_law(f: Any, params: dict[str, Any], assumptions: list[Any],
             replay: Callable[[dict], Replay]) -> PathLaw:
    """:class:`PathLaw` of the running function ``f`` of the symbolic build (``t`` categories,
    ``prob`` the field's term); :class:`OutsidePathMethod` when its code leaves the method."""
    t_real = length(f.categories)
    t = float_model.as_int(z3.ToInt(t_real))
    i = float_model.as_int(z3.Int("i"))
    goals: list[Any] = []
    shapes: list[str | None] = []
    weights: dict[tuple[bool, str], Any] = {}
    for member in (True, False):
        who = [0 <= i, i < t] if member else []
        context = Context([*assumptions, *who])
        clone = running_copy(f, context, Categories(t))
        arg = Member(i) if member else Outsider(None)
        for path in enumerate_paths(lambda rng: clone(arg, rng), context, limit=0, most=64):
            names = {**params, "running t": t, "i": i}
            what = f"{'a member' if member else 'a non-member'}, the path of probability " \
                   f"{path.weight}"
            if path.raised is not None:
                goals.append(Z3Goal(f"{what} raises no {type(path.raised).__name__} "
                                    f"({path.raised})", z3.BoolVal(False), context.assumptions,
                                    names, replay))
                continue
            if not type(path.output) is Chosen:
                raise OutsidePathMethod(f"{what} returns {path.output!r}, not a category")
            shape = _path_shape(path, member, t_real, i, params["p"])
            shapes.append(shape)
            index = path.output.index
            drawn = [c for s, b in path.draws for c in (0 <= s, s < b)]
            goals.append(Z3Goal(f"{what}: the output index is in [0, t), a category",
                                z3.And(0 <= index, index < t), [*context.assumptions, *drawn],
                                {**names, **{str(s): s for s, _ in path.draws}}, replay))
            if shape is None:
                continue
            claim, drawable, extra = _shape_claim(shape, path, t, i)
            goals.append(Z3Goal(f"{what}: the draws map to {shape} (for every t)", claim,
                                [*context.assumptions, *drawable], {**names, **extra}, replay))
            weights[member, shape] = weights.get((member, shape), 0) + path.weight
    if None in shapes or any(shape != "all" for member, shape in weights if not member):
        return PathLaw(goals, None, shapes)
    truth = sum((w * shape_weights(shape, t_real)[0] for (member, shape), w in weights.items()
                 if member), z3.RealVal(0))
    other = sum((w * shape_weights(shape, t_real)[1] for (member, shape), w in weights.items()
                 if member), z3.RealVal(0))
    uniform = weights.get((False, "all"), 0) / t_real
    return PathLaw(goals, (truth, other, uniform), shapes)


def excluded_categories(constructor: Constructor) -> list[ComputedGoal]:
    """Category lists the proof (one type ``T`` for inputs and outputs, distinct, hashable) does
    not cover are refused; if one builds, its function is run on those categories."""
    return excluded_goals(constructor, [
        ({"categories": [0, "a"], "prob": 0.75}, "categories of two types"),
        ({"categories": ["a", 0, 1], "prob": 0.75}, "categories of two types"),
        ({"categories": [0, 1, 1], "prob": 0.75}, "a repeated category")],
        inputs=[0, 1, "a"], draws=20)


@reviewed
def randomized_response_obligations(constructor: Constructor = make_randomized_response,
                                    prefix: str = "randomized_response") -> tuple[Obligation, ...]:

    def running() -> tuple[Measurement, dict[str, Any], list[Any], Any, Any]:
        """The symbolic build, its parameters, the preconditions, and the running function's own
        category count and coin probability."""
        m, params, assumptions = _symbolic(constructor)
        f = m.function
        return m, params, assumptions, length(f.categories), ops.exact(f.prob)

    def shapes() -> dict[tuple[bool, bool], str | None]:
        f = constructor(categories=[0, 1, 2], prob=0.5).function
        return {(member, honest): branch_shape(f, member, honest)
                for member in (True, False) for honest in (True, False)}

    found: dict[str, tuple[PathLaw | None, str]] = {}

    def route() -> tuple[PathLaw | None, str]:
        """``(None, "")`` when the running function is the trusted kernel (its checked kernels
        carry the proof); else its :func:`path_law`, or why its code is outside that method."""
        if "route" in found:
            return found["route"]
        m, params, assumptions, _, _ = running()
        functions = (constructor(categories=[0, 1, 2], prob=0.5).function, m.function)
        if not any(kernel_deviations(f, RandomizedResponse, KERNELS) for f in functions):
            found["route"] = None, ""
            return found["route"]
        try:
            found["route"] = path_law(m.function, params, assumptions,
                                      _replay_law(constructor)), ""
        except OutsidePathMethod as outside:
            found["route"] = None, str(outside) or type(outside).__name__
        return found["route"]

    def audited() -> list[Any]:
        """The trusted kernel, or a running ``__call__`` that the path enumeration covers."""
        law, outside = route()
        if law is None and not outside:
            return [_sampler_is_audited(constructor)]

        def decide() -> Decision:
            if outside:
                return Decision(False, {"outside": outside}, "the running function is not the "
                                f"trusted kernel and its code leaves the path method: {outside}",
                                unsupported=True)
            return Decision(True, detail=f"{len(law.shapes)} paths enumerated")
        return [ComputedGoal("the running function's own __call__ runs on t symbolic categories, "
                             "symbolic uniform draws and exact coins (every path enumerated)",
                             "structure", decide)]

    def shape_goals() -> list[Any]:
        """Each coin branch has, for every ``t``, the shape enumeration found at ``t = 5``; for
        a function off the trusted kernel, each path of its running ``__call__``."""
        law, outside = route()
        if law is not None or outside:
            return law.goals if law is not None else []
        m, params, assumptions, t, _ = running()
        f = m.function
        i, s, s2 = z3.Ints("i s s2")
        member = z3.And(0 <= i, i < t)
        replay = _replay_law(constructor)
        goals: list[Any] = []
        for (is_member, honest), shape in shapes().items():
            if shape is None:
                continue
            who = member if is_member else i == NOT_A_CATEGORY
            bound = f.draw_bound(i, t)
            out = f.response_index(i, f.lie_index(s, i), z3.BoolVal(honest))
            out2 = f.response_index(i, f.lie_index(s2, i), z3.BoolVal(honest))
            drawable = [0 <= s, s < bound, 0 <= s2, s2 < bound]
            claim = {"truth": z3.And(bound >= 1, out == i),
                     "others": z3.And(bound == t - 1, 0 <= out, out < t, out != i,
                                      z3.Implies(s != s2, out != out2)),
                     "all": z3.And(bound == t, 0 <= out, out < t,
                                   z3.Implies(s != s2, out != out2))}[shape]
            goals.append(Z3Goal(
                f"{'a member' if is_member else 'a non-member'}, coin {honest}: the draws map to "
                + {"truth": "the truth", "others": "the t - 1 other categories, one each",
                   "all": "all t categories, one each"}[shape] + " (for every t)",
                claim, [*assumptions, who, *drawable],
                {**params, "i": i, "s": s, "s2": s2}, replay))
        return goals

    def code_law(t: Any, prob: Any) -> tuple[Any, Any, Any] | None:
        """``(Pr[y = x], Pr[y = c != x])`` of the running sampler for a member ``x`` and
        ``Pr[y]`` for a non-member, from its coin and branch shapes (or its paths); None when a
        shape is outside the counting method."""
        law, outside = route()
        if law is not None or outside:
            return law.law if law is not None else None
        found = shapes()
        if None in found.values() or found[False, True] != "all" or found[False, False] != "all":
            return None
        (truth_h, other_h), (truth_l, other_l) = (shape_weights(found[True, h], t)
                                                  for h in (True, False))
        return (prob * truth_h + (1 - prob) * truth_l, prob * other_h + (1 - prob) * other_l,
                1 / t)

    def outside_method(what: str, privacy: bool) -> ComputedGoal:
        """A sampler outside the counting method: its exact law (or loss) on ``t`` in 2..5 is
        compared with the claim; a difference refutes (the replay runs it again), agreement
        leaves it unsupported, never proved."""
        def decide() -> Decision:
            for t, prob in _parameters({}):
                m, _ = _built(constructor, t, prob)
                if m is None:
                    continue
                found = _privacy_violation(constructor, m, t, prob) if privacy else \
                    _law_violation(m, t, prob)
                if found:
                    return Decision(False, {"t": t, "p": Fraction(prob), "d_in": 1}, found)
            return Decision(False, {"branch shapes": str(shapes())},
                            f"{what}: a coin branch of the sampler is none of {SHAPES} (or a "
                            "non-member is not answered uniformly); its exact "
                            f"{'loss' if privacy else 'law'} matches the claim for t <= 5",
                            unsupported=True)
        return ComputedGoal(f"{what}: the sampler's branches are in the counting method, or its "
                            "exact law on small t breaks the claim", "structure", decide,
                            _replay_privacy(constructor) if privacy else _replay_law(constructor))

    def domain_goals(name_prefix: str) -> list[Any]:
        """The function returns a category on every input: the draw and the coin never raise,
        and the chosen index is in ``[0, t)`` (``t`` the running function's own count)."""
        m, params, assumptions, t, prob = running()
        f = m.function
        i, s = z3.Ints("i s")
        honest = z3.Bool("honest")
        who = z3.Or(z3.And(0 <= i, i < t), i == NOT_A_CATEGORY)
        names = {**params, "i": i, "s": s, "honest": honest}
        chosen = f.response_index(i, f.lie_index(s, i), honest)
        replay = _replay_law(constructor)
        if route() != (None, ""):
            return [*audited(), *shape_goals()]
        return [
            _sampler_is_audited(constructor),
            Z3Goal(f"{name_prefix}: draw_bound(i, t) >= 1, so the uniform draw never fails",
                   f.draw_bound(i, t) >= 1, [*assumptions, who], names, replay),
            Z3Goal(f"{name_prefix}: the running coin probability is in [0, 1], so the exact "
                   "Bernoulli never raises", z3.And(0 <= prob, prob <= 1), assumptions,
                   {**params, "running prob": prob}, replay),
            Z3Goal(f"{name_prefix}: the chosen index is in [0, t), a category",
                   z3.And(0 <= chosen, chosen < t),
                   [*assumptions, who, 0 <= s, s < f.draw_bound(i, t)], names, replay),
        ]

    def distribution_goals() -> list[Any]:
        m, params, assumptions, t, prob = running()
        replay = _replay_law(constructor)
        names = {**params, "running t": t, "running prob": prob}
        law = code_law(t, prob)
        t_sym, p_sym = sympy.symbols("t p", positive=True)

        def sums_to_one() -> Decision:
            member_total = stated_probability(TRUTH, p_sym, t_sym) \
                + (t_sym - 1) * stated_probability(LIE, p_sym, t_sym)
            outsider_total = t_sym * stated_probability(UNIFORM, p_sym, t_sym)
            residues = [sympy.simplify(member_total - 1), sympy.simplify(outsider_total - 1)]
            if all(r == 0 for r in residues):
                return Decision(True, detail="p + (t-1)(1-p)/(t-1) = 1 and t * 1/t = 1")
            return Decision(False, {"residues": residues}, "the stated distribution does not sum to 1")

        goals: list[Any] = [
            *audited(),
            Z3Goal("the running function has the argument's t categories",
                   t == params["t"], assumptions, names, replay),
            ComputedGoal("the stated distribution sums to 1 (SymPy)", "sympy", sums_to_one),
            Z3Goal("every stated probability lies in [0, 1]",
                   z3.And(*[z3.And(0 <= stated_probability(c, params["p"], params["t"]),
                                   stated_probability(c, params["p"], params["t"]) <= 1)
                            for c in (TRUTH, LIE, UNIFORM)]), assumptions, params, replay),
            *shape_goals(),
        ]
        if law is None:
            return goals + [outside_method("the law", False)]
        truth, other, uniform = law
        p = params["p"]
        return goals + [
            Z3Goal("the sampler's Pr[y = x] (its coin and branch shapes) is the stated p",
                   truth == stated_probability(TRUTH, p, params["t"]), assumptions, names,
                   replay),
            Z3Goal("the sampler's Pr[y = c] for each other category is the stated (1-p)/(t-1)",
                   other == stated_probability(LIE, p, params["t"]), assumptions, names, replay),
            Z3Goal("the sampler's Pr[y] for a non-member is the stated 1/t",
                   uniform == stated_probability(UNIFORM, p, params["t"]), assumptions, names,
                   replay),
        ]

    def privacy_goals() -> list[Any]:
        m, params, assumptions, t, prob = running()
        d_in, d_in_natural = natural("d_in")
        epsilon = m.map(d_in)
        bound = EXP(epsilon)
        names = {**params, "d_in": d_in, "running t": t, "running prob": prob}
        replay = _replay_privacy(constructor)
        goals: list[Any] = [exact_noise_goal(lambda: _built(constructor, 3, 0.5)[0]),
                            *audited(), metric_premise(
            lambda: m, DiscreteMetric, MaxDivergence, "the privacy proof (d_in = 0 iff x = x')"),
            ln_up_domain_goal("the map", epsilon, [*assumptions, *d_in_natural], names,
                              _replay_constructor(constructor)), *shape_goals(),
                            _running_loss_goal(constructor)]
        law = code_law(t, prob)
        if law is None:
            return goals + [outside_method("privacy", True)]
        truth, other, uniform = law
        # (description, Pr[M(x) = y], Pr[M(x') = y]) for every pair of distinct inputs and output
        cases = [
            ("x, x' categories, y = x", truth, other),
            ("x, x' categories, y = x'", other, truth),
            ("x, x' categories, y another category", other, other),
            ("x a category, x' not, y = x", truth, uniform),
            ("x a category, x' not, y another category", other, uniform),
            ("x not a category, x' a category, y = x'", uniform, truth),
            ("x not a category, x' a category, y another", uniform, other),
            ("x, x' not categories", uniform, uniform),
        ]
        facts = exp_facts(epsilon)
        goals += [Z3Goal(f"d_in >= 1, {name}: Pr[M(x)=y] <= exp(map(d_in)) Pr[M(x')=y] (the "
                         "running sampler's law)", numerator <= bound * denominator,
                         [*assumptions, *d_in_natural, d_in >= 1, *facts], names, replay)
                  for name, numerator, denominator in cases]
        goals.append(Z3Goal("d_in = 0 (x = x'): 1 <= exp(map(0))", 1 <= bound,
                            [*assumptions, *d_in_natural, d_in == 0, *facts], names, replay))
        return goals

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every input, the function returns one of the categories, hence a value "
                   "of their type T: the draw and the coin never raise and the chosen index is "
                   "in [0, t), t the running function's own category count.",
                   r"\forall x:\ \mathtt{function}(x) \in \mathtt{categories}",
                   lambda: [*domain_goals("output"), *excluded_categories(constructor)]),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "The discrete metric is defined on the atom domain of the category type.",
                   r"d_{Discrete} \sim \mathrm{AtomDomain}(T)",
                   lambda: [compatibility_goal(
                       constructor, lambda: [_symbolic(constructor)[0],
                                             constructor.build(categories=["a", "b"], prob=0.5)],
                       {"categories": ["a", "b", "c"], "prob": 0.5})]),
        Obligation(f"{prefix}.runtime_errors", Kind.RUNTIME_ERRORS,
                   "function(x) raises for no input x: the uniform draw has a non-empty range, "
                   "the coin's probability is in [0, 1] and the category index stays in range, "
                   "whatever x is; so whether it errors (only on entropy failure) cannot depend "
                   "on the data.",
                   r"\forall x, x':\ \mathtt{function}(x) \text{ errs} \iff "
                   r"\mathtt{function}(x') \text{ errs}",
                   lambda: domain_goals("no error")),
        Obligation(f"{prefix}.distribution", Kind.DISTRIBUTION,
                   "The running sampler draws the law stated for the arguments: Pr[y = x] = p and "
                   "Pr[y] = (1-p)/(t-1) for each other category when x is a category; Pr[y] = 1/t "
                   "when it is not. Its law is computed from its own coin probability and "
                   "category count and, for each coin branch, the set of draws mapping to each "
                   "category (the truth, the t - 1 others one each, or all t one each), proved "
                   "for every t.",
                   r"\Pr[M(x) = y] = \begin{cases} p & y = x \\ \frac{1-p}{t-1} & y \ne x \in C "
                   r"\\ \frac{1}{t} & x \notin C \end{cases}",
                   distribution_goals),
        Obligation(f"{prefix}.privacy", Kind.PRIVACY,
                   "For every pair of inputs and every output y, Pr[M(x) = y] <= exp(map(d_in)) "
                   "Pr[M(x') = y], Pr the running sampler's law; the worst ratio, p(t-1)/(1-p), is "
                   "at most exp(map(1)) because the map rounds ln up (arith.ln_up), whose "
                   "argument is >= 1 for every admitted parameter.",
                   r"\max_{x \ne x', y} \frac{\Pr[M(x) = y]}{\Pr[M(x') = y]} = "
                   r"\frac{p(t-1)}{1-p} \le e^{\mathtt{map}(1)}",
                   privacy_goals, uses=("arith.ln_up", f"{prefix}.map_rounding")),
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
