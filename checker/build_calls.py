"""Which constructors a build may call, read from its bytecode, and which one a variant was made
from: the gate orders its work by them (those a constructor relies on first). It decides nothing;
the kernel never reads it."""

from __future__ import annotations

import dis
import types

from mechanisms.core import Constructor


def called_constructors(constructor: Constructor) -> list[Constructor]:
    """The constructors ``constructor.build`` may call: the globals it loads that are
    constructors, and the chains when it uses ``>>``."""
    build = constructor.build
    if not isinstance(build, types.FunctionType):
        return []
    found: list[Constructor] = []
    for instruction in dis.get_instructions(build):
        value = build.__globals__.get(instruction.argval) \
            if instruction.opname == "LOAD_GLOBAL" else None
        if isinstance(value, Constructor):
            found.append(value)
        if instruction.opname == "BINARY_OP" and instruction.argrepr == ">>":
            from mechanisms.make_chain_mt import make_chain_mt
            from mechanisms.make_chain_tt import make_chain_tt
            found += [make_chain_mt, make_chain_tt]
    return found


def relied_on(constructor: Constructor) -> list[Constructor]:
    """The constructors whose theorems ``constructor``'s may rest on: those its build may call,
    and its reference if it is a variant."""
    reference = constructor.reference
    return [*called_constructors(constructor), *([reference] if reference is not None else [])]
