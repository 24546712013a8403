"""One run of the gate: obligations, proof binding and (optionally) empirical tests, with the
verdict a CI pipeline acts on. ``dpcert check`` prints it; ``dpcert report`` writes it out."""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from checker.loading import with_lemmas
from checker.proofs.binding import ProofStatus, check_proofs
from checker.report.identity import Identity, identity_of
from checker.results import ObligationResult, Verdict
from checker.runner import Task, apply_dependencies, run_tasks
from obligations.base import Entry
from obligations.catalogue import builtin_catalogue

if TYPE_CHECKING:  # the empirical tester (SciPy, scikit-learn) is imported only when asked for
    from checker.empirical.runner import EmpiricalResult


@dataclass(frozen=True)
class Options:
    timeout: float = 30.0
    jobs: int = 1
    strict: bool = False
    empirical: bool = False
    samples: int = 50_000
    alpha: float = 1e-3
    seed: int = 0
    shard: tuple[int, int] = (1, 1)
    """``(i, n)``: only the obligations whose id hashes to ``i - 1`` modulo ``n`` (and the lemmas
    they rely on), so ``n`` CI workers split a catalogue."""
    arithmetic: str = "exact"
    """``"ieee"``: an obligation ``proved under exact arithmetic`` fails the gate too."""


@dataclass
class GateRun:
    """One run of the gate: what was checked (``entries``, ``identity``), under which ``options``,
    and every result the verdict rests on."""

    entries: list[Entry]
    results: list[ObligationResult]
    proofs: list[ProofStatus]
    orphan_proofs: list[str]
    empirical: list[EmpiricalResult] = field(default_factory=list)
    seconds: float = 0.0
    options: Options = Options()
    identity: Identity = Identity("unknown", None)
    """The commit, dirty flag and checked modules, read when the run started."""

    @property
    def stale_proofs(self) -> list[ProofStatus]:
        """Proofs vetted against other code or another text (failures only with ``--strict``)."""
        return [s for s in self.proofs if s.stale]

    @property
    def obligations_proved(self) -> bool:
        return all(r.verdict is Verdict.PROVED for r in self.results) and not self.exact_only

    @property
    def exact_only(self) -> list[ObligationResult]:
        """With ``--arithmetic ieee``: the obligations proved only under exact arithmetic."""
        if self.options.arithmetic != "ieee":
            return []
        return [r for r in self.results if r.under_exact_arithmetic]

    @property
    def proofs_pass(self) -> bool:
        bound = all(s.bound for s in self.proofs) and not self.orphan_proofs
        return bound and not (self.options.strict and self.stale_proofs)

    @property
    def passed(self) -> bool:
        return (self.obligations_proved and self.proofs_pass
                and not any(e.failed for e in self.empirical))


def in_shard(obligation_id: str, shard: tuple[int, int]) -> bool:
    """A stable split: CRC-32 of the id, modulo the number of shards."""
    index, count = shard
    return zlib.crc32(obligation_id.encode()) % count == index - 1


def sharded(entries: Sequence[Entry], shard: tuple[int, int]) -> list[Entry]:
    """The entries restricted to one shard's obligations, plus what those rely on (``uses``):
    obligations of the same entries (a constructor's own lemma) and the catalogue's lemmas."""
    if shard == (1, 1):
        return list(entries)
    uses = {o.id: o.uses for e in entries for o in e.obligations}
    wanted = {o.id for e in entries for o in e.obligations if in_shard(o.id, shard)}
    pending = list(wanted)
    while pending:
        for used in uses.get(pending.pop(), ()):
            if used not in wanted:
                wanted.add(used)
                pending.append(used)
    kept = [Entry(e.name, e.constructor, tuple(o for o in e.obligations if o.id in wanted),
                  e.summary, e.examples, e.proof) for e in entries]
    return with_lemmas([e for e in kept if e.obligations])


def run_gate(entries: Sequence[Entry], options: Options, whole_catalogue: bool) -> GateRun:
    start = time.perf_counter()
    identity = identity_of(with_lemmas(entries))
    chosen = sharded(with_lemmas(entries), options.shard)
    results = run_tasks([Task(e.name, o, e.constructor) for e in chosen for o in e.obligations],
                        options.timeout, options.jobs)
    apply_dependencies(results)
    first_shard = options.shard[0] == 1  # the proofs are checked once, by the first shard
    proofs, orphans = check_proofs([e for e in with_lemmas(entries) if e.proof and first_shard],
                                   builtin_catalogue(), whole_catalogue=whole_catalogue and first_shard)
    if options.empirical:
        from checker.empirical.runner import run_empirical
    empirical = (run_empirical(chosen, options.samples, options.alpha, options.seed)
                 if options.empirical else [])
    return GateRun(chosen, results, proofs, orphans, empirical, time.perf_counter() - start, options,
                   identity)
