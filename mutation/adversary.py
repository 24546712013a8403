"""The untrusted proof code replaced by an adversary: instead of choosing rules, it applies every
rule of the kernel to every combination it can find in the run (every claim and kind, every
constructor, every entry's decided obligations, every theorem made so far, every built object)
and proposes all it gets. Whatever the proof code computes, it can only call the same rules, so a
wrong mechanism that passes under this adversary is a hole in the kernel; one that fails under it
fails under any proposer.

``python -m mutation --untrusted`` runs the wrong variants (twins, outsiders, the kernel's wrong
cases) through the gate with this proposer; ``tests/test_kernel_adversary.py`` does it for the
kernel's cases.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Mapping, Sequence

from checker import gate
from obligations.base import Entry, Obligation
from mechanisms.core import provenance
from obligations.kernel.additive_noise import additive_noise
from obligations.kernel.chain import chain_for_every_argument
from obligations.kernel.composition import composition_for_every_argument
from obligations.kernel.conversion import conversion_for_every_argument
from obligations.kernel.equivalence import equal_in_value
from obligations.kernel.finite_law import finite_law
from obligations.kernel.fold import fold, fold_for_every_argument
from obligations.kernel.row_transform import (row_filter, row_filter_for_every_argument,
                                               row_transform, row_transform_for_every_argument)
from obligations.kernel.rules import (PartlyProved, at_examples, by_reviewed_module, components,
                                      composed, instance, runtime_errors_from_output_domain)
from obligations.kernel.reviewed import reviewed_source
from obligations.kernel.coordinate_noise import coordinate_noise_for_every_argument
from obligations.kernel.statements import Claim, ObjectKind, Statement
from obligations.kernel.theorems import Theorem

CLAIMS_AND_KINDS = [(claim, kind) for kind in (*ObjectKind, None)
                    for claim in Claim]


class Adversary:
    """Every theorem the kernel's rules give on anything seen in the run."""

    def __init__(self) -> None:
        self.theorems: list[Theorem] = []
        self.constructors: dict[int, Any] = {}
        self.decided: list[tuple[Obligation, bool]] = []
        self.arguments: list[Mapping[str, Any]] = []
        self._made: set[int] = set()

    def _attempt(self, make: Any, *args: Any) -> None:
        try:
            made = make(*args)
        except PartlyProved as partly:  # what the rule did prove
            made = partly.theorems
        except Exception:  # noqa: BLE001 - a refusal (RuleRefused) or a misuse: nothing made
            return
        for theorem in made if isinstance(made, list) else [made]:
            if id(theorem) not in self._made:
                self._made.add(id(theorem))
                self.theorems.append(theorem)
                if theorem.statement.claim is Claim.OUTPUT_DOMAIN:
                    self._attempt(runtime_errors_from_output_domain, theorem)

    def propose(self, entry: Entry, statements: Sequence[Statement],
                decided: Sequence[tuple[Obligation, bool]],
                by_constructor: Mapping[int, Sequence[Theorem]],
                examples: Sequence[tuple[str, Any]] = (),
                reference_examples: Sequence[tuple[str, Any]] = ()
                ) -> tuple[list[Theorem], dict[Statement, str]]:
        """Every rule on the pooled obligations of the run, for the entry's constructor and for
        every constructor seen so far that one of the entry's obligations was written for; every
        rule on the objects its examples built; equality in value to every theorem so far, at
        the arguments of every example seen."""
        for call, built in examples:
            self.propose_object(call, built, by_constructor)
        self.arguments += [record.arguments for _, built in (*examples, *reference_examples)
                           if (record := provenance(built)) is not None]
        if entry.constructor is not None:
            self._attempt(at_examples, entry.constructor, examples, self.theorems)
        self.decided += decided
        seen = list(self.constructors.values())
        if entry.constructor is not None:
            self.constructors[id(entry.constructor)] = entry.constructor
            self._attempt(composed, entry.constructor, by_constructor)
            self._attempt(fold_for_every_argument, entry.constructor)
            self._attempt(row_transform_for_every_argument, entry.constructor)
            self._attempt(row_filter_for_every_argument, entry.constructor)
            self._attempt(coordinate_noise_for_every_argument, entry.constructor)
            self._attempt(composition_for_every_argument, entry.constructor)
            self._attempt(chain_for_every_argument, entry.constructor)
            self._attempt(conversion_for_every_argument, entry.constructor)
            self._attempt(equal_in_value, entry.constructor,
                          [*(t for ts in by_constructor.values() for t in ts), *self.theorems],
                          [a for a in self.arguments
                           if set(a) == set(entry.constructor.signature.parameters)])
        touched = [c for c in seen if any(reviewed_source(o, c) for o, _ in decided)]
        for constructor in dict.fromkeys([entry.constructor, *touched]):
            if constructor is None:
                continue
            for claim, kind in CLAIMS_AND_KINDS:
                self._attempt(by_reviewed_module, claim, kind, constructor, self.decided)
        return list(self.theorems), {s: "the adversary found no theorem" for s in statements}

    def propose_object(self, subject: str, built: Any,
                       by_constructor: Mapping[int, Sequence[Theorem]]) -> list[Theorem]:
        record = provenance(built)
        for index, part in enumerate(components(record.arguments.values()) if record else ()):
            self.propose_object(f"{subject} argument {index}", part, by_constructor)
        every = [t for ts in by_constructor.values() for t in ts] + self.theorems
        self._attempt(instance, subject, built, every, every)  # the rule looks theorems up
        self._attempt(row_transform, subject, built)
        self._attempt(row_filter, subject, built)
        self._attempt(additive_noise, subject, built)
        self._attempt(fold, subject, built)
        self._attempt(finite_law, subject, built)
        return list(self.theorems)


@contextlib.contextmanager
def adversarial_proposer() -> Iterator[Adversary]:
    """The gate, within this block, proposes with a fresh :class:`Adversary`."""
    adversary = Adversary()
    saved = gate.propose, gate.propose_object
    gate.propose, gate.propose_object = adversary.propose, adversary.propose_object
    try:
        yield adversary
    finally:
        gate.propose, gate.propose_object = saved


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m mutation.adversary ARGS``: ``dpcert ARGS`` with the adversary proposing."""
    import sys

    from checker.cli import main as dpcert
    with adversarial_proposer():
        return dpcert(list(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    raise SystemExit(main())
