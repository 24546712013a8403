"""Goal: a measurement draws its noise exactly, from integer draws only.

The exact samplers of :mod:`mechanisms.samplers` use ``rng.randrange`` (uniform integers) and
exact rationals, so the distribution their proofs state is the one the code draws. A float draw
(``rng.random()``, ``uniform``, ``gauss``, ``expovariate``, numpy's ``laplace`` or ``normal``...)
computes real-valued noise in floating point: the output is a float whose set of reachable values
and whose probabilities depend on the input's rounding, and the textbook proofs, which assume
real-valued noise, do not apply to it (Mironov 2012: the low bits of a float Laplace sample leak
the input). The check reads the source of the measurement's function, its methods, the
callables it holds and, transitively, the project's module-level functions they call by name;
any float draw makes the goal ``unknown`` ("float sampler"), never proved.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import fields, is_dataclass
from typing import Any, Callable, Iterator

from obligations.base import ComputedGoal, Decision

FLOAT_DRAWS = frozenset({
    "random", "uniform", "gauss", "normalvariate", "expovariate", "lognormvariate",
    "vonmisesvariate", "gammavariate", "betavariate", "paretovariate", "weibullvariate",
    "triangular", "laplace", "normal", "exponential", "standard_normal", "standard_exponential",
    "logistic", "gumbel"})
"""Names of float-valued random draws in ``random`` and ``numpy.random``."""
PROJECT_PACKAGES = ("mechanisms", "obligations", "tests")
"""Code followed transitively; library code (``random``, ``math``) is not."""


def _callables_held(obj: Any) -> Iterator[Any]:
    """The methods of ``obj``'s class (or ``obj`` itself if a function) and the callables in its
    dataclass fields (e.g. a sampler)."""
    if inspect.isfunction(obj) or inspect.ismethod(obj):
        yield obj
        return
    for klass in type(obj).__mro__[:-1]:
        yield from (member for _, member in inspect.getmembers(klass, inspect.isfunction)
                    if member.__qualname__.startswith(klass.__qualname__ + "."))
    if is_dataclass(obj):
        yield from (getattr(obj, f.name) for f in fields(obj) if callable(getattr(obj, f.name)))


def _in_project(function: Any) -> bool:
    module = getattr(inspect.getmodule(function), "__name__", "") or ""
    return module.split(".")[0] in PROJECT_PACKAGES or module.startswith("make_")


def float_draws(obj: Any) -> list[str]:
    """``where: call`` for each float draw in the code ``obj`` runs (see the module docstring)."""
    found: list[str] = []
    pending, seen = list(_callables_held(obj)), set()
    while pending:
        function = pending.pop()
        if id(function) in seen or not _in_project(function):
            continue
        seen.add(id(function))
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
        except (OSError, TypeError):
            continue
        namespace = getattr(function, "__globals__", {})
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            callee = node.func
            name = callee.attr if isinstance(callee, ast.Attribute) else getattr(callee, "id", "")
            if name in FLOAT_DRAWS:
                found.append(f"{function.__qualname__}: {ast.unparse(callee)}()")
            elif isinstance(callee, ast.Name) and callable(namespace.get(callee.id)):
                pending.append(namespace[callee.id])
    return sorted(set(found))


def exact_noise_goal(build: Callable[[], Any]) -> ComputedGoal:
    """The measurement ``build()`` returns draws no float noise (``unknown`` if it does)."""
    def decide() -> Decision:
        draws = float_draws(build().function)
        if draws:
            return Decision(False, {"float draws": "; ".join(draws)},
                            "float sampler: the function draws real-valued noise in floating "
                            f"point ({'; '.join(draws)}); the proof assumes exact noise",
                            unsupported=True)
        return Decision(True, detail="integer draws only (the exact samplers)")
    return ComputedGoal("the noise is drawn exactly: integer draws only, no float sampler",
                        "structure", decide)
