"""The code a proof is about, located in the source files, and its fingerprint.

A mechanism's code is the closure of the module-level definitions (functions, classes, constant
tuples) reachable from its constructor's ``build``, ``validate`` and preconditions, following
names into the constructor modules (``mechanisms.make_*``), ``mechanisms.arith`` and
``mechanisms.samplers``. Each definition is located with :mod:`ast`, so a proof can include it by
line range, and the fingerprint is a hash of exactly these sources: change one character of any of
them and the proof that was vetted against the old text is stale.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

FOLLOWED_MODULES = ("mechanisms.make_", "mechanisms.arith", "mechanisms.samplers", "mechanisms.queryable")


class SourceError(LookupError):
    """A name a proof refers to is not a module-level definition that can be shown."""


@dataclass(frozen=True, order=True)
class Definition:
    """A module-level definition: ``module.name`` at ``first..last`` (1-based, inclusive)."""

    module: str
    name: str
    path: Path
    first: int
    last: int
    text: str

    @property
    def qualified(self) -> str:
        return f"{self.module}.{self.name}"


@lru_cache(maxsize=None)
def _module_nodes(module_name: str) -> tuple[Path, str, dict[str, ast.stmt]]:
    module = importlib.import_module(module_name)
    path = Path(inspect.getfile(module))
    source = path.read_text(encoding="utf-8")
    nodes: dict[str, ast.stmt] = {}
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            nodes[node.name] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    nodes[target.id] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            nodes[node.target.id] = node
    return path, source, nodes


def locate(qualified: str) -> Definition:
    """``package.module.name`` to its definition, decorators and docstring included."""
    module_name, _, name = qualified.rpartition(".")
    try:
        path, source, nodes = _module_nodes(module_name)
    except ImportError as error:
        raise SourceError(f"{qualified}: module {module_name!r} cannot be imported ({error})") from None
    if name not in nodes:
        raise SourceError(f"{qualified}: {module_name} defines no {name!r} at module level")
    node = nodes[name]
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    lines = source.splitlines()[first - 1:node.end_lineno]
    return Definition(module_name, name, path, first, node.end_lineno, "\n".join(lines))


def _defining_module(module_name: str, name: str) -> str | None:
    """Where ``name``, as seen from ``module_name``, is defined, if in a followed module."""
    module = importlib.import_module(module_name)
    value = getattr(module, name, None)
    origin = getattr(value, "__module__", None)
    if origin is None and name in _module_nodes(module_name)[2]:
        origin = module_name
    if origin is None:  # an imported constant: find the followed module that defines it
        origin = next((m for m in _followed_loaded() if name in _module_nodes(m)[2]
                       and getattr(importlib.import_module(m), name, None) is value), None)
    if origin and origin.startswith(FOLLOWED_MODULES) and name in _module_nodes(origin)[2]:
        return origin
    return None


def _followed_loaded() -> list[str]:
    import sys
    return sorted(m for m in sys.modules if m.startswith(FOLLOWED_MODULES))


def closure(roots: Iterable[str]) -> list[Definition]:
    """Every definition reachable from ``roots`` (qualified names) through the names they use."""
    seen: dict[str, Definition] = {}
    pending = list(roots)
    while pending:
        qualified = pending.pop()
        if qualified in seen:
            continue
        definition = locate(qualified)
        seen[qualified] = definition
        node = _module_nodes(definition.module)[2][definition.name]
        for used in {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} - {definition.name}:
            origin = _defining_module(definition.module, used)
            if origin is not None:
                pending.append(f"{origin}.{used}")
    return sorted(seen.values())


def qualified_name(obj: Any) -> str | None:
    """``module.name`` of a module-level function or class (None for a lambda or a local)."""
    name, module = getattr(obj, "__qualname__", None), getattr(obj, "__module__", None)
    if name is None or module is None or "<" in name or "." in name:
        return None
    return f"{module}.{name}"


def constructor_roots(constructor: Any) -> list[str]:
    """The constructor's ``build`` and ``validate``, and the module-level tuple holding its
    preconditions."""
    roots = [q for q in (qualified_name(constructor.build), qualified_name(constructor.validate))
             if q is not None]
    if constructor.preconditions:
        module = constructor.build.__module__
        names = [name for name, value in vars(importlib.import_module(module)).items()
                 if value is constructor.preconditions]
        if not names:
            raise SourceError(f"{constructor.name}: its preconditions are not a module-level tuple "
                              f"of {module}, so a proof cannot show them; name the tuple there")
        roots += [f"{_defining_module(module, name) or module}.{name}" for name in names]
    return roots


def fingerprint(definitions: Iterable[Definition]) -> str:
    """SHA-256 of the definitions' names and texts, in order; the first 16 hex digits."""
    digest = hashlib.sha256()
    for d in sorted(definitions):
        digest.update(f"{d.qualified}\n{d.text}\n".encode())
    return digest.hexdigest()[:16]
