"""Obligations of ``make_resize``, for every ``size >= 1``, every row domain shape (bounded or not,
float64 with or without NaN, int) with symbolic bounds, and every constant of the row domain.

The checked forms run the constructor's own ``build`` on Z3 terms: its key, its pad count, its
domains and its map. Stability rests on a resize lemma proved here by induction over the distinct
row values in key order (unbounded): one inserted row changes the output multiset by at most 2.
"""

from __future__ import annotations

import itertools
from typing import Any

import z3

from mechanisms import float_model, ops
from mechanisms.core import Constructor
from mechanisms.domains import AtomDomain
from mechanisms.make_resize import Resize, make_resize
from obligations.kernels import trusted_kernel_goal
from mechanisms.metrics import SymmetricDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.reports import (Code, constructor_call, constructor_report, import_line,
                                 output_report, plain_report, stability_reproducer)
from obligations.witnesses import excluded_goals, witness_goal
from obligations.int_maps import int_map_rounding, large_candidates
from obligations.symbols import float64, integer, natural_int, same_element
from obligations.kernel.reviewed import reviewed

SHAPES: dict[str, tuple[type, Any, bool, bool]] = {
    "bounded float64": (float, float64, True, False),
    "float64 with NaN": (float, float64, False, True),
    "float64": (float, float64, False, False),
    "bounded int": (int, integer, True, False),
    "int": (int, integer, False, False),
}
"""Row domains quantified over: ``(carrier, solver constant, bounded, nan)``."""

STEP_BOUND = 2
"""The resize lemma: one insertion or deletion moves the output multiset by at most 2."""


def _domain(carrier: type, bounds: tuple[Any, Any] | None, nan: bool) -> AtomDomain:
    return AtomDomain(carrier, bounds=bounds, nan=nan)


def _symbolic(constructor: Constructor, shape: str) -> tuple[Any, dict[str, Any], list[Any]]:
    """The constructor's ``build`` on a symbolic size, constant and bounds, and its preconditions."""
    carrier, make, bounded, nan = SHAPES[shape]
    names = {"size": float_model.int_parameter("size"), "constant": make("constant")}
    if bounded:
        names.update(lower=make("lower"), upper=make("upper"))
    domain = _domain(carrier, (names["lower"], names["upper"]) if bounded else None, nan)
    arguments = {"size": names["size"], "constant": names["constant"], "atom_domain": domain}
    return constructor.build(**arguments), names, constructor.assumptions(**arguments)


def _concrete(constructor: Constructor, shape: str, model: dict[str, Any]) -> tuple[Any, dict]:
    """A concrete construction from a model: its size, bounds and constant where it gives them."""
    carrier, _, bounded, nan = SHAPES[shape]
    bounds = (carrier(model.get("lower", 0)), carrier(model.get("upper", 1))) if bounded else None
    domain = _domain(carrier, bounds, nan)
    arguments = {"size": max(1, int(model.get("size", 1))),
                 "constant": carrier(model.get("constant", bounds[0] if bounds else 0)),
                 "atom_domain": domain}
    shown = {**arguments, "atom_domain": _domain_call(carrier, bounds, nan)}
    return constructor(**arguments), shown


def _domain_call(carrier: type, bounds: tuple[Any, Any] | None, nan: bool) -> Code:
    parts = [carrier.__name__] + ([f"bounds={bounds!r}"] if bounds else []) \
        + (["nan=True"] if nan else [])
    return Code(f"AtomDomain({', '.join(parts)})", *IMPORTS)


IMPORTS = ("from mechanisms.domains import AtomDomain",)


def _is_resize(constructor: Constructor) -> ComputedGoal:
    """The function is a :class:`Resize` running its own ``__call__`` (sort by key, keep size
    rows, pad); its ``key`` and ``pad`` are checked by the goals that run them on the object."""
    return trusted_kernel_goal(
        "the function (sort by key, keep size rows, pad)",
        lambda: constructor.build(size=2, constant=0.0, atom_domain=AtomDomain(float)).function,
        Resize)


def _replay_output(constructor: Constructor, shape: str):
    """Run the model's row (or none, and ``length`` copies of the constant) through the code."""
    def replay(model: dict[str, Any]) -> Replay:
        t, shown = _concrete(constructor, shape, model)
        carrier = SHAPES[shape][0]
        data = [carrier(model["x"])] if "x" in model else \
            [shown["constant"]] * min(int(model.get("length", 0)), 10_000)
        output = t(data)
        confirmed = not t.output_domain.member(output)
        return output_report(constructor, shown, data, output, confirmed,
                             f"output domain {t.output_domain}, member: {not confirmed}")
    return replay


def _replay_order(constructor: Constructor, shape: str):
    """``[x, y]`` and ``[y, x]`` are the same multiset; with ``size = 1`` both keep one row."""
    def replay(model: dict[str, Any]) -> Replay:
        t, shown = _concrete(constructor, shape, {**model, "size": 1})
        carrier = SHAPES[shape][0]
        v = [carrier(model["x"]), carrier(model["y"])]
        w = v[::-1]
        d_in = t.input_metric.distance(v, w)
        observed = t.output_metric.distance(t(v), t(w))
        return constructor_report(constructor, shown, v, w, d_in, t.map(d_in), observed,
                                  observed > t.map(d_in))
    return replay


def _replay_insertion(constructor: Constructor):
    """Every vector over ``{0.0, 1.0, 2.0}`` of length <= 3 and one inserted row, sizes 1..3."""
    def replay(_: dict[str, Any]) -> Replay:
        domain = AtomDomain(float, bounds=(0.0, 2.0))
        for size in (1, 2, 3):
            t = constructor(size=size, constant=1.0, atom_domain=domain)
            shown = {"size": size, "constant": 1.0,
                     "atom_domain": _domain_call(float, (0.0, 2.0), False)}
            for length in range(4):
                for v in itertools.product((0.0, 1.0, 2.0), repeat=length):
                    for extra in (0.0, 1.0, 2.0):
                        v, w = list(v), [*v, extra]
                        observed = t.output_metric.distance(t(v), t(w))
                        if observed > t.map(1):
                            return constructor_report(constructor, shown, v, w, 1, t.map(1),
                                                      observed, True)
        return plain_report(False, "no insertion into a vector over {0, 1, 2} of length <= 3 "
                            "moves the output by more than map(1)")
    return replay


def _replay_map(constructor: Constructor):
    """``v = []`` and ``w = [x] * d`` with ``x != constant`` and ``size >= d``: distance ``2d``."""
    def replay(model: dict[str, Any]) -> Replay:
        d_in, d = int(model["d_in"]), int(model["d"])
        domain = AtomDomain(float, bounds=(0.0, 1.0))
        arguments = {"size": max(1, d), "constant": 0.0, "atom_domain": domain}
        t = constructor(**arguments)
        v, w = [], [1.0] * d
        observed = t.output_metric.distance(t(v), t(w))
        shown = {**arguments, "atom_domain": _domain_call(float, (0.0, 1.0), False)}
        return constructor_report(constructor, shown, v, w, d_in, t.map(d_in), observed,
                                  observed > t.map(d_in))
    return replay


def _key_equal(a: tuple[Any, ...], b: tuple[Any, ...]) -> Any:
    return ops.all_of(*(ops.eq(p, q) for p, q in zip(a, b)))


def _key_comparable(a: tuple[Any, ...]) -> Any:
    return ops.all_of(*(ops.negate(ops.is_nan(p)) for p in a))


def _lemma_goals(constructor: Constructor) -> list[Any]:
    """The resize lemma for one insertion, by induction over the distinct values in key order.

    ``P`` counts the rows of ``v`` up to the current value; the output keeps ``min(s, P)`` of them
    (Python's slice) and the inserted row adds a gain ``g = min(s, P + 1) - min(s, P)`` from its
    value on. ``D`` sums ``|g_j - g_(j-1)|``, the change of each value's kept count."""
    t, names, assumptions = _symbolic(constructor, "int")
    if not isinstance(t.function, Resize):
        return [_is_resize(constructor)]
    s, pad = t.function.size, t.function.pad
    kept = lambda p: ops.minimum(s, p)  # noqa: E731
    gain = lambda p: kept(p + 1) - kept(p)  # noqa: E731
    p, h, n, d, g, big_g = z3.Ints("P h n D g G")
    invariant = z3.And(d + g == 2 * big_g, 0 <= g, g <= big_g, big_g <= 1, g == gain(p))
    replay = _replay_insertion(constructor)
    size_ok = [*assumptions]
    return [
        Z3Goal("lemma, at the inserted value: D = g(p) is 0 or 1 (one row more in the prefix)",
               z3.And(0 <= gain(p), gain(p) <= 1),
               [*size_ok, p >= 0], {"size": s, "P": p}, replay),
        Z3Goal("lemma, each later value (count h >= 0): the gain does not grow, D + g = 2 g(p)",
               z3.And(d + ops.absolute(gain(p + h) - g) + gain(p + h) == 2 * big_g,
                      0 <= gain(p + h), gain(p + h) <= g),
               [*size_ok, p >= 0, h >= 0, invariant],
               {"size": s, "P": p, "h": h, "D": d, "g": g, "G": big_g}, replay),
        Z3Goal("lemma, after the last value: the pad shrinks by the final gain g(|v|), so "
               "d_sym(f(v), f(v + z)) <= D + g(|v|) = 2 g(p) <= 2",
               z3.And(pad(n, s) - pad(n + 1, s) == gain(n), d + gain(n) <= STEP_BOUND),
               [*size_ok, n >= 0, d + g == 2 * big_g, big_g <= 1, g == gain(n)],
               {"size": s, "n": n, "D": d, "g": g, "G": big_g}, replay),
    ]


def _running_resize(constructor: Constructor) -> list[Any]:
    """The running function on vectors shorter than, as long as and longer than ``size`` (pad,
    keep, truncate), float and int rows: the symbolic goals read its key, pad and constant, not
    the body of ``__call__``, which these runs execute."""
    floats = AtomDomain(float, bounds=(0.0, 1.0))
    return [
        witness_goal(constructor, {"size": 3, "constant": 0.5, "atom_domain": floats},
                     {"size": 3, "constant": 0.5,
                      "atom_domain": _domain_call(float, (0.0, 1.0), False)},
                     inputs=[[], [0.25], [1.0, 0.0, 0.25], [1.0, 0.0, 0.25, 0.75, 0.0]]),
        witness_goal(constructor, {"size": 2, "constant": 7, "atom_domain": AtomDomain(int)},
                     {"size": 2, "constant": 7, "atom_domain": _domain_call(int, None, False)},
                     inputs=[[], [3], [5, -1, 2]]),
        *excluded_goals(constructor, [
            ({"size": 0, "constant": 7, "atom_domain": AtomDomain(int)}, "size 0 (size >= 1)",
             {"size": 0, "constant": 7, "atom_domain": _domain_call(int, None, False)}),
            ({"size": 2, "constant": "a", "atom_domain": AtomDomain(str)},
             "rows of str (float or int rows)",
             {"size": 2, "constant": "a", "atom_domain": Code("AtomDomain(str)", *IMPORTS)})],
            inputs=[[], [3], [5, -1, 2], ["b", "a", "c"]]),
    ]


PROBE_PAIRS = (([1, 2], [2, 1]), ([3, 1, 2], [2, 3, 1]), ([1], [1, 2]), ([2, 1, 3], [1, 3]),
               ([], [5]), ([4, 4], [4]))
"""Neighbouring int vectors: permutations (distance 0) and one row added or removed."""


def _probe(constructor: Constructor, size: int, v: list, w: list) -> tuple[Any, Any, Any, Any]:
    """``(d_in, d_out, map(d_in), (t(v), t(w)))`` of the real resize to ``size`` rows."""
    t = constructor(size=size, constant=0, atom_domain=AtomDomain(int))
    outputs = (t(v), t(w))
    d_in = t.input_metric.distance(v, w)
    return d_in, t.output_metric.distance(*outputs), t.map(d_in), outputs


def _running_stability(constructor: Constructor) -> ComputedGoal:
    """The running function on :data:`PROBE_PAIRS` at sizes 1..3: the output distance never
    exceeds ``map(d_in)``. Runs refute (a reordering-sensitive ``__call__``), never prove."""
    def decide() -> Decision:
        runs = 0
        for size, (v, w) in itertools.product((1, 2, 3), PROBE_PAIRS):
            d_in, d_out, claimed, _ = _probe(constructor, size, v, w)
            runs += 1
            if d_out > claimed:
                return Decision(False, {"size": size, "v": v, "w": w},
                                f"the running function moves {v} -> {w} (d_in = {d_in}) by {d_out}")
        return Decision(True, detail=f"no violation in {runs} runs (runs can refute, not prove)")

    def replay(counterexample: dict[str, Any]) -> Replay:
        size, v, w = counterexample["size"], counterexample["v"], counterexample["w"]
        d_in, d_out, claimed, outputs = _probe(constructor, size, v, w)
        call = constructor_call(constructor, size=size, constant=0,
                                atom_domain=Code("AtomDomain(int)", *IMPORTS))
        return plain_report(d_out > claimed, call, f"inputs v = {v}, w = {w} (d_in = {d_in})",
                            f"outputs {outputs[0]} and {outputs[1]}",
                            f"claimed  map(d_in) = {claimed}",
                            f"observed d_out = {d_out}"
                            + ("  > claimed" if d_out > claimed else ""),
                            *stability_reproducer([import_line(constructor), *IMPORTS], call, v,
                                                  w, d_in))

    return ComputedGoal("the running function on neighbouring int vectors (reordered, one row "
                        "added or removed; sizes 1..3) stays within map(d_in)", "structure",
                        decide, replay)


@reviewed
def resize_obligations(constructor: Constructor = make_resize,
                       prefix: str = "resize") -> tuple[Obligation, ...]:
    """The obligations of ``constructor``, which must build resizes: vectors to sized vectors."""

    def output_domain_goals() -> list[Any]:
        goals: list[Any] = [_is_resize(constructor), *_running_resize(constructor)]
        for shape, (_, make, _, _) in SHAPES.items():
            t, names, assumptions = _symbolic(constructor, shape)
            if not isinstance(t.function, Resize):
                return goals
            f, x, m = t.function, make("x"), z3.Int("length")
            inner, outer = t.input_domain.element, t.output_domain.inner.element
            replay = _replay_output(constructor, shape)
            goals += [
                Z3Goal(f"length: min(len, size) kept rows + pad(len, size) = the output domain's "
                       f"size ({shape})",
                       ops.minimum(m, f.size) + f.pad(m, f.size) == t.output_domain.size,
                       [*assumptions, m >= 0], {**names, "length": m}, replay),
                Z3Goal(f"padding: the constant is in the output row domain ({shape})",
                       is_true(outer.contains(f.constant)), assumptions, names, replay),
                Z3Goal(f"kept rows: a row of the input domain is in the output row domain ({shape})",
                       is_true(outer.contains(x)), [*assumptions, is_true(inner.contains(x))],
                       {**names, "x": x}, replay),
            ]
        return goals

    def compatibility_goals() -> list[Any]:
        return [compatibility_goal(
            constructor, lambda: [_symbolic(constructor, shape)[0] for shape in SHAPES],
            {"size": 2, "constant": 0.0, "atom_domain": AtomDomain(float)},
            {"size": 2, "constant": 0.0, "atom_domain": Code("AtomDomain(float)", *IMPORTS)})]

    def stability_goals() -> list[Any]:
        goals: list[Any] = [_is_resize(constructor), _running_stability(constructor), metric_premise(
            lambda: constructor.build(size=2, constant=0.0, atom_domain=AtomDomain(float)),
            SymmetricDistance, SymmetricDistance, "the resize lemma")]
        for shape, (_, make, _, _) in SHAPES.items():
            t, names, assumptions = _symbolic(constructor, shape)
            if not isinstance(t.function, Resize):
                return goals
            x, y = make("x"), make("y")
            kx, ky = t.function.key(x), t.function.key(y)
            goals.append(Z3Goal(
                f"premise of the resize lemma: the key orders multiset elements totally "
                f"(equal keys iff one element, no NaN component) ({shape})",
                is_true(ops.all_of(_key_comparable(kx), _key_comparable(ky),
                                   ops.eq(_key_equal(kx, ky), same_element(x, y)))),
                [*assumptions, is_true(t.input_domain.element.contains(x)),
                 is_true(t.input_domain.element.contains(y))],
                {**names, "x": x, "y": y}, _replay_order(constructor, shape)))
        goals += _lemma_goals(constructor)
        t, names, assumptions = _symbolic(constructor, "bounded float64")
        d_in, d_in_natural = natural_int("d_in")
        d, d_natural = natural_int("d")
        sized = t.output_domain.size
        goals.append(Z3Goal(
            "map(d_in) bounds the output distance: at most the lemma's 2 per step along a path of "
            "d <= d_in insertions and deletions (triangle inequality), and at most 2 size, since "
            "both outputs have the output domain's size rows (output_domain)",
            is_true(ops.minimum(STEP_BOUND * d, 2 * sized) <= t.map(d_in)),
            [*assumptions, *d_in_natural, *d_natural, d <= d_in],
            {"d_in": d_in, "d": d}, _replay_map(constructor)))
        return goals

    return (
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every vector of the row domain (any length), function(v) has exactly size "
                   "rows, each in the row domain: kept rows come from v, the pad is the constant.",
                   r"\forall v \in \mathrm{Vec}(D):\ \mathtt{function}(v) \in D^{\mathtt{size}}",
                   output_domain_goals),
        Obligation(f"{prefix}.compatibility", Kind.COMPATIBILITY,
                   "Symmetric distance is defined on the vector and on the sized vector domain.",
                   r"d_{Sym} \sim \mathrm{VectorDomain},\ d_{Sym} \sim \mathrm{SizedDomain}",
                   compatibility_goals),
        Obligation(f"{prefix}.stability", Kind.STABILITY,
                   "If d_sym(v, w) <= d_in then d_sym(function(v), function(w)) <= map(d_in) = "
                   "2 d_in: the function depends only on the multiset (the key orders elements "
                   "totally), one insertion or deletion moves the output by at most 2 (resize "
                   "lemma, induction over the values), and v, w are d_in such steps apart.",
                   r"d_{Sym}(v, w) \le d_{in} \implies d_{Sym}(f(v), f(w)) \le "
                   r"\min(2 d_{in}, 2\,\mathtt{size})",
                   stability_goals, uses=(f"{prefix}.output_domain",)),
        int_map_rounding(constructor, prefix, "2 d_in", ("size",), UNIT_DOMAIN,
                         large_candidates(("size",), UNIT_DOMAIN, _small_size), resize_pair),
    )


UNIT_DOMAIN = {"constant": 0.0, "atom_domain": AtomDomain(float, bounds=(0.0, 1.0))}
"""Rows in ``[0, 1]``, padded with ``0.0``: the replay's resize."""


def _small_size(arguments: dict[str, Any]) -> dict[str, Any]:
    return {**arguments, "size": abs(arguments["size"]) % 8 + 1}


def resize_pair(t: Any, arguments: dict[str, Any], d_in: int) -> tuple[list, list] | None:
    """``[]`` and ``d`` ones, ``d = min(d_in, size)``: ``d`` pads become ``d`` ones, so the
    outputs are ``2 d`` apart."""
    d = min(d_in, arguments["size"])
    return [], [1.0] * d


IMPORT = "from mechanisms.make_resize import make_resize"


def catalogue_entry() -> Entry:
    return Entry("make_resize", make_resize, resize_obligations(),
                 "resize a vector to exactly size rows: keep the least rows, pad with a constant",
                 (example("make_resize(3, 0.5, AtomDomain(float, bounds=(0.0, 1.0)))", IMPORT,
                          *IMPORTS),
                  example("make_resize(2, 0, AtomDomain(int))", IMPORT, *IMPORTS)),
                 proof=True)
