"""Black-box privacy audit of a mechanism written anywhere: ``dpcert audit TARGET --epsilon EPS``.

TARGET is ``path/to/file.py:callable`` or ``package.module:callable``: a callable taking one
dataset (a number, a list, a string) and returning one output (a category, a number or a tuple).
If it has a ``batch(dataset, n)`` attribute returning ``n`` outputs, that is used instead.
"""

from __future__ import annotations

import importlib
import json
import random
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from checker.empirical.pairs import default_pairs
from checker.empirical.privacy import Pair, PrivacyAudit, PrivacyTester
from checker.loading import LoadError, import_file


def load_target(spec: str) -> Callable[[Any], Any]:
    """``file.py:name`` or ``package.module:name`` to the callable it names."""
    location, _, name = spec.rpartition(":")
    if not location or not name:
        raise LoadError(f"target {spec!r} must be path/to/file.py:callable or package.module:callable")
    if location.endswith(".py"):
        module = import_file(location)
    else:
        try:
            module = importlib.import_module(location)
        except Exception as error:
            raise LoadError(f"{location} failed to import: {type(error).__name__}: {error}") from None
    target = getattr(module, name, None)
    if not callable(target):
        raise LoadError(f"{location} has no callable named {name!r}")
    return target


def sampler_of(target: Callable[[Any], Any]) -> Callable[[Any, int, np.random.Generator], Any]:
    """Draw ``n`` outputs: through ``target.batch`` when offered. Python's and NumPy's global
    generators are seeded from ``rng`` first, so targets that use them are reproducible."""
    batch = getattr(target, "batch", None)

    def sample(dataset: Any, n: int, rng: np.random.Generator) -> Any:
        state = int(rng.integers(2 ** 32))
        random.seed(state)
        np.random.seed(state)
        if callable(batch):
            outputs = batch(dataset, n)
            if len(outputs) != n:
                raise ValueError(f"{target!r}.batch returned {len(outputs)} outputs, not {n}")
            return outputs
        return [target(dataset) for _ in range(n)]

    return sample


def read_pairs(path: str) -> list[tuple[Any, Any]]:
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as error:
        raise LoadError(f"{path}: {error}") from None
    if not isinstance(data, list) or not all(isinstance(p, list) and len(p) == 2 for p in data):
        raise LoadError(f"{path} must hold a JSON list of [x, x'] pairs")
    if not data:
        raise LoadError(f"{path} holds no pairs: give at least one [x, x'] pair, or leave --pairs "
                        "out to audit the default pairs")
    return [(a, b) for a, b in data]


def audit(target: Callable[[Any], Any], epsilon: float,
          pairs: Sequence[tuple[Any, Any]] | None = None, samples: int = 50_000,
          alpha: float = 1e-3, seed: int = 0) -> PrivacyAudit:
    """Test the claim that ``target`` is ``epsilon``-DP on neighbouring ``pairs`` (default: see
    :func:`checker.empirical.pairs.default_pairs`). A violation is certain up to ``alpha``."""
    if not epsilon >= 0:
        raise ValueError(f"epsilon must be a number >= 0, got {epsilon!r}")
    random.seed(seed)
    np.random.seed(seed)
    chosen = list(pairs) if pairs is not None else default_pairs(target, seed)
    if not chosen:
        raise ValueError("no pairs to audit: an audit over no pairs would find nothing and prove "
                         "nothing; pass at least one (x, x') pair")
    tester = PrivacyTester(sampler_of(target), samples=samples, alpha=alpha, seed=seed)
    return tester.audit([Pair(x, x_prime, float(epsilon)) for x, x_prime in chosen])
