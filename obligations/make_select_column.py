"""Obligations of ``make_select_column``, for every table of one to four columns and every key
among them (``bounded``: the columns are Python strings, not solver terms), and for every record
of those columns (each field any string, a solver constant).

The specification (``select_column.specification``) is stated here, apart from the mechanism:
the value of a record's column named ``key`` is its field at the place of that name among the
columns the constructor was given, found by walking the names (:func:`named_field`), not by the
kernel's ``position``. The built input domain must be the table of exactly those columns, since a
record's fields mean what the domain's column order says.
"""

from __future__ import annotations

from typing import Any, Callable

import z3

from mechanisms.core import Constructor, RowTransform
from mechanisms.domains import AtomDomain, RecordDomain, VectorDomain
from mechanisms.make_select_column import make_select_column
from mechanisms.metrics import SymmetricDistance
from obligations.base import (ComputedGoal, Decision, Entry, Kind, Obligation, Replay, Z3Goal,
                              example, is_true, on_solver_terms)
from obligations.compatibility import compatibility_goal, metric_premise
from obligations.reports import (claim_assertion, constructor_call, import_line, literal,
                                 plain_report, reproducer)
from obligations.row_transforms import (is_row_transform, kernel_agreement, replay_output_domain,
                                        replay_pair, replay_rows_added, row_transform_stability,
                                        vector_compatibility)
from obligations.symbols import model_value, natural
from obligations.witnesses import excluded_goals, witness_goal
from obligations.kernel.reviewed import reviewed

TABLES: tuple[tuple[str, ...], ...] = (("c0",), ("c0", "c1"), ("c0", "c1", "c2"),
                                       ("c0", "c1", "c2", "c3"), ("id", "age", "city"),
                                       ("Age", "age", "AGE", "age "),
                                       ("\u00e9", "e\u0301", "a", "\u0430"))
"""The column lists the obligations are checked for: one to four columns, the example's, and
names that differ only by case or a trailing space, or are alike only to the eye (a composed and
a decomposed accent, a Latin and a Cyrillic a): a key is its exact string."""

CASES: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (key, columns) for columns in TABLES for key in columns)
"""Every ``(key, columns)`` with ``key`` among ``columns``."""

HARD_RECORDS: dict[tuple[str, ...], list[tuple[str, ...]]] = {
    columns: [tuple("" for _ in columns), tuple(f"{name} value" for name in columns),
              tuple(str(i) * 3 for i, _ in enumerate(columns)), tuple("é\x00" for _ in columns)]
    for columns in TABLES}
"""Records the witnesses and the kernel agreement run through the real transformation."""

BOUND = ("tables of 1 to 4 columns (the example's, and names alike but for case, spacing or "
         "Unicode form), every key among them")


def named_field(record: tuple[Any, ...], key: str, columns: tuple[str, ...]) -> Any:
    """The specification: the field of ``record`` under the column named ``key``."""
    for name, field in zip(columns, record):
        if name == key:
            return field
    raise KeyError(key)


def record(columns: tuple[str, ...], prefix: str) -> tuple[Any, ...]:
    """A solver record of ``columns``: one string constant per field."""
    return tuple(z3.String(f"{prefix}.{name}") for name in columns)


def _model_record(model: dict[str, Any], columns: tuple[str, ...], prefix: str
                  ) -> tuple[str, ...]:
    return tuple(model_value(str, model.get(f"{prefix}.{name}", '""')) for name in columns)


def _concrete(constructor: Constructor, key: str, columns: tuple[str, ...]
              ) -> Callable[[dict[str, Any]], tuple[Any, dict[str, Any]]]:
    arguments = {"key": key, "columns": columns}
    return lambda _: (constructor(**arguments), arguments)


def _replay_specified(constructor: Constructor, key: str, columns: tuple[str, ...]
                      ) -> Callable[[dict[str, Any]], Replay]:
    """The real transformation on the model's record: confirmed when its output is not the
    record's field named ``key`` (:func:`named_field`)."""
    def replay(model: dict[str, Any]) -> Replay:
        row = _model_record(model, columns, "x")
        call = constructor_call(constructor, key=key, columns=columns)
        output = constructor(key=key, columns=columns)([row])
        wanted = [named_field(row, key, columns)]
        return plain_report(output != wanted, f"{call} on [{literal(row)}]",
                            f"output {literal(output)}, the field named {key!r} is "
                            f"{literal(wanted[0])}",
                            *reproducer(import_line(constructor), f"t = {call}",
                                        f"output = t([{literal(row)}])",
                                        claim_assertion(f"output == {literal(wanted)}",
                                                        "the field named key")))
    return replay


def _domain_is_the_table(constructor: Constructor) -> ComputedGoal:
    """The built input domain is ``VectorDomain(RecordDomain(columns))`` for the columns given,
    the output domain ``VectorDomain(AtomDomain(str))``: the specification's meaning of a record
    and of an output row."""
    def decide() -> Decision:
        for key, columns in CASES:
            t = constructor.build(key=key, columns=columns)
            wanted = (VectorDomain(RecordDomain(columns)), VectorDomain(AtomDomain(str)))
            if (t.input_domain, t.output_domain) != wanted:
                return Decision(False, {"key": key, "columns": literal(columns)},
                                f"built domains {t.input_domain!r} -> {t.output_domain!r}, not "
                                f"{wanted[0]!r} -> {wanted[1]!r}")
        return Decision(True, detail=f"{len(CASES)} (key, columns) cases: the table of the given "
                                     "columns to vectors of str")

    def replay(model: dict[str, Any]) -> Replay:
        """The real transformation on the records of other lengths (and of non-strings) that
        its built domain admits: confirmed when one raises or leaves the output domain."""
        first = (model["key"], next(c for c in TABLES if literal(c) == model["columns"]))
        for key, columns in dict.fromkeys([first, *CASES]):
            t = constructor(key=key, columns=columns)
            call = constructor_call(constructor, key=key, columns=columns)
            probes = [tuple("x" for _ in range(n)) for n in range(len(columns) + 2)]
            probes += [tuple(1 for _ in columns), tuple(None for _ in columns)]
            for row in probes:
                if not t.input_domain.member([row]) or RecordDomain(columns).member(row):
                    continue
                where = f"{call} on [{literal(row)}], admitted by its built input domain"
                try:
                    output = t([row])
                except Exception as error:  # noqa: BLE001 - a raise on an admitted input
                    return plain_report(True, where, f"raises {type(error).__name__}: {error}")
                if not t.output_domain.member(output):
                    return plain_report(True, where, f"returns {literal(output)}, not in "
                                        f"{t.output_domain}")
        return plain_report(False, f"{constructor.name}: no record its built input domain admits "
                            "beyond the table's misbehaves on the probes")
    return ComputedGoal("the built domains are the table of the given columns and vectors of str",
                        "structure", decide, replay)


@reviewed
def select_column_obligations(constructor: Constructor = make_select_column,
                              prefix: str = "select_column") -> tuple[Obligation, ...]:
    row_transform = is_row_transform(
        lambda: [constructor.build(key=key, columns=columns) for key, columns in CASES],
        f" ({len(CASES)} key and column cases)")
    builds = witness_goal(constructor, {"key": "age", "columns": ("id", "age", "city")})
    agreement = kernel_agreement(
        constructor, lambda _, arguments: (constructor.build(**arguments), {}),
        [({"key": key, "columns": columns}, row) for key, columns in CASES
         for row in HARD_RECORDS[columns]])

    def kernel_goals(key: str, columns: tuple[str, ...]) -> list[Any]:
        """The kernel on a solver record of ``columns``: a str of the output atom domain, the
        specified field, and one value for equal records."""
        t = constructor.build(key=key, columns=columns)
        if not isinstance(t.function, RowTransform):
            return []
        x, y = record(columns, "x"), record(columns, "y")
        out = t.function.scalar(x)
        names = {f"x.{n}": f for n, f in zip(columns, x)}
        case = f"key {key!r} of {len(columns)} columns"
        concrete = _concrete(constructor, key, columns)
        output = replay_output_domain(constructor, concrete,
                                      lambda model: _model_record(model, columns, "x"))
        return [
            Z3Goal(f"kernel(r) is a str in the output atom domain, for every record r ({case})",
                   is_true(z3.is_expr(out) and out.sort() == z3.StringSort()
                           and t.output_domain.element.contains(out)), [], names, output),
            Z3Goal(f"kernel(r) is r's field named {key!r}, for every record r ({case})",
                   out == named_field(x, key, columns) if z3.is_expr(out) else is_true(False),
                   [], names, _replay_specified(constructor, key, columns)),
            Z3Goal(f"premise of lemma.row_transform: equal records give one value ({case})",
                   t.function.scalar(x) == t.function.scalar(y),
                   [f == g for f, g in zip(x, y)],
                   {**names, **{f"y.{n}": g for n, g in zip(columns, y)}},
                   replay_pair(constructor, concrete, lambda model: (
                       [_model_record(model, columns, "x")],
                       [_model_record(model, columns, "y")]))),
        ]

    def per_case(kind: str, pick: Callable[[list[Any]], list[Any]]) -> list[Any]:
        goals: list[Any] = []
        for key, columns in CASES:
            goals += on_solver_terms(f"{kind} (key {key!r} of {len(columns)} columns)",
                                     lambda k=key, c=columns: pick(kernel_goals(k, c)))
        return goals

    def specification_goals() -> list[Any]:
        return [row_transform, _domain_is_the_table(constructor),
                *per_case("specification", lambda goals: goals[1:2])]

    def output_domain_goals() -> list[Any]:
        return [row_transform,
                *[witness_goal(constructor, {"key": columns[-1], "columns": columns},
                               inputs=[[], HARD_RECORDS[columns]]) for columns in TABLES],
                *excluded_goals(constructor, [
                    ({"key": "x", "columns": ("id", "age")}, "a key that is not a column"),
                    ({"key": "id", "columns": ("id", "id")}, "repeated column names"),
                    ({"key": "id", "columns": ()}, "no columns"),
                    ({"key": "id", "columns": ["id", "age"]}, "columns in a list, not a tuple"),
                    ({"key": 0, "columns": (0, 1)}, "column names that are not strings")]),
                *per_case("output domain", lambda goals: goals[:1])]

    def compatibility_goals() -> list[Any]:
        return [builds, compatibility_goal(
            constructor, lambda: [constructor.build(key=k, columns=c) for k, c in CASES],
            {"key": "age", "columns": ("id", "age", "city")})]

    def stability_goals() -> list[Any]:
        goals: list[Any] = [row_transform, builds, metric_premise(
            lambda: constructor.build(key="c0", columns=("c0",)), SymmetricDistance,
            SymmetricDistance, "lemma.row_transform"), agreement,
            *per_case("stability", lambda goals: goals[2:3])]
        for key, columns in CASES:
            t = constructor.build(key=key, columns=columns)
            d_in, d_in_natural = natural("d_in")
            d, d_natural = natural("d")
            goals.append(Z3Goal(
                f"map(d_in) bounds the lemma's d_sym(f(v), f(w)) <= d_sym(v, w) <= d_in (key "
                f"{key!r} of {len(columns)} columns)",
                is_true(d <= t.map(d_in)), [*d_in_natural, *d_natural, d <= d_in],
                {"d_in": d_in, "d": d},
                replay_rows_added(constructor, _concrete(constructor, key, columns),
                                  lambda _, c=columns: HARD_RECORDS[c][1])))
        return goals

    return (
        Obligation(f"{prefix}.specification", Kind.SPECIFICATION,
                   "function(v)_i is the field of the record v_i under the column named key, for "
                   "every record of the given columns; the input domain is the table of exactly "
                   "those columns and the output vectors of str.",
                   r"\mathtt{function}(v)_i = v_i[\mathtt{key}]",
                   specification_goals, bound=BOUND),
        Obligation(f"{prefix}.output_domain", Kind.OUTPUT_DOMAIN,
                   "For every table the input domain admits, every entry of function(v) is a str; "
                   "a key that is not a column, and columns that are not distinct strings in a "
                   "non-empty tuple, are refused.",
                   r"\forall v \in \mathrm{Vec}(\mathrm{Record}):\ \mathtt{function}(v) \in "
                   r"\mathrm{Vec}(\mathtt{str})",
                   output_domain_goals, bound=BOUND),
        vector_compatibility(prefix, compatibility_goals),
        row_transform_stability(prefix, stability_goals,
                                "its kernel gives equal records one value", bound=BOUND),
    )


IMPORT = "from mechanisms.make_select_column import make_select_column"


def catalogue_entry() -> Entry:
    return Entry("make_select_column", make_select_column, select_column_obligations(),
                 "the column named key of a table of string records",
                 (example("make_select_column('age', ('id', 'age', 'city'))", IMPORT),),
                 proof=True)
