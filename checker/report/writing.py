"""Write the report folder: report.json (the source), report.md, report.html, junit.xml, and
in ``proofs/`` the proof PDFs built from the current text of their proof, so the folder works as
a CI artifact. ``proofs/`` is emptied first: a reused folder keeps no PDF of an earlier run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from checker.proofs.documents import PDF_CURRENT
from checker.report.html import render_html
from checker.report.identity import REPOSITORY
from checker.report.junit import junit_xml
from checker.report.markdown import render_markdown

PROOFS_FOLDER = "proofs"


def copy_pdfs(document: dict[str, Any], folder: Path) -> dict[str, str]:
    """Empty ``folder/proofs``, copy into it every PDF built from its proof's current text, and
    return the link (relative to ``folder``) of each copied PDF by mechanism."""
    target = folder / PROOFS_FOLDER
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target)
    elif target.exists() or target.is_symlink():
        target.unlink()
    links = {}
    for proof in document["proofs"]:
        if proof["pdf_state"] != PDF_CURRENT:
            continue
        pdf = REPOSITORY / proof["pdf"]
        target.mkdir(exist_ok=True)
        shutil.copy(pdf, target / pdf.name)
        links[proof["mechanism"]] = f"{PROOFS_FOLDER}/{pdf.name}"
    return links


def write_report(document: dict[str, Any], folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    links = copy_pdfs(document, folder)
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
