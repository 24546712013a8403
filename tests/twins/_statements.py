"""The entries of a twin module whose twins are checked on the kernel's standard statements."""

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
