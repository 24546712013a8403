"""Small, exactly analysable transformations used to replay counterexamples of combinators, and
the goals that give every constructor a witness: it builds on valid arguments, refuses the ones
its proof excludes, and its running function returns in its output domain.

A combinator's obligation is proved for abstract components; when it is refuted, these real
components show the violation on real data: each counts the records of its partition, so a pair
``([], [0] * d)`` is at symmetric distance ``d`` and moves the output by exactly ``map(d)``; a
small measurement (a constant) whose law is known exactly; and integers scaled, or rows shifted,
the components of the chains' examples.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping, Sequence

from mechanisms import ops
from mechanisms.core import Constructor, Map, Measurement, RowTransform, Transformation
from mechanisms.domains import AtomDomain, VectorDomain
from mechanisms.errors import ConstructorError
from mechanisms.measures import MaxDivergence
from mechanisms.metrics import AbsoluteDistance, DiscreteMetric, SymmetricDistance
from obligations.base import ComputedGoal, Decision, Replay
from obligations.reports import (code_setup, constructor_call, import_line, literal,
                                 member_assertion, plain_report, reproducer, returns)
from obligations.row_transforms import admits
from obligations.stand_ins import shifted


def capped_rule(d_in: Any, cap: Any) -> Any:
    """``min(d_in, cap)``: a sound map for a count capped at ``cap``, and not linear."""
    return ops.minimum(d_in, cap)


def scale_constant(scale: Any) -> Any:
    """``d_in * scale``: the map of a count scaled by ``scale``."""
    return scale


@dataclass(frozen=True)
class ScaledCappedCount:
    """``v -> min(scale * len(v), cap)``."""

    scale: int
    cap: int | None

    def __call__(self, data: Sequence[Any]) -> int:
        count = self.scale * len(data)
        return count if self.cap is None else min(count, self.cap)


def _count(function: ScaledCappedCount, stability_map: Map) -> Transformation:
    return Transformation(VectorDomain(AtomDomain(int)), AtomDomain(int), SymmetricDistance(),
                          AbsoluteDistance(), function, stability_map)


def make_count_capped(cap: int) -> Transformation:
    """Count the records, capped at ``cap``: map ``min(d_in, cap)``."""
    return _count(ScaledCappedCount(1, cap), Map(rule=capped_rule, params={"cap": cap}))


def make_count_scaled(scale: int) -> Transformation:
    """Count the records, times ``scale``: linear map ``d_in * scale``."""
    return _count(ScaledCappedCount(scale, None), Map(constant=scale_constant, params={"scale": scale}))


@dataclass(frozen=True)
class Times:
    """``x -> factor * x`` on integers."""

    factor: int

    def __call__(self, x: int) -> int:
        return self.factor * x


def make_times(factor: int) -> Transformation:
    """Integers times ``factor``, absolute distance: map ``d_in * |factor|``."""
    return Transformation(AtomDomain(int), AtomDomain(int), AbsoluteDistance(), AbsoluteDistance(),
                          Times(factor), Map(constant=scale_constant, params={"scale": abs(factor)}))


def make_shift(offset: int) -> Transformation:
    """Vectors of ``[offset - 100, offset - 1]`` to ``[offset, offset + 99]``: add 100."""
    return Transformation(VectorDomain(AtomDomain(int, bounds=(offset - 100, offset - 1))),
                          VectorDomain(AtomDomain(int, bounds=(offset, offset + 99))),
                          SymmetricDistance(), SymmetricDistance(),
                          RowTransform(shifted, {"offset": 100}),
                          Map(constant=scale_constant, params={"scale": 1}))


@dataclass(frozen=True)
class Constant:
    """``(y, rng) -> value``: ignores its input."""

    value: Any

    def __call__(self, arg: Any, rng: Any = None) -> Any:
        return self.value


def make_constant(value: str) -> Measurement:
    """Integers to the constant string ``value``: 0-DP, privacy map ``d_in * 0``."""
    return Measurement(AtomDomain(int), AtomDomain(str), DiscreteMetric(), MaxDivergence(),
                       Constant(value), Map(constant=scale_constant, params={"scale": 0}))


def make_present() -> Transformation:
    """``v -> min(len(v), 1)``, under the discrete metric on the output (the values are 0 and 1,
    so it equals the absolute distance): map ``min(d_in, 1)``."""
    return replace(make_count_capped(1), output_metric=DiscreteMetric())


def _run(built: Any, data: Any, seed: int) -> Any:
    """The built object's function on ``data`` (a measurement with a seeded random source)."""
    return built(data, random.Random(seed)) if isinstance(built, Measurement) else built(data)


@dataclass(frozen=True)
class Misbehaviour:
    """The running function on ``data`` (a measurement with ``random.Random(seed)``) raised or
    returned outside the output domain, as ``what`` says."""

    data: Any
    seed: int
    what: str


class ForeignInput(Exception):
    """A witness input of the specification's domain that the built input domain does not admit:
    the constructor builds another domain than the one its proof is about."""

    def __init__(self, data: Any, domain: Any) -> None:
        super().__init__(f"the witness input {literal(data)} (of the specification's domain) is "
                         f"not in the built input domain {domain}")
        self.data, self.domain = data, domain


def _misbehaviour(built: Any, inputs: Sequence[Any], draws: int) -> Misbehaviour | None:
    """The first input on which the running function raises or returns outside the output
    domain, with what happened; ``None`` if every input gives a member."""
    for data in inputs:
        if not built.input_domain.member(data):
            raise ForeignInput(data, built.input_domain)
        for seed in range(draws):
            try:
                output = _run(built, data, seed)
            except Exception as error:  # noqa: BLE001 - any exception is no output at all
                return Misbehaviour(data, seed, f"raised {type(error).__name__}: {error}")
            if not built.output_domain.member(output):
                return Misbehaviour(data, seed, f"returned {literal(output)}, not in "
                                    f"{built.output_domain}")
    return None


def misbehaviour_reproducer(constructor: Constructor, shown: Mapping[str, Any], built: Any,
                            wrong: Misbehaviour) -> list[str]:
    """The ``reproduce:`` block of a :class:`Misbehaviour`: build, run on the input (seeded as
    the replay ran it), and assert that it returns a member of the output domain."""
    measurement = isinstance(built, Measurement)
    run = f"built({literal(wrong.data)}" + (f", random.Random({wrong.seed}))" if measurement
                                            else ")")
    return reproducer(import_line(constructor), *code_setup(shown),
                      *(["import random"] if measurement else []),
                      f"built = {constructor_call(constructor, **shown)}",
                      *returns(f"output = {run}", run), member_assertion("built"))


def witness_goal(constructor: Constructor, arguments: Mapping[str, Any],
                 shown: Mapping[str, Any] | None = None, inputs: Sequence[Any] = (),
                 draws: int = 1) -> ComputedGoal:
    """Goal: the constructor, its validation and preconditions included, builds on ``arguments``
    (valid ones), so its preconditions admit a value and the goals beside this one are not about
    nothing; and on each of ``inputs`` (members of the input domain) the function that runs
    returns a member of the output domain (``draws`` seeded runs of a measurement).

    Refused arguments (a ``ConstructorError``, or any other exception raised while building, such
    as an error message that cannot be formatted): *unknown (unsupported: vacuous)*, since no
    object runs to be judged. A raise or an output outside the domain on an input: refuted, and
    the replay reruns it: the output-domain claim is that every input of the domain gives a
    member, so no output at all breaks it."""
    call = constructor_call(constructor, **(shown or arguments))

    def decide() -> Decision:
        try:
            built = constructor(**arguments)
        except Exception as error:  # noqa: BLE001 - a crash while building refuses as well
            kind = "is refused" if isinstance(error, ConstructorError) else "raises while building"
            return Decision(False, {"arguments": call}, f"vacuous: {call} {kind} "
                            f"({type(error).__name__}: {error}); the preconditions admit no "
                            "witness here", unsupported=True)
        try:
            wrong = _misbehaviour(built, inputs, draws)
        except ForeignInput as foreign:
            return Decision(False, {"input": literal(foreign.data)}, f"{call}: {foreign}; the "
                            "proof is about another domain", unsupported=True)
        if wrong is not None:
            return Decision(False, {"input": literal(wrong.data)},
                            f"{call} on {literal(wrong.data)}: {wrong.what}")
        return Decision(True, detail=f"{call} builds" + (
            f"; its function returns in the output domain on {len(inputs)} inputs"
            if inputs else ""))

    def replay(_: dict) -> Replay:
        built = constructor(**arguments)
        wrong = _misbehaviour(built, inputs, draws)
        if wrong is None:
            return plain_report(False, f"{call}: every witness input gives a member")
        return plain_report(True, f"{call} on {literal(wrong.data)}",
                            f"the running function {wrong.what}",
                            *misbehaviour_reproducer(constructor, shown or arguments, built, wrong))

    what = "builds on valid arguments" + (
        ", and its function returns in the output domain on them" if inputs else "")
    return ComputedGoal(f"witness: {call} {what}", "structure", decide, replay)


def refusal_goal(constructor: Constructor, arguments: Mapping[str, Any],
                 shown: Mapping[str, Any], excluded: str,
                 replay: Callable[[dict], Replay]) -> ComputedGoal:
    """Goal: the constructor refuses ``arguments``, which its proof ``excluded`` (components whose
    domains or metrics do not meet), with a ``ConstructorError``. If it builds them instead, the
    goal is refuted and ``replay`` runs what was built to show the guarantee broken. If building
    raises another exception (a crash, not a typed refusal), nothing runs but the refusal is not
    the stated one: *unknown (unsupported)*."""
    call = constructor_call(constructor, **shown)

    def decide() -> Decision:
        try:
            constructor(**arguments)
        except ConstructorError as error:
            return Decision(True, detail=f"{call} is refused: {type(error).__name__}")
        except Exception as error:  # noqa: BLE001 - a crash is reported, not proved
            return Decision(False, {"arguments": call}, f"{call} raises {type(error).__name__}: "
                            f"{error}, not a ConstructorError", unsupported=True)
        return Decision(False, {"arguments": call}, f"{call} builds, though {excluded}")

    return ComputedGoal(f"refuses {excluded}: {call}", "structure", decide, replay)


def excluded_goals(constructor: Constructor, cases: Sequence[tuple[Any, ...]],
                   inputs: Sequence[Any] = (), draws: int = 1) -> list[ComputedGoal]:
    """One :func:`refusal_goal` per ``(arguments, excluded)`` or ``(arguments, excluded, shown)``:
    arguments the proof does not cover (a bound of the wrong type, an empty component list, a
    precondition's boundary), ``shown`` as in reports. If the
    constructor builds one, the replay runs what was built on those of ``inputs`` its input domain
    admits, and confirms a raise or an output outside its output domain; otherwise the refusal is
    still refuted, not confirmed."""
    def goal(arguments: Mapping[str, Any], excluded: str,
             shown: Mapping[str, Any] | None = None) -> ComputedGoal:
        call = constructor_call(constructor, **(shown or arguments))

        def replay(_: dict) -> Replay:
            built = constructor(**arguments)
            admitted = [data for data in inputs if built.input_domain.member(data)]
            wrong = _misbehaviour(built, admitted, draws)
            if wrong is None:
                return plain_report(False, f"{call} builds, though {excluded}; on "
                                    f"{len(admitted)} inputs its function returns members")
            return plain_report(True, f"{call} builds, though {excluded}, and on "
                                f"{literal(wrong.data)} its function {wrong.what}",
                                *misbehaviour_reproducer(constructor, shown or arguments, built,
                                                         wrong))
        return refusal_goal(constructor, arguments, shown or arguments, excluded, replay)
    return [goal(*case) for case in cases]


ATOM_PROBES: dict[type, tuple[Any, ...]] = {
    int: (0, -1, 2, 10 ** 30),
    float: (0.5, -0.0, 5e-324, 1e308, float("inf"), float("-inf"), float("nan")),
    str: ("", "a"),
    bool: (False, True),
}
"""Candidate atoms per carrier: small, negative, huge, subnormal, infinite and NaN values."""


def domain_probes(domain: Any) -> list[Any]:
    """Members of ``domain`` built from the domain object itself, not from what a proof assumes
    of it: for an ``AtomDomain``, the :data:`ATOM_PROBES` of its carrier that it admits (bounds
    and ``nan`` read through its own ``member``); for a ``VectorDomain(e)``, ``[]``, ``[p]`` for
    each probe ``p`` of ``e``, and two-element vectors of consecutive probes; any other domain:
    ``[]`` (no probe, nothing claimed). Every value returned is a member (``domain.member``)."""
    if isinstance(domain, AtomDomain):
        return [value for value in ATOM_PROBES.get(domain.carrier, ())
                if domain.member(value)]
    if isinstance(domain, VectorDomain):
        atoms = domain_probes(domain.element)
        vectors = [[], *[[p] for p in atoms],
                   *[[p, q] for p, q in zip(atoms, atoms[1:] + atoms[:1])]]
        return [v for v in vectors if domain.member(v)]
    return []


PROBE_DRAWS = 3
"""Seeded runs of the real function on each probe member of the built input domain."""


def built_probes(constructor: Constructor, arguments: dict[str, Any]) -> list[Any]:
    """:func:`obligations.witnesses.domain_probes` of the BUILT input domain at ``arguments``
    (``[]`` if the constructor refuses them: the witness goal then reports it)."""
    try:
        return domain_probes(constructor(**arguments).input_domain)
    except Exception:  # noqa: BLE001 - a refusal or crash is the witness goal's to report
        return []


def probes_witness_goal(constructor: Constructor, arguments: dict[str, Any]) -> ComputedGoal:
    """The REAL built function, on probe members of the BUILT input domain (read from the domain
    object, not from the proof's assumption about it), returns members of the built output
    domain: a raise or a non-member is refuted, and the replay reruns it."""
    return witness_goal(constructor, arguments, inputs=built_probes(constructor, arguments),
                        draws=PROBE_DRAWS)


def domain_premise_goal(constructor: Constructor, arguments: dict[str, Any], about: str,
                        accepts: Callable[[Any], bool],
                        loss: Callable[[Measurement, list[Any], list[Any]], Replay] | None = None
                        ) -> ComputedGoal:
    """Premise of the privacy proof: the BUILT input domain admits no member outside the domain
    the proof is about (``about``, tested by ``accepts``), probed with
    :func:`obligations.witnesses.domain_probes`. A probe member outside it: *unknown
    (unsupported)*, the proof says nothing of it; refuted where ``loss`` (the replay) shows on
    the real code a loss above the claimed map between two members of the built domain."""
    call = constructor_call(constructor, **arguments)

    def probes() -> tuple[Measurement, list[Any], list[Any]]:
        m = constructor(**arguments)
        members = domain_probes(m.input_domain)
        return m, members, [p for p in members if not accepts(p)]

    def decide() -> Decision:
        try:
            m, members, outside = probes()
        except Exception as error:  # noqa: BLE001 - nothing built, nothing probed
            return Decision(False, {"arguments": call}, f"{call} does not build "
                            f"({type(error).__name__}: {error})", unsupported=True)
        if not members:
            return Decision(False, {"domain": str(m.input_domain)}, f"no probe member of "
                            f"{m.input_domain} (a domain domain_probes cannot read)",
                            unsupported=True)
        if not outside:
            return Decision(True, detail=f"the {len(members)} probe members of {m.input_domain} "
                            f"are all {about}")
        what = (f"{call}: its input domain {m.input_domain} admits {literal(outside[0])}, not "
                f"{about}")
        if loss is not None and loss(m, members, outside).confirmed:
            return Decision(False, {"input": literal(outside[0])},
                            f"{what}; the replay shows the loss on the real code")
        return Decision(False, {"input": literal(outside[0])},
                        f"{what}; the proof is about {about} only", unsupported=True)

    def replay(_: dict) -> Replay:
        m, members, outside = probes()
        if loss is None or not outside:
            return plain_report(False, f"{call}: no loss shown on its input domain's probes")
        return loss(m, members, outside)

    return ComputedGoal(f"premise: the built input domain of {call} admits only {about}",
                        "structure", decide, replay)


def map_runs(goal: ComputedGoal, constructor: Constructor,
             trials: list[tuple[dict[str, Any], Any]]) -> ComputedGoal:
    """``goal``, which evaluates the built map at the ``(arguments, d_in)`` of ``trials``, with a
    map that RAISES there refuted instead of an error: the claim is that ``map(d_in)`` bounds the
    loss for every admitted ``d_in``, and a map that returns nothing bounds nothing. The replay
    reruns the raising call on the real code (confirmed), else ``goal``'s own replay."""
    def raising() -> tuple[dict[str, Any], Any, str] | None:
        for arguments, d_in in trials:
            if not admits(constructor, arguments):
                continue
            try:
                constructor(**arguments).map(d_in)
            except Exception as error:  # noqa: BLE001 - the map's crash is the finding
                return arguments, d_in, f"{type(error).__name__}: {error}"
        return None

    def decide() -> Decision:
        try:
            return goal.decide()
        except Exception:  # noqa: BLE001 - located and reported below
            found = raising()
            if found is None:
                raise
            arguments, d_in, what = found
            return Decision(False, {**arguments, "d_in": literal(d_in)},
                            f"{constructor_call(constructor, **arguments)}.map({literal(d_in)}) "
                            f"raises {what}")

    def replay(counterexample: dict[str, Any]) -> Replay:
        found = raising()
        if found is None:
            return goal.replay(counterexample) if goal.replay is not None else plain_report(
                False, "the map returns at every trial")
        arguments, d_in, what = found
        call = constructor_call(constructor, **arguments)
        return plain_report(
            True, f"{call}: map({literal(d_in)}) raises {what}, an admitted d_in with no bound",
            *reproducer(import_line(constructor), f"m = {call}", f"d_in = {literal(d_in)}",
                        "try:", "    m.map(d_in)", "except Exception as error:",
                        "    raise AssertionError(f'map({d_in!r}) raises "
                        "{type(error).__name__}: {error}') from error"))
    return ComputedGoal(goal.name, goal.solver, decide, replay)
