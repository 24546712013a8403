"""Write the report folder: report.json (the source), report.md, report.html, junit.xml, and
the proof PDFs that exist, copied beside them so the folder works as a CI artifact."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from checker.report.html import render_html
from checker.report.junit import junit_xml
from checker.report.markdown import render_markdown


def _pdf_links(document: dict[str, Any], folder: Path) -> dict[str, str]:
    links = {}
    for m in document["mechanisms"]:
        if not m["proof"]:
            continue
        pdf = Path(m["proof"]["pdf"])
        links[m["name"]] = f"proofs/{pdf.name}"
        if pdf.is_file():
            (folder / "proofs").mkdir(exist_ok=True)
            shutil.copy(pdf, folder / "proofs" / pdf.name)
    return links


def write_report(document: dict[str, Any], folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    links = _pdf_links(document, folder)
    outputs = {
        "report.json": json.dumps(document, indent=2, default=str),
        "report.md": render_markdown(document, links),
        "report.html": render_html(document, links),
        "junit.xml": junit_xml(document),
    }
    written = []
    for name, text in outputs.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
