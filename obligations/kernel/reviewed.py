"""Reviewed proof factories: the catalogue's per-constructor obligation modules, trusted as a whole
until their reasoning is moved into the kernel's rules.

A factory marked :func:`reviewed` records every obligation it returns together with the
constructor it was called with, its module and the whole set it returned. :func:`reviewed_source`
answers, for an obligation and a constructor, which reviewed call wrote that very obligation for
that constructor, or ``None``: an obligation written anywhere else (a user's module, a copy, a
changed field) has no source, and :mod:`obligations.kernel.rules` takes no premise from it.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from obligations.base import Obligation

@dataclass(frozen=True)
class Source:
    """A reviewed factory's call: its ``module``, and every obligation it returned (``written``),
    for ``constructor``."""

    module: str
    constructor: Any
    written: tuple[Obligation, ...]


_RECORDED: dict[int, tuple[Obligation, Source]] = {}
"""``id(obligation) -> (obligation, source)``; the obligation is kept, so its id is never reused
by another object while recorded."""

Factory = TypeVar("Factory", bound=Callable[..., tuple[Obligation, ...]])


def reviewed(factory: Factory) -> Factory:
    """Mark ``factory(constructor, ...)``, a function of the constructor it proves (its first
    parameter, given or defaulted), as a reviewed proof module."""
    signature = inspect.signature(factory)
    first = next(iter(signature.parameters))

    @functools.wraps(factory)
    def recording(*args: Any, **kwargs: Any) -> tuple[Obligation, ...]:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        obligations = factory(*args, **kwargs)
        source = Source(factory.__module__, bound.arguments[first], tuple(obligations))
        for obligation in obligations:
            _RECORDED[id(obligation)] = (obligation, source)
        return obligations
    return recording  # type: ignore[return-value]


def reviewed_source(obligation: Obligation, constructor: Any) -> Source | None:
    """The reviewed factory's call that returned this very ``obligation`` for this very
    ``constructor``, or None."""
    recorded = _RECORDED.get(id(obligation))
    if recorded is None or recorded[0] is not obligation or recorded[1].constructor is not constructor:
        return None
    return recorded[1]
