"""The built-in catalogue: every ``obligations.make_<name>`` module's ``catalogue_entry()``, and
the lemmas their proofs use.

A constructor joins the catalogue by adding its obligation module (twin of
``mechanisms/make_<name>.py``) with a ``catalogue_entry()``; its proof must then exist in
``proofs_tex/make_<name>.tex`` and be bound, or the gate fails.
"""

from __future__ import annotations

import importlib
import pkgutil

import obligations
from obligations.arith import linear_map_lemma, ln_up_lemma, round_up_lemma
from obligations.base import Entry
from obligations.lemmas import row_transform_lemma, sized_path_lemma

LEMMAS = Entry("lemmas", None, (row_transform_lemma(), sized_path_lemma(), ln_up_lemma(),
                                round_up_lemma(), linear_map_lemma()),
               "lemmas cited by the proofs", proof=True)


def builtin_catalogue() -> list[Entry]:
    """The constructors in name order, then the lemmas."""
    modules = sorted(info.name for info in pkgutil.iter_modules(obligations.__path__)
                     if info.name.startswith("make_"))
    entries = [importlib.import_module(f"obligations.{name}").catalogue_entry() for name in modules]
    return [*entries, LEMMAS]
