"""Goal: a measurement draws its noise exactly, from integer draws only.

The exact samplers of :mod:`mechanisms.samplers` use ``rng.randrange`` (uniform integers) and
exact rationals, so the distribution their proofs state is the one the code draws. A float draw
(``rng.random()``, ``uniform``, ``gauss``, ``expovariate``, numpy's ``laplace`` or ``normal``...)
computes real-valued noise in floating point: the output is a float whose set of reachable values
and whose probabilities depend on the input's rounding, and the textbook proofs, which assume
real-valued noise, do not apply to it (Mironov 2012: the low bits of a float Laplace sample leak
the input). The check reads every name the code of the measurement's function can load, wherever that code
lives (:func:`obligations.reach.loads`); installed libraries are not entered, so their draws are
recognised by name at the call site. Any float draw makes the goal ``unknown`` ("float
sampler"), never proved; so does code too large to scan.
"""

from __future__ import annotations

import types
from typing import Any, Callable

from obligations.base import ComputedGoal, Decision
from obligations.reach import ScanLimitError, loads

FLOAT_DRAWS = frozenset({
    "random", "uniform", "gauss", "normalvariate", "expovariate", "lognormvariate",
    "vonmisesvariate", "gammavariate", "betavariate", "paretovariate", "weibullvariate",
    "triangular", "laplace", "normal", "exponential", "standard_normal", "standard_exponential",
    "logistic", "gumbel", "rvs", "random_sample", "rand", "randn", "standard_cauchy",
    "standard_gamma", "standard_t", "beta", "gamma", "chisquare", "lognormal", "rayleigh",
    "wald", "vonmises", "weibull", "pareto", "noncentral_chisquare", "noncentral_f", "ranf"})
"""Names of float-valued random draws (``random``, ``numpy.random``, ``scipy.stats``'s ``rvs``)."""


def _is_draw(name: str, value: Any) -> bool:
    """A load of ``name`` is a float draw: a draw's name on an object the scan cannot resolve
    (``rng.gauss``), or resolved to a random-number module's function (``random.gauss``,
    ``np.random.laplace``), not to another library's (``math.gamma``) nor to a module."""
    if name not in FLOAT_DRAWS or isinstance(value, types.ModuleType):
        return False
    if value is None:
        return True
    owner = getattr(value, "__self__", None)
    module = getattr(value, "__module__", None) or type(owner).__module__ or ""
    return "random" in module or module.startswith("scipy.stats")


def float_draws(obj: Any) -> list[str]:
    """``where: call()`` for each float draw in the code ``obj`` can run (module docstring)."""
    return sorted({f"{load.function}: {load.name}()" for load in loads(obj)
                   if _is_draw(load.name, load.value)})


def exact_noise_goal(build: Callable[[], Any]) -> ComputedGoal:
    """The measurement ``build()`` returns draws no float noise (``unknown`` if it does)."""
    def decide() -> Decision:
        try:
            draws = float_draws(build().function)
        except ScanLimitError as too_large:
            return Decision(False, {"scan": str(too_large)}, "float sampler?: the code the "
                            f"function can run could not be scanned whole ({too_large})",
                            unsupported=True)
        if draws:
            return Decision(False, {"float draws": "; ".join(draws)},
                            "float sampler: the function draws real-valued noise in floating "
                            f"point ({'; '.join(draws)}); the proof assumes exact noise",
                            unsupported=True)
        return Decision(True, detail="integer draws only (the exact samplers)")
    return ComputedGoal("the noise is drawn exactly: integer draws only, no float sampler",
                        "structure", decide)
