"""Transformations, measurements, their maps, chaining, and constructors with checked preconditions.

A mechanism's arithmetic lives in small functions (a kernel, a map rule) held by the objects
below together with their parameters. The checker calls the same functions with the parameters
replaced by solver terms; see :meth:`Constructor.build`.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from mechanisms import ops
from mechanisms.errors import ConstructorError, DomainError, ParameterSortError


@dataclass(frozen=True)
class Map:
    """A stability or privacy map ``d_in -> d_out``.

    Either linear, ``d_in * constant(**params)`` (a ``c``-stable transformation: outputs at most
    ``c d`` apart, the exact product), or a general ``rule(d_in, **params)``. Both are written with
    :mod:`mechanisms.ops`, so they evaluate on numbers and on solver terms.
    """

    rule: Callable[..., Any] | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    constant: Callable[..., Any] | None = None

    def __post_init__(self) -> None:
        if (self.rule is None) == (self.constant is None):
            raise TypeError("a Map takes exactly one of rule= or constant=")

    @property
    def is_linear(self) -> bool:
        return self.constant is not None

    def __call__(self, d_in: Any) -> Any:
        if self.constant is not None:
            return linear_value(d_in, self.constant(**self.params))
        return self.rule(d_in, **self.params)


def linear_value(d_in: Any, constant: Any) -> Any:
    """A linear map's value ``d_in * c``, rounded up on floats (exact on integers), so a float
    product never falls below the exact ``c d_in`` that ``c``-stability bounds."""
    return ops.mul_up(d_in, constant)


@dataclass(frozen=True)
class RowTransform:
    """``v -> [kernel(x, **params) for x in v]``: the same deterministic scalar map on every row."""

    kernel: Callable[..., Any]
    params: Mapping[str, Any] = field(default_factory=dict)

    def __call__(self, data: Sequence[Any]) -> list[Any]:
        return [self.kernel(x, **self.params) for x in data]

    def scalar(self, x: Any, **params: Any) -> Any:
        """The kernel on one value, with optionally replaced parameters."""
        return self.kernel(x, **{**self.params, **params})


@dataclass(frozen=True)
class Filter:
    """``v -> [x for x in v if keep(x, **params)]``: rows kept or dropped one by one, unchanged."""

    keep: Callable[..., Any]
    params: Mapping[str, Any] = field(default_factory=dict)

    def __call__(self, data: Sequence[Any]) -> list[Any]:
        return [x for x in data if ops.truthy(self.keep(x, **self.params))]

    def scalar(self, x: Any) -> Any:
        """Whether the row ``x`` is kept (a Python bool, or a solver term)."""
        return self.keep(x, **self.params)


@dataclass(frozen=True)
class Fold:
    """``v -> finalize(step(...step(init, v_0)..., v_last), **params)``: an aggregate of the rows."""

    step: Callable[[Any, Any], Any]
    finalize: Callable[..., Any]
    init: Any
    params: Mapping[str, Any] = field(default_factory=dict)

    def __call__(self, data: Sequence[Any]) -> Any:
        accumulator = self.init
        for x in data:
            accumulator = self.step(accumulator, x)
        return self.finalize(accumulator, **self.params)


@dataclass(frozen=True)
class Transformation:
    """A stable function: ``d_in``-close inputs give ``map(d_in)``-close outputs."""

    input_domain: Any
    output_domain: Any
    input_metric: Any
    output_metric: Any
    function: Callable[[Any], Any]
    stability_map: Map

    def __call__(self, arg: Any) -> Any:
        if not self.input_domain.member(arg):
            raise DomainError(arg, self.input_domain)
        return self.function(arg)

    def map(self, d_in: Any) -> Any:
        return self.stability_map(d_in)

    def check(self, d_in: Any, d_out: Any) -> bool:
        """True when ``map(d_in) <= d_out``: the pair ``(d_in, d_out)`` is guaranteed."""
        return at_most(self.map(d_in), d_out)

    def __rshift__(self, other: "Transformation | Measurement") -> "Transformation | Measurement":
        return make_chain(other, self)


@dataclass(frozen=True)
class Measurement:
    """A randomized function: ``d_in``-close inputs give output distributions whose divergence
    under ``output_measure`` is at most ``map(d_in)``."""

    input_domain: Any
    output_domain: Any
    input_metric: Any
    output_measure: Any
    function: Callable[..., Any]
    privacy_map: Map

    def __call__(self, arg: Any, rng: Any = None) -> Any:
        if not self.input_domain.member(arg):
            raise DomainError(arg, self.input_domain)
        return self.function(arg, rng)

    def map(self, d_in: Any) -> Any:
        return self.privacy_map(d_in)

    def check(self, d_in: Any, d_out: Any) -> bool:
        """True when ``map(d_in) <= d_out``: the pair ``(d_in, d_out)`` is guaranteed."""
        return at_most(self.map(d_in), d_out)


def at_most(distance: Any, bound: Any) -> bool:
    """``distance <= bound``; for pairs and triples (``(epsilon, delta)``, ``(l0, l1, linf)``)
    every component, never Python's lexicographic tuple order."""
    if isinstance(distance, tuple) or isinstance(bound, tuple):
        if not (isinstance(distance, tuple) and isinstance(bound, tuple)
                and len(distance) == len(bound)):
            raise TypeError(f"cannot compare the distance {distance!r} with {bound!r}")
        return all(bool(d <= b) for d, b in zip(distance, bound))
    return bool(distance <= bound)


def make_chain(outer: Transformation | Measurement, inner: Transformation) -> Any:
    """``outer ∘ inner``: :func:`make_chain_mt` when ``outer`` is a measurement, else
    :func:`make_chain_tt` (the checked constructors; imported here to avoid an import cycle)."""
    if isinstance(outer, Measurement):
        from mechanisms.make_chain_mt import make_chain_mt
        return make_chain_mt(outer, inner)
    from mechanisms.make_chain_tt import make_chain_tt
    return make_chain_tt(outer, inner)


@dataclass(frozen=True)
class Precondition:
    """A condition on a constructor's arguments that its proof assumes.

    ``holds`` is written with :mod:`mechanisms.ops`: the constructor evaluates it on the actual
    arguments and raises ``error(**arguments)`` when it fails; the checker evaluates it on solver
    terms and assumes it.
    """

    text: str
    holds: Callable[..., Any]
    error: Callable[..., ConstructorError]


@dataclass(frozen=True)
class SymbolicSequence:
    """A stand-in for a sequence argument whose length is a solver term (say, ``t`` categories)."""

    length: Any


def length(sequence: Sequence[Any] | SymbolicSequence) -> Any:
    """``len(sequence)``, or the solver term standing for it."""
    return sequence.length if isinstance(sequence, SymbolicSequence) else len(sequence)


PROVENANCE = "_built_by"
"""The attribute in which :meth:`Constructor.__call__` records how it built an object (not a
dataclass field: it takes no part in equality, and ``dataclasses.replace`` drops it)."""


@dataclass(frozen=True)
class Provenance:
    """``constructor(**arguments)`` returned the object holding this record."""

    constructor: "Constructor"
    arguments: Mapping[str, Any]


def provenance(built: Any) -> Provenance | None:
    """How ``built`` was made, if a :class:`Constructor` made it."""
    return built.__dict__.get(PROVENANCE) if hasattr(built, "__dict__") else None


@dataclass(frozen=True)
class Exactly:
    """A sort with one value: the argument must be ``value`` itself (``Exactly(float)``, for a
    constructor that takes a type)."""

    value: Any

    def admits(self, argument: Any) -> bool:
        return argument is self.value

    def __str__(self) -> str:
        return f"={getattr(self.value, '__name__', repr(self.value))}"


@dataclass(frozen=True)
class TupleOf:
    """A sort of fixed-length sequences: a tuple or list whose items are of ``sorts``, in order
    (``TupleOf((int, int))``, a pair of integer bounds)."""

    sorts: tuple[Any, ...]

    def admits(self, argument: Any) -> bool:
        return type(argument) in (tuple, list) and len(argument) == len(self.sorts) \
            and all(admits(sort, item) for sort, item in zip(self.sorts, argument))

    def __str__(self) -> str:
        return f": ({', '.join(getattr(s, '__name__', str(s)) for s in self.sorts)})"


Signature = Mapping[str, "type | Exactly | TupleOf"]


def admits(sort: "type | Exactly | TupleOf", argument: Any) -> bool:
    """``argument`` is of ``sort``: of exactly that type, the one value of an :class:`Exactly`,
    or a sequence of a :class:`TupleOf`'s sorts."""
    return sort.admits(argument) if isinstance(sort, (Exactly, TupleOf)) \
        else type(argument) is sort


def declares(*signatures: Signature) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Mark a ``validate`` function with the argument sorts it admits (one or more
    signatures): a :class:`Constructor` given that function and no ``sorts`` declares them
    too, and enforces them after the function runs, so a mark wider than the function only
    repeats it, and a narrower one refuses more."""
    def mark(validate: Callable[..., None]) -> Callable[..., None]:
        validate.sorts = tuple(dict(s) for s in signatures)  # type: ignore[attr-defined]
        return validate
    return mark


class Constructor:
    """A mechanism constructor: validation of the arguments, then ``build``.

    ``validate`` (optional) runs concrete checks that have no symbolic form (types, distinct
    categories). ``sorts`` (optional) then declares the type of each argument (``{"lower":
    int}``), or a sequence of such signatures, one of which the arguments must match
    (``[{"x": int}, {"x": float}]``): arguments of other types are refused, so every argument the
    constructor admits is of a declared sort and the kernel may reason about all of them on
    solver terms of that sort (a ``validate`` marked with :func:`declares` gives its sorts when
    ``sorts`` is not given). Each :class:`Precondition` is then evaluated in order. ``build``
    must not branch on its arguments in plain Python, so that :meth:`build` can run it on solver
    terms. ``reference`` (:meth:`variant` sets it): the constructor this one is a variant of.
    """

    def __init__(self, name: str, build: Callable[..., Any],
                 preconditions: Sequence[Precondition] = (),
                 validate: Callable[..., None] | None = None,
                 sorts: Signature | Sequence[Signature] | None = None,
                 reference: "Constructor | None" = None) -> None:
        self.name = name
        self.reference = reference
        self.build = build
        self.preconditions = tuple(preconditions)
        self.validate = validate
        if sorts is None:
            sorts = getattr(validate, "sorts", None)
        alternatives = [sorts] if isinstance(sorts, Mapping) else list(sorts or ())
        self.signatures: tuple[dict[str, Any], ...] = tuple(dict(s) for s in alternatives)
        try:
            self.signature = inspect.signature(build, eval_str=True)
        except NameError:  # an annotation that cannot be evaluated here: keep it as written
            self.signature = inspect.signature(build)
        self.__doc__ = build.__doc__

    def arguments(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return dict(bound.arguments)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        arguments = self.arguments(*args, **kwargs)
        if self.validate is not None:
            self.validate(**arguments)
        if self.signatures and not any(all(admits(sort, arguments[name])
                                           for name, sort in signature.items())
                                       for signature in self.signatures):
            raise ParameterSortError(self.name, arguments, self.signatures)
        for precondition in self.preconditions:
            if not ops.truthy(precondition.holds(**arguments)):
                raise precondition.error(**arguments)
        built = self.build(**arguments)
        if isinstance(built, (Transformation, Measurement)):
            object.__setattr__(built, PROVENANCE, Provenance(self, arguments))
        return built

    def assumptions(self, **arguments: Any) -> list[Any]:
        """The preconditions evaluated on (symbolic) arguments."""
        return [p.holds(**arguments) for p in self.preconditions]

    def variant(self, name: str, build: Callable[..., Any]) -> "Constructor":
        """Another constructor with the same preconditions and a different body; this one is
        its ``reference``, whose theorems it inherits where it computes the same values."""
        return Constructor(name, build, self.preconditions, self.validate, self.signatures,
                           reference=self)

    def __repr__(self) -> str:
        return f"<constructor {self.name}{self.signature}>"
