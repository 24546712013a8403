"""Count-by extended to float keys with NaN ("group missing values under NaN, like pandas'
``dropna=False``"): the carrier check admits ``float`` and the key domain is
``AtomDomain(float, nan=True)``; the function is the catalogue's ``CountBy`` (a dict).

Wrong: the symmetric distance treats every NaN as the same multiset element, but a dict looks
keys up by identity then ``==``, and ``nan != nan``: two NaN objects are two keys. With
``x, y, z`` three ``float("nan")`` objects, ``[x]`` and ``[y]`` are at distance 0 and their
histograms ``{x: 1}`` and ``{y: 1}`` are at ``(2, 2, 1)`` (each key absent from the other
map), not within ``map(0) = (0, 0, 0)``; ``[x, y]`` and ``[z]``, at distance 1, give
``(3, 3, 1)``: ``l0 = l1 = 3 > 1``. A Laplace per key calibrated to ``l1 = 1`` is then wrong.
Hole classes: none listed (a domain that does not fit the kernel: NaN).
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms.domains import AtomDomain, MapDomain, VectorDomain  # noqa: E402
from mechanisms.errors import CarrierError  # noqa: E402
from mechanisms.make_count_by import COUNT_BY_CARRIERS, build_count_by, make_count_by  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_count_by import count_by_obligations  # noqa: E402

CONSTRUCTOR = "make_count_by"
CLASSES = ()

CARRIERS = COUNT_BY_CARRIERS + (float,)


def validate(carrier):
    if carrier not in CARRIERS:
        raise CarrierError(carrier, CARRIERS)


def build(carrier):
    t = build_count_by(carrier)
    key = AtomDomain(float, nan=True) if carrier is float else AtomDomain(carrier)
    return replace(t, input_domain=VectorDomain(key),
                   output_domain=MapDomain(key, AtomDomain(int)))


make_count_by_nan = make_count_by.variant("make_count_by_nan_keys", build)
make_count_by_nan.validate = validate
MECHANISMS = [Entry("outsider_count_by_nan_keys", make_count_by_nan,
                    count_by_obligations(make_count_by_nan, "outsider_count_by_nan_keys"))]


def witness() -> str:
    t = make_count_by_nan(float)
    x, y, z = float("nan"), float("nan"), float("nan")
    v, w = [x, y], [z]
    assert t.input_domain.member(v) and t.input_domain.member(w)
    assert t.input_metric.distance(v, w) == 1
    observed, claimed = t.output_metric.distance(t(v), t(w)), t.map(1)
    assert not t.output_metric.within(observed, claimed), (observed, claimed)
    zero = t.output_metric.distance(t([x]), t([y]))
    assert t.input_metric.distance([x], [y]) == 0 and not t.output_metric.within(zero, t.map(0))
    return (f"[nan, nan] vs [nan] (distinct NaN objects, d_in 1): {observed} not within "
            f"map(1) = {claimed}; [nan] vs [nan'] (d_in 0): {zero} not within {t.map(0)}")
