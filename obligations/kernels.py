"""One check for every constructor: the object that runs is the trusted kernel, not a look-alike.

A proof method covers a kernel class (``RowTransform``, ``Fold``, ``IntegerNoise``, a sampler's
class ...): its goals run that class's code on solver terms. An object of a subclass, or one whose
instance attributes replace a method, runs other code. :func:`kernel_deviations` lists every such
replacement; :func:`trusted_kernel_goal` makes it ``unknown (unsupported)``, never proved, except
for the members a proof checks on the running object itself (``checked``).
"""

from __future__ import annotations

import inspect
from dataclasses import fields, is_dataclass
from typing import Any, Callable, Iterable

from obligations.base import ComputedGoal, Decision

_METADATA = frozenset({"__module__", "__qualname__", "__doc__", "__dict__", "__weakref__",
                       "__annotations__", "__dataclass_fields__", "__dataclass_params__",
                       "__match_args__", "__slots__", "__orig_bases__", "__parameters__",
                       "__firstlineno__", "__static_attributes__", "__abstractmethods__",
                       "_abc_impl"})
"""Class-dictionary entries that carry no behaviour."""
_DATACLASS_GENERATED = frozenset({"__init__", "__repr__", "__eq__", "__hash__", "__setattr__",
                                  "__delattr__", "__getstate__", "__setstate__"})
"""Methods that ``@dataclass`` writes for every subclass: generated, not user code, when they
were compiled from dataclasses' own template (file ``<string>``)."""


def _is_generated(member: Any) -> bool:
    code = getattr(inspect.unwrap(member), "__code__", None) if callable(member) else None
    return code is not None and code.co_filename == "<string>"


def kernel_deviations(obj: Any, kernel: type, checked: Iterable[str] = ()) -> list[str]:
    """What in ``obj`` is not ``kernel``'s own code: its class not a ``kernel``; a subclass member
    that replaces one of ``kernel``'s (metadata and dataclass-generated methods aside); an instance
    attribute (not a dataclass field) that shadows a class member. ``checked`` names members the
    proof runs on the object itself, which may differ."""
    if not isinstance(obj, kernel):
        return [f"{type(obj).__qualname__} is not a {kernel.__qualname__}"]
    allowed = set(checked)
    found: list[str] = []
    for klass in type(obj).__mro__:
        if klass is kernel or klass in kernel.__mro__:
            break
        for name, member in vars(klass).items():
            if name in _METADATA or name in allowed:
                continue
            if name in _DATACLASS_GENERATED and _is_generated(member):
                continue
            if inspect.getattr_static(kernel, name, None) is not None or name.startswith("__"):
                found.append(f"{klass.__qualname__}.{name} replaces {kernel.__qualname__}'s")
    field_names = {f.name for f in fields(obj)} if is_dataclass(obj) else set()
    for name in getattr(obj, "__dict__", {}):
        if name not in field_names and name not in allowed \
                and inspect.getattr_static(type(obj), name, None) is not None:
            found.append(f"instance attribute {name} shadows {type(obj).__qualname__}.{name}")
    return found


def trusted_kernel_goal(what: str, build: Callable[[], Any], kernel: type,
                        checked: Iterable[str] = (), also: Callable[[Any], list[str]] | None = None
                        ) -> ComputedGoal:
    """Goal: ``build()`` (the running object, e.g. a built measurement's function) is ``kernel``'s
    own code (:func:`kernel_deviations`); ``also(obj)`` adds constructor-specific deviations (a
    sampler that is not the checked one). Any deviation is ``unknown (unsupported)``."""
    checked = tuple(checked)

    def decide() -> Decision:
        obj = build()
        deviations = kernel_deviations(obj, kernel, checked) + (also(obj) if also else [])
        if deviations:
            return Decision(False, {"object": type(obj).__qualname__,
                                    "deviations": "; ".join(deviations)},
                            f"{what} does not run {kernel.__qualname__}'s checked code: "
                            + "; ".join(deviations), unsupported=True)
        return Decision(True, detail=f"{what} is a {kernel.__qualname__} running its own code"
                        + (f" (and {', '.join(checked)}, checked on the object)" if checked else ""))

    return ComputedGoal(f"{what} runs {kernel.__qualname__}'s own code (no member overridden)",
                        "structure", decide)



def goals_on_terms(build: Callable[[], Any], kernel: type, goals: Callable[[], list[Any]],
                   checked: Iterable[str] = ()) -> list[Any]:
    """``goals()``: goals that run ``build()``'s members on solver terms while they are built.
    On ``kernel``'s own code (:func:`kernel_deviations`) building them must succeed (a raise is a
    checker bug and propagates). On any other object they are only evidence: the caller keeps
    :func:`trusted_kernel_goal`, which makes the obligation *unknown (unsupported)*, and a
    refutation of these goals still needs its replay on the real code to be confirmed; if running
    that object on solver terms raises, they are left out rather than crash the obligation."""
    if not kernel_deviations(build(), kernel, checked):
        return goals()
    try:
        return goals()
    except Exception:  # noqa: BLE001 - code outside the proof method may not run on terms
        return []
