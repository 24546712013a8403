"""The report as Markdown (CommonMark with GitHub's tables), for pull-request comments.

Text from mechanisms is escaped (HTML characters, table pipes, emphasis and code markers) outside
code spans; inside a code span nothing is escaped (CommonMark shows backslashes there as they
are): the span's fence is longer than any run of backticks in it, and a table cell escapes only
its pipes, as GitHub's tables require. Reports go in code fences longer than any run of backticks
they contain. A proof PDF is linked only when it was copied into the report folder.
"""

from __future__ import annotations

import re
from typing import Any

from checker.report import rest
from checker.report.wording import (NOT_COVERED, VERDICT_TRUSTS, anchor, conditions,
                                    gate_sentence, plural)

_SPECIAL = re.compile(r"([\\`*_{}\[\]<>|#!~])")
VERDICTS = ("proved", "refuted", "unknown", "error")


def escape(text: Any) -> str:
    """Inline Markdown text: punctuation backslash-escaped, HTML characters as entities."""
    escaped = _SPECIAL.sub(r"\\\1", str(text)).replace("\n", " ")
    return escaped.replace("&", "&amp;").replace("\\<", "&lt;").replace("\\>", "&gt;")


def code(text: Any, in_table: bool = False) -> str:
    """``text`` as a code span, shown exactly: no backslash escapes (``in_table``: pipes escaped,
    which a GitHub table removes before the span is read)."""
    content = str(text).replace("\n", " ")
    if in_table:
        content = content.replace("|", "\\|")
    fence = "`" * (max((len(run) for run in re.findall(r"`+", content)), default=0) + 1)
    padded = content.startswith("`") or content.endswith("`") or (
        content.startswith(" ") and content.endswith(" ") and content.strip() != "")
    pad = " " if padded else ""
    return f"{fence}{pad}{content}{pad}{fence}"


def fenced(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def _spans(spans: tuple[rest.Span, ...]) -> str:
    shown = {"text": escape, "code": code, "strong": lambda t: f"**{escape(t)}**",
             "em": lambda t: f"*{escape(t)}*"}
    return "".join(shown[span.kind](span.text) for span in spans)


def description(text: str) -> list[str]:
    """A module's reST description as Markdown blocks."""
    lines: list[str] = []
    for block in rest.parse(text):
        if block.kind == "literal":
            lines += [fenced(block.literal), ""]
        elif block.kind == "bullets":
            lines += [f"- {_spans(item)}" for item in block.items] + [""]
        else:
            lines += [_spans(block.items[0]), ""]
    return lines


def _proof_state(proof: dict[str, Any]) -> str:
    return "not bound" if proof["problems"] else "stale" if proof["stale"] else "fresh"


def _pdf(proof: dict[str, Any], links: dict[str, str]) -> str:
    """The link to the copied PDF, or why there is none."""
    if proof["mechanism"] in links:
        return f"[{escape(proof['pdf'].rsplit('/', 1)[-1])}]({links[proof['mechanism']]})"
    return ("PDF not built from the current proof; run make proofs"
            if proof["pdf_state"] == "outdated" else "PDF not built; run make proofs")


def _header(document: dict[str, Any]) -> list[str]:
    versions = document["versions"]
    dirty = {True: " (with uncommitted changes)", False: "", None: " (uncommitted changes unknown)"}
    counts = document["counts"]
    lines = [
        f"## dpcert report: gate {escape(gate_sentence(document['gate']))}",
        "",
        "Conditions: " + "; ".join(escape(c) for c in conditions(document["options"])) + ".",
        "",
        f"Generated {document['generated']}; dpcert commit {code(document['commit'])}"
        f"{dirty[document['dirty']]}; dpcert {escape(versions['dpcert'])}, z3-solver "
        f"{escape(versions['z3-solver'])}, sympy {escape(versions['sympy'])}, Python "
        f"{escape(versions['python'])}; opendp {escape(versions.get('opendp', 'not recorded'))} "
        "(the package the tests compare with).",
        "",
        "| proved | refuted | unknown | error |",
        "|---|---|---|---|",
        "| " + " | ".join(str(counts[v]) for v in VERDICTS) + " |",
        "",
        "Only *proved* passes; qualifiers (bounded, assumes ...) are part of a verdict; empirical "
        "tests can refute, never prove.",
    ]
    orphans = [f"- proof with no mechanism: {escape(orphan)}" for orphan in document["orphan_proofs"]]
    return lines + ([""] + orphans if orphans else [])


def _modules(document: dict[str, Any]) -> list[str]:
    external = sum(m["origin"] == "external" for m in document["modules"])
    lines = ["", "### Checked modules", "",
             f"<details{' open' if external else ''}><summary>"
             f"{plural(len(document['modules']), 'module')} ({external} external): path and "
             "SHA-256 of each</summary>", "",
             "| module | origin | SHA-256 |", "|---|---|---|"]
    lines += [f"| {code(m['path'], True)} | {m['origin']} | {code(m['sha256'], True)} |"
              for m in document["modules"]]
    lines += ["", "</details>"]
    if external:
        lines += ["", "External modules are not part of the commit above: their hash identifies "
                      "them."]
    return lines


def _summary(document: dict[str, Any], links: dict[str, str]) -> list[str]:
    lines = ["", "### Summary", "", "| mechanism | obligations | verdicts | proof |",
             "|---|---|---|---|"]
    for m in document["mechanisms"]:
        ids = ", ".join(f"[{code(o['id'], True)}](#{anchor('obligation', o['id'])})"
                        for o in m["obligations"])
        verdicts = ", ".join(f"{n} {v}" for v in VERDICTS
                             if (n := sum(o["verdict"] == v for o in m["obligations"])))
        proof = (f"{_proof_state(m['proof'])}, {_pdf(m['proof'], links)}"
                 if m["proof"] else "-")
        lines.append(f"| [{escape(m['name'])}](#{anchor('mechanism', m['name'])}) | {ids} | "
                     f"{verdicts} | {proof} |")
    listed = {m["name"] for m in document["mechanisms"]}
    for proof in document["proofs"]:
        if proof["mechanism"] not in listed:
            lines.append(f"| {escape(proof['mechanism'])} | (none in this shard) | - | "
                         f"{_proof_state(proof)}, {_pdf(proof, links)} |")
    return lines


def _trust_base(document: dict[str, Any]) -> list[str]:
    versions, base = document["versions"], document["trust_base"]
    lines = ["", "### Trust base", "",
             f"Every proved verdict relies on Z3 (z3-solver {escape(versions['z3-solver'])}) and "
             f"SymPy ({escape(versions['sympy'])}), and on what this table names:", "",
             "| verdict | trusts |", "|---|---|"]
    lines += [f"| {verdict} | {trusts} |" for verdict, trusts in VERDICT_TRUSTS]
    sections = [("Cited results (taken as given; the goals check their premises)", "cited"),
                ("Modelling assumptions", "assumed")]
    for title, key in sections:
        lines += ["", f"{title}:", ""]
        lines += [f"{i}. {escape(item['text'])} ({escape(', '.join(item['obligations']))})"
                  for i, item in enumerate(base[key], 1)] or ["- none"]
    lines += ["", "Proved under exact arithmetic (floats read as reals):", ""]
    lines += [f"- {code(item['obligation'])}: {escape(item['text'])}"
              for item in base["exact_arithmetic"]] or ["- none"]
    return lines


def _not_covered(document: dict[str, Any]) -> list[str]:
    lines = ["", "### Not covered", ""] + [f"- {escape(text)}" for text in NOT_COVERED]
    bounded = document["trust_base"]["bounded"]
    lines += ["", f"Evaluated or bounded rather than proved ({plural(len(bounded), 'obligation')}"
                  "; the verdict says bounded:):", ""]
    lines += [f"- [{code(item['obligation'])}](#{anchor('obligation', item['obligation'])}): "
              f"{escape(item['text'])}" for item in bounded] or ["- none"]
    return lines


def _mechanism(m: dict[str, Any], links: dict[str, str]) -> list[str]:
    lines = ["", f'<a id="{anchor("mechanism", m["name"])}"></a>', "", f"### {escape(m['name'])}", ""]
    if m["modules"]:
        lines += ["From " + ", ".join(code(path) for path in m["modules"]) + ".", ""]
    if m["signature"]:
        lines += [fenced(m["signature"]), ""]
    if m["description"]:
        lines += ["<details><summary>description</summary>", "", *description(m["description"]),
                  "</details>", ""]
    if m["preconditions"]:
        lines += ["Preconditions: " + "; ".join(code(p) for p in m["preconditions"]), ""]
    if m["structure"]:
        s = m["structure"]
        lines += [f"Domains and metrics of {code(s['example'])}: "
                  + "; ".join(f"{k.replace('_', ' ')} {code(v)}" for k, v in s.items()
                              if k != "example"), ""]
    lines += ["| obligation | verdict | solver | time |", "|---|---|---|---|"]
    for o in m["obligations"]:
        lines.append(f"| <a id=\"{anchor('obligation', o['id'])}\"></a>{code(o['id'], True)} | "
                     f"{escape(o['label'])} | {escape(o['solver'])} | {o['seconds']:.2f} s |")
    if m["statements"]:
        lines += ["", "| standard statement | theorem | rests on |", "|---|---|---|"]
        lines += [f"| {escape(st['claim'])} | "
                  + (escape(f"proved by {st['rule']}") if st["proved"]
                     else f"**refuted (confirmed)**: {escape(st['refuted']['witness'])}"
                     if st.get("refuted") else f"**not proved**: {escape(st['why'])}")
                  + " | " + escape("; ".join(sorted({f"{p['kind']}: {p['text']}"
                                                     for p in st["rests_on"]
                                                     if p["kind"] != "proved obligation"})))
                  + " |" for st in m["statements"]]
    for o in m["obligations"]:
        for g in o["goals"]:
            if g["verdict"] != "proved":
                lines += ["", f"{code(o['id'])} {escape(g['verdict'])}: {escape(g['name'])}"]
                if g["counterexample"]:
                    lines.append("counterexample: " + ", ".join(
                        code(f"{k} = {v}") for k, v in g["counterexample"].items()))
                if g["report"]:
                    status = "confirmed" if g["confirmed"] else "not confirmed"
                    lines += [f"replay {status}:", fenced(g["report"])]
    for e in m["empirical"]:
        lines += ["", f"Empirical, {code(e['example'])} ({escape(e['test'])}): "
                      f"**{escape(e['verdict'])}**", fenced(e["summary"])]
    if m["proof"]:
        p = m["proof"]
        lines += ["", f"Proof {code(p['file'])}: {_proof_state(p)}; "
                      f"{_pdf(p, links)}."]
        lines += [f"- {escape(problem)}" for problem in p["problems"]]
        if p["stale"]:
            lines += [f"- {escape(p['stale'])}"]
    return lines


def render_markdown(document: dict[str, Any], pdf_links: dict[str, str]) -> str:
    """The whole report; ``pdf_links`` maps a mechanism to its copied PDF (relative link)."""
    lines = _header(document) + _summary(document, pdf_links) + _trust_base(document)
    lines += _not_covered(document) + _modules(document)
    for m in document["mechanisms"]:
        lines += _mechanism(m, pdf_links)
    return "\n".join(lines) + "\n"
