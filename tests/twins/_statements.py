"""The entries of a twin module: twins checked on their obligations, or on the kernel's standard
statements."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from obligations.base import Entry


def statement_twin_entries(namespace: Mapping[str, Any],
                           *refuted: Iterable[tuple[str, Any]]) -> list[Entry]:
    """An entry with no obligations for each constructor of ``namespace`` named in ``refuted``
    (``(name, claim)`` pairs: a module's ``STATEMENT_TWIN_OF.values()`` and
    ``REFUTED_STATEMENTS``), in name order."""
    return [Entry(name, namespace[name])
            for name in sorted({name for pairs in refuted for name, _ in pairs})]


def twin_entries(namespace: Mapping[str, Any], obligations: Any,
                 twins: Mapping[str, tuple[str, Any]]) -> list[Entry]:
    """One entry per ``suffix: (prefix, wrong_build)``: the module-level variant ``make_<prefix>``
    of ``namespace`` (so reproducers can import it) and its obligations."""
    return [Entry(f"make_{prefix}", namespace[f"make_{prefix}"],
                  obligations(namespace[f"make_{prefix}"], prefix)) for prefix, _ in twins.values()]
