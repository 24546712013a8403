"""Randomized response lying by rotation: a lie is ``(index + 1 + sample) mod t`` for
``sample`` uniform in ``[0, t - 1)`` (instead of skipping the true index); a non-member still
gets ``sample`` uniform in ``[0, t)``.

Correct: ``sample -> (index + 1 + sample) mod t`` is a bijection from ``[0, t-1)`` onto the
categories other than ``index``, so the lie is uniform over the other ``t - 1`` categories: the same
law. Checked exactly by enumerating the real ``__call__``'s draws against the catalogue's.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _exact import coin_options, enumerate_law  # noqa: E402
from mechanisms import ops  # noqa: E402
from mechanisms.make_randomized_response import (NOT_A_CATEGORY, RandomizedResponse,  # noqa: E402
                                                 build_randomized_response,
                                                 make_randomized_response)
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response import randomized_response_obligations  # noqa: E402

CONSTRUCTOR = "make_randomized_response"
CLASSES = (7,)


@dataclass(frozen=True)
class RotatingResponse(RandomizedResponse):
    def respond(self, arg, sample, honest):
        index = self.index_of(arg)
        t = len(self.categories)
        lie = sample if index == NOT_A_CATEGORY else (index + 1 + sample) % t
        return self.categories[self.response_index(index, lie, honest)]


def build(categories, prob):
    m = build_randomized_response(categories, prob)
    return replace(m, function=RotatingResponse(m.function.categories, prob))


make_rr_rot = make_randomized_response.variant("make_randomized_response_rotation", build)
MECHANISMS = [Entry("outsider_right_rr_rotation_lie", make_rr_rot,
                    randomized_response_obligations(make_rr_rot, "outsider_right_rr_rotation_lie"))]


def check() -> str:
    n = 0
    for categories in (["a", "b"], [0, 1, 2], [10, 20, 30, 40, 50]):
        for prob in (0.5, 0.8, 0.95):
            if prob * len(categories) < 1:
                continue
            ours, theirs = make_rr_rot(categories, prob), make_randomized_response(categories, prob)
            for arg in list(categories) + ["zz" if isinstance(categories[0], str) else -7]:
                a = enumerate_law(lambda rng: ours.function(arg, rng), coin_options(prob))
                b = enumerate_law(lambda rng: theirs.function(arg, rng), coin_options(prob))
                assert a == b, (categories, prob, arg)
                n += 1
    return f"exact output laws equal to the catalogue's on {n} cases"
