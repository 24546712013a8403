"""The report as Markdown, for pull-request comments. Text from mechanisms is escaped (HTML
characters, table pipes, emphasis and code markers); reports go in code fences longer than any
run of backticks they contain."""

from __future__ import annotations

import re
from typing import Any

_SPECIAL = re.compile(r"([\\`*_{}\[\]<>|#!~])")


def escape(text: Any) -> str:
    """Inline Markdown text: punctuation backslash-escaped, HTML characters as entities."""
    escaped = _SPECIAL.sub(r"\\\1", str(text)).replace("\n", " ")
    return escaped.replace("&", "&amp;").replace("\\<", "&lt;").replace("\\>", "&gt;")


def fenced(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def render_markdown(document: dict[str, Any], pdf_links: dict[str, str]) -> str:
    gate = "passed" if document["gate"]["passed"] else "**failed**"
    counts = document["counts"]
    lines = [
        f"## dpcert report: gate {gate}",
        "",
        f"Generated {document['generated']}, commit `{document['commit']}`, dpcert "
        f"{document['versions']['dpcert']}, z3-solver {document['versions']['z3-solver']}, "
        f"sympy {document['versions']['sympy']}, shard {document['options']['shard']}.",
        "",
        "| proved | refuted | unknown | error |",
        "|---|---|---|---|",
        f"| {counts['proved']} | {counts['refuted']} | {counts['unknown']} | {counts['error']} |",
        "",
        "Only *proved* passes; qualifiers (bounded, assumes ...) are part of a verdict; empirical "
        "tests can refute, never prove.",
    ]
    for orphan in document["orphan_proofs"]:
        lines.append(f"- proof with no mechanism: {escape(orphan)}")
    for m in document["mechanisms"]:
        lines += ["", f"### {escape(m['name'])}", ""]
        if m["signature"]:
            lines += [fenced(m["signature"]), ""]
        if m["preconditions"]:
            lines += ["Preconditions: " + "; ".join(escape(p) for p in m["preconditions"]), ""]
        if m["structure"]:
            s = m["structure"]
            lines += [f"Domains and metrics of `{escape(s['example'])}`: "
                      + "; ".join(f"{k.replace('_', ' ')} {escape(v)}" for k, v in s.items()
                                  if k != "example"), ""]
        lines += ["| obligation | verdict | solver | time |", "|---|---|---|---|"]
        for o in m["obligations"]:
            lines.append(f"| `{escape(o['id'])}` | {escape(o['label'])} | {escape(o['solver'])} | "
                         f"{o['seconds']:.2f} s |")
        for o in m["obligations"]:
            for g in o["goals"]:
                if g["verdict"] != "proved":
                    lines += ["", f"**{escape(o['id'])}** {escape(g['verdict'])}: {escape(g['name'])}"]
                    if g["counterexample"]:
                        lines.append("counterexample: " + ", ".join(
                            f"{escape(k)} = {escape(v)}" for k, v in g["counterexample"].items()))
                    if g["report"]:
                        status = "confirmed" if g["confirmed"] else "not confirmed"
                        lines += [f"replay {status}:", fenced(g["report"])]
        for e in m["empirical"]:
            lines += ["", f"Empirical, `{escape(e['example'])}` ({escape(e['test'])}): "
                          f"**{escape(e['verdict'])}**", fenced(e["summary"])]
        if m["proof"]:
            p = m["proof"]
            state = "not bound" if p["problems"] else "stale" if p["stale"] else "fresh"
            lines += ["", f"Proof: [{escape(m['proof_name'])}.pdf]({pdf_links[m['name']]}), {state}."]
            lines += [f"- {escape(problem)}" for problem in p["problems"]]
    return "\n".join(lines) + "\n"
