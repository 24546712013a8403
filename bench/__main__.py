"""``make bench``: dpcert and StatDP side by side, in one process, on StatDP's benchmark and on a
joint leak of our own. Prints a Markdown table and writes it to ``bench/results.md``.

**The cases** (``bench/targets.py``, plain single-run Python callables ``f(queries, epsilon,
...)`` on NumPy, from StatDP's benchmark: Ding et al., CCS 2018, and Lyu, Su and Li, VLDB 2017).
Every mechanism claims epsilon = 0.7.

- Report noisy max with ``Lap(2/eps)`` noise on each query: the index (correct) or the value
  (wrong); the same with one-sided ``Exp(scale 2/eps)`` noise.
- Histogram ``q + Lap(1/eps)`` (correct) and ``q + Lap(eps)`` (wrong); neighbours differ in one
  query by 1 (StatDP's ``ONE_DIFFER``).
- Sparse vector, Lyu-Su-Li Algorithm 1 (correct): threshold ``T + Lap(2/eps)``, query noise
  ``Lap(4N/eps)``, ``>=``, stops after N True answers; N = 1, T = 0.5. The wrong ones (N = 1,
  T = 1, as StatDP's benchmark runs them): iSVT1 no query noise and no cutoff; iSVT2 query noise
  ``Lap(2/eps)`` and no cutoff; iSVT3 threshold ``Lap(4/eps)``, query noise ``Lap(4/(3 eps))``,
  ``>``, cutoff N; iSVT4 threshold ``Lap(2/eps)``, query noise ``Lap(2N/eps)``, ``>``, cutoff N,
  and the noisy query value released in place of True.
- A joint leak of our own: a noisy count per key over keys 0..4 (``Lap(1/eps)`` on each count) on
  a dataset of records, each record a tuple of the keys it touches. Wrong: a record counts towards
  every key it touches, so one record touching 3 keys moves 3 counts. Correct partner: a record
  counts towards its first key only. Neighbours: add or remove one record.

**What each tool sees.** dpcert audits each mechanism's natural output: the sparse vectors a tuple
of booleans of varying length (iSVT4: booleans, then the noisy value), noisy max an int or a
float, the histogram the whole noisy tuple, the per-key count a tuple of 5 floats. StatDP gets its
own published post-processing, what its paper ran: SVT returns the number of False answers;
iSVT1-3 the Hamming distance of the answers to "first half True, rest False"; iSVT4 the pair
(number of False answers, last entry); the histogram its first bin. StatDP sees queries, not rows:
the per-key count is given to it as the same noisy-count release on the true count vector, under
``ALL_DIFFER`` pairs (``ONE_DIFFER`` for the correct partner), first count released, as its
histogram; in that view the wrong and the correct per-key counts are the same function. Both tools
call the same single-run functions (no batch sampler for dpcert), so the cost of one run is the
same for both and wall times compare.

**How each tool decides.** StatDP: ``pystatdp().detect_counterexample(f, 0.7, default_kwargs=...,
sensitivity=..., quiet=True)`` with its defaults: query vectors of 5 and 10 entries, 100,000 runs
per candidate input to choose the event and 500,000 per input to test it (600,000 runs per input
per decision), on the machine's cores (a ``multiprocessing`` pool); it detects when p < 0.05, its
paper's rule. pystatdp 0.1.3.1 builds its half-half and x-shape pairs with the wrong length (7
entries for 5 queries), so the bench replaces the generator it calls with one of the right length
(``bench/statdp_side.py``), and reseeds NumPy once in each pool worker (forked workers would share
one stream); the partner table also shows pystatdp unpatched on correct noisy max. Its numba code
is compiled before timing; a run that passes the time limit is ended and reported as not
finished, never as a result. dpcert: ``checker.audit.audit(target, 0.7, pairs=..., samples=N,
alpha=1e-3, seed=s)`` detects when ``violations`` is non-empty; default pairs (for the per-key
count, dpcert's add/remove-one-record pairs), except the histogram (its one-query pairs). "Detected at" is the smallest N on the grid at
which all 5 seeds detect, with the mean wall time of one audit there. Correct partners: dpcert on
10 seeds at the largest N used by a detection (at least 10,000); StatDP once. Both tools run in
this process (imports and start-up excluded for both), one after the other per case.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import os
import platform
import statistics
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from bench import statdp_side as sd
from bench import targets
from checker.audit import audit
from checker.empirical.pairs import vector_patterns

GRID = (500, 1_000, 2_000, 5_000, 10_000, 20_000, 30_000, 40_000, 50_000)
SEEDS = range(5)
FALSE_ALARM_SEEDS = range(10)
MIN_FALSE_ALARM_SAMPLES = 10_000
ALPHA = 1e-3
STATDP_TIME_LIMIT = 300.0
RESULTS = Path(__file__).resolve().parent / "results.md"

def one_query_pairs() -> list[tuple[list[float], list[float]]]:
    """dpcert's own query-vector patterns in which exactly one query moves (by 1)."""
    return [(x, y) for x, y in vector_patterns()
            if sum(1 for a, b in zip(x, y) if a != b) == 1]


@dataclass
class Case:
    name: str
    target: Callable[..., Any]
    kwargs: dict[str, Any]
    statdp: Callable[..., Any]
    sensitivity: str = "ALL_DIFFER"
    pairs: str = "default"
    partner: str = ""

    def dpcert_target(self) -> Callable[[Any], Any]:
        return functools.partial(self.target, epsilon=targets.CLAIM, **self.kwargs)

    def dpcert_pairs(self) -> tuple[list[tuple[Any, Any]] | None, str]:
        if self.pairs == "one query":
            return one_query_pairs(), "one query moves"
        if self.pairs == "rows":
            return None, "dpcert's defaults (add/remove one record)"
        return None, "dpcert's defaults"


T = targets
WRONG = [
    Case("noisy max, Laplace, value", T.noisy_max_laplace_value, {}, sd.sd_noisy_max_laplace_value,
         partner="noisy max, Laplace, index"),
    Case("noisy max, exponential, value", T.noisy_max_exponential_value, {},
         sd.sd_noisy_max_exponential_value, partner="noisy max, exponential, index"),
    Case("histogram, scale eps", T.histogram_eps, {}, sd.sd_histogram_eps, "ONE_DIFFER",
         "one query", partner="histogram, scale 1/eps"),
    Case("iSVT1 (no query noise)", T.isvt1, T.ISVT_KWARGS, sd.sd_isvt1, partner="SVT"),
    Case("iSVT2 (no cutoff)", T.isvt2, T.ISVT_KWARGS, sd.sd_isvt2, partner="SVT"),
    Case("iSVT3 (too little query noise)", T.isvt3, T.ISVT_KWARGS, sd.sd_isvt3, partner="SVT"),
    Case("iSVT4 (releases the noisy value)", T.isvt4, T.ISVT_KWARGS, sd.sd_isvt4,
         partner="SVT"),
    Case("count per key, a record touches several keys", T.count_per_key, {},
         sd.sd_noisy_counts_first, pairs="rows", partner="count per key, first key only"),
]

CORRECT = [
    Case("noisy max, Laplace, index", T.noisy_max_laplace_index, {},
         sd.sd_noisy_max_laplace_index),
    Case("noisy max, exponential, index", T.noisy_max_exponential_index, {},
         sd.sd_noisy_max_exponential_index),
    Case("histogram, scale 1/eps", T.histogram, {}, sd.sd_histogram, "ONE_DIFFER", "one query"),
    Case("SVT", T.svt, T.SVT_KWARGS, sd.sd_svt),
    Case("count per key, first key only", T.count_first_key, {}, sd.sd_noisy_counts_first,
         "ONE_DIFFER", "rows"),
]


@dataclass
class Detection:
    samples: int | None = None      # smallest N at which all 5 seeds detect
    seconds: float = 0.0            # mean wall time of one audit there
    runs_in_all: int = 0            # runs drawn by one audit (selection on every input, trials
                                    # on the tested pairs' inputs)
    pairs: int = 0
    caught_at_largest: int = 0      # seeds that detect at the grid's largest N, when never all
    example: str = ""               # the worst violation of seed 0 there
    error: str = ""
    pair_source: str = ""
    grid_seconds: float = 0.0       # everything dpcert ran for this case
    pair_errors: str = ""           # pairs dpcert reported as errors (the audit went on)


def _worst(result: Any) -> str:
    worst = max(result.violations, key=lambda r: r.loss_lower - r.claim)
    return (f"x = {worst.x!r}, x' = {worst.x_prime!r}, event `{worst.event}`, "
            f"loss >= {worst.loss_lower:.2f}")


def dpcert_detection(case: Case, log: Callable[[str], None]) -> Detection:
    target = case.dpcert_target()
    pairs, source = case.dpcert_pairs()
    found = Detection(pair_source=source)
    start = time.perf_counter()
    for samples in GRID:
        times, caught, first = [], 0, None
        for seed in SEEDS:
            began = time.perf_counter()
            try:
                result = audit(target, targets.CLAIM, pairs=pairs, samples=samples, alpha=ALPHA,
                               seed=seed)
            except Exception as error:  # report it in the table, go on with the other cases
                found.error = f"{type(error).__name__}: {error}"[:200]
                found.grid_seconds = time.perf_counter() - start
                return found
            times.append(time.perf_counter() - began)
            if result.violations:
                caught += 1
                first = first or result
            found.runs_in_all, found.pairs = sum(result.runs.values()), result.screened // 2
            errors = getattr(result, "errors", None)
            if errors and not found.pair_errors:
                found.pair_errors = f"{len(errors)} pair(s) in error, first: {errors[0]!s:.150}"
            if caught <= seed and samples != GRID[-1]:
                break  # a seed missed: try the next N
        if caught == len(SEEDS):
            found.samples, found.seconds = samples, statistics.mean(times)
            found.example = _worst(first)
            break
        if samples == GRID[-1]:
            found.caught_at_largest = caught
            found.example = _worst(first) if first else ""
    found.grid_seconds = time.perf_counter() - start
    log(f"  dpcert: {found.samples or 'not within the grid'} "
        f"({found.grid_seconds:.1f} s in all)")
    return found


def dpcert_false_alarms(case: Case, samples: int) -> tuple[int, float, str]:
    target = case.dpcert_target()
    pairs, _ = case.dpcert_pairs()
    alarms, times = 0, []
    for seed in FALSE_ALARM_SEEDS:
        began = time.perf_counter()
        try:
            result = audit(target, targets.CLAIM, pairs=pairs, samples=samples, alpha=ALPHA,
                           seed=seed)
        except Exception as error:
            return -1, 0.0, f"{type(error).__name__}: {error}"[:200]
        times.append(time.perf_counter() - began)
        alarms += bool(result.violations)
    return alarms, statistics.mean(times), ""


def statdp(case: Case, time_limit: float, round_: int, patched: bool = True) -> dict[str, Any]:
    return sd.run_statdp(case.statdp, case.kwargs, case.sensitivity, time_limit, seed=0,
                         round_=round_, patched=patched)


def _runs(n: int | None) -> str:
    if n is None:
        return "-"
    return f"{n // 1000}k" if n >= 1000 and n % 1000 == 0 else f"{n:,}"


def _statdp_cells(answer: dict[str, Any]) -> tuple[str, str]:
    """(verdict, wall time) for the table."""
    if "timeout" in answer:
        return f"not finished in {answer['timeout']:.0f} s", f"> {answer['timeout']:.0f} s"
    if "error" in answer:
        return f"error: {answer['error']}", "-"
    verdict = "**yes**" if answer["p"] < sd.P_THRESHOLD else "no"
    return f"{verdict} (p = {answer['p']:.2g})", f"{answer['seconds']:.1f} s"


def code_version() -> str:
    """The commit of the code this run imported (read at the start: commits made while the
    bench runs do not change what it measures)."""
    try:
        here = Path(__file__).resolve().parent
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, cwd=here).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "checker", "bench"],
                               capture_output=True, text=True, cwd=here.parent).stdout.strip()
    except OSError:
        return "?"
    return commit + (" (with uncommitted changes in checker/ or bench/)" if dirty else "")


def machine(load_at_start: str, commit: str) -> str:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import numpy
    from importlib.metadata import version
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    return (f"{datetime.date.today().isoformat()}, {os.cpu_count()} cores ({cpu or 'unknown CPU'}), "
            f"load average at the start {load_at_start}, at the end {load} (other work on the "
            "machine slows both tools), "
            f"Python {platform.python_version()}, NumPy {numpy.__version__}, pystatdp "
            f"{version('pystatdp')}, numba {version('numba')}, dpcert at {commit}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--statdp-time-limit", type=float, default=STATDP_TIME_LIMIT,
                        help="seconds before a StatDP run is ended (reported as not finished)")
    parser.add_argument("--only", default="", help="run only the cases whose name contains this")
    parser.add_argument("--out", default=str(RESULTS), help="where to write the Markdown")
    options = parser.parse_args()
    started = time.perf_counter()
    load_at_start = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    commit = code_version()

    def log(message: str) -> None:
        print(f"[{time.perf_counter() - started:6.0f} s] {message}", flush=True)

    sd.patch_pystatdp()
    sd.warm_up()
    streams = sd.worker_streams()
    inherited = sd.worker_streams(reseed=False)
    streams_differ = len(streams) >= 2 and len(set(streams.values())) == len(streams)
    log(f"pool workers' first draws: reseeded {'differ' if streams_differ else 'DO NOT differ'}; "
        f"inherited (unpatched) {'identical' if len(set(inherited.values())) == 1 else 'differ'}")
    if not streams_differ:
        raise SystemExit("the StatDP workers would draw one stream; fix seed_this_process")

    wrong = [c for c in WRONG if options.only in c.name]
    correct = [c for c in CORRECT if options.only in c.name
               or any(options.only in w.name and w.partner == c.name for w in wrong)]
    rows, details = [], []
    round_ = 0
    for case in wrong:
        log(f"{case.name}")
        found = dpcert_detection(case, log)
        round_ += 1
        answer = statdp(case, options.statdp_time_limit, round_)
        log(f"  StatDP: {answer}")
        rows.append((case, found, answer))

    detected_at = [f.samples for _, f, _ in rows if f.samples]
    fa_samples = max([MIN_FALSE_ALARM_SAMPLES, *detected_at])
    partner_rows = []
    for case in correct:
        log(f"{case.name} (correct)")
        alarms, seconds, error = dpcert_false_alarms(case, fa_samples)
        log(f"  dpcert: {alarms} false alarms / {len(FALSE_ALARM_SEEDS)}")
        round_ += 1
        answer = statdp(case, options.statdp_time_limit, round_)
        log(f"  StatDP: {answer}")
        partner_rows.append((case, alarms, seconds, error, answer))
    unpatched = None
    if correct and correct[0].name == "noisy max, Laplace, index":
        round_ += 1
        unpatched = statdp(correct[0], options.statdp_time_limit, round_, patched=False)
        log(f"  StatDP unpatched on {correct[0].name}: {unpatched}")

    lines = [
        "# `make bench`: dpcert and StatDP side by side",
        "",
        f"Run of {machine(load_at_start, commit)}; claim epsilon = {targets.CLAIM}, dpcert alpha = {ALPHA:g}, StatDP "
        f"p < {sd.P_THRESHOLD} (its paper's rule). Whole run: "
        f"{time.perf_counter() - started:.0f} s. How the cases are written and what each tool "
        "sees: `bench/__main__.py`'s docstring.",
        "",
        "## Violations",
        "",
        "dpcert: smallest runs per input N (grid " + ", ".join(_runs(g) for g in GRID)
        + ") at which all 5 seeds detect, the mean wall time of one audit there, and the runs in "
        "all of one audit (20 % of N on every input to screen the pairs, the rest on the inputs of "
        "the 4 pairs tested). StatDP: 600k runs per input per decision (100k to "
        "choose the event, 500k to test it) over its 16 candidate pairs (4 under ONE_DIFFER), "
        "one run on the machine's cores. Ratios are dpcert / StatDP.",
        "",
        "| case | dpcert detects | dpcert runs per input | dpcert wall time | dpcert runs in all "
        "| StatDP detects | StatDP runs per input | StatDP wall time | StatDP runs in all "
        "| runs per input ratio | wall time ratio |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for case, found, answer in rows:
        verdict, statdp_time = _statdp_cells(answer)
        statdp_total = _statdp_total(case)
        if found.error:
            dp = (f"error: {found.error}", "-", "-", "-")
        elif found.samples:
            dp = ("**yes** (5/5 seeds)", _runs(found.samples), f"{found.seconds:.2f} s",
                  f"{found.runs_in_all:,}")
        else:
            dp = (f"no ({found.caught_at_largest}/5 seeds at {_runs(GRID[-1])})", "-", "-", "-")
        runs_ratio = (f"{found.samples / sd.RUNS_PER_DECISION:.4f}" if found.samples else "-")
        time_ratio = (f"{found.seconds / answer['seconds']:.3f}"
                      if found.samples and "seconds" in answer else "-")
        lines.append(f"| {case.name} | {dp[0]} | {dp[1]} | {dp[2]} | {dp[3]} | {verdict} | "
                     f"{_runs(sd.RUNS_PER_DECISION)} | {statdp_time} | {statdp_total:,} | "
                     f"{runs_ratio} | {time_ratio} |")
    lines += [
        "",
        "## Correct partners",
        "",
        f"dpcert: false alarms over {len(FALSE_ALARM_SEEDS)} seeds at {_runs(fa_samples)} runs "
        "per input (the largest N a detection used, at least 10k), alpha 1e-3; StatDP: p on one "
        "run (a false alarm when p < 0.05).",
        "",
        "| correct mechanism | dpcert false alarms | dpcert wall time (mean) | StatDP false alarm "
        "| StatDP wall time |",
        "|---|---|---|---|---|",
    ]
    for case, alarms, seconds, error, answer in partner_rows:
        verdict, statdp_time = _statdp_cells(answer)
        dp = f"error: {error}" if error else f"{alarms} / {len(FALSE_ALARM_SEEDS)}"
        lines.append(f"| {case.name} | {dp} | {seconds:.2f} s | {verdict} | {statdp_time} |")
    if unpatched is not None:
        verdict, statdp_time = _statdp_cells(unpatched)
        where = (f" on d1 = {unpatched['d1']}, d2 = {unpatched['d2']}, event {unpatched['event']}"
                 if "d1" in unpatched else "")
        lines.append(f"| noisy max, Laplace, index, **pystatdp unpatched** (pairs of the wrong "
                     f"length) | - | - | {verdict}{where} | {statdp_time} |")
    lines += ["", "## Against issue 14's bar", ""] + done_criteria(rows, partner_rows)
    lines += ["", "## What each detection rests on", ""]
    for case, found, answer in rows:
        statdp_part = (f"StatDP: d1 = {answer['d1']}, d2 = {answer['d2']}, event {answer['event']}"
                       if "d1" in answer else "StatDP: -")
        dp_part = f"dpcert (seed 0, {found.pair_source}): {found.example or '-'}"
        if found.pair_errors:
            dp_part += f" ({found.pair_errors})"
        lines.append(f"- **{case.name}.** {dp_part}. {statdp_part}.")
    text = "\n".join(lines) + "\n"
    print()
    print(text)
    Path(options.out).write_text(text)
    log(f"written to {options.out}")


def done_criteria(rows: list[tuple[Case, Detection, dict[str, Any]]],
                  partner_rows: list[tuple[Case, int, float, str, dict[str, Any]]]) -> list[str]:
    """The issue's "how to know it is done", read off this run."""
    def names(cases: list[Case]) -> str:
        return ", ".join(c.name for c in cases) or "none"

    statdp_found = [c for c, _, a in rows if a.get("p", 1.0) < sd.P_THRESHOLD]
    missed = [c for c, f, a in rows if not f.samples and (c in statdp_found or c.pairs == "rows")]
    over_runs = [c for c, f, _ in rows if f.samples and f.samples > sd.RUNS_PER_DECISION / 10]
    slower = [c for c, f, a in rows if f.samples and "seconds" in a and f.seconds >= a["seconds"]]
    unfinished = [c for c, _, a in rows if "seconds" not in a]
    alarms = [c for c, n, _, error, _ in partner_rows if n != 0 or error]
    return [
        f"- Every violation StatDP detects, and every joint-leak case, detected by dpcert on all 5 "
        f"seeds: {'yes' if not missed else 'no, missed: ' + names(missed)}.",
        f"- dpcert's runs per input at most a tenth of StatDP's 600k where it detects: "
        f"{'yes' if not over_runs else 'no: ' + names(over_runs)}.",
        f"- dpcert's wall time (mean of one audit at that N) below StatDP's where it detects: "
        f"{'yes' if not slower else 'no: ' + names(slower)}"
        + (f" (StatDP did not finish: {names(unfinished)})" if unfinished else "") + ".",
        f"- Correct partners, 0 dpcert false alarms over 10 seeds at alpha 1e-3: "
        f"{'yes' if not alarms else 'no: ' + names(alarms)}.",
    ]


def _statdp_total(case: Case) -> int:
    """Runs StatDP makes for one decision: each candidate pair's two inputs 100k times, then the
    chosen pair's two inputs 500k times."""
    candidates = 2 * (2 if case.sensitivity == "ONE_DIFFER" else len(sd.PATTERNS))
    return candidates * 2 * sd.EVENT_ITERATIONS + 2 * sd.DETECT_ITERATIONS


if __name__ == "__main__":
    main()
