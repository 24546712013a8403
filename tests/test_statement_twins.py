"""A catalogue constructor with no obligations rests on the kernel's standard statements alone:
each of them has a wrong twin whose same statement the kernel refutes, confirmed on the running
code, and a twin outside the kernel's rules has none of its statements proved."""

from __future__ import annotations

from typing import Callable

import pytest

from obligations.catalogue import builtin_catalogue
from obligations.kernel.certify import Certified, entry_statements
from obligations.kernel.rules import EXAMPLES_RULE
from obligations.kernel.statements import Claim
from tests import twins
from tests.helpers import statements_by_claim

TWINS = {e.name: e for e in [*twins.MECHANISMS, *twins.UNSUPPORTED] if not e.obligations}
UNSUPPORTED = [e.name for e in twins.UNSUPPORTED if not e.obligations]
@pytest.fixture(scope="session")
def statements_of() -> Callable[..., dict[Claim, Certified]]:
    """``statements_of(name, searched)``: the twin entry's standard statements as the gate
    certifies them, its refutation search run for the claims ``searched`` only (none by default:
    the search can only take a theorem away, so a statement not proved without it is not proved
    with it); once per entry and claims."""
    done: dict[tuple[str, frozenset[Claim]], dict[Claim, Certified]] = {}

    def certify(name: str, searched: frozenset[Claim] = frozenset()) -> dict[Claim, Certified]:
        if (name, searched) not in done:
            done[name, searched] = statements_by_claim(TWINS[name], searched)
        return done[name, searched]
    return certify


@pytest.mark.parametrize("twin, claim", sorted(twins.REFUTED_STATEMENTS,
                                                key=lambda pair: (pair[0], pair[1].name)),
                         ids=lambda value: getattr(value, "name", value))
def test_the_twin_statement_is_refuted_and_confirmed(twin, claim, statements_of):
    certified = statements_of(twin, frozenset({claim}))[claim]
    assert certified.theorem is None, certified.theorem
    assert certified.refutation is not None, certified.why
    assert certified.refutation.statement == certified.statement
    assert twin in certified.refutation.witness


def test_every_statement_of_a_constructor_without_obligations_has_a_refuted_twin():
    owed = {(e.name, s.claim) for e in builtin_catalogue()
            if e.constructor is not None and not e.obligations for s in entry_statements(e)}
    assert owed, "no catalogue constructor rests on the kernel's statements alone"
    assert set(twins.STATEMENT_TWIN_OF) == owed
    for (_, claim), (twin, twin_claim) in twins.STATEMENT_TWIN_OF.items():
        assert claim is twin_claim and twin in TWINS


@pytest.mark.parametrize("name", UNSUPPORTED)
def test_a_twin_outside_the_rules_has_no_statement_proved(name, statements_of):
    assert not any(c.proved for c in statements_of(name).values())


@pytest.mark.parametrize("entry", [e for e in builtin_catalogue()
                                   if e.constructor is not None and not e.obligations],
                         ids=lambda e: e.name)
def test_a_constructor_without_obligations_is_proved_for_every_argument(entry):
    """Its statements rest on a rule for every argument it admits, never on its examples alone
    (a combinator's rule is bounded to the stand-in components it reads, and says so)."""
    certified = list(statements_by_claim(entry).values())
    assert certified and all(c.proved and c.theorem.rule != EXAMPLES_RULE
                             for c in certified), [
        (c.statement.claim.value, c.why or c.theorem.rule) for c in certified]
