"""Single-point mutation operators on a module's source, found with :mod:`ast`.

A mutant replaces one or a few source segments (the node's own text, so the rest of the file
keeps its formatting) and is identified by a stable id::

    <module>:<line>:<col>:<operator>:<original>-><replacement>

``line`` is 1-based, ``col`` 1-based in characters, both of the mutated token (the operator
symbol of a binary operation or comparison, the start of a constant or a call). The id depends
only on the source, never on the order in which mutants are discovered.

Not mutated: docstrings and other strings, f-strings, type annotations, ``raise`` statements
(error messages and their arguments).
"""

from __future__ import annotations

import ast
import io
import math
import tokenize
from bisect import bisect_left
from dataclasses import dataclass

NEAREST_MODULE = "_mutation_nearest"
"""The helper module (``mutation/nearest.py``, copied to the root of each isolated copy) that
rounding-to-nearest replacements call."""

ARITH_SWAPS: dict[type[ast.operator], tuple[type[ast.operator], ...]] = {
    ast.Add: (ast.Sub,),
    ast.Sub: (ast.Add,),
    ast.Mult: (ast.Div,),
    ast.Div: (ast.Mult,),
    ast.FloorDiv: (ast.Div,),
    ast.Mod: (ast.FloorDiv,),
    ast.Pow: (ast.Mult,),
}
"""Each arithmetic operator and what it is swapped for."""

SYMBOLS: dict[type, str] = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
    ast.Pow: "**", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
    ast.NotEq: "!=",
}

COMPARE_SWAPS: dict[type[ast.cmpop], tuple[type[ast.cmpop], ...]] = {
    ast.Lt: (ast.LtE, ast.GtE),     # boundary, negation
    ast.LtE: (ast.Lt, ast.Gt),
    ast.Gt: (ast.GtE, ast.LtE),
    ast.GtE: (ast.Gt, ast.Lt),
    ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,),
}
"""Each comparison and what it is swapped for: the non-strict/strict twin and the negation."""

NAME_SWAPS: dict[str, tuple[str, str]] = {
    "ops.minimum": ("minmax", "ops.maximum"), "ops.maximum": ("minmax", "ops.minimum"),
    "min": ("minmax", "max"), "max": ("minmax", "min"),
    "ops.all_of": ("boolean", "ops.any_of"), "ops.any_of": ("boolean", "ops.all_of"),
    "ops.lt": ("compare", "ops.le"), "ops.le": ("compare", "ops.lt"),
    "math.floor": ("rounding", "math.ceil"), "math.ceil": ("rounding", "math.floor"),
    "floor": ("rounding", "ceil"), "ceil": ("rounding", "floor"),
}
"""Calls whose function name is swapped: ``name -> (operator, replacement name)``."""

PLAIN_BINARY: dict[str, str] = {"add_up": "+", "mul_up": "*", "div_up": "/", "floor_div": "/"}
"""Rounding primitives of two arguments and the plain operation that replaces them."""

NEAREST_UNARY: dict[str, str] = {"float_up": "float_nearest", "ln_up": "ln_nearest",
                                 "sqrt_up": "sqrt_nearest"}
"""Rounding-up primitives of one argument and the round-to-nearest helper that replaces them."""

ROUNDING_PREFIXES = ("", "ops.", "arith.")


@dataclass(frozen=True, order=True)
class Mutant:
    """One single-point mutation of one module."""

    module: str
    line: int
    col: int
    operator: str
    original: str
    replacement: str
    edits: tuple[tuple[int, int, str], ...]
    """``(start, end, text)`` character spans of the original source and their new text."""

    @property
    def id(self) -> str:
        return (f"{self.module}:{self.line}:{self.col}:{self.operator}:"
                f"{self.original}->{self.replacement}")

    def apply(self, source: str) -> str:
        """The mutated source."""
        for start, end, text in sorted(self.edits, reverse=True):
            source = source[:start] + text + source[end:]
        return source


class _Positions:
    """Character offsets of ``(line, byte col)`` positions, and the file's operator tokens."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.lines = source.splitlines(keepends=True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))
        self.tokens: list[tuple[int, int, str]] = []
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type in (tokenize.OP, tokenize.NAME):
                start = self.starts[token.start[0] - 1] + token.start[1]
                self.tokens.append((start, start + len(token.string), token.string))
        self.token_starts = [t[0] for t in self.tokens]

    def offset(self, line: int, byte_col: int) -> int:
        text = self.lines[line - 1].encode("utf-8")[:byte_col].decode("utf-8")
        return self.starts[line - 1] + len(text)

    def span(self, node: ast.AST) -> tuple[int, int]:
        return (self.offset(node.lineno, node.col_offset),
                self.offset(node.end_lineno, node.end_col_offset))

    def text(self, node: ast.AST) -> str:
        start, end = self.span(node)
        return self.source[start:end]

    def line_col(self, offset: int) -> tuple[int, int]:
        line = bisect_left(self.starts, offset + 1)
        return line, offset - self.starts[line - 1] + 1

    def token_between(self, start: int, end: int, strings: set[str]) -> tuple[int, int, str]:
        """The first token in ``[start, end)`` whose text is one of ``strings``."""
        index = bisect_left(self.token_starts, start)
        while index < len(self.tokens) and self.tokens[index][0] < end:
            if self.tokens[index][2] in strings:
                return self.tokens[index]
            index += 1
        raise ValueError(f"no token {strings} between offsets {start} and {end}")


def _call_name(node: ast.Call) -> str | None:
    """``name`` or ``module.name`` of a call's function, else ``None``."""
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return None


def _number(node: ast.AST) -> int | float | None:
    """The value of a numeric literal (``-c`` included), else ``None``; bools are not numbers."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _number(node.operand)
        return None if value is None or not isinstance(node.operand, ast.Constant) else -value
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    return None


def _is_constant_power(node: ast.AST) -> bool:
    """``a ** b`` of two numeric literals (``2 ** -1074``, ``2.0 ** 1023``)."""
    return (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow)
            and _number(node.left) is not None and isinstance(_number(node.right), int))


def _literal(value: int | float) -> str:
    return repr(value)


def number_replacements(value: int | float) -> list[int | float]:
    """``c+1, c-1, 0, 1, 2c, c/2`` (``c//2`` for an even int), without repeats, ``c`` itself
    or non-finite floats."""
    if isinstance(value, int):
        candidates: list[int | float] = [value + 1, value - 1, 0, 1, 2 * value]
        if value % 2 == 0:
            candidates.append(value // 2)
    else:
        candidates = [value + 1.0, value - 1.0, 0.0, 1.0, 2.0 * value, value / 2.0]
    chosen: list[int | float] = []
    for candidate in candidates:
        if isinstance(candidate, float) and not math.isfinite(candidate):
            continue
        if candidate == value or any(candidate == c for c in chosen):
            continue
        chosen.append(candidate)
    return chosen


class _Finder:
    """Walks a module's tree and collects its mutants."""

    def __init__(self, module: str, source: str) -> None:
        self.module = module
        self.positions = _Positions(source)
        self.mutants: list[Mutant] = []

    # -- recording --------------------------------------------------------------------------

    def add(self, operator: str, at: int, original: str, replacement: str,
            edits: list[tuple[int, int, str]]) -> None:
        line, col = self.positions.line_col(at)
        original, replacement = (" ".join(s.replace(":", ";").split())
                                 for s in (original, replacement))
        self.mutants.append(Mutant(self.module, line, col, operator, original, replacement,
                                   tuple(edits)))

    def replace_node(self, operator: str, node: ast.AST, replacement: str, label: str,
                     original: str | None = None) -> None:
        start, end = self.positions.span(node)
        self.add(operator, start, original if original is not None else self.positions.text(node),
                 label, [(start, end, replacement)])

    # -- walking ----------------------------------------------------------------------------

    def visit(self, node: ast.AST) -> None:
        if isinstance(node, (ast.Raise, ast.JoinedStr)):
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for child in (*node.decorator_list, *node.args.defaults,
                          *[d for d in node.args.kw_defaults if d is not None], *node.body):
                self.visit(child)
            return
        if isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self.visit(node.value)
            return
        if isinstance(node, ast.arg):
            return
        if isinstance(node, (ast.Tuple, ast.List)):
            self.drop_precondition(node)
        if isinstance(node, ast.BinOp) and _is_constant_power(node):
            self.constant_power(node)
            self.binop(node)
            return
        number = _number(node)
        if number is not None:
            self.constant(node, number)
            return
        if isinstance(node, ast.BinOp):
            self.binop(node)
        elif isinstance(node, ast.AugAssign):
            self.augassign(node)
        elif isinstance(node, ast.Compare):
            self.compare(node)
        elif isinstance(node, ast.BoolOp):
            self.boolop(node)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self.replace_node("boolean", node, f"({self.positions.text(node.operand)})",
                              "removed", original="not")
        elif isinstance(node, ast.Call):
            self.call(node)
        for child in ast.iter_child_nodes(node):
            self.visit(child)

    # -- operators --------------------------------------------------------------------------

    def binop(self, node: ast.BinOp) -> None:
        swaps = ARITH_SWAPS.get(type(node.op), ())
        if not swaps:
            return
        symbol = SYMBOLS[type(node.op)]
        _, left_end = self.positions.span(node.left)
        right_start, _ = self.positions.span(node.right)
        start, end, _ = self.positions.token_between(left_end, right_start, {symbol})
        for swap in swaps:
            self.add("arith", start, symbol, SYMBOLS[swap], [(start, end, SYMBOLS[swap])])

    def augassign(self, node: ast.AugAssign) -> None:
        swaps = ARITH_SWAPS.get(type(node.op), ())
        if not swaps:
            return
        symbol = SYMBOLS[type(node.op)] + "="
        _, target_end = self.positions.span(node.target)
        value_start, _ = self.positions.span(node.value)
        start, end, _ = self.positions.token_between(target_end, value_start, {symbol})
        for swap in swaps:
            new = SYMBOLS[swap] + "="
            self.add("arith", start, symbol, new, [(start, end, new)])

    def compare(self, node: ast.Compare) -> None:
        operands = [node.left, *node.comparators]
        for index, op in enumerate(node.ops):
            swaps = COMPARE_SWAPS.get(type(op), ())
            if not swaps:
                continue
            symbol = SYMBOLS[type(op)]
            _, left_end = self.positions.span(operands[index])
            right_start, _ = self.positions.span(operands[index + 1])
            start, end, _ = self.positions.token_between(left_end, right_start, {symbol})
            for swap in swaps:
                self.add("compare", start, symbol, SYMBOLS[swap], [(start, end, SYMBOLS[swap])])

    def boolop(self, node: ast.BoolOp) -> None:
        word, other = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
        edits = []
        for left, right in zip(node.values, node.values[1:]):
            _, left_end = self.positions.span(left)
            right_start, _ = self.positions.span(right)
            start, end, _ = self.positions.token_between(left_end, right_start, {word})
            edits.append((start, end, other))
        self.add("boolean", edits[0][0], word, other, edits)

    def constant(self, node: ast.AST, value: int | float) -> None:
        negative_atom = isinstance(node, ast.Constant)
        for new in number_replacements(value):
            text = _literal(new)
            if negative_atom and new < 0:
                text = f"({text})"
            self.replace_node("constant", node, text, _literal(new))

    def constant_power(self, node: ast.BinOp) -> None:
        base, exponent = self.positions.text(node.left), _number(node.right)
        assert isinstance(exponent, int)
        start, end = self.positions.span(node.right)
        original = self.positions.text(node)
        for new in (exponent + 1, exponent - 1):
            text = str(new)
            self.add("constant", self.positions.span(node)[0], original, f"{base} ** {text}",
                     [(start, end, text)])
        self.replace_node("constant", node, "0", "0")

    def call(self, node: ast.Call) -> None:
        name = _call_name(node)
        if name is None:
            return
        plain = not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args)
        if name in NAME_SWAPS:
            operator, new = NAME_SWAPS[name]
            self.replace_node(operator, node.func, new, new)
        if name == "ops.lt" or name == "ops.le":
            if plain and len(node.args) == 2:
                a, b = (self.positions.text(arg) for arg in node.args)
                negated = "ops.le" if name == "ops.lt" else "ops.lt"
                self.replace_node("compare", node, f"{negated}({b}, {a})", "negated",
                                  original=name)
        elif name == "ops.eq" and plain and len(node.args) == 2:
            self.replace_node("compare", node, f"ops.negate({self.positions.text(node)})",
                              "negated", original=name)
        elif name == "ops.negate" and plain and len(node.args) == 1:
            self.replace_node("boolean", node, f"({self.positions.text(node.args[0])})",
                              "removed", original=name)
        elif name == "ops.floor" and plain and len(node.args) == 1:
            self.replace_node("rounding", node, f"ops.exact({self.positions.text(node.args[0])})",
                              "ops.exact", original=name)
        short = name.rsplit(".", 1)[-1]
        if name.removesuffix(short) not in ROUNDING_PREFIXES or not plain:
            return
        if short in PLAIN_BINARY and len(node.args) == 2:
            a, b = (self.positions.text(arg) for arg in node.args)
            symbol = PLAIN_BINARY[short]
            self.replace_node("rounding", node, f"(({a}) {symbol} ({b}))", symbol, original=name)
        elif short in NEAREST_UNARY and len(node.args) == 1:
            helper = NEAREST_UNARY[short]
            argument = self.positions.text(node.args[0])
            self.replace_node("rounding", node,
                              f"__import__({NEAREST_MODULE!r}).{helper}({argument})",
                              helper, original=name)

    def drop_precondition(self, node: ast.Tuple | ast.List) -> None:
        elements = node.elts
        for index, element in enumerate(elements):
            if not (isinstance(element, ast.Call) and _call_name(element) == "Precondition"):
                continue
            start, end = self.positions.span(element)
            if index + 1 < len(elements):
                end = self.positions.span(elements[index + 1])[0]
            else:
                rest = self.positions.source[end:]
                stripped = rest.lstrip()
                if stripped.startswith(","):
                    end += len(rest) - len(stripped) + 1
                if index > 0:  # keep the comma after the previous element, drop what follows it
                    previous_end = self.positions.span(elements[index - 1])[1]
                    start = self.positions.token_between(previous_end, start, {","})[1]
            description = element.args[0] if element.args else None
            label = (description.value if isinstance(description, ast.Constant)
                     and isinstance(description.value, str) else self.positions.text(element)[:40])
            self.add("drop_precondition", self.positions.span(element)[0],
                     f"Precondition({label})", "removed", [(start, end, "")])


def find_mutants(module: str, source: str) -> list[Mutant]:
    """Every single-point mutant of ``source`` (the module named ``module``), sorted by id
    position; raises ``ValueError`` if two mutants would share an id."""
    finder = _Finder(module, source)
    tree = ast.parse(source)
    for statement in tree.body:
        if (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)):
            continue  # a docstring
        finder.visit(statement)
    mutants = sorted(finder.mutants, key=lambda m: (m.line, m.col, m.operator, m.original,
                                                     m.replacement))
    seen: set[str] = set()
    for mutant in mutants:
        if mutant.id in seen:
            raise ValueError(f"two mutants share the id {mutant.id}")
        seen.add(mutant.id)
    return mutants

