"""The known samplers' stand-in (:func:`mechanisms.samplers.draws_replaced`) and the two uses the
noise rules make of it: reading a function on solver inputs, each draw a fresh solver integer
recorded with its law and parameter (:func:`read`); and checking that seeded running calls, their
draws recorded, compute what that reading says (:func:`agrees`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

import z3

from mechanisms import float_model
from mechanisms.samplers import draws_replaced
from obligations.kernel.goals import as_real, bare, int_term, on_terms, require
from obligations.kernel.noise_laws import LAWS
from obligations.kernel.rules import RuleRefused

SEEDS = 3
"""Seeded running calls per input compared with the answer on terms."""


class UnusableRng:
    """The rng a function gets while the kernel reads it: any use raises, so every draw it makes
    goes through a known sampler (whose draw is replaced before it touches the rng)."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"the function used its rng ({name}) outside a known sampler")


@dataclass
class Draws:
    """Stand-in for the known samplers: each draw a fresh Z3 integer, recorded with its law."""

    drawn: list[tuple[str, Any, Any]]
    """``(law, parameter, draw)``: the parameter a rational, or a solver term."""
    running: bool = False
    """Draw for real (with the rng passed to the sampler) and record the value instead."""

    def __call__(self, law: str, parameter: Any, rng: Any) -> Any:
        if not isinstance(parameter, z3.ExprRef):
            parameter = Fraction(parameter)
        value = (LAWS[law].sampler(parameter, rng) if self.running
                 else _Draw(float_model.int_parameter(f"noise!{len(self.drawn)}")))
        self.drawn.append((law, parameter, value))
        return value


class _Draw(float_model.IntTerm):
    """A draw as a term that records what it is added to (the statistic, a guess at ``T(x)``
    that the rule then proves or refutes): a subclass, so that ``total + draw`` asks it first."""

    def __init__(self, term: Any) -> None:
        super().__init__(term.as_ast(), term.ctx)
        self.addends: list[Any] = []

    def __add__(self, other: Any) -> Any:
        self.addends.append(other)
        return super().__add__(other)

    def __radd__(self, other: Any) -> Any:
        self.addends.append(other)
        return super().__radd__(other)


def statistic(output: Any, draw: Any) -> Any:
    """What ``draw`` was added to, when it was added to one int term once, else ``output`` at a
    draw of 0: the guess at ``T(x)`` in ``h(T(x) + N)`` that a rule then proves or refutes."""
    added = [int_term(a) for a in getattr(draw, "addends", [])]
    return added[0] if len(added) == 1 and added[0] is not None else \
        z3.substitute(output, (bare(draw), z3.IntVal(0)))


def fresh(x: Any) -> Any:
    """An input as the function is given it: a list as a new list, anything else as it is."""
    return list(x) if isinstance(x, (list, tuple)) else x


def read(rule: str, what: str, function: Any, argument: Any) -> tuple[Any, list[tuple[str, Any, Any]]]:
    """``function(argument, rng)`` on solver terms, the known samplers replaced by terms and the
    rng unusable: ``(output, draws)``; refuses when it raises or tests the type of a term."""
    draws = Draws([])
    try:
        with on_terms() as watch, draws_replaced(draws):
            output = function(fresh(argument), UnusableRng())
    except Exception as error:  # noqa: BLE001 - whatever the function raises on terms
        raise RuleRefused(rule, f"{what} does not run on solver terms ({type(error).__name__}: "
                          f"{error})") from None
    require(rule, not watch.found, f"{what} tests the type of a solver term "
            f"({'; '.join(sorted(watch.found))})")
    return output, list(draws.drawn)


def agrees(rule: str, what: str, function: Any, value: Any, output: Any,
           drawn: Sequence[tuple[str, Any, Any]], pairs: Sequence[tuple[Any, Any]],
           domain: Any = None) -> None:
    """Seeded running calls of ``function`` on ``value`` draw the laws ``drawn`` names, at the
    parameters their terms give at ``pairs`` (the arguments' values), and return what ``output``
    (an int term, or a list or tuple of them) gives at ``pairs``, ``value`` and the draws they made: a
    member of ``domain`` when one is given."""
    for seed in range(SEEDS):
        recorded = Draws([], running=True)
        try:
            with draws_replaced(recorded):
                running = function(fresh(value), random.Random(seed))
        except Exception as error:  # noqa: BLE001 - an admitted input that raises
            raise RuleRefused(rule, f"{what} raises on {value} ({type(error).__name__}: "
                              f"{error})") from None
        require(rule, [n for n, _, _ in recorded.drawn] == [n for n, _, _ in drawn],
                f"{what} draws otherwise on {value} than on terms")
        at = list(pairs)
        for (_, parameter, term), (_, real_parameter, real_draw) in zip(drawn, recorded.drawn):
            stated = z3.simplify(z3.substitute(as_real(float_model.plain(parameter)), *pairs))
            require(rule, z3.is_true(z3.simplify(stated == as_real(real_parameter))),
                    f"{what} draws at parameter {real_parameter} on {value}, {stated} on terms")
            at.append((bare(term), z3.IntVal(real_draw)))
        terms = output if isinstance(output, (list, tuple)) else [output]
        solved = [z3.simplify(z3.substitute(int_term(o), *at)) for o in terms]
        ran = running if isinstance(running, (list, tuple)) else [running]
        require(rule, (type(running) is type(output) or not isinstance(output, (list, tuple))
                       and not isinstance(running, (list, tuple)))
                and len(ran) == len(solved) and all(type(r) is int and t.eq(z3.IntVal(r))
                                                    for r, t in zip(ran, solved))
                and (domain is None or domain.member(running)),
                f"{what} computes otherwise on terms than when run on {value} (seed {seed}): "
                f"{running!r} when run, {solved} on terms")
