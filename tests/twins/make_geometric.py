"""Wrong twins of ``make_geometric``, one per obligation: slips a port of OpenDP's bounded
``sample_discrete_laplace_linear`` could make, each refuted with a counterexample the real code
confirms."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Map
from mechanisms.make_geometric import BoundedIntegerNoise, build_geometric, make_geometric
from mechanisms.metrics import SymmetricDistance
from obligations.make_geometric import geometric_obligations
from tests.twins.make_chain_tt import twin_entries


@dataclass(frozen=True)
class UnclampedOutput(BoundedIntegerNoise):
    """Wrong (output domain): the input clamped, the noisy output not (OpenDP's comment says the
    output must be clamped too): ``clamp(x) + z`` leaves ``[L, U]``."""

    def release(self, arg: Any, noise: Any) -> Any:
        return self.clamp(arg) + noise


@dataclass(frozen=True)
class UnclampedInput(BoundedIntegerNoise):
    """Wrong (distribution): the input clamp dropped (OpenDP's comment: "it should be possible to
    drop the input clamp"), ``clamp(x + z)``: a different law for inputs outside the bounds
    (still private, a post-processing of ``x + Y``, but not the stated law)."""

    def release(self, arg: Any, noise: Any) -> Any:
        return self.clamp(arg + noise)


def at_one_map(d_in: Any, scale: Any) -> Any:
    """Wrong: ``1 / scale`` for every ``d_in > 0`` (a map that holds only for ``d_in = 1``)."""
    return ops.where(ops.eq(d_in, 0), 0, div_up(1, scale))


def nearest_map(d_in: Any, scale: Any) -> Any:
    """Wrong: ``d_in / scale`` with plain ``/`` (rounded to nearest)."""
    return ops.where(ops.eq(d_in, 0), 0, d_in / scale)


def _with_function(kind: type, scale: Any, bounds: Any) -> Any:
    built = build_geometric(scale, bounds)
    f = built.function
    return replace(built, function=kind(f.scale, f.lower, f.upper, f.sampler))


def build_geometric_unclamped_output(scale, bounds):
    return _with_function(UnclampedOutput, scale, bounds)


def build_geometric_unclamped_input(scale, bounds):
    return _with_function(UnclampedInput, scale, bounds)


def build_geometric_symmetric_in(scale, bounds):
    """Wrong: symmetric distance as the input metric of an integer."""
    return replace(build_geometric(scale, bounds), input_metric=SymmetricDistance())


def build_geometric_at_one(scale, bounds):
    return replace(build_geometric(scale, bounds),
                   privacy_map=Map(rule=at_one_map, params={"scale": scale}))


def build_geometric_nearest(scale, bounds):
    return replace(build_geometric(scale, bounds),
                   privacy_map=Map(rule=nearest_map, params={"scale": scale}))


TWINS = {"output_domain": ("geometric_unclamped_output", build_geometric_unclamped_output),
         "compatibility": ("geometric_symmetric_in", build_geometric_symmetric_in),
         "distribution": ("geometric_unclamped_input", build_geometric_unclamped_input),
         "privacy": ("geometric_at_one", build_geometric_at_one),
         "map_rounding": ("geometric_nearest", build_geometric_nearest)}

make_geometric_unclamped_output = make_geometric.variant("make_geometric_unclamped_output",
                                                         build_geometric_unclamped_output)
make_geometric_symmetric_in = make_geometric.variant("make_geometric_symmetric_in",
                                                     build_geometric_symmetric_in)
make_geometric_unclamped_input = make_geometric.variant("make_geometric_unclamped_input",
                                                        build_geometric_unclamped_input)
make_geometric_at_one = make_geometric.variant("make_geometric_at_one", build_geometric_at_one)
make_geometric_nearest = make_geometric.variant("make_geometric_nearest", build_geometric_nearest)

MECHANISMS = twin_entries(globals(), geometric_obligations, TWINS)
EXPECTED_REFUTATIONS = {f"{prefix}.{suffix}" for suffix, (prefix, _) in TWINS.items()}
TWIN_OF = {f"geometric.{suffix}": f"{prefix}.{suffix}" for suffix, (prefix, _) in TWINS.items()}
