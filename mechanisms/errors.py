"""Typed errors. Each one carries the values that explain it, as attributes and in its message."""

from __future__ import annotations

from typing import Any, Mapping, Sequence


class DPCertError(Exception):
    """Base of every error raised by dpcert."""


class ConstructorError(DPCertError, ValueError):
    """A constructor refused its arguments: a precondition of its proof does not hold."""

    def __init__(self, message: str, **values: Any) -> None:
        self.values = values
        for name, value in values.items():
            setattr(self, name, value)
        super().__init__(message)


class ParameterSortError(ConstructorError, TypeError):
    """The arguments match none of the signatures their constructor declares
    (``Constructor(sorts=...)``)."""

    def __init__(self, constructor: str, arguments: Mapping[str, Any],
                 signatures: Sequence[Mapping[str, type]]) -> None:
        declared = " or ".join("(" + ", ".join(sort_text(name, sort) for name, sort in s.items())
                               + ")" for s in signatures)
        got = ", ".join(f"{name}={arguments[name]!r} ({type(arguments[name]).__name__})"
                        for name in signatures[0])
        super().__init__(f"{constructor} takes {declared}; got {got}",
                         arguments=dict(arguments), signatures=tuple(signatures))


def sort_text(name: str, sort: Any) -> str:
    """``name: int`` for a type, ``name=float`` for one value (``core.Exactly``), ``name: (int,
    int)`` for a sequence (``core.TupleOf``)."""
    return f"{name}: {sort.__name__}" if isinstance(sort, type) else f"{name}{sort}"


class BoundsOrderError(ConstructorError):
    """``lower > upper``: the interval [lower, upper] is empty."""

    def __init__(self, lower: Any, upper: Any) -> None:
        super().__init__(f"lower bound {lower!r} is greater than upper bound {upper!r}; "
                         "pass lower <= upper", lower=lower, upper=upper)


class NaNBoundError(ConstructorError):
    """A bound is NaN, so no value can be compared with it."""

    def __init__(self, name: str, value: Any) -> None:
        super().__init__(f"{name} is {value!r}; bounds must be comparable numbers, not NaN",
                         name=name, value=value)


class BoundTypeError(ConstructorError):
    """The bounds are not numbers of one supported type."""

    def __init__(self, lower: Any, upper: Any) -> None:
        super().__init__(f"bounds {lower!r} and {upper!r} must both be int or both be float",
                         lower=lower, upper=upper)


class SizeError(ConstructorError):
    """A dataset size ``n`` that is not a positive integer."""

    def __init__(self, n: Any) -> None:
        super().__init__(f"n = {n!r}; the dataset size must be an integer >= 1", n=n)


class OverflowRiskError(ConstructorError):
    """``bound * n`` is not a finite float, so the sum of ``n`` values in the bounds may overflow."""

    def __init__(self, bound: Any, n: Any) -> None:
        super().__init__(f"{bound!r} * {n!r} overflows; the sum of n values in [lower, upper] "
                         "could overflow: narrow the bounds or reduce n", bound=bound, n=n)


class CategoryError(ConstructorError):
    """The category set has fewer than two members or repeats a member."""

    def __init__(self, message: str, categories: Any) -> None:
        super().__init__(message, categories=categories)


class ProbabilityError(ConstructorError):
    """``prob`` lies outside ``[1/t, 1)`` for ``t`` categories."""

    def __init__(self, prob: Any, num_categories: Any) -> None:
        super().__init__(f"prob = {prob!r} is outside [1/{num_categories}, 1); "
                         f"with {num_categories} categories pass 1/{num_categories} <= prob < 1",
                         prob=prob, num_categories=num_categories)


class BoolProbabilityError(ProbabilityError):
    """``prob`` of boolean randomized response is not a finite float in ``[1/2, 1)``."""

    def __init__(self, prob: Any) -> None:
        ConstructorError.__init__(
            self, f"prob = {prob!r}; boolean randomized response needs a float with "
            "1/2 <= prob < 1 (the truth at least as likely as the flip; prob = 1 would release "
            "the bit itself)", prob=prob, num_categories=2)


class CombinatorError(ConstructorError):
    """A combinator was given components it cannot combine."""

    def __init__(self, message: str, **values: Any) -> None:
        super().__init__(message, **values)


class DomainError(DPCertError, ValueError):
    """A value handed to a transformation or measurement is not in its input domain."""

    def __init__(self, value: Any, domain: Any) -> None:
        self.value, self.domain = value, domain
        super().__init__(f"{value!r} is not a member of the input domain {domain}")


class CarrierError(ConstructorError):
    """The element type ``carrier`` is not one the constructor supports."""

    def __init__(self, carrier: Any, supported: tuple[type, ...]) -> None:
        names = ", ".join(t.__name__ for t in supported)
        super().__init__(f"carrier {carrier!r} is not supported; pass one of {names}",
                         carrier=carrier, supported=supported)


class ConstantTypeError(ConstructorError):
    """An imputation ``constant`` that is not a ``float``."""

    def __init__(self, constant: Any) -> None:
        super().__init__(f"constant {constant!r} is a {type(constant).__name__}; "
                         "pass a float", constant=constant)


class NaNConstantError(ConstructorError):
    """An imputation ``constant`` that is NaN, so NaN would remain in the output."""

    def __init__(self, constant: Any) -> None:
        super().__init__(f"constant is {constant!r}; NaN may not replace NaN: pass a non-NaN "
                         "float (+-inf allowed)", constant=constant)


class ScaleError(ConstructorError):
    """A noise ``scale`` that is not a finite, non-negative float."""

    def __init__(self, scale: Any) -> None:
        super().__init__(f"scale = {scale!r}; the noise scale must be a finite float >= 0",
                         scale=scale)


class SelectionScaleError(ConstructorError):
    """The noise ``scale`` of a selection mechanism (noisy max, above-threshold) is not a positive
    finite number of the accepted type."""

    def __init__(self, scale: Any, expected: str = "a positive finite float or int") -> None:
        super().__init__(f"scale = {scale!r}; pass {expected}", scale=scale, expected=expected)


class OptimizeError(ConstructorError):
    """``optimize`` is neither ``"max"`` nor ``"min"``."""

    def __init__(self, optimize: Any) -> None:
        super().__init__(f'optimize = {optimize!r}; pass "max" or "min"', optimize=optimize)


class ThresholdError(ConstructorError):
    """The threshold of above-threshold is not an ``int`` (the queries are integers)."""

    def __init__(self, threshold: Any) -> None:
        super().__init__(f"threshold = {threshold!r}; pass an int", threshold=threshold)


class IntBoundTypeError(BoundTypeError):
    """An integer-only constructor got bounds that are not both ``int`` (``bool`` is refused)."""

    def __init__(self, lower: Any, upper: Any) -> None:
        ConstructorError.__init__(self, f"bounds {lower!r} and {upper!r} must both be int "
                                  "(not bool, not float)", lower=lower, upper=upper)


class DatasetSizeError(ConstructorError):
    """A known dataset size that is not an ``int`` >= 0."""

    def __init__(self, size: Any) -> None:
        super().__init__(f"size = {size!r}; the known dataset size must be an int >= 0",
                         size=size)


class RowDomainError(ConstructorError):
    """The row domain of a vector constructor is not an ``AtomDomain`` of a supported carrier."""

    def __init__(self, domain: Any, supported: tuple[type, ...]) -> None:
        names = ", ".join(t.__name__ for t in supported)
        super().__init__(f"row domain {domain!r} is not an AtomDomain of {names}",
                         domain=domain, supported=supported)


class ConstantDomainError(ConstructorError):
    """A padding ``constant`` that is not a member of the row domain."""

    def __init__(self, constant: Any, domain: Any) -> None:
        super().__init__(f"constant {constant!r} is not a member of the row domain {domain}; "
                         "pass a value the domain admits", constant=constant, domain=domain)


class SummationError(ConstructorError):
    """A summation order other than ``"sequential"`` or ``"pairwise"``."""

    def __init__(self, summation: Any) -> None:
        super().__init__(f"summation = {summation!r}; pass \"sequential\" or \"pairwise\"",
                         summation=summation)


class SizeLimitError(ConstructorError):
    """A dataset size above ``limit``, where the rounding-error proof (and OpenDP's exact cast of
    the size to a float) stops."""

    def __init__(self, size: Any, limit: Any) -> None:
        super().__init__(f"size = {size!r} exceeds {limit!r}; the float sum's error bound is "
                         f"proved only for sizes up to {limit!r}", size=size, limit=limit)


class GranularityError(ConstructorError):
    """A grid exponent ``k`` that is not an ``int`` >= -1074 (the floats' finest spacing is
    ``2^-1074``)."""

    def __init__(self, k: Any) -> None:
        super().__init__(f"k = {k!r}; the grid 2^k needs an int k >= -1074", k=k)


class DeltaError(ConstructorError):
    """``delta`` is not a float (or int) in ``(0, 1)``."""

    def __init__(self, delta: Any) -> None:
        super().__init__(f"delta = {delta!r} is outside (0, 1); pass 0 < delta < 1", delta=delta)


class ValueTypeError(ConstructorError):
    """A comparison ``value`` (``make_is_equal``) whose type is not one of the supported atom
    types."""

    def __init__(self, value: Any, supported: tuple[type, ...]) -> None:
        names = ", ".join(t.__name__ for t in supported)
        super().__init__(f"value {value!r} is a {type(value).__name__}; pass one of {names}",
                         value=value, supported=supported)


class NaNValueError(ConstructorError):
    """A comparison ``value`` (``make_is_equal``) that is NaN: NaN equals no row, NaN rows
    included (IEEE-754), so every output would be ``False``."""

    def __init__(self, value: Any) -> None:
        super().__init__(f"value is {value!r}; NaN == x is False for every x (NaN included), "
                         "so no row would ever match: pass a non-NaN value (+-inf allowed)",
                         value=value)


class TopKError(ConstructorError):
    """The number ``k`` of indices a top-k selection releases is not an ``int >= 1`` (``bool``
    refused)."""

    def __init__(self, k: Any) -> None:
        super().__init__(f"k = {k!r}; pass an int k >= 1 (the number of indices to release)", k=k)


class SelectionMeasureError(ConstructorError):
    """The output ``measure`` of a selection mechanism is not one it supports."""

    def __init__(self, measure: Any, supported: tuple[str, ...]) -> None:
        super().__init__(f"measure = {measure!r}; pass one of {', '.join(supported)}",
                         measure=measure, supported=supported)


class TooFewCandidatesError(DPCertError, ValueError):
    """Top-k was run on fewer than ``k`` scores: there are not ``k`` distinct indices to release.
    The catalogue's ``make_noisy_top_k`` never raises it (its input domain holds no vector of
    fewer than ``k`` scores); a top-k function that checks the length itself may."""

    def __init__(self, scores: Any, k: Any) -> None:
        self.scores, self.k = scores, k
        super().__init__(f"scores = {scores!r} has {len(scores)} candidates; top-k with k = {k!r} "
                         "needs at least k")


class BitFlipProbabilityError(ConstructorError):
    """``f`` of bit-vector randomized response is not a float in ``(0, 1]``."""

    def __init__(self, f: Any) -> None:
        super().__init__(f"f = {f!r}; bit-vector randomized response needs a float with "
                         "0 < f <= 1 (each bit is replaced by a fair coin with probability f, "
                         "so it flips with probability f/2; f = 0 would release the bits)", f=f)


class BitVectorShapeError(ConstructorError):
    """The ``size`` or the maximum weight ``m`` of a bit-vector domain is not an ``int >= 1``
    (``bool`` refused)."""

    def __init__(self, name: str, value: Any) -> None:
        super().__init__(f"{name} = {value!r}; pass an int {name} >= 1", name=name, value=value)


class CandidateMeasurementError(ConstructorError):
    """The ``measurement`` given to a private selection is not a pure-DP (``MaxDivergence``)
    ``Measurement`` whose releases are ``(score, candidate)`` pairs with an int or non-NaN float
    score; ``reason`` says which."""

    def __init__(self, measurement: Any, reason: str) -> None:
        super().__init__(f"measurement {measurement!r:.200}: {reason}; pass a MaxDivergence "
                         "Measurement whose output domain is ProductDomain((AtomDomain(int or "
                         "float), <candidate domain>))", measurement=measurement, reason=reason)


class StopProbabilityError(ConstructorError):
    """The stopping probability of a private selection is not a float with
    ``0 < stop_probability < 1`` (0 would never stop; 1 is a single run)."""

    def __init__(self, stop_probability: Any) -> None:
        super().__init__(f"stop_probability = {stop_probability!r}; pass a float with "
                         "0 < stop_probability < 1", stop_probability=stop_probability)


class CandidateThresholdError(ConstructorError):
    """The threshold of a private selection is neither ``None`` nor a finite int or float
    (``bool`` refused)."""

    def __init__(self, threshold: Any) -> None:
        super().__init__(f"threshold = {threshold!r}; pass None (best of the runs) or a finite "
                         "int or float", threshold=threshold)


class QuantileCandidatesError(ConstructorError):
    """The candidates of a quantile score are not a non-empty list (or tuple) of ints or of
    non-NaN floats (one type, ``bool`` refused) in strictly increasing order; ``reason`` says
    which."""

    def __init__(self, candidates: Any, reason: str) -> None:
        super().__init__(f"candidates = {candidates!r:.200}: {reason}; pass a non-empty list of "
                         "ints, or of non-NaN floats, in strictly increasing order",
                         candidates=candidates, reason=reason)


class QuantileAlphaError(ConstructorError):
    """``alpha`` of a quantile score is not a float (or int) in ``[0, 1]`` (``bool`` and NaN
    refused)."""

    def __init__(self, alpha: Any) -> None:
        super().__init__(f"alpha = {alpha!r}; pass a float with 0 <= alpha <= 1 (0.5 for the "
                         "median)", alpha=alpha)


class QuantileDomainError(ConstructorError):
    """The row domain of a quantile score is not an ``AtomDomain`` of the candidates' type
    ``carrier`` without NaN."""

    def __init__(self, domain: Any, carrier: type) -> None:
        super().__init__(f"atom_domain = {domain!r}; pass an AtomDomain({carrier.__name__}) "
                         "(bounds allowed, nan=False), the candidates' type", domain=domain,
                         carrier=carrier)


class OdometerMeasureError(ConstructorError):
    """An odometer (``make_fully_adaptive_composition``) over an output measure whose fully
    adaptive composition is not supported: only ``MaxDivergence`` and
    ``ZeroConcentratedDivergence``."""

    def __init__(self, measure: Any) -> None:
        super().__init__(f"output_measure = {measure!r}; fully adaptive composition is supported "
                         "for MaxDivergence() and ZeroConcentratedDivergence() only",
                         measure=measure)


class OdometerMetricError(ConstructorError):
    """An odometer's ``input_metric`` is not defined on its ``input_domain``."""

    def __init__(self, metric: Any, domain: Any) -> None:
        super().__init__(f"input_metric {metric} is not defined on input_domain {domain}",
                         metric=metric, domain=domain)


class QueryMismatchError(DPCertError, ValueError):
    """A query sent to an odometer or a filter is refused before anything is spent or run: it is
    not a non-interactive ``Measurement``, or its ``attribute`` (input domain, input metric or
    output measure) is ``got`` where the odometer has ``expected``. Only the query decides this,
    never the data."""

    def __init__(self, attribute: str, expected: Any, got: Any) -> None:
        self.attribute, self.expected, self.got = attribute, expected, got
        super().__init__(f"query refused: its {attribute} is {got}, the odometer's is {expected}; "
                         "nothing was spent")


class BudgetExceededError(DPCertError, ValueError):
    """A privacy filter refused a query: answering it would bring the privacy spent (at the
    filter's ``d_in``, rounded up) to ``pending`` > ``budget`` (its ``d_out``). The filter's
    state is unchanged (``spent`` before and after); only the queries' maps decide this, never
    the data."""

    def __init__(self, pending: Any, budget: Any, spent: Any) -> None:
        self.pending, self.budget, self.spent = pending, budget, spent
        super().__init__(f"query refused: privacy spent would be {pending!r} > budget "
                         f"{budget!r} (spent so far {spent!r}, unchanged); ask a cheaper query")


class FilterDistanceError(DPCertError, ValueError):
    """A privacy filter's map was asked at ``distance`` > the ``d_in`` its queries are charged
    at: no guarantee is stated there."""

    def __init__(self, distance: Any, d_in: Any) -> None:
        self.distance, self.d_in = distance, d_in
        super().__init__(f"privacy filter: distance {distance!r} > d_in = {d_in!r}, the distance "
                         "its queries are charged at; build a filter with a larger d_in")


class FilterArgumentError(ConstructorError):
    """``make_privacy_filter`` refused an argument: ``odometer`` not an ``Odometer``, or ``d_in``
    / ``d_out`` not a finite number ``>= 0`` (int or float, ``bool`` and NaN refused)."""

    def __init__(self, name: str, value: Any, expected: str) -> None:
        super().__init__(f"{name} = {value!r}; pass {expected}", name=name, value=value,
                         expected=expected)


class ThresholdScaleError(ConstructorError):
    """The noise ``scale`` of a thresholded release is not a positive finite float."""

    def __init__(self, scale: Any) -> None:
        super().__init__(f"scale = {scale!r}; the noise scale of a thresholded release must be a "
                         "finite float > 0", scale=scale)


class ReleaseThresholdError(ConstructorError):
    """The ``threshold`` of a thresholded release is not an ``int >= 0``."""

    def __init__(self, threshold: Any) -> None:
        super().__init__(f"threshold = {threshold!r}; pass an int >= 0 (keys whose noisy count "
                         "is >= threshold are released)", threshold=threshold)


class ColumnsError(ConstructorError):
    """A table's ``columns`` are not a non-empty tuple of distinct strings."""

    def __init__(self, columns: Any) -> None:
        super().__init__(f"columns = {columns!r}; pass a non-empty tuple of distinct column names "
                         "(strings)", columns=columns)


class ColumnKeyError(ConstructorError):
    """The column ``key`` to select is not one of the table's ``columns``."""

    def __init__(self, key: Any, columns: Any) -> None:
        super().__init__(f"key = {key!r} is not a column of {columns!r}; pass one of them",
                         key=key, columns=columns)


class MonotonicFlagError(ConstructorError):
    """``monotonic`` (the choice of a monotonic LInf input metric) is not a ``bool``."""

    def __init__(self, monotonic: Any) -> None:
        super().__init__(f"monotonic = {monotonic!r}; pass True or False", monotonic=monotonic)


class BoundsPairError(ConstructorError):
    """``bounds`` (``make_geometric``) is not a pair ``(lower, upper)``."""

    def __init__(self, bounds: Any) -> None:
        super().__init__(f"bounds = {bounds!r}; pass a pair (lower, upper) of ints",
                         bounds=bounds)


class SensitivityError(ConstructorError):
    """The sensitivity ``d_in`` a noise mechanism is calibrated for is not a finite float
    ``> 0``."""

    def __init__(self, d_in: Any) -> None:
        super().__init__(f"d_in = {d_in!r}; pass the sensitivity as a finite float > 0",
                         d_in=d_in)


class CanonicalPrivacyError(ConstructorError):
    """The guarantee ``d_out = (epsilon, delta)`` of canonical noise is not a pair of floats with
    a finite ``epsilon > 0``, ``0 <= delta < 1`` and a non-trivial tradeoff (fixed point below
    1/2); ``reason`` says which."""

    def __init__(self, d_out: Any, reason: str) -> None:
        super().__init__(f"d_out = {d_out!r}: {reason}", d_out=d_out, reason=reason)
