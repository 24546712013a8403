"""The exact law of code that draws by comparing uniform integers with thresholds (the exact
Bernoulli samplers): a generator that forks at each comparison, both outcomes taken with their
probabilities, so every path's weight is an exact rational; the mass of paths cut off at a depth
is kept apart, and a law with any cut-off mass is not whole (:func:`enumerate_law_parts`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable


class Truncated(BaseException):
    """A path reached the enumeration's depth: its weight is counted as truncated mass."""


class DrawLimit(Truncated):
    """A path made more draws than the enumeration's ``max_draws``: cut off by the enumeration,
    not by the computation it enumerates (see :func:`enumerate_law_parts`)."""


class OutsideEnumeration(BaseException):
    """The code used a draw otherwise than by comparing it with an integer (or drew otherwise
    than by ``randrange(n)``): its law is not computed here."""


class NotEnumerable(Exception):
    """Too many paths, or the code draws outside the method."""


@dataclass
class _Path:
    """One run of the code: the comparisons' outcomes, forced by ``prefix`` then free."""

    prefix: list[bool]
    choices: list[bool] = field(default_factory=list)
    alternatives: list[int] = field(default_factory=list)
    weight: Fraction = Fraction(1)

    def decide(self, p_true: Fraction) -> bool:
        i = len(self.choices)
        if i < len(self.prefix):
            choice = self.prefix[i]
        else:
            choice = p_true > 0
            if choice and p_true < 1:
                self.alternatives.append(i)
        self.choices.append(choice)
        self.weight *= p_true if choice else 1 - p_true
        return choice


class _Draw:
    """A uniform integer in ``[lo, hi)`` that is only compared: each comparison with a number
    forks the path, with the exact conditional probability of each side."""

    __hash__ = None  # type: ignore[assignment]

    def __init__(self, path: _Path, n: int) -> None:
        self._path, self._lo, self._hi = path, 0, n

    def _below(self, a: Any) -> bool:
        if type(a) not in (int, Fraction):
            raise OutsideEnumeration(f"a draw compared with {a!r}")
        cut = min(max(math.ceil(a), self._lo), self._hi)
        if self._path.decide(Fraction(cut - self._lo, self._hi - self._lo)):
            self._hi = cut
            return True
        self._lo = cut
        return False

    def __lt__(self, a: Any) -> bool:
        return self._below(a)

    def __ge__(self, a: Any) -> bool:
        return not self._below(a)

    def __le__(self, a: Any) -> bool:
        return self._below(math.floor(a) + 1)

    def __gt__(self, a: Any) -> bool:
        return not self._below(math.floor(a) + 1)

    def _outside(self, *_: Any) -> Any:
        raise OutsideEnumeration("a draw used otherwise than in a comparison")

    __eq__ = __ne__ = __bool__ = __int__ = __index__ = __float__ = _outside  # type: ignore
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _outside  # type: ignore
    __floordiv__ = __mod__ = __truediv__ = _outside  # type: ignore


class ForkingRng:
    """A random source whose ``randrange(n)`` returns a :class:`_Draw`; at most ``max_draws``
    draws per path (then :class:`Truncated`). ``runs`` counts the scripted measurement's runs."""

    def __init__(self, path: _Path, max_draws: int) -> None:
        self.path, self.max_draws, self.draws, self.runs = path, max_draws, 0, 0

    def randrange(self, start: Any, stop: Any = None, step: int = 1) -> _Draw:
        if stop is not None or step != 1 or type(start) is not int or start <= 0:
            raise OutsideEnumeration(f"randrange({start!r}, {stop!r}, {step!r})")
        self.draws += 1
        if self.draws > self.max_draws:
            raise DrawLimit
        return _Draw(self.path, start)

    def __getattr__(self, name: str) -> Any:
        raise OutsideEnumeration(f"the code draws with rng.{name}")


def enumerate_law(run: Callable[[ForkingRng], Any], max_draws: int = 10 ** 6,
                  max_paths: int = 20000) -> tuple[dict[Any, Fraction], Fraction]:
    """The exact law of ``run(rng)`` over its complete paths, and the truncated mass."""
    law, ended, cut = enumerate_law_parts(run, max_draws, max_paths)
    return law, ended + cut


def enumerate_law_parts(run: Callable[[ForkingRng], Any], max_draws: int = 10 ** 6,
                        max_paths: int = 20000
                        ) -> tuple[dict[Any, Fraction], Fraction, Fraction]:
    """:func:`enumerate_law` with its truncated mass in two parts: the paths the computation
    itself truncates (a scripted run past its last score: the stated law truncates them alike)
    and the paths the enumeration cut off after ``max_draws`` draws (:class:`DrawLimit`). Only
    when the second is 0 is the law computed whole; otherwise its complete paths say nothing
    definite about where the cut-off mass goes."""
    stack: list[list[bool]] = [[]]
    law: dict[Any, Fraction] = {}
    truncated, cut = Fraction(0), Fraction(0)
    count = 0
    while stack:
        count += 1
        if count > max_paths:
            raise NotEnumerable(f"more than {max_paths} paths")
        path = _Path(stack.pop())
        try:
            output = run(ForkingRng(path, max_draws))
            law[output] = law.get(output, Fraction(0)) + path.weight
        except DrawLimit:
            cut += path.weight
        except Truncated:
            truncated += path.weight
        except OutsideEnumeration as outside:
            raise NotEnumerable(str(outside)) from None
        stack += [path.choices[:i] + [False] for i in reversed(path.alternatives)]
    return law, truncated, cut
