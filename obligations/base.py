"""Obligations: what must be proved of a constructor, each with a stable id, a statement in words
and in LaTeX, and goals the checker discharges.

An obligation's goals are built lazily (in the checker's worker process) from the constructor's
own code, evaluated on solver terms. Every goal must be proved for the obligation to be proved;
``uses`` names lemma obligations whose proof it relies on.
"""

from __future__ import annotations

import enum
import reprlib
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import z3

from mechanisms.core import Constructor
from mechanisms.errors import DPCertError


class Kind(enum.Enum):
    OUTPUT_DOMAIN = "appropriate output domain"
    COMPATIBILITY = "domain-metric compatibility"
    STABILITY = "stability guarantee"
    PRIVACY = "privacy guarantee"
    RUNTIME_ERRORS = "data-independent runtime errors"
    DISTRIBUTION = "output distribution"
    ROUNDING = "map rounded outward"
    LEMMA = "lemma"
    SPECIFICATION = "specified function"


@dataclass(frozen=True)
class Replay:
    """A counterexample run through the real implementation.

    ``confirmed`` is True only when the real code was seen to violate the claim; ``report`` is the
    bug report (constructor call, inputs, ``d_in``, claimed and observed values, a reproducer).
    """

    confirmed: bool
    report: str


@dataclass(frozen=True)
class Z3Goal:
    """Valid iff ``assumptions => claim`` holds for every value of the free constants.

    ``variables`` names the constants a counterexample reports; ``replay`` turns such a model
    (a dict name -> Python value) into a run of the real code.
    """

    name: str
    claim: Any
    assumptions: Sequence[Any] = ()
    variables: Mapping[str, Any] = field(default_factory=dict)
    replay: Callable[[dict[str, Any]], Replay] | None = None


@dataclass(frozen=True)
class Decision:
    """What a non-Z3 decision procedure concluded: proved; refuted with a counterexample; or,
    when ``unsupported``, that the proof method does not apply (a structural premise such as
    "the function is a row transform" fails), which is ``unknown``, never a pass."""

    proved: bool
    counterexample: dict[str, Any] = field(default_factory=dict)
    detail: str = ""
    unsupported: bool = False


@dataclass(frozen=True)
class ComputedGoal:
    """A goal decided by running code: a SymPy computation or a structural check of the objects a
    constructor builds. ``solver`` names it in the report ("sympy", "structure")."""

    name: str
    solver: str
    decide: Callable[[], Decision]
    replay: Callable[[dict[str, Any]], Replay] | None = None


Goal = Z3Goal | ComputedGoal


@dataclass(frozen=True)
class Obligation:
    id: str
    kind: Kind
    statement: str
    latex: str
    goals: Callable[[], list[Goal]]
    uses: tuple[str, ...] = ()
    bound: str | None = None
    """Set when only a bounded instance is proved, e.g. ``"k <= 4 partitions"``."""
    arithmetic: str | None = None
    """Set when the proof takes exact arithmetic where the code rounds (e.g. reals for floats):
    the verdict is then ``proved under exact arithmetic``, which ``--arithmetic ieee`` refuses."""
    assumes: str | None = None
    """A modelling assumption other than arithmetic (e.g. parsing as an uninterpreted function)."""
    cites: tuple[str, ...] = ()
    """Published results the proof takes as given, never checked here (e.g. "Canonne, Kamath and
    Steinke 2020, Theorem 4"); the goals check that the code meets their premises."""


def is_true(term: Any) -> Any:
    """A Python bool or Z3 term as a Z3 boolean."""
    return term if isinstance(term, z3.ExprRef) else z3.BoolVal(bool(term))


def on_solver_terms(what: str, make: Callable[[], list[Goal]]) -> list[Goal]:
    """The goals ``make()`` builds by running the mechanism's code on solver terms; if that code
    raises (a kernel written for numbers only, ``math.isclose`` on a Z3 float), one *unknown
    (unsupported)* goal naming the exception instead, so that the goals beside it, which run the
    code on values (witnesses, hard rows), still decide the obligation: a raise there refutes."""
    try:
        return make()
    except Exception as error:  # noqa: BLE001 - the mechanism's code, whatever it raises
        reason = f"{type(error).__name__}: {error}"
        return [ComputedGoal(f"{what}: the code runs on solver terms", "structure",
                             lambda: Decision(False, {"raised": reason},
                                              f"the code raises on solver terms ({reason}); the "
                                              "solver proof does not apply", unsupported=True))]


@dataclass(frozen=True)
class Example:
    """Concrete arguments for the empirical tests: ``make()`` builds the mechanism, ``call`` is
    how a report writes it, ``imports`` make that expression runnable. ``distribution(x)``, when
    given, is the exact output distribution on ``x`` that the sampler must draw."""

    call: str
    make: Callable[[], Any]
    imports: tuple[str, ...] = ()
    distribution: Callable[[Any, Any], Mapping[Any, Any]] | None = None


def example(call: str, *imports: str, **options: Any) -> Example:
    """An empirical example whose code is ``call``, evaluated after the import lines ``imports``."""
    def make() -> Any:
        namespace: dict[str, Any] = {}
        for line in imports:
            exec(line, namespace)  # noqa: S102 - our own import lines
        return eval(call, namespace)  # noqa: S307
    return Example(call, make, imports, **options)


@dataclass(frozen=True)
class Entry:
    """A catalogue entry: a constructor (``None`` for a set of lemmas), its obligations, and
    examples for the empirical tests. The standard statements a constructor owes are the
    kernel's (:mod:`obligations.kernel`), whatever obligations it lists, none included."""

    name: str
    constructor: Any
    obligations: tuple[Obligation, ...] = ()
    summary: str = ""
    examples: tuple[Example, ...] = ()
    proof: bool = False
    """Bound to a proof in ``proofs_tex/`` (the built-in catalogue); see checker.proofs."""

    def __post_init__(self) -> None:
        """Refuse a constructor that is not a Constructor, and obligations that are not
        Obligations, at construction, naming the first bad one."""
        if self.constructor is not None and not isinstance(self.constructor, Constructor):
            raise EntryConstructorError(self.name, self.constructor)
        if not isinstance(self.obligations, (tuple, list)):
            raise EntryObligationsError(self.name, self.obligations)
        for index, item in enumerate(self.obligations):
            if not isinstance(item, Obligation):
                raise EntryObligationsError(self.name, item, index)


class EntryConstructorError(DPCertError, TypeError):
    """An :class:`Entry` was given a ``constructor`` that is not a
    :class:`mechanisms.core.Constructor` (nor None, for a set of lemmas)."""

    def __init__(self, entry: str, value: Any) -> None:
        super().__init__(f"Entry {entry!r}: the constructor is {reprlib.repr(value)} (a "
                         f"{type(value).__name__}); pass a mechanisms.core.Constructor, such as "
                         "make_clamp from mechanisms.make_clamp, or None for a set of lemmas")
        self.entry, self.value = entry, value


class EntryObligationsError(DPCertError, TypeError):
    """An :class:`Entry` was given obligations that are not a tuple or list of
    :class:`Obligation`: ``value`` is the wrong container, or its item at ``index``."""

    def __init__(self, entry: str, value: Any, index: int | None = None) -> None:
        got = (f"obligations is a {type(value).__name__}" if index is None else
               f"obligation {index} is {reprlib.repr(value)} (a {type(value).__name__})")
        super().__init__(f"Entry {entry!r}: {got}; pass a tuple or list of "
                         "obligations.base.Obligation, such as clamp_obligations(constructor)")
        self.entry, self.value, self.index = entry, value, index
