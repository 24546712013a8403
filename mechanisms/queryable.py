"""Interactive measurements: a :class:`Queryable` answers queries on one dataset, one at a time,
keeping a state between them; an :class:`Odometer` turns a dataset into such a queryable.

A queryable is three things:

* ``state``: what it remembers (a privacy filter: the privacy spent so far; an odometer: the
  privacy maps of the queries it answered, composed);
* ``transition(state, query) -> Step(accepted, state, pending)``: the bookkeeping, a pure
  function of the state and the query, never of the data, written with :mod:`mechanisms.ops`
  so that the checker runs it on solver terms (the next state is chosen with ``ops.where``, so
  a refusal's state is part of what the transition computes, and of what is proved);
* ``respond(query)``: the answer, the query run on the data (``query(data, rng)``), or the
  query passed on to an inner queryable.

``q(query)`` runs the transition, stores the state it returns, then either raises the
transition's refusal (a typed error; nothing is run on the data) or answers. The state is
stored before the answer is computed: a query whose run raises is still charged (OpenDP 0.16
charges after the answer; charging first can only spend more).

Differences from OpenDP 0.16's ``Queryable``: no internal queries or wrappers; an interactive
query (one whose answer is itself a queryable) is refused by the odometer (OpenDP admits it and
enforces sequential composition with a permission hook), so every answer is final when given.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from mechanisms import ops
from mechanisms.errors import DomainError


@dataclass(frozen=True)
class Step:
    """What a transition decides: whether the query is ``accepted``, the ``state`` to keep (the
    old one when refused) and the ``pending`` cost it computed (for the refusal's message)."""

    accepted: Any
    state: Any
    pending: Any = None


class Queryable:
    """An interactive state machine on one dataset (see the module's docstring)."""

    def __init__(self, transition: Callable[[Any, Any], Step], state: Any,
                 respond: Callable[[Any], Any]) -> None:
        self.transition = transition
        self.state = state
        self.respond = respond

    def __call__(self, query: Any) -> Any:
        before = self.state
        step = self.transition(before, query)
        self.state = step.state
        if not ops.truthy(step.accepted):
            raise self.transition.refusal(before, step, query)
        return self.respond(query)

    def privacy_loss(self, d_in: Any) -> Any:
        """The privacy spent so far at ``d_in``, as the transition reports it."""
        return self.transition.privacy_loss(self, d_in)

    def __repr__(self) -> str:
        return f"Queryable({type(self.transition).__name__}, state={self.state!r})"


@dataclass(frozen=True)
class QueryRunner:
    """``query -> query(data, rng)``: a query answered on the dataset, with the shared random
    source (each query draws its own fresh randomness from it in turn)."""

    data: Any
    rng: Any = None

    def __call__(self, query: Any) -> Any:
        return query(self.data, self.rng)


@dataclass(frozen=True)
class Odometer:
    """An interactive mechanism without a fixed budget: ``odometer(data)`` is a queryable that
    answers every compatible query and reports the privacy spent so far
    (``queryable.privacy_loss(d_in)``)."""

    input_domain: Any
    input_metric: Any
    output_measure: Any
    function: Callable[..., Any]

    def __call__(self, arg: Any, rng: Any = None) -> Any:
        if not self.input_domain.member(arg):
            raise DomainError(arg, self.input_domain)
        return self.function(arg, rng)
