"""One run of the gate: obligations, proof binding and (optionally) empirical tests, with the
verdict a CI pipeline acts on. ``dpcert check`` prints it; ``dpcert report`` writes it out."""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from checker.build_calls import relied_on
from checker.limits import no_exit, time_limit
from checker.loading import with_lemmas
from checker.proofs.binding import ProofStatus, check_proofs
from checker.report.identity import Identity, identity_of
from checker.results import ObligationResult, Verdict
from checker.runner import RunningTasks, Task
from checker.search_cache import Search, SearchCache, Searches
from obligations.base import Entry
from obligations.catalogue import builtin_catalogue
from mechanisms.core import provenance
from obligations.kernel.certify import Certified, certify, entry_statements, has_reviewed_proof
from obligations.kernel.coordinate_noise import RULE as COORDINATE_RULE
from obligations.kernel.reviewed import reviewed_source
from obligations.kernel.rules import components
from obligations.kernel.statements import Statement, object_statements, standard_statements
from obligations.kernel.theorems import PremiseKind, Theorem
from obligations.proposals import propose, propose_object

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
    """``(i, n)``: only the mechanisms whose name hashes to ``i - 1`` modulo ``n`` (and the
    lemmas they rely on), so ``n`` CI workers split a catalogue, each certifying whole
    mechanisms."""
    arithmetic: str = "exact"
    """``"ieee"``: an obligation ``proved under exact arithmetic`` fails the gate too."""
    search_cache: str | None = None
    """The folder of the cache of refutation searches that found nothing
    (:mod:`checker.search_cache`); None: every search runs."""


@dataclass
class GateRun:
    """One run of the gate: what was checked (``entries``, ``identity``), under which ``options``,
    and every result the verdict rests on."""

    entries: list[Entry]
    results: list[ObligationResult]
    proofs: list[ProofStatus]
    orphan_proofs: list[str]
    statements: list[tuple[str, Certified]] = field(default_factory=list)
    """Each mechanism's standard statements (by mechanism name), with the kernel's theorem."""
    empirical: list[EmpiricalResult] = field(default_factory=list)
    seconds: float = 0.0
    options: Options = Options()
    identity: Identity = Identity("unknown", None)
    """The commit, dirty flag and checked modules, read when the run started."""
    searches: dict[Statement, Search] = field(default_factory=dict)
    """How the refutation search of each statement searched went (a statement proved outright
    is not searched)."""

    @property
    def stale_proofs(self) -> list[ProofStatus]:
        """Proofs vetted against other code or another text (failures only with ``--strict``)."""
        return [s for s in self.proofs if s.stale]

    @property
    def statements_proved(self) -> bool:
        return all(certified.proved for _, certified in self.statements)

    @property
    def obligations_proved(self) -> bool:
        """Every obligation proved, but for those :attr:`not_needed`."""
        unneeded = {id(r) for r in self.not_needed}
        return all(r.verdict is Verdict.PROVED or id(r) in unneeded
                   for r in self.results) and not self.exact_only

    @property
    def not_needed(self) -> list[ObligationResult]:
        """Obligations left unknown that no theorem needs: those of an entry bound to no proof
        text, whose every standard statement the kernel proved by rules that take no premise
        from the entry's own obligations (a variant's theorems may rest on its reference's).
        They were proposals; a refuted or erring one still fails the gate."""
        owed: dict[str, list[Certified]] = {}
        for name, certified in self.statements:
            owed.setdefault(name, []).append(certified)
        free = {e.name for e in self.entries if not e.proof and owed.get(e.name) and all(
            c.theorem is not None and not set(c.theorem.rests_on(PremiseKind.PROVED))
            & {o.id for o in e.obligations} for c in owed[e.name])}
        return [r for r in self.results if r.mechanism in free and r.verdict is Verdict.UNKNOWN]

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
        return (self.obligations_proved and self.statements_proved and self.proofs_pass
                and not any(e.failed for e in self.empirical))


def in_shard(name: str, shard: tuple[int, int]) -> bool:
    """A stable split: CRC-32 of the name, modulo the number of shards."""
    index, count = shard
    return zlib.crc32(name.encode()) % count == index - 1


def sharded(entries: Sequence[Entry], shard: tuple[int, int]) -> list[Entry]:
    """The whole mechanisms of one shard (a mechanism's statements need all its obligations),
    plus the catalogue's lemmas they rely on."""
    if shard == (1, 1):
        return list(entries)
    return with_lemmas([e for e in entries if in_shard(e.name, shard)])


def certified_statements(entries: Sequence[Entry],
                         results: Callable[[str], Sequence[ObligationResult]],
                         searches: Searches | None = None) -> list[tuple[str, Certified]]:
    """Each entry's standard statements, each with the kernel's theorem or why there is none.
    ``results(name)`` (the entry's obligations' results, which may still be running) is called
    only for an entry with a reviewed proof module; the entries that do not wait for one, even
    through the constructors they build with (:func:`uses_results`), are certified first.
    ``searches`` makes and records the refutation searches (none cached by default)."""
    searches = Searches() if searches is None else searches
    certified: list[tuple[str, Certified]] = []
    by_constructor: dict[int, list[Theorem]] = {}
    built = {e.name: built_examples(e) for e in entries}
    examples_of = {id(e.constructor): built[e.name] for e in entries if e.constructor is not None}
    waits = uses_results(entries, built)
    for entry in sorted(entries, key=lambda e: (waits(e), calls_depth(e.constructor))):
        examples = built[entry.name]
        proved = {r.id: r.verdict is Verdict.PROVED
                  for r in (results(entry.name) if has_reviewed_proof(entry) else ())}
        try:
            with time_limit(PROPOSAL_SECONDS), no_exit():  # the kind may be read from its build
                statements = entry_statements(entry, examples[0][1] if examples else None,
                                              by_constructor)
        except Exception:  # noqa: BLE001 - the user's build failed: its kind is unknown
            statements = standard_statements(entry.constructor, None)
        decided = [(o, proved.get(o.id, False)) for o in entry.obligations]
        try:
            with time_limit(PROPOSAL_SECONDS), no_exit():  # rules run the user's code here
                theorems, reasons = propose(
                    entry, statements, decided, by_constructor, examples,
                    reference_examples=examples_of.get(id(entry.constructor.reference), ())
                    if entry.constructor is not None else ())
        except Exception as error:  # noqa: BLE001 - the proposer is untrusted: no theorem
            theorems, reasons = [], {s: f"the proposer raised {type(error).__name__}: {error}"
                                     for s in statements}
        found = [refuted(c, entry.constructor, examples, searches)
                 for c in certify(statements, theorems, reasons)]
        by_constructor.setdefault(id(entry.constructor), []).extend(
            c.theorem for c in found if c.theorem is not None)
        certified += [(entry.name, c) for c in found]
    order = {e.name: i for i, e in enumerate(entries)}
    return sorted(certified, key=lambda pair: order[pair[0]])


def uses_results(entries: Sequence[Entry], built: Mapping[str, Sequence[tuple[str, object]]]
                 ) -> Callable[[Entry], bool]:
    """Whether an entry's theorems may rest on obligations' results: it has a reviewed proof
    module, or a constructor it calls or its examples (``built``, by entry name) build with
    belongs to such an entry (whose theorems its plan may use)."""
    by_id = {id(e.constructor): e for e in entries if e.constructor is not None}
    answers: dict[str, bool] = {}

    def uses(entry: Entry) -> bool:
        if entry.name not in answers:
            answers[entry.name] = has_reviewed_proof(entry)  # first: a cycle adds nothing
            reached = [] if entry.constructor is None else [
                *relied_on(entry.constructor),
                *(c for _, made in built[entry.name] for c in constructors_of(made))]
            answers[entry.name] = answers[entry.name] or any(
                uses(by_id[id(c)]) for c in reached if id(c) in by_id)
        return answers[entry.name]
    return uses


def calls_depth(constructor: object, seen: tuple[int, ...] = ()) -> int:
    """How deep the constructors ``constructor`` relies on nest (0: none): an entry is certified
    after those it calls, whose theorems its plan uses, and after its reference."""
    if constructor is None or id(constructor) in seen:
        return 0
    return 1 + max((calls_depth(c, (*seen, id(constructor)))
                    for c in relied_on(constructor)), default=-1)


def proved_alone(entry: Entry) -> bool:
    """The entry's theorems need no other entry's: it has a reviewed proof module, or its
    constructor declares its arguments' sorts (a rule for every argument may prove it)."""
    return has_reviewed_proof(entry) or bool(entry.constructor is not None
                                             and entry.constructor.signatures)


PROPOSAL_SECONDS = 120.0
"""The kernel's rules run the user's code (a rebuild, a plan, a kernel on hard values): each
entry's or object's proposal is stopped after this long, and then has no theorem."""
SEARCH_SECONDS = 5.0
"""How long the search for a refutation of one statement may run, in CPU seconds of this process
(the same search on a loaded machine as on an idle one). Over the three outsiders' corpora every
refutation it found took at most 3.6 s; a search that finds none runs to this limit."""
REVIEWED_SEARCH_SECONDS = 0.3
"""The same, for a statement a reviewed proof module proved, bounded."""
EXAMPLE_SECONDS = 10.0
"""Building one of an entry's examples is cut off after this long."""


def built_examples(entry: Entry) -> list[tuple[str, object]]:
    """``(call, object)`` for each of the entry's examples that builds within
    :data:`EXAMPLE_SECONDS` (one that fails is the empirical tests' to report; the kind is then
    read otherwise, and no theorem rests on it)."""
    if entry.constructor is None:
        return []
    built = []
    for example in entry.examples:
        try:
            with time_limit(EXAMPLE_SECONDS), no_exit():
                built.append((example.call, example.make()))
        except Exception:  # noqa: BLE001 - the example's own failure (an exit attempt among them)
            continue
    return built


def constructors_of(built: object) -> list[object]:
    """The constructors that built ``built`` and the objects among their arguments."""
    record = provenance(built)
    if record is None:
        return []
    return [record.constructor, *(c for part in components(record.arguments.values())
                                  for c in constructors_of(part))]


def with_constructors_of(entries: Sequence[Entry], objects: Sequence[tuple[str, object]]) -> list[Entry]:
    """``entries`` plus the catalogue entries of the constructors that built ``objects``, of
    those that the entries without a proof module may call, and of the references of variants."""
    present = {id(e.constructor) for e in entries if proved_alone(e)}
    called = [c for e in entries if e.constructor is not None
              for c in ([e.constructor.reference] if proved_alone(e) else
                        [e.constructor, *relied_on(e.constructor)]) if c is not None]
    wanted = {id(c) for _, built in objects for c in constructors_of(built)} | \
        {id(c) for c in called}
    wanted -= present
    named = {e.name for e in entries}
    return [*entries, *(e for e in builtin_catalogue()
                        if id(e.constructor) in wanted and e.name not in named)]


def certified_objects(objects: Sequence[tuple[str, object]],
                      statements: Sequence[tuple[str, Certified]],
                      entries: Sequence[Entry], searches: Searches) -> list[tuple[str, Certified]]:
    """Each object's standard statements with the kernel's theorem, from the theorems proved
    for the constructors that built it."""
    constructors = {e.name: id(e.constructor) for e in entries}
    by_constructor: dict[int, list[Theorem]] = {}
    for name, certified in statements:
        if certified.theorem is not None and name in constructors:
            by_constructor.setdefault(constructors[name], []).append(certified.theorem)
    found: list[tuple[str, Certified]] = []
    for subject, built in objects:
        owed = object_statements(subject, built)
        try:
            with time_limit(PROPOSAL_SECONDS), no_exit():  # rules run the user's code here
                theorems, why = propose_object(subject, built, by_constructor), ""
        except Exception as refused:  # noqa: BLE001 - RuleRefused, or the untrusted proposer
            theorems, why = [], str(refused)
        found += [(subject, refuted(c, None, [(subject, built)], searches))
                  for c in certify(owed, theorems, {s: why for s in owed})]
    return found


def refuted(certified: Certified, constructor: object,
            examples: Sequence[tuple[str, object]], searches: Searches) -> Certified:
    """A statement without a theorem, or with only a bounded or assuming one, refuted when the
    untrusted search finds a refutation the kernel makes (it runs the user's code, exits
    refused): for :data:`SEARCH_SECONDS`, or :data:`REVIEWED_SEARCH_SECONDS` when the theorem
    rests on a reviewed proof module (whose bounded checks are its own search). A theorem of
    the noise rule per coordinate holds for every argument and is bounded in its inputs (the
    vectors' lengths): the search looks past that bound at the examples' arguments only."""
    if certified.proved and not certified.conditional:
        return certified
    seconds = REVIEWED_SEARCH_SECONDS if certified.theorem is not None and \
        certified.theorem.rests_on(PremiseKind.REVIEWED_MODULE) else SEARCH_SECONDS
    every_argument = certified.theorem is not None and certified.theorem.rule == COORDINATE_RULE
    try:
        with time_limit(PROPOSAL_SECONDS), no_exit():
            return certified.refuted_by(searches.refutation(certified.statement, constructor,
                                                            examples, seconds,
                                                            varied=not every_argument))
    except Exception:  # noqa: BLE001 - the search is untrusted: no refutation
        return certified


def _needed_first(task: Task) -> tuple[int, int]:
    """Lemmas first, then the obligations of reviewed proof modules, whose results the kernel
    waits for, callees before callers."""
    if task.constructor is None:
        return 0, 0
    reviewed = reviewed_source(task.obligation, task.constructor) is not None
    return (1 if reviewed else 2), calls_depth(task.constructor)


def run_gate(entries: Sequence[Entry], options: Options, whole_catalogue: bool,
             objects: Sequence[tuple[str, object]] = ()) -> GateRun:
    """The gate over ``entries`` and the built ``objects`` (each with the name it is reported
    under), whose constructors' catalogue entries are checked with them."""
    start = time.perf_counter()
    searches = Searches(SearchCache(Path(options.search_cache)) if options.search_cache else None)
    entries = with_constructors_of(entries, objects)
    identity = identity_of(with_lemmas(entries))
    chosen = sharded(with_lemmas(entries), options.shard)
    running = RunningTasks([Task(e.name, o, e.constructor) for e in chosen for o in e.obligations],
                           options.timeout, options.jobs, first=_needed_first)
    try:  # while the obligations run: the proofs' binding, and the statements needing no result
        first_shard = options.shard[0] == 1  # the proofs are checked once, by the first shard
        proofs, orphans = check_proofs([e for e in with_lemmas(entries) if e.proof and first_shard],
                                       builtin_catalogue(),
                                       whole_catalogue=whole_catalogue and first_shard)
        statements = certified_statements(chosen, running.of, searches)
    except BaseException:  # a stop signal among them: the guard stops the processes, unawaited
        running.abandon()
        raise
    results = running.all()
    if options.empirical:
        from checker.empirical.runner import run_empirical
    empirical = (run_empirical(chosen, options.samples, options.alpha, options.seed)
                 if options.empirical else [])
    statements += certified_objects(objects, statements, chosen, searches)
    if searches.cache is not None:
        searches.cache.prune()
    return GateRun(chosen, results, proofs, orphans, statements, empirical,
                   time.perf_counter() - start, options, identity, searches.done)
