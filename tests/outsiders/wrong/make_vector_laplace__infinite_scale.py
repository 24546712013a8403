"""Vector Laplace whose precondition keeps only ``scale >= 0``, dropping "scale is finite"
("``scale = inf`` is the fully private setting, map 0").

Wrong: ``scale = inf`` is admitted (a float, so the type check passes); the intended map
``d_in / inf = 0`` is never returned: ``map(1)`` raises ``OverflowError`` (``div_up`` reads the
scale as a Fraction), and so does the function on every non-empty input (the sampler reads the
scale as a Fraction; the empty vector draws nothing and is returned): runtime errors on admitted
parameters and inputs, and errors that depend on the data.
Hole classes: 13 (a weakened precondition).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random  # noqa: E402

from mechanisms import ops  # noqa: E402
from mechanisms.core import Constructor, Precondition  # noqa: E402
from mechanisms.errors import ScaleError  # noqa: E402
from mechanisms.make_discrete_laplace import validate_scale  # noqa: E402
from mechanisms.make_vector_laplace import build_vector_laplace  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_vector_laplace"
CLASSES = (13,)

PRECONDITIONS = (
    Precondition("scale >= 0", lambda scale, **_: ops.le(0, scale),
                 lambda scale, **_: ScaleError(scale)),
)
make_vl_inf = Constructor("make_vector_laplace_infinite_scale", build_vector_laplace,
                          PRECONDITIONS, validate_scale)
MECHANISMS = [Entry("outsider_vl_infinite_scale", make_vl_inf)]


def witness() -> str:
    m = make_vl_inf(float("inf"))
    v = [3, 1]
    assert m.input_domain.member(v) and m.input_domain.member([])
    raised = []
    for name, call in (("map(1)", lambda: m.map(1)), ("m([3, 1])", lambda: m(v, random.Random(0)))):
        try:
            call()
        except OverflowError as error:
            raised.append(f"{name} raises OverflowError ({error})")
    assert len(raised) == 2, raised
    assert m([], random.Random(0)) == []
    return "scale inf admitted: " + "; ".join(raised) + "; m([]) returns []"
