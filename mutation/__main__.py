"""``python -m mutation``: mutate the constructors, re-check each mutant, compare the survivors
with ``mutation/classification.toml``.

Exit codes: 0 every survivor is classified and none is a ``hole``; 1 otherwise (the unclassified
survivors and the holes are listed); 2 usage error (unknown constructor or mutant id, bad
classification file, unknown revision).
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

from mutation.classification import (EXIT_FAILED, EXIT_USAGE, ClassificationError, decide,
                                     load_classification)
from mutation.report import per_constructor, write_results
from mutation.runner import (SURVIVED, Result, all_mutants, kill_live, module_sources,
                             prepare_base, rev_commit, run_all, verify_isolation)

PROJECT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent


def default_python() -> str:
    venv = PROJECT / ".venv" / "bin" / "python"
    return str(venv) if venv.is_file() else sys.executable


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m mutation", description=__doc__.split("\n\n")[0])
    p.add_argument("--rev", help="mutate this git revision (git archive) instead of the working tree")
    p.add_argument("--jobs", type=int, default=2, help="mutants checked in parallel (default 2)")
    p.add_argument("--only", action="append", default=[], metavar="MODULE",
                   help="only these modules, e.g. make_clamp (repeatable, or comma-separated)")
    p.add_argument("--id", action="append", default=[], dest="ids", metavar="MUTANT_ID",
                   help="only this mutant (repeatable)")
    p.add_argument("--ids-from", type=Path, metavar="FILE",
                   help="only the mutants listed in FILE, one id a line")
    p.add_argument("--list", action="store_true", help="list the mutants and exit")
    p.add_argument("--timeout", type=float, default=30, help="checker --timeout per obligation")
    p.add_argument("--wall", type=float, default=300, help="wall limit per mutant, seconds")
    p.add_argument("--out", type=Path, default=HERE, help="where results.md/json go")
    p.add_argument("--classification", type=Path, default=HERE / "classification.toml")
    p.add_argument("--python", default=default_python(), help="interpreter that runs the checker")
    p.add_argument("--keep", action="store_true", help="keep each mutant's copy (debugging)")
    return p


def _terminate(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _progress(done: int, total: int, result: Result) -> None:
    print(f"[{done}/{total}] {result.outcome:13} {result.id} ({result.seconds:.1f} s) "
          f"{result.detail[:120]}", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parser().parse_args(argv)
    only = [name for item in arguments.only for name in item.split(",") if name]
    if arguments.ids_from is not None:
        if not arguments.ids_from.is_file():
            print(f"mutation: no file {arguments.ids_from}", file=sys.stderr)
            return EXIT_USAGE
        arguments.ids += [line.strip() for line in
                          arguments.ids_from.read_text(encoding="utf-8").splitlines() if line.strip()]
    try:
        classification = load_classification(arguments.classification)
    except ClassificationError as error:
        print(f"mutation: {error}", file=sys.stderr)
        return EXIT_USAGE
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="dpcert-mutation-") as scratch_name:
        scratch = Path(scratch_name)
        try:
            base = prepare_base(PROJECT, scratch / "base", arguments.rev)
        except subprocess.CalledProcessError as error:
            print(f"mutation: cannot archive {arguments.rev!r}: {error.stderr.decode()[-300:]}",
                  file=sys.stderr)
            return EXIT_USAGE
        everything = module_sources(base)
        unknown = sorted(set(only) - set(everything))
        if unknown:
            print(f"mutation: no module {', '.join(unknown)}; known: {', '.join(everything)}",
                  file=sys.stderr)
            return EXIT_USAGE
        existing = all_mutants(everything)
        mutants = [m for m in existing if (not only or m.module in only)]
        if arguments.ids:
            missing = sorted(set(arguments.ids) - {m.id for m in mutants})
            if missing:
                print(f"mutation: no mutant {', '.join(missing)}", file=sys.stderr)
                return EXIT_USAGE
            mutants = [m for m in mutants if m.id in set(arguments.ids)]
        if arguments.list:
            for mutant in mutants:
                print(mutant.id)
            print(f"{len(mutants)} mutants", file=sys.stderr)
            return 0
        measured = rev_commit(PROJECT, arguments.rev)
        print(f"mutation: {len(mutants)} mutants of {measured}, {arguments.jobs} jobs",
              file=sys.stderr, flush=True)
        previous = signal.signal(signal.SIGTERM, _terminate)
        try:
            verify_isolation(base, scratch, arguments.python)
            results = run_all(mutants, everything, base, scratch, arguments.python,
                              arguments.jobs, arguments.timeout, arguments.wall, arguments.keep,
                              _progress)
        finally:  # interrupted or not, no checker process outlives the run
            kill_live()
            signal.signal(signal.SIGTERM, previous)
    seconds = time.monotonic() - started
    survivors = [r.id for r in results if r.outcome == SURVIVED]
    decision = decide(survivors, classification, [m.id for m in existing])
    meta = {"measured": measured, "rev": arguments.rev, "only": only, "ids": arguments.ids,
            "jobs": arguments.jobs, "timeout": arguments.timeout, "wall": arguments.wall,
            "seconds": round(seconds, 1)}
    written = write_results(arguments.out, results, classification, decision, meta)
    for constructor, counts in per_constructor(results).items():
        print(f"{constructor}: {sum(counts.values())} mutants, "
              + ", ".join(f"{n} {o}" for o, n in sorted(counts.items())))
    print(f"wrote {', '.join(str(p) for p in written)} ({seconds / 60:.1f} min)")
    for stale in decision.stale:
        print(f"warning: stale classification (no such mutant): {stale}")
    for mutant_id in decision.unclassified:
        print(f"unclassified survivor: {mutant_id}")
    for mutant_id in decision.holes:
        print(f"hole: {mutant_id}")
    if decision.exit_code == EXIT_FAILED:
        print(f"mutation: failed: {len(decision.unclassified)} unclassified survivor(s), "
              f"{len(decision.holes)} hole(s)")
    return decision.exit_code


if __name__ == "__main__":
    sys.exit(main())
