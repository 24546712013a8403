"""Basic composition whose agreement preconditions were inverted (``!=`` for ``==``): "every
component differs from component 0".

Wrong: component 0 never differs from itself, so no list of measurements meets the preconditions:
the constructor refuses everything, and every property proved "for all admitted parameters" is
vacuous.
Hole classes: 13 (a vacuous precondition no parameter can meet).
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mechanisms import ops  # noqa: E402
from mechanisms.core import Constructor, Precondition  # noqa: E402
from mechanisms.errors import CombinatorError  # noqa: E402
from mechanisms.make_basic_composition import (_mismatch, build_basic_composition,  # noqa: E402
                                               validate_composition)
from mechanisms.make_discrete_laplace import make_discrete_laplace  # noqa: E402
from mechanisms.make_gaussian import make_gaussian  # noqa: E402
from obligations.base import Entry  # noqa: E402

CONSTRUCTOR = "make_basic_composition"
CLASSES = (13,)


def _differ_on(attribute):
    def holds(measurements):
        return ops.all_of(*[getattr(m, attribute) != getattr(measurements[0], attribute)
                            for m in measurements])
    return holds


PRECONDITIONS = tuple(
    Precondition(f"every measurement has the same {attribute}", _differ_on(attribute),
                 _mismatch(attribute))
    for attribute in ("input_domain", "input_metric", "output_measure"))
make_comp_never = Constructor("make_basic_composition_inverted", build_basic_composition,
                              PRECONDITIONS, validate_composition)
MECHANISMS = [Entry("outsider_comp_inverted_checks", make_comp_never)]


def witness() -> str:
    laplace, gauss = make_discrete_laplace(1.0), make_gaussian(1.0)
    lists = [[laplace], [laplace, laplace], [gauss, gauss], [laplace, make_discrete_laplace(2.0)]]
    refused = 0
    for measurements in lists:
        try:
            make_comp_never(measurements)
        except (CombinatorError, TypeError):
            refused += 1
    assert refused == len(lists)
    return f"all {refused} well-formed compositions refused: the preconditions are unsatisfiable"
