"""Randomized response that tosses the honesty coin first and draws a lie only when dishonest
(a different draw structure from the catalogue, which always draws the lie first).

Correct: the output law is the same: a member is answered truthfully with ``prob`` and otherwise
with one of the ``t - 1`` other categories uniformly (``lie_index`` skips the true one); a
non-member gets a uniform category (for it the coin is irrelevant). Checked exactly: the law of the
real ``__call__``, enumerated over every draw sequence (the coin's ``randrange(den) < num`` split
into its two events), equals the catalogue's for every input, several ``t`` and ``prob``.
"""

import sys
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fractions import Fraction  # noqa: E402

from _exact import coin_options, enumerate_law  # noqa: E402
from mechanisms.make_randomized_response import (RandomizedResponse,  # noqa: E402
                                                 build_randomized_response,
                                                 make_randomized_response)
from mechanisms.samplers import sample_bernoulli_rational, system_rng  # noqa: E402
from obligations.base import Entry  # noqa: E402
from obligations.make_randomized_response import randomized_response_obligations  # noqa: E402

CONSTRUCTOR = "make_randomized_response"
CLASSES = (7,)


@dataclass(frozen=True)
class CoinFirstResponse(RandomizedResponse):
    def __call__(self, arg, rng=None):
        rng = system_rng(rng)
        index = self.index_of(arg)
        honest = sample_bernoulli_rational(Fraction(self.prob), rng)
        if honest and index != -1:
            return self.categories[index]
        sample = rng.randrange(self.draw_bound(index, len(self.categories)))
        return self.respond(arg, sample, False)


def build(categories, prob):
    m = build_randomized_response(categories, prob)
    return replace(m, function=CoinFirstResponse(m.function.categories, prob))


make_rr_coin = make_randomized_response.variant("make_randomized_response_coin_first", build)
MECHANISMS = [Entry("outsider_right_rr_coin_first", make_rr_coin,
                    randomized_response_obligations(make_rr_coin, "outsider_right_rr_coin_first"))]


def check() -> str:
    n = 0
    for categories in (["a", "b"], [0, 1, 2], [1.5, -0.0, 7.0, 9.0]):
        for prob in (0.5, 0.75, 0.9, 0.999):
            if prob * len(categories) < 1:
                continue
            ours, theirs = make_rr_coin(categories, prob), make_randomized_response(categories, prob)
            for arg in list(categories) + ["zz" if isinstance(categories[0], str) else 123]:
                a = enumerate_law(lambda rng: ours.function(arg, rng), coin_options(prob))
                b = enumerate_law(lambda rng: theirs.function(arg, rng), coin_options(prob))
                assert a == b, (categories, prob, arg, a, b)
                n += 1
    return f"exact output laws equal to the catalogue's on {n} (categories, prob, input) cases"
