"""``python -m mutation.untrusted``: the wrong variants checked with the untrusted proof code (the
proposer) replaced by the adversary of :mod:`mutation.adversary`, which applies every kernel rule
to everything in the run. No wrong variant may pass: one that did would be a hole in the kernel,
not a proposer's bug. Writes ``mutation/untrusted.md``; exit 1 if a wrong variant passes.

The variants: the wrong twins (``tests/twins``, ``tests/wrong_variants.py``, in this process),
the outsiders' wrong modules of the four rounds (``tests/outsiders/wrong``,
``tests/outsiders_new/wrong``, ``tests/outsiders_round3/wrong``, ``tests/outsiders_round4/wrong``)
and the kernel's own wrong cases
(``tests/test_kernel.py``: an author's own claims, another constructor's proof, builds that are
not plans, changed pipelines; ``tests/test_type_tests.py``: a two-body kernel;
``tests/test_row_transform_rule.py``, ``tests/test_additive_noise_rule.py``,
``tests/test_coordinate_noise_rule.py``, ``tests/test_fold_rule.py`` and
``tests/test_finite_law_rule.py``: a twin of each premise of the row-transform, additive-noise,
coordinate-noise, fold and finite-law rules, the under-noised measurements, a fold
under its sensitivity, wrong randomized responses; ``tests/test_chain_rule.py``: the wrong twins
of the chains, the zCDP conversion and the bounded geometric with no obligation at all;
``tests/test_equivalence_rule.py``: a twin of each premise of equality in value), each module in
a process of its own.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

PROJECT = Path(__file__).resolve().parent.parent
OUTSIDERS = {name: PROJECT / "tests" / name / "wrong"
             for name in ("outsiders", "outsiders_new", "outsiders_round3", "outsiders_round4")}
"""The wrong modules of the four outsiders' rounds (variants, new mechanisms, refactors)."""


@dataclass(frozen=True)
class Case:
    """A ``dpcert check`` target and the names, in its report, of what must not pass."""

    target: str
    wrong: frozenset[str] | None = None
    """Mechanism names; ``None``: every mechanism from the target's module, or the object."""


def passed(document: dict, case: Case) -> list[str]:
    """What of ``case`` passed in its report: mechanisms with every obligation and statement
    proved, or the object with every statement proved."""
    if ":" in case.target:
        return [o["name"] for o in document.get("objects", [])
                if o["statements"] and all(s["proved"] for s in o["statements"])]
    module = Path(case.target).name
    return [m["name"] for m in document["mechanisms"]
            if (m["name"] in case.wrong if case.wrong is not None
                else any(Path(p).name == module for p in m["modules"]))
            and all(o["verdict"] == "proved" for o in m["obligations"])
            and all(s["proved"] for s in m["statements"])]


def check_case(case: Case) -> list[str]:
    """:func:`passed` for ``case``, checked under the adversary in a process of its own; a load
    error passes nothing, but a named wrong mechanism the report lacks is listed as not checked."""
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.json"
        subprocess.run([sys.executable, "-m", "mutation.adversary", "check", case.target,
                        "--json", str(report), "--no-cache"], cwd=PROJECT, capture_output=True,
                       check=False)
        document = json.loads(report.read_text()) if report.exists() else {"mechanisms": []}
        checked = {m["name"] for m in document["mechanisms"]}
        return [*(passed(document, case) if report.exists() else []),
                *(f"{name} (not checked)" for name in sorted((case.wrong or set()) - checked)
                  if ":" not in case.target)]


def check_twins(jobs: int) -> tuple[int, list[str]]:
    """``(number of wrong twins, those that passed)``, checked in this process."""
    from checker.gate import Options, run_gate
    from checker.report.model import report_document
    from mutation.adversary import adversarial_proposer
    from tests import twins, wrong_variants
    entries = [*wrong_variants.MECHANISMS, *wrong_variants.UNSUPPORTED, *twins.MECHANISMS,
               *twins.UNSUPPORTED]
    with adversarial_proposer():
        run = run_gate(entries, Options(jobs=jobs), whole_catalogue=False)
    names = frozenset(e.name for e in entries)
    return len(entries), passed(report_document(run, {}), Case("twins", names))


def kernel_cases(folder: Path) -> list[Case]:
    """The kernel's wrong cases, written as modules into ``folder``."""
    from tests import test_kernel as cases
    from tests.test_additive_noise_rule import NOISE, REFUTED, WHY as NOISE_WHY
    from tests.test_finite_law_rule import REFUTED as RR_REFUTED, RESPONSES, WHY as RR_WHY
    from tests.test_fold_rule import FOLDS, WHY as FOLD_WHY
    from tests.test_row_transform_rule import ROWS, WHY
    from tests.test_chain_rule import ZERO_CLAIM_WRONG, zero_claim_entries
    from tests.test_composition_rule import MODULE as COMPOSITIONS
    from tests.test_coordinate_noise_rule import TWINS as SCALAR_TWINS, VECTOR_TWINS
    from tests.test_equivalence_rule import VARIANTS, variants
    from tests.test_type_tests import KERNELS, MODULE
    sources = {"own_claims": cases.AUTHORS_OWN_CLAIMS, "composed": cases.COMPOSED,
               "other_constructor": cases.OTHER_CONSTRUCTORS_PROOF, "pipelines": cases.PIPELINES,
               "two_body": MODULE.format(kernel=KERNELS["two_body"]), "rows": ROWS,
               "noise": NOISE, "scalar_noise": SCALAR_TWINS, "vector_noise": VECTOR_TWINS,
               "folds": FOLDS, "responses": RESPONSES, "compositions": COMPOSITIONS,
               "zero_claim_wrong": ZERO_CLAIM_WRONG, "equal_values": VARIANTS}
    for name, source in sources.items():
        (folder / f"{name}.py").write_text(source)
    return [Case(str(folder / "own_claims.py")), Case(str(folder / "other_constructor.py")),
            Case(str(folder / "two_body.py")),
            Case(str(folder / "composed.py"), frozenset(cases.COMPOSED_WRONG)),
            *(Case(f"{folder / 'pipelines.py'}:{name}")
              for name in ("make_replaced_map", "make_hand_built")),
            *(Case(f"{folder / 'rows.py'}:{name}") for name in sorted(WHY)),
            Case(str(folder / "rows.py"), frozenset({"half"})),
            *(Case(f"{folder / 'noise.py'}:{name}") for name in sorted({*NOISE_WHY, *REFUTED})),
            Case(str(folder / "noise.py")), Case(str(folder / "scalar_noise.py")),
            Case(str(folder / "vector_noise.py")), Case(str(folder / "compositions.py")),
            *(Case(f"{folder / 'folds.py'}:{name}") for name in [*sorted(FOLD_WHY),
                                                                  "squares_under"]),
            Case(str(folder / "folds.py")),
            *(Case(f"{folder / 'responses.py'}:{name}")
              for name in sorted({*RR_WHY, *RR_REFUTED})),
            Case(str(folder / "zero_claim_wrong.py"),
                 frozenset(e.name for e in zero_claim_entries())),
            Case(str(folder / "equal_values.py"), frozenset(variants("WRONG")))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mutation.untrusted",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("untrusted.md"))
    arguments = parser.parse_args(argv)
    started = time.monotonic()
    twins, twins_passed = check_twins(arguments.jobs)
    rows = [("wrong twins (tests/twins, tests/wrong_variants.py)", twins, twins_passed)]
    with tempfile.TemporaryDirectory() as scratch:
        groups = {**{f"outsiders' wrong modules (tests/{name}/wrong)":
                     [Case(str(p)) for p in sorted(folder.glob("*.py"))
                      if not p.name.startswith("_")] for name, folder in OUTSIDERS.items()},
                  "the kernel's wrong cases (tests/test_kernel.py, test_type_tests.py, "
                  "test_row_transform_rule.py, test_additive_noise_rule.py, "
                  "test_coordinate_noise_rule.py, test_fold_rule.py, "
                  "test_finite_law_rule.py, test_composition_rule.py, test_chain_rule.py, "
                  "test_equivalence_rule.py)":
                  kernel_cases(Path(scratch))}
        with ThreadPoolExecutor(arguments.jobs) as pool:
            for title, cases in groups.items():
                found = [name for names in pool.map(check_case, cases) for name in names]
                rows.append((title, len(cases), found))
    seconds = time.monotonic() - started
    lines = ["# The untrusted proof code replaced by an adversary", "",
             "Generated by `python -m mutation.untrusted` (`make mutate` runs it): every wrong "
             "variant checked with the proposer replaced by `mutation.adversary`, which applies "
             "every kernel rule to everything in the run. None may pass.", "",
             "| wrong variants | checked | passed under the adversary |", "|---|---:|---|"]
    lines += [f"| {title} | {count} | {', '.join(found) or 'none'} |"
              for title, count, found in rows]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=PROJECT,
                            capture_output=True, text=True, check=False).stdout.strip()
    lines += ["", f"Measured at {commit or 'an unknown commit'}, {arguments.jobs} jobs: "
                  f"{seconds / 60:.1f} min."]
    arguments.out.write_text("\n".join(lines) + "\n")
    failed = [name for _, _, found in rows for name in found]
    for title, count, found in rows:
        print(f"{title}: {count} checked, {len(found)} passed under the adversary")
    print(f"wrote {arguments.out} ({seconds / 60:.1f} min)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
