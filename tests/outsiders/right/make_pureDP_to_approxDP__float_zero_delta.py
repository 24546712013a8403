"""Pure-to-approximate conversion with OpenDP's float delta: map ``(m(d_in), 0.0)``.

Correct: ``0.0 == 0`` exactly (the same real number), and the epsilon is the component's own
value untouched, so the guarantee is the catalogue's ``(eps, 0)``. Checked: equal maps (as
numbers) to the catalogue's on several components and ``d_in``; ``type(delta) is float``.
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.core import Map  # noqa: E402
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from mechanisms.make_pureDP_to_approxDP import build_pure_to_approx, make_pureDP_to_approxDP  # noqa: E402
from mechanisms.make_randomized_response_bool import make_randomized_response_bool  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_pureDP_to_approxDP import pure_to_approx_obligations  # noqa: E402

CONSTRUCTOR = "make_pureDP_to_approxDP"


def float_delta_map(d_in, inner):
    return inner(d_in), 0.0


def build(measurement):
    return replace(build_pure_to_approx(measurement),
                   privacy_map=Map(rule=float_delta_map, params={"inner": measurement.privacy_map}))


make_p2a_float_delta = make_pureDP_to_approxDP.variant("make_pureDP_to_approxDP_float_zero_delta",
                                                       build)
MECHANISMS = [Entry("outsider_right_pure_to_approx_float_zero_delta", make_p2a_float_delta,
                    pure_to_approx_obligations(make_p2a_float_delta,
                                               "outsider_right_pure_to_approx_float_zero_delta"))]


def check() -> str:
    n = 0
    for component, ds in [(make_discrete_laplace(3.0), range(5)), (make_discrete_laplace(0.7), range(5)),
                          (make_randomized_response_bool(0.75), (0, 1))]:
        ours, theirs = make_p2a_float_delta(component), make_pureDP_to_approxDP(component)
        for d in ds:
            (e1, d1), (e2, d2) = ours.map(d), theirs.map(d)
            assert e1 == e2 and d1 == d2 == 0 and type(d1) is float
            n += 1
        assert ours.function is theirs.function
    return f"maps equal to the catalogue's on {n} (component, d_in)"
