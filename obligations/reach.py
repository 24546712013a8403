"""The code an object can run, found by reading bytecode, wherever it lives.

:func:`loads` starts from an object (a function, a kernel instance, a constructor's build) and
follows what it can execute: a class's methods, the callables and objects it holds (dataclass
fields, instance attributes, closures, ``functools.partial``) and every function, class or module
attribute its bytecode loads by name, transitively. Installed libraries (the standard library,
site-packages) are not entered. Checks ask it what names the code loads: a float draw
(:mod:`obligations.noise`), a branch on solver terms (:mod:`obligations.one_body`).
"""

from __future__ import annotations

import builtins
import dis
import functools
import inspect
import sys
import sysconfig
import types
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from mechanisms.core import PROVENANCE

SCAN_LIMIT = 5000
"""Code objects scanned at most; past it the scan cannot vouch for the code (unsupported)."""
LIBRARY_ROOTS = tuple(sorted(
    {str(Path(sysconfig.get_paths()[key]).resolve())
     for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    | {str(Path(entry).resolve()) for entry in sys.path
       if Path(entry).name in ("site-packages", "dist-packages")}))
"""Where installed libraries live: this interpreter's own folders, and any other package folder on
``sys.path`` (one a ``.pth`` file or ``PYTHONPATH`` added). Code under these is not entered."""
OWN_PACKAGES = tuple(str(Path(__file__).resolve().parent.parent / name) + "/"
                     for name in ("mechanisms", "obligations", "checker"))
"""dpcert's own packages: always entered, also when a wheel installed them in site-packages (the
scans must see the same code there as in a repository checkout)."""


class ScanLimitError(RuntimeError):
    """The reachable code is larger than :data:`SCAN_LIMIT` code objects."""


def _user_code(value: Any) -> bool:
    """Is ``value`` (a function, class, instance or module) defined in a Python file outside the
    installed libraries? Built-in and C code has no file and is not entered."""
    if isinstance(value, types.ModuleType):
        source = getattr(value, "__file__", None)
    elif inspect.isfunction(value):
        source = value.__code__.co_filename
    else:
        klass = value if isinstance(value, type) else type(value)
        source = getattr(sys.modules.get(klass.__module__), "__file__", None)
    if not source or source.startswith("<"):
        return inspect.isfunction(value)  # exec'd or generated code: scan it
    return _user_file(source)


@functools.lru_cache(maxsize=None)
def _user_file(source: str) -> bool:
    """Is the Python file ``source`` dpcert's own or outside the installed libraries? (Files do
    not move while the checker runs: each is resolved once.)"""
    resolved = str(Path(source).resolve())
    return resolved.startswith(OWN_PACKAGES) or not resolved.startswith(LIBRARY_ROOTS)


def _held(obj: Any) -> Iterator[Any]:
    """What running ``obj`` may execute: a function itself; a class's own methods (its MRO outside
    the standard library); an instance's class, fields, attributes, a partial's function and
    arguments, a closure's cells."""
    if isinstance(obj, functools.partial):
        yield from (obj.func, *obj.args, *obj.keywords.values())
        return
    if inspect.isfunction(obj) or inspect.ismethod(obj):
        function = getattr(obj, "__func__", obj)
        yield function
        yield from (cell.cell_contents for cell in function.__closure__ or ()
                    if _filled(cell))
        yield from (function.__defaults__ or ())
        return
    if isinstance(obj, type):
        for klass in obj.__mro__:
            if _user_code(klass):
                yield from (getattr(member, "__func__", member)
                            for member in vars(klass).values()
                            if callable(getattr(member, "__func__", member)))
        return
    if isinstance(obj, (types.ModuleType, int, float, str, bytes, bool, type(None))):
        return
    yield type(obj)
    if is_dataclass(obj):
        yield from (getattr(obj, f.name) for f in fields(obj))
    yield from (value for name, value in getattr(obj, "__dict__", {}).items()
                if name != PROVENANCE)  # how it was built is not what it runs
    if isinstance(obj, (list, tuple, set, frozenset)):
        yield from obj
    elif isinstance(obj, dict):
        yield from obj.values()


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def code_objects(code: types.CodeType) -> Iterator[types.CodeType]:
    """``code`` and the code objects nested in it (functions, comprehensions, classes)."""
    yield code
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from code_objects(constant)


@dataclass(frozen=True)
class Load:
    """A name the bytecode of ``function`` (qualified name, in ``module``) loads: a global, a
    closure variable or an attribute; ``value`` is what it resolves to, ``None`` when the scan
    cannot tell (an attribute of a runtime object, ``rng.gauss``)."""

    function: str
    module: str
    name: str
    value: Any


def _loads(function: types.FunctionType) -> Iterator[Load]:
    """The names ``function``'s bytecode (nested code included) loads, and the modules it imports
    (``import random`` in its body: the module loaded, or one of that name not loaded yet). A
    chain such as ``np.random.laplace`` resolves module by module; an attribute of anything but a
    module is unresolved."""
    namespace = function.__globals__
    cells = {name: cell.cell_contents for name, cell in
             zip(function.__code__.co_freevars, function.__closure__ or ()) if _filled(cell)}
    where, module = function.__qualname__, getattr(function, "__module__", "") or ""
    for code in code_objects(function.__code__):
        resolved: Any = None
        for opname, name in _instructions(code):
            if opname in ("LOAD_GLOBAL", "LOAD_DEREF"):
                value = (cells.get(name) if opname == "LOAD_DEREF"
                         else namespace.get(name, getattr(builtins, name, None)))
            elif opname == "IMPORT_NAME":  # a local import: the module it binds
                value = sys.modules.get(name) or types.ModuleType(name)
            elif opname in ("LOAD_ATTR", "LOAD_METHOD", "IMPORT_FROM"):
                value = getattr(resolved, name, None) if isinstance(
                    resolved, types.ModuleType) else None
            elif opname in ("PRECALL", "CACHE", "EXTENDED_ARG"):
                continue
            else:
                resolved = None
                continue
            resolved = value
            yield Load(where, module, name, value)


@functools.lru_cache(maxsize=None)
def _instructions(code: types.CodeType) -> tuple[tuple[str, Any], ...]:
    """``(opname, argval)`` of each instruction of ``code``, decoded once (code is immutable)."""
    return tuple((instruction.opname, instruction.argval)
                 for instruction in dis.get_instructions(code))


def loads(root: Any, enter: Callable[[Any], bool] = lambda function: True) -> Iterator[Load]:
    """Every :class:`Load` in the code ``root`` can run: its functions' bytecode, and transitively
    what that bytecode loads and what objects hold (:func:`_held`), outside the installed
    libraries. ``enter(function)`` may exclude functions whose code is trusted (their loads are
    not listed nor followed). Raises :class:`ScanLimitError` past :data:`SCAN_LIMIT` objects."""
    pending, seen = [root], set()
    while pending:
        current = pending.pop()
        if id(current) in seen or current is None:
            continue
        seen.add(id(current))
        if len(seen) > SCAN_LIMIT:
            raise ScanLimitError(f"more than {SCAN_LIMIT} objects reachable")
        if inspect.isfunction(current):
            if not (_user_code(current) and enter(current)):
                continue
            for load in _loads(current):
                yield load
                if load.value is not None and _user_code(load.value):
                    pending.append(load.value)
        if inspect.isfunction(current) or _user_code(current) \
                or isinstance(current, (functools.partial, list, tuple, dict, set, frozenset)):
            pending.extend(_held(current))
