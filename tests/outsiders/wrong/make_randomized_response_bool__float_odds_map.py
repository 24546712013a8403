"""Boolean randomized response whose map takes ``ln_up`` of the odds computed in floats,
``ln_up(prob / (1 - prob))`` (the float quotient; ``1 - prob`` is exact for ``prob`` in
``[1/2, 1)``, the division is rounded to nearest).

Wrong: ``ln_up`` rounds its argument's logarithm up, but its argument is already rounded, and to
nearest: when ``fl(p / (1 - p))`` lies below the exact odds the bound can fall below
``ln(p / (1 - p))``. At ``prob = 0.6`` (the float ``0.59999999999999997779...``): the real
function's exact law has ratio ``p / (1 - p)``, whose logarithm exceeds ``map(1) =
0.4054651081081643``. OpenDP rounds the quotient outward before taking the logarithm; this
variant does not.
Hole classes: 4 (a map computed in floats where exact is modelled).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from _exact import coin_options, enumerate_law, max_ratio, mp  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.core import Map  # noqa: E402
from mechanisms.make_randomized_response import rr_privacy_map  # noqa: E402
from mechanisms.make_randomized_response_bool import (build_randomized_response_bool,  # noqa: E402
                                                      make_randomized_response_bool)
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response_bool import randomized_response_bool_obligations  # noqa: E402

CONSTRUCTOR = "make_randomized_response_bool"
CLASSES = (4,)


def build(prob):
    return replace(build_randomized_response_bool(prob),
                   privacy_map=Map(rule=rr_privacy_map,
                                   params={"epsilon": ops.ln_up(prob / (1 - prob))}))


make_rr_bool_fodds = make_randomized_response_bool.variant(
    "make_randomized_response_bool_float_odds_map", build)
MECHANISMS = [Entry("outsider_rr_bool_float_odds_map", make_rr_bool_fodds,
                    randomized_response_bool_obligations(make_rr_bool_fodds,
                                                         "outsider_rr_bool_float_odds_map"))]


def witness() -> str:
    lines = []
    for prob in (0.6, 0.5 + 2.0 ** -52):
        m = make_rr_bool_fodds(prob)
        a = enumerate_law(lambda rng: m.function(True, rng), coin_options(prob))
        b = enumerate_law(lambda rng: m.function(False, rng), coin_options(prob))
        ratio = max_ratio(a, b)
        loss = mpmath.log(mp(ratio))
        assert loss > mp(m.map(1)), (prob, loss, m.map(1))
        lines.append(f"prob {prob!r}: exact loss ln({ratio}) = {mpmath.nstr(loss, 25)} "
                     f"> map(1) = {m.map(1)!r} = {mpmath.nstr(mp(m.map(1)), 25)}")
    return "; ".join(lines)
