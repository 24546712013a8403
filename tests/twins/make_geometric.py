"""Wrong twins of ``make_geometric``, one refuted per standard statement: slips a port of OpenDP's
bounded ``sample_discrete_laplace_linear`` could make, each refuted with a counterexample the real
code confirms."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from mechanisms import ops
from mechanisms.arith import div_up
from mechanisms.core import Map
from mechanisms.make_geometric import BoundedIntegerNoise, build_geometric, make_geometric
from mechanisms.metrics import SymmetricDistance
from obligations.kernel.statements import Claim
from tests.twins._statements import statement_twin_entries
from tests.twins.make_discrete_laplace import Int64Refusal


@dataclass(frozen=True)
class UnclampedOutput(BoundedIntegerNoise):
    """Wrong (output domain): the input clamped, the noisy output not (OpenDP's comment says the
    output must be clamped too): ``clamp(x) + z`` leaves ``[L, U]``."""

    def release(self, arg: Any, noise: Any) -> Any:
        return self.clamp(arg) + noise


@dataclass(frozen=True)
class Int64Input(Int64Refusal, BoundedIntegerNoise):
    """Bounded integer noise refusing inputs past 64 bits (runtime errors)."""


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


def build_geometric_int64_input(scale, bounds):
    return _with_function(Int64Input, scale, bounds)


def build_geometric_symmetric_in(scale, bounds):
    """Wrong: symmetric distance as the input metric of an integer."""
    return replace(build_geometric(scale, bounds), input_metric=SymmetricDistance())


def build_geometric_at_one(scale, bounds):
    return replace(build_geometric(scale, bounds),
                   privacy_map=Map(rule=at_one_map, params={"scale": scale}))


def build_geometric_nearest(scale, bounds):
    return replace(build_geometric(scale, bounds),
                   privacy_map=Map(rule=nearest_map, params={"scale": scale}))


make_geometric_unclamped_output = make_geometric.variant("make_geometric_unclamped_output",
                                                         build_geometric_unclamped_output)
make_geometric_symmetric_in = make_geometric.variant("make_geometric_symmetric_in",
                                                     build_geometric_symmetric_in)
make_geometric_int64_input = make_geometric.variant("make_geometric_int64_input",
                                                    build_geometric_int64_input)
make_geometric_at_one = make_geometric.variant("make_geometric_at_one", build_geometric_at_one)
make_geometric_nearest = make_geometric.variant("make_geometric_nearest", build_geometric_nearest)

STATEMENT_TWIN_OF = {
    ("make_geometric", Claim.OUTPUT_DOMAIN): ("make_geometric_unclamped_output",
                                              Claim.OUTPUT_DOMAIN),
    ("make_geometric", Claim.COMPATIBILITY): ("make_geometric_symmetric_in", Claim.COMPATIBILITY),
    ("make_geometric", Claim.PRIVACY): ("make_geometric_at_one", Claim.PRIVACY),
    ("make_geometric", Claim.RUNTIME_ERRORS): ("make_geometric_int64_input",
                                               Claim.RUNTIME_ERRORS),
}
REFUTED_STATEMENTS = {("make_geometric_nearest", Claim.PRIVACY)}
MECHANISMS = statement_twin_entries(globals(), STATEMENT_TWIN_OF.values(), REFUTED_STATEMENTS)
