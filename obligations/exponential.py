"""The exponential as the proofs use it: an uninterpreted real function ``exp``, and the facts
about it a goal may assume (``exp(0) = 1``, positivity, monotonicity, ``exp(p + q) = exp(p)
exp(q)``, and ``exp(ln_up(r)) >= r`` for ``r >= 1``), so that Z3 decides the goals without a
transcendental theory."""

from __future__ import annotations

from typing import Any

import z3

from mechanisms import ops
from obligations.base import Z3Goal


EXP = z3.Function("exp", z3.RealSort(), z3.RealSort())
"""``exp``, uninterpreted: a goal knows of it only the facts it is given."""


def ln_up_applications(term: Any) -> list[Any]:
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
    in ``terms``, ``r >= 1`` and ``exp(ln_up(r)) >= r`` (obligation ``arith.ln_up``). The fact
    ``r >= 1`` is itself a goal wherever it is used (:func:`ln_up_domain_goal`): a precondition
    that admits ``r < 1`` is refuted, not hidden by the ``ValueError`` ``ln_up`` raises."""
    facts = [EXP(z3.RealVal(0)) == 1, *[EXP(term) > 0 for term in terms]]
    for term in terms:
        for application in ln_up_applications(term):
            argument = application.arg(0)
            facts += [argument >= 1, EXP(application) >= argument]
    return facts


def ln_up_domain_goal(what: str, term: Any, assumptions: list[Any], names: dict[str, Any],
                      replay: Any) -> Z3Goal:
    """Goal: under ``assumptions`` (the preconditions), the argument of every ``ln_up`` in
    ``term`` is ``>= 1``, so ``ln_up`` does not raise for any admitted parameter."""
    arguments = [application.arg(0) for application in ln_up_applications(term)]
    return Z3Goal(f"{what}: every ln_up(r) has r >= 1 under the preconditions (ln_up raises "
                  "otherwise)", z3.And(*[r >= 1 for r in arguments]), assumptions, names, replay)


def exp_product(p: Any, q: Any) -> Any:
    """The fact ``exp(p + q) = exp(p) exp(q)``."""
    return EXP(p + q) == EXP(p) * EXP(q)


def exp_monotone(p: Any, q: Any) -> Any:
    """The fact ``p <= q => exp(p) <= exp(q)``."""
    return z3.Implies(p <= q, EXP(p) <= EXP(q))
