"""Searching for a refutation of a standard statement: untrusted. It only chooses where the
refuting rules (:mod:`obligations.refuters`) look (arguments, inputs, a distance); a refutation is
made by a refuter alone, after computing the loss, distance or output exactly on the running
code, and is accepted only for the statement it refutes
(:meth:`obligations.kernel.certify.Certified.refuted_by`).

Where it looks: the arguments of the entry's examples (with none, hard values of the sorts the
constructor declares; with neither, the catalogue's examples of a constructor with the same
parameters, not varied but for ints given as floats), then each number among them varied and each
int given as a float; for each object, inputs made of the row domain's bounds, the numbers among
the arguments, 0, 1 and -1, then NaN, signed zeros, infinities and ints past 64 bits (strings:
empty, one letter, one holding the usual separators), each row a new object: datasets of a few
sizes (and of the sizes the arguments name, a truncation or a cap, say), one row added at the end
or at the front, one row replaced, the rows reordered, an argument's own object against an equal
one, ``0.0`` against ``-0.0``, then seeded random datasets; histograms at those counts, a key
added or its count moved by one; for a composition, lists of noise measurements whose maps a float
sum does not add exactly, one listed twice, and each alone; for a chain, every pair of a few
catalogue objects.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import time
from typing import Any, Callable, Iterator, NamedTuple, Sequence

from mechanisms.core import Transformation, provenance
from mechanisms.domains import AtomDomain, MapDomain, RecordDomain, SizedDomain
from mechanisms.make_above_threshold import make_above_threshold
from mechanisms.make_bounded_int_sum import make_bounded_int_sum
from mechanisms.make_cast_default import make_cast_default
from mechanisms.make_clamp import make_clamp
from mechanisms.make_discrete_laplace import make_discrete_laplace
from mechanisms.make_gaussian import make_gaussian
from mechanisms.make_pureDP_to_approxDP import make_pureDP_to_approxDP
from mechanisms.make_resize import make_resize
from mechanisms.make_sized_bounded_int_sum import make_sized_bounded_int_sum
from mechanisms.make_zCDP_to_approxDP import make_zCDP_to_approxDP
from mechanisms.metrics import SymmetricDistance
from obligations.kernel.additive_noise import additive_noise as additive_noise_rule
from obligations.kernel.chain import takes_pair
from obligations.kernel.composition import takes_components
from obligations.kernel.equivalence import (HARD_DOMAINS, compared_inputs, distinct_copy,
                                            same_object, same_value, scalars_of)
from obligations.kernel.every_argument import hard_values
from obligations.kernel.finite_law import finite_law as finite_law_rule
from obligations.kernel.finite_law import shape as finite_law_shape
from obligations.kernel.fold import fold as fold_rule
from obligations.kernel.row_transform import row_transform
from obligations.kernel.rules import RuleRefused
from obligations.kernel.statements import Claim, Statement
from obligations.kernel.theorems import Refutation
from obligations.refuters import (additive_noise, compatibility, finite_law, output_domain,
                                 runtime_errors, stability, unreached_event)

RANDOM_PAIRS = 100
"""Seeded random pairs of datasets tried per object after the systematic ones."""
DEPTHS = (0, 1, 2)
VALUES = 6
"""Distinct rows a search builds datasets from."""
HARD_ARGUMENTS = 24
"""Arguments of hard values tried, per declared signature, for a constructor with no example."""

Inputs = Callable[[Any, dict[str, Any], int], Iterator[tuple[Any, ...]]]
"""``(object, its arguments, depth) -> inputs to try``: ``(x,)``, or ``(x, x', d_in)``; few at
depth 0, more at 1 and 2 (every candidate argument is tried at one depth before the next)."""


def _numbers(arguments: dict[str, Any]) -> list[Any]:
    """The numbers among the arguments, and in their lists and tuples (the objects themselves)."""
    return [v for value in arguments.values()
            for v in (value if isinstance(value, (list, tuple)) else [value])
            if isinstance(v, (int, float)) and not isinstance(v, bool)]


def _values(element: Any, arguments: dict[str, Any]) -> list[Any]:
    """Rows to build datasets from: the bounds, the numbers among the arguments, 0, 1, -1, the
    numbers doubled and negated, then :data:`SPECIAL` numbers; those the row domain holds, each a
    new object (:func:`~obligations.kernel.equivalence.distinct_copy`)."""
    carrier = getattr(element, "carrier", None)
    numbers = _numbers(arguments)
    found = [*(getattr(element, "bounds", None) or ()), *numbers, 0, 1, -1,
             *(2 * v for v in numbers), *(-2 * v for v in numbers)]
    ordinary = list(dict.fromkeys(distinct_copy(carrier(v)) for v in found
                                  if _converts(carrier, v) and element.member(carrier(v))))
    special = [distinct_copy(v) for v in SPECIAL.get(carrier, ()) if element.member(v)
               and not any(_same(v, w) for w in ordinary[:VALUES])]
    return ordinary[:VALUES] + special


SPECIAL = {float: (math.nan, -0.0, math.inf, -math.inf, 5e-324, 1.7976931348623157e308),
           int: (10 ** 400, -10 ** 400, 2 ** 63, -2 ** 63 - 1, 2 ** 53 + 1)}
"""Numbers where arithmetic breaks (NaN, a signed zero, the infinities, the least subnormal, the
largest float; ints no float holds, past 64 bits, or just past 2^53): rows of a dataset besides
the ordinary ones, wherever the row domain holds them."""


def _same(v: Any, w: Any) -> bool:
    """The same number: both NaN, or equal with the same sign (``-0.0`` is not ``0.0``)."""
    if v != v or w != w:
        return v != v and w != w
    return v == w and (float not in (type(v), type(w))
                       or math.copysign(1, v) == math.copysign(1, w))


def _own_rows(element: Any, arguments: dict[str, Any]) -> list[Any]:
    """The numbers among the arguments that the row domain holds, as the very objects given."""
    carrier = getattr(element, "carrier", None)
    return [v for v in _numbers(arguments) if type(v) is carrier and element.member(v)]


STRINGS = ("", "a", "a;b,c|d e\tf")
"""Strings rows are made of: empty, one letter, and one holding the usual separators (a cell a
function may split into several values)."""


def _rows(element: Any, arguments: dict[str, Any]) -> list[Any]:
    """Rows of ``element`` to build datasets from: numbers (:func:`_values`), strings
    (:data:`STRINGS`), or records of them; none for other rows."""
    carrier = getattr(element, "carrier", None)
    if carrier in (int, float):
        return _values(element, arguments)
    if type(element) is RecordDomain:
        return [tuple([s] * len(element.columns)) for s in STRINGS]
    return [s for s in STRINGS if carrier is str and element.member(s)]


def _converts(carrier: Any, value: Any) -> bool:
    try:
        return carrier(value) == value
    except (TypeError, ValueError, OverflowError):
        return False


def _sizes(arguments: dict[str, Any]) -> list[int]:
    """The sizes the arguments name (a truncation, a cap: each one less, equal and one more),
    first, then 0, 1 and 2."""
    named = [v for v in arguments.values() if type(v) is int and 0 < v <= 1024]
    found = [n + k for n in named for k in (1, 0, -1) if n + k >= 0]
    return list(dict.fromkeys([*found, 0, 1, 2]))


def dataset_pairs(built: Any, arguments: dict[str, Any], depth: int) -> Iterator[tuple[Any, Any, Any]]:
    """``(x, x', d_in)`` for a vector input (sized or not). Depth 0: an empty dataset against one
    row, a number among the arguments (the object given) against an equal row read as another
    object, and two rows equal as numbers but not the same number (``0.0`` and ``-0.0``) at
    ``d_in = 0``;
    for a sized domain, one row replaced in datasets of its size (``d_in = 2``);
    1: one row added at the end or at the front of datasets of a few sizes and of the sizes the
    arguments name (``d_in = 1``), one row replaced (2, the pairs of a sized domain), two rows
    added (2), the rows reordered (0); 2: seeded random datasets."""
    sized = getattr(built, "input_domain", None)
    domain = sized.inner if type(sized) is SizedDomain else sized
    element = getattr(domain, "element", None)
    values = _rows(element, arguments)
    if not values:
        return
    if depth == 0:
        if type(sized) is SizedDomain and type(sized.size) is int and sized.size >= 1:
            yield from (([v] * sized.size, [w] + [v] * (sized.size - 1), 2)
                        for v in values[:FEW] for w in values[:FEW] if w != v)
        yield from (([], [v], 1) for v in values)
        for v in _own_rows(element, arguments):  # one multiset, other objects
            yield [v], [distinct_copy(v)], 0
        yield from (([v], [w], 0) for v in values for w in values if v == w and not _same(v, w))
    elif depth == 1:
        for size in _sizes(arguments):
            for v in values:
                for w in values:
                    base = [v] * size
                    if w != v and size:
                        yield [w] + base, base + [w], 0
                        yield base, [w] + base[1:], 2
                    yield base, base + [w], 1
                    yield base, [w] + base, 1
                yield [v] * size, [v] * (size + 2), 2
    else:
        rng = random.Random(0)
        for _ in range(RANDOM_PAIRS):
            base = [rng.choice(values) for _ in range(rng.randrange(8))]
            yield base, base + [rng.choice(values)], 1
            yield base, rng.sample(base, len(base)), 0


def map_pairs(built: Any, arguments: dict[str, Any], depth: int) -> Iterator[tuple[Any, Any, Any]]:
    """Two histograms (a ``MapDomain`` input) at counts among the arguments' numbers (a
    threshold, say), 0 and 1: depth 0, one key at a count against no key and against the count
    one less or one more; 1, two keys at a count against one of them one more; ``d_in`` their
    distance."""
    domain = getattr(built, "input_domain", None)
    if type(domain) is not MapDomain or depth == 2 or \
            getattr(domain.key_domain, "carrier", None) not in (int, float, str, bool):
        return
    keys = [k for k in hard_values(domain.key_domain.carrier) if domain.key_domain.member(k)][:2]
    if not keys:
        return
    counts = _values(domain.value_domain, arguments)
    pairs = [pair for c in counts for pair in (
        [({keys[0]: c}, {}), ({keys[0]: c}, {keys[0]: c - 1}), ({keys[0]: c}, {keys[0]: c + 1})]
        if depth == 0 else
        [({k: c for k in keys}, {**{k: c for k in keys}, keys[0]: c + 1})] if len(keys) == 2
        else [])]
    for x, other in pairs:
        if domain.member(x) and domain.member(other):
            yield x, other, built.input_metric.distance(x, other)
            yield other, x, built.input_metric.distance(other, x)


def atom_pairs(built: Any, arguments: dict[str, Any], depth: int) -> Iterator[tuple[Any, Any, Any]]:
    """Two distinct atoms: both booleans, an int domain's bounds, 0, 1 and the :data:`SPECIAL`
    ints, or the atoms of the input's carrier among the constructor's arguments (a list of
    categories, say); ``d_in`` the least int at least their distance."""
    domain = getattr(built, "input_domain", None)
    carrier = getattr(domain, "carrier", None)
    if carrier is None:
        return
    if carrier is bool:
        values = [False, True]
    else:
        values = [v for value in arguments.values()
                  for v in (value if isinstance(value, (list, tuple)) else [value])
                  if type(v) is carrier]
        values += list(getattr(domain, "bounds", None) or ())
        values += [v for v in (0, 1, *SPECIAL[int]) if carrier is int and domain.member(v)]
    values = list(dict.fromkeys(values))[:3 if depth == 0 else 6]
    if depth == 2:
        return
    yield from ((x, y, _least_d_in(built, x, y)) for i, x in enumerate(values)
                for j, y in enumerate(values)
                if x != y and (depth == 0 or max(i, j) >= 3))  # depth 1: the pairs not yet tried


def _least_d_in(built: Any, x: Any, y: Any) -> int:
    """The least int ``d_in`` at least the input metric's distance of ``x`` and ``y`` (two
    bounds of an int domain are ``U - L`` apart), 1 when the metric gives no finite number (the
    compatibility refuter reports that)."""
    try:
        distance = built.input_metric.distance(x, y)
        if type(distance) is int:
            return max(1, distance)
        return max(1, math.ceil(distance)) if math.isfinite(distance) else 1
    except Exception:  # noqa: BLE001 - the metric's own failure
        return 1


def vector_pairs(built: Any, arguments: dict[str, Any], depth: int) -> Iterator[tuple[Any, Any, Any]]:
    """Two vectors of ints of one length (1, 2, and 5, past the bound of the rule for vectors) under
    a metric other than the symmetric distance: every coordinate moved by one (depth 0), by two, or
    only the first (1); ``d_in`` the least int at least their distance."""
    domain, metric = getattr(built, "input_domain", None), getattr(built, "input_metric", None)
    if type(metric) is SymmetricDistance or getattr(getattr(domain, "element", None),
                                                    "carrier", None) is not int or depth == 2:
        return
    moves = [lambda n: [1] * n] if depth == 0 else [lambda n: [2] * n, lambda n: [1] + [0] * (n - 1)]
    for n in (1, 2, 5):
        for moved in moves:
            x, other = [0] * n, moved(n)
            yield x, other, math.ceil(metric.distance(x, other))


def difference_pairs(built: Any, arguments: dict[str, Any],
                     depth: int) -> Iterator[tuple[Any, Any, Any]]:
    """For a variant's object, at depth 0: the first :data:`FEW` inputs on which it computes
    otherwise than its reference at the same arguments (the inputs the rule of equality in
    value compares), each against itself with one row removed, or with one of its rows added
    (``d_in = 1``): a difference is where a wrong refactor breaks its statements."""
    record = provenance(built)
    reference = getattr(getattr(record, "constructor", None), "reference", None)
    if depth != 0 or reference is None or type(built) is not Transformation:
        return
    try:
        theirs = reference(**arguments)
        if same_object(built.function, theirs.function):
            return  # one function: no input tells them apart
        seen = [*scalars_of(built.function), *scalars_of(theirs.function)]
        candidates = compared_inputs("", built.input_domain, seen)
    except Exception:  # noqa: BLE001 - no reference object, or inputs the rule does not build
        return
    differing = [x for x in candidates if not _agree(built.function, theirs.function, x)][:FEW]
    for x in differing:
        yield from ((x, x[:i] + x[i + 1:], 1) for i in range(len(x)))
        yield from ((x, x + [v], 1) for v in x[:FEW])


def _agree(mine: Any, theirs: Any, x: Any) -> bool:
    """``mine(x)`` and ``theirs(x)`` return the same value (a raise is a difference)."""
    try:
        return same_value(mine(x), theirs(x))
    except Exception:  # noqa: BLE001 - a raise on a member of the input domain
        return False


def first_pairs(built: Any, arguments: dict[str, Any],
                depth: int) -> Iterator[tuple[Any, Any, Any]]:
    """The few pairs of :func:`dataset_pairs` and :func:`atom_pairs` at depth 0, once (a metric
    undefined on a domain is undefined on its simplest members)."""
    if depth == 0:
        yield from dataset_pairs(built, arguments, 0)
        yield from atom_pairs(built, arguments, 0)


def dataset_pairs_both_ways(built: Any, arguments: dict[str, Any],
                            depth: int) -> Iterator[tuple[Any, Any, Any]]:
    """Few dataset pairs, each in both orders, for a refuter that reads an event of its first
    input only and solves for every path of both (too costly to try at every pair): depth 0, one
    row against none; 1, one row replaced in datasets of one and two rows (``d_in = 2``); the rows
    the first :data:`FEW` of those :func:`dataset_pairs` uses."""
    domain = getattr(built, "input_domain", None)
    domain = domain.inner if type(domain) is SizedDomain else domain
    values = _rows(getattr(domain, "element", None), arguments)[:FEW]
    if depth == 0:
        pairs = [([], [v], 1) for v in values]
    elif depth == 1:
        pairs = [([v] * size, [w] + [v] * (size - 1), 2) for size in (1, 2)
                 for v in values for w in values if w != v]
    else:
        pairs = []
    for x, other, d_in in pairs:
        yield x, other, d_in
        yield other, x, d_in


FEW = 3
"""Distinct rows the pairs of :func:`dataset_pairs_both_ways` are made of."""


def inputs(built: Any, arguments: dict[str, Any], depth: int) -> Iterator[tuple[Any]]:
    """Single inputs: each dataset of :func:`dataset_pairs` and :func:`difference_pairs`, each
    atom of :func:`atom_pairs`."""
    seen: set[str] = set()
    for pair in [*dataset_pairs(built, arguments, depth), *difference_pairs(built, arguments,
                                                                            depth),
                 *atom_pairs(built, arguments, depth)]:
        for x in pair[:2]:
            text = _text(x)
            if text not in seen:
                seen.add(text)
                yield (x,)


def _text(x: Any) -> str:
    """``repr(x)``, or for a value holding an int past the digits ``repr`` writes, its
    identity (never equal to another's)."""
    try:
        return repr(x)
    except ValueError:
        return f"<object {id(x)}>"


REFUTERS: dict[Claim, list[tuple[Callable[..., Refutation], Callable[..., Refutation], Inputs]]] = {
    Claim.PRIVACY: [(additive_noise.refute_object, additive_noise.refute_constructor,
                     dataset_pairs),
                    (additive_noise.refute_object, additive_noise.refute_constructor, atom_pairs),
                    (additive_noise.refute_object, additive_noise.refute_constructor,
                     vector_pairs),
                    (finite_law.refute_object, finite_law.refute_constructor, atom_pairs),
                    (unreached_event.refute_object, unreached_event.refute_constructor,
                     map_pairs),
                    (unreached_event.refute_object, unreached_event.refute_constructor,
                     dataset_pairs_both_ways),
                    (unreached_event.refute_object, unreached_event.refute_constructor,
                     atom_pairs)],
    Claim.STABILITY: [(stability.refute_stability, stability.refute_stability_of_constructor,
                       difference_pairs),
                      (stability.refute_stability, stability.refute_stability_of_constructor,
                       dataset_pairs)],
    Claim.OUTPUT_DOMAIN: [(output_domain.refute_object, output_domain.refute_constructor,
                           inputs)],
    Claim.COMPATIBILITY: [(compatibility.refute_object, compatibility.refute_constructor,
                           first_pairs)],
    Claim.RUNTIME_ERRORS: [(runtime_errors.refute_object, runtime_errors.refute_constructor,
                            dataset_pairs_both_ways),
                           (runtime_errors.refute_object, runtime_errors.refute_constructor,
                            atom_pairs)],
}
"""For each claim, the refuting rules (of one object, of a constructor at arguments)
and the inputs to try them at."""


class Searched(NamedTuple):
    """What one search found: a refutation, or None; ``complete`` when its time did not cut it
    short (it found one, or tried every candidate), so that the same search finds the same."""

    refutation: Refutation | None
    complete: bool


def propose_refutation(statement: Statement, constructor: Any,
                       examples: Sequence[tuple[str, Any]], seconds: float,
                       varied: bool = True) -> Searched:
    """A refutation of ``statement`` about ``constructor`` (or, with ``constructor`` None, about
    the one object ``examples[0]`` holds), within ``seconds`` of this process's CPU time (so
    that a loaded machine searches as far as an idle one): every candidate argument with a few
    inputs first, then with more. ``varied`` False: only the examples' arguments (or hard ones),
    for a statement proved for every argument and bounded in its inputs only."""
    deadline = time.process_time() + seconds
    found = _search(statement, constructor, examples, varied, deadline)
    return Searched(found, found is not None or time.process_time() <= deadline)


def _search(statement: Statement, constructor: Any, examples: Sequence[tuple[str, Any]],
            varied: bool, deadline: float) -> Refutation | None:
    refuters = REFUTERS.get(statement.claim, [])
    if constructor is None:
        call, built = examples[0]
        record = provenance(built)
        arguments = record.arguments if record is not None else {}
        return next((found for depth in DEPTHS for found in _attempts(
            lambda of_object, _, *at: of_object(statement, built, *at, call=call),
            refuters, built, arguments, depth, deadline)), None)
    for depth in DEPTHS:
        for arguments in _argument_candidates(constructor, examples, varied):
            if time.process_time() > deadline:
                return None
            try:
                built = constructor(**arguments)
            except Exception:  # noqa: BLE001 - not admitted: the next candidate
                continue
            if depth and repr(arguments) not in _example_arguments(constructor, examples) and \
                    _proved_by_an_object_rule(constructor, arguments, built):
                continue  # an object rule proves it: look deeper only where none does
            found = next(_attempts(lambda _, at_arguments, *at: at_arguments(
                statement, constructor, arguments, *at), refuters, built, arguments, depth,
                deadline), None)
            if found is not None:
                return found
    return None


def _proved_by_an_object_rule(constructor: Any, arguments: dict[str, Any], built: Any) -> bool:
    """Some object rule proves every statement of ``built``, ``constructor(**arguments)``: the
    search's own guess at where not to look deeper (a bounded theorem can still fail beyond its
    bound, so the examples' arguments, on which the entry's theorem rests, are always searched
    deeply). Asked once per constructor and arguments, whichever statement is searched."""
    key = (id(constructor), repr(arguments))
    if key not in _PROVED:
        if len(_PROVED) >= KEPT:
            _PROVED.pop(next(iter(_PROVED)))
        _PROVED[key] = (constructor, _some_rule_proves(built))
    return _PROVED[key][1]


_PROVED: dict[tuple[int, str], tuple[Any, bool]] = {}
"""What :func:`_proved_by_an_object_rule` found, the constructor kept so that its ``id`` is not
reused while the answer is kept."""
KEPT = 256


def _some_rule_proves(built: Any) -> bool:
    for rule in (row_transform, fold_rule, additive_noise_rule, finite_law_rule):
        try:
            rule("a candidate", built)
            return True
        except Exception:  # noqa: BLE001 - refused, or the object's own failure
            continue
    return False


def _example_arguments(constructor: Any, examples: Sequence[tuple[str, Any]]) -> list[str]:
    return [repr(record.arguments) for _, built in examples
            if (record := provenance(built)) is not None and record.constructor is constructor]


SHAPES: dict[Any, Callable[[str, Any], None]] = {
    additive_noise.refute_object: additive_noise.refutable_shape,
    finite_law.refute_object: functools.partial(finite_law_shape, finite_law.REFUTE_RULE),
    unreached_event.refute_object: unreached_event.shape,
}
"""The object shape each refuting rule covers: a refuter is tried on an object only when its
shape holds (checked once, not at every input)."""


def _shaped(of_object: Any, built: Any) -> bool:
    shape = SHAPES.get(of_object)
    if shape is not None:
        try:
            shape("a candidate", built)
        except RuleRefused:
            return False
    return True


def _attempts(refute: Callable[..., Refutation], refuters: Sequence[Any], built: Any,
              arguments: dict[str, Any], depth: int, deadline: float) -> Iterator[Refutation]:
    for of_object, at_arguments, candidates in refuters:
        inputs = iter(candidates(built, arguments, depth))
        first = next(inputs, None)
        if first is None or not _shaped(of_object, built):  # the shape only where inputs are
            continue
        for at in itertools.chain([first], inputs):
            if time.process_time() > deadline:
                return
            try:
                yield refute(of_object, at_arguments, *at)
            except Exception:  # noqa: BLE001 - refused, or the user's code failed at this input
                continue


VARIATIONS = (lambda v: -v, lambda v: 0, lambda v: v * 100, lambda v: v / 100, lambda v: -100,
              lambda v: 100, lambda v: 1, lambda v: v + 1, lambda v: v - 1)
"""How one number among a constructor's arguments is varied."""
FLOATS = (2 / 3, 0.7)
"""What a float argument is also set to: floats that are not the rationals a reader means, for
code that rounds or re-reads them."""


def _component_lists(constructor: Any) -> list[dict[str, Any]]:
    """For a constructor of one measurement or one list of them (a conversion, a composition):
    noise measurements of one int whose maps a float sum does not add exactly, a term below the
    other's ulp (``1`` and ``2^-60``), in each measure and order; one measurement listed twice;
    and each measurement alone, in each measure (pure, zCDP, approximate with a delta)."""
    name, = constructor.signature.parameters
    pure = [make_discrete_laplace(1.0), make_discrete_laplace(2.0 ** 60)]
    lists = [pure, [make_pureDP_to_approxDP(m) for m in pure],
             [make_gaussian(1.0), make_gaussian(2.0 ** 30)]]
    alone = [pure[0], make_gaussian(2.0), make_zCDP_to_approxDP(make_gaussian(2.0), 1e-6)]
    return [*({name: order} for found in lists for order in (found, found[::-1])),
            {name: [pure[0], pure[0]]}, *({name: m} for m in alone)]


def _component_pairs(constructor: Any) -> list[dict[str, Any]]:
    """For a constructor of two arguments (a chain, say): every ordered pair of a few catalogue
    objects whose maps do not commute, on ints and floats (a resize doubles the distance, a sized
    sum halves it, sums of ``[0, 1]`` then ``[0, 10]`` multiply it by 1 then 10), a cast of int
    vectors, discrete Laplace noise and AboveThreshold (which assumes query vectors); the
    constructor refuses the pairs that do not meet."""
    rows = AtomDomain(int, bounds=(0, 10))
    pool = [make_clamp(0, 10), make_clamp(0.0, 10.0), make_resize(2, 0, rows),
            make_sized_bounded_int_sum(2, 0, 10), make_sized_bounded_int_sum(2, 0, 1),
            make_bounded_int_sum(0, 1), make_bounded_int_sum(0, 10), make_cast_default(int, int),
            make_discrete_laplace(1.0), make_above_threshold(1.0, 100)]
    first, second = constructor.signature.parameters
    return [{first: a, second: b} for a in pool for b in pool]


def _as_floats(value: Any) -> Any:
    """An int argument, or a list or tuple of ints, with floats in place of the ints (bounds a
    user types as ``(0.0, 10.0)``); None for any other value."""
    if type(value) is int:
        return float(value)
    if isinstance(value, (list, tuple)) and value and all(type(v) is int for v in value):
        return type(value)(float(v) for v in value)
    return None


def _with_floats(candidates: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each candidate with one int argument (or list or tuple of ints) given as floats."""
    return [{**arguments, name: as_floats} for arguments in candidates
            for name, value in arguments.items() if (as_floats := _as_floats(value)) is not None]


@functools.cache
def _catalogue_arguments() -> tuple[dict[str, Any], ...]:
    """The arguments of the catalogue's examples: where a variant of a catalogue constructor
    (the same parameters, by name) with no example and no declared sorts of its own is tried."""
    from obligations.catalogue import builtin_catalogue
    found = []
    for entry in builtin_catalogue():
        for example in entry.examples:
            try:
                record = provenance(example.make())
            except Exception:  # noqa: BLE001 - an example that does not build: not a candidate
                continue
            if record is not None and record.constructor is entry.constructor:
                found.append(dict(record.arguments))
    return tuple(found)


def _other_carriers(candidates: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each candidate with one argument that is a carrier type (``int``) replaced by each other,
    or that is an atom domain replaced by each of the rule of equality's hard domains."""
    return [{**arguments, name: other} for arguments in candidates
            for name, value in arguments.items()
            for other in (CARRIERS if isinstance(value, type) and value in CARRIERS else
                          HARD_DOMAINS if type(value) is AtomDomain else ())]


CARRIERS = (bool, int, float, str)
"""The carrier types a type argument is replaced by."""


def _argument_candidates(constructor: Any, examples: Sequence[tuple[str, Any]],
                         varied: bool = True) -> Iterator[dict[str, Any]]:
    """The examples' arguments (with none, hard values of the declared sorts; with neither, the
    catalogue's examples of a constructor with the same parameters, not varied but for ints given
    as floats), then, when
    ``varied``, each number among them varied, each float set to :data:`FLOATS`, each int
    (alone or in a list or tuple) given as a float, then each carrier type or atom domain among
    them replaced by another (:func:`_other_carriers`), and the hard values of the declared
    sorts; each candidate once."""
    recorded = [record.arguments for _, built in examples
                if (record := provenance(built)) is not None and record.constructor is constructor]
    hard = [dict(zip(signature, values)) for signature in constructor.signatures
            for values in itertools.islice(itertools.product(
                *(hard_values(sort) for sort in signature.values())), HARD_ARGUMENTS)]
    if not recorded:  # no example: the hard values of the sorts it declares
        recorded, hard = hard, []
    if not recorded:  # neither: the catalogue's examples of a constructor of its parameters
        names = sorted(constructor.signature.parameters)
        recorded = [dict(a) for a in _catalogue_arguments() if sorted(a) == names]
        recorded += _with_floats(recorded)
        varied = False  # tried as they are, and with floats for ints
    tried = recorded if varied else []
    numbers = [(arguments, name, value) for arguments in tried
               for name, value in arguments.items()
               if isinstance(value, (int, float)) and not isinstance(value, bool)]
    changed = [{**arguments, name: type(value)(vary(value)) if isinstance(value, float)
                else int(vary(value))} for arguments, name, value in numbers for vary in VARIATIONS]
    changed += [{**arguments, name: value} for arguments, name, old in numbers
                if isinstance(old, float) for value in FLOATS]
    changed += _with_floats(tried)
    changed += _other_carriers(recorded)
    changed += hard if varied else []  # past the examples: NaN, the infinities, extremes
    components = (_component_lists(constructor) if takes_components(constructor) else
                  _component_pairs(constructor) if takes_pair(constructor) else [])
    seen: set[str] = set()
    for candidate in [*recorded, *changed, *components]:
        if repr(candidate) not in seen:
            seen.add(repr(candidate))
            yield candidate
