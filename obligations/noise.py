"""Goal: a measurement draws its noise exactly, from integer draws only.

The exact samplers of :mod:`mechanisms.samplers` use ``rng.randrange`` (uniform integers) and
exact rationals, so the distribution their proofs state is the one the code draws. A float draw
(``rng.random()``, ``uniform``, ``gauss``, ``expovariate``, numpy's ``laplace`` or ``normal``...)
computes real-valued noise in floating point: the output is a float whose set of reachable values
and whose probabilities depend on the input's rounding, and the textbook proofs, which assume
real-valued noise, do not apply to it (Mironov 2012: the low bits of a float Laplace sample leak
the input). The check follows the code the measurement's function can run, wherever it lives: its class's
methods, the callables and objects it holds (dataclass fields, instance attributes, closures,
``functools.partial``) and, transitively, every function, class or module attribute their bytecode
loads by name. Installed libraries (the standard library, site-packages: Z3, NumPy...) are not
entered; their draws are recognised by name at the call site. Any float draw makes the goal ``unknown`` ("float sampler"), never proved; so does
code too large to scan.
"""

from __future__ import annotations

import builtins
import dis
import functools
import inspect
import sys
import sysconfig
import types
from pathlib import Path
from dataclasses import fields, is_dataclass
from typing import Any, Callable, Iterator

from obligations.base import ComputedGoal, Decision

FLOAT_DRAWS = frozenset({
    "random", "uniform", "gauss", "normalvariate", "expovariate", "lognormvariate",
    "vonmisesvariate", "gammavariate", "betavariate", "paretovariate", "weibullvariate",
    "triangular", "laplace", "normal", "exponential", "standard_normal", "standard_exponential",
    "logistic", "gumbel", "rvs", "random_sample", "rand", "randn", "standard_cauchy",
    "standard_gamma", "standard_t", "beta", "gamma", "chisquare", "lognormal", "rayleigh",
    "wald", "vonmises", "weibull", "pareto", "noncentral_chisquare", "noncentral_f", "ranf"})
"""Names of float-valued random draws (``random``, ``numpy.random``, ``scipy.stats``'s ``rvs``)."""
SCAN_LIMIT = 5000
"""Code objects scanned at most; past it the scan cannot vouch for the code (unsupported)."""
LIBRARY_ROOTS = tuple(sorted({str(Path(sysconfig.get_paths()[key]).resolve())
                              for key in ("stdlib", "platstdlib", "purelib", "platlib")}))
"""Where installed libraries live: code under these is not entered."""


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
    return not str(Path(source).resolve()).startswith(LIBRARY_ROOTS)


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
    yield from getattr(obj, "__dict__", {}).values()
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


def _code_objects(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from _code_objects(constant)


def _is_draw(name: str, value: Any) -> bool:
    """A load of ``name`` is a float draw: a draw's name on an object the scan cannot resolve
    (``rng.gauss``), or resolved to a random-number module's function (``random.gauss``,
    ``np.random.laplace``), not to another library's (``math.gamma``) nor to a module."""
    if name not in FLOAT_DRAWS or isinstance(value, types.ModuleType):
        return False
    if value is None:
        return True
    owner = getattr(value, "__self__", None)
    module = getattr(value, "__module__", None) or type(owner).__module__ or ""
    return "random" in module or module.startswith("scipy.stats")


def _loads(function: types.FunctionType) -> Iterator[tuple[str, Any]]:
    """``(draw, None)`` for each float draw the function's bytecode calls by name, and
    ``("", value)`` for each object it loads that may run code (functions, classes, module
    attributes). A chain ``np.random.laplace`` resolves module by module, so the module
    ``numpy.random`` is not mistaken for the draw ``random()``."""
    namespace = function.__globals__
    cells = {name: cell.cell_contents for name, cell in
             zip(function.__code__.co_freevars, function.__closure__ or ()) if _filled(cell)}
    for code in _code_objects(function.__code__):
        resolved: Any = None
        for instruction in dis.get_instructions(code):
            name = instruction.argval
            if instruction.opname in ("LOAD_GLOBAL", "LOAD_DEREF"):
                value = (cells.get(name) if instruction.opname == "LOAD_DEREF"
                         else namespace.get(name, getattr(builtins, name, None)))
                if _is_draw(name, value):
                    yield f"{name}", None
                resolved = value
                yield "", value
            elif instruction.opname in ("LOAD_ATTR", "LOAD_METHOD"):
                value = getattr(resolved, name, None) if isinstance(
                    resolved, types.ModuleType) else None
                if _is_draw(name, value):
                    yield f"{name}", None
                resolved = value
                yield "", value
            elif instruction.opname in ("PRECALL", "CACHE", "EXTENDED_ARG"):
                continue
            else:
                resolved = None


def float_draws(obj: Any) -> list[str]:
    """``where: call()`` for each float draw in the code ``obj`` can run (module docstring)."""
    found: set[str] = set()
    pending, seen = [obj], set()
    while pending:
        current = pending.pop()
        if id(current) in seen or current is None:
            continue
        seen.add(id(current))
        if len(seen) > SCAN_LIMIT:
            raise ScanLimitError(f"more than {SCAN_LIMIT} objects reachable")
        if inspect.isfunction(current) and _user_code(current):
            for draw, value in _loads(current):
                if draw:
                    found.add(f"{current.__qualname__}: {draw}()")
                elif value is not None and _user_code(value) and (
                        callable(value) or not isinstance(value, types.ModuleType)):
                    pending.append(value)
        if inspect.isfunction(current) or _user_code(current) \
                or isinstance(current, (functools.partial, list, tuple, dict, set, frozenset)):
            pending.extend(_held(current))
    return sorted(found)


def exact_noise_goal(build: Callable[[], Any]) -> ComputedGoal:
    """The measurement ``build()`` returns draws no float noise (``unknown`` if it does)."""
    def decide() -> Decision:
        try:
            draws = float_draws(build().function)
        except ScanLimitError as too_large:
            return Decision(False, {"scan": str(too_large)}, "float sampler?: the code the "
                            f"function can run could not be scanned whole ({too_large})",
                            unsupported=True)
        if draws:
            return Decision(False, {"float draws": "; ".join(draws)},
                            "float sampler: the function draws real-valued noise in floating "
                            f"point ({'; '.join(draws)}); the proof assumes exact noise",
                            unsupported=True)
        return Decision(True, detail="integer draws only (the exact samplers)")
    return ComputedGoal("the noise is drawn exactly: integer draws only, no float sampler",
                        "structure", decide)
