"""The float-sampler scan follows the code a function can run, wherever it lives."""

from __future__ import annotations

import functools
import importlib.util
import math
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from obligations.noise import float_draws


def _module(tmp_path: Path, name: str, source: str):
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


HELPER = """
import random

def jitter(scale, rng):
    return rng.gauss(0.0, scale)

def clean(x):
    return x + 1
"""


def test_a_float_draw_in_a_module_with_any_name_is_found(tmp_path):
    helpers = _module(tmp_path, "zz_neutral_name_helpers", HELPER)

    @dataclass(frozen=True)
    class Noisy:
        scale: float

        def __call__(self, x, rng=None):
            return x + helpers.jitter(self.scale, rng)

    assert float_draws(Noisy(1.0)) == ["jitter: gauss()"]


def test_a_clean_helper_module_is_not_flagged(tmp_path):
    helpers = _module(tmp_path, "zz_clean_helpers", HELPER)

    def function(x, rng=None):
        return helpers.clean(x) + rng.randrange(3)

    assert float_draws(function) == []


def test_draws_through_closures_partials_and_attributes_are_found():
    def draw(rng):
        return rng.random()

    def outer():
        return lambda x, rng: x + draw(rng)

    def draws(obj):
        return [found.rsplit(".", 1)[-1] for found in float_draws(obj)]

    assert draws(outer()) == ["draw: random()"]
    assert draws(functools.partial(lambda f, x: f(x), draw)) == ["draw: random()"]

    class Holder:
        def __init__(self):
            self.sampler = draw

        def __call__(self, x, rng):
            return x + self.sampler(rng)

    assert draws(Holder()) == ["draw: random()"]


def test_module_chains_resolve_so_numpy_random_is_not_a_draw_but_laplace_is():
    def laplace_noise(x):
        return x + np.random.laplace(0.0, 1.0)

    def integer_noise(x):
        return x + int(np.random.default_rng(0).integers(0, 3))

    def gauss_imported(x):
        return x + random.gauss(0.0, 1.0)

    assert float_draws(laplace_noise) == ["test_module_chains_resolve_so_numpy_random_is_not_a_draw_"
                                          "but_laplace_is.<locals>.laplace_noise: laplace()"]
    assert float_draws(integer_noise) == []
    assert len(float_draws(gauss_imported)) == 1


def test_another_library_function_of_a_draw_name_is_not_a_draw():
    def uses_math(x):
        return math.gamma(x)

    assert float_draws(uses_math) == []
