"""Ranges the code around a launch guarantees for the variables it passes to the kernel.

`if (len > 1024) k<<<1, 1024>>>(len);` and `if (n <= 32) return; ... k<<<g, b>>>(n);` launch only
with values the condition allows: the enclosing `if` (its `else` side negated) and the earlier
`if (...) return;` (`continue`, `break`) of the enclosing blocks.  Only relations of a plain
variable with a value the host code fixes count, and only while nothing between the test and
the launch assigns the variable.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator

from .parse import Node, text

Range = tuple[float, float]  # lowest and highest integer value, +-inf when unbounded
_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}
_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!="}
_LEAVES = ("return_statement", "continue_statement", "break_statement")


def argument_ranges(launch: Node, constant: Callable[[Node], float | None]) -> dict[str, Range]:
    """Ranges of variables at `launch`; `constant(node)` is the value the host code fixes for an
    expression, or None."""
    ranges: dict[str, Range] = {}
    for condition, holds in _facts(launch):
        for variable, relation, value in _relations(condition, holds, constant):
            name = text(variable)
            if _assigned(name, condition, launch):
                continue
            lo, hi = ranges.get(name, (-math.inf, math.inf))
            if relation in (">", ">=", "=="):
                lo = max(lo, math.floor(value) + 1 if relation == ">" else math.ceil(value))
            if relation in ("<", "<=", "=="):
                hi = min(hi, math.ceil(value) - 1 if relation == "<" else math.floor(value))
            ranges[name] = (lo, hi)
    return ranges


_HOLDS = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
          ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


def unreachable(launch: Node, constant: Callable[[Node], float | None]) -> bool:
    """Does a condition around the launch fail for a value the host code fixes (`if (block_size ==
    16) k<16><<<grid, threads>>>(...)` where block_size is 32 everywhere)?  Then the launch never
    runs, and its template arguments and block must not be paired."""
    for condition, holds in _facts(launch):
        for variable, relation, value in _relations(condition, holds, constant):
            known = constant(variable)
            if known is not None and not _assigned(text(variable), condition, launch) and \
                    not _HOLDS[relation](known, value):
                return True
    return False


def _facts(launch: Node) -> Iterator[tuple[Node, bool]]:
    """Conditions that hold (True) or fail (False) wherever the launch runs."""
    node = launch
    while node.parent is not None and node.type != "function_definition":
        parent = node.parent
        if parent.type == "if_statement":
            condition = parent.child_by_field_name("condition")
            if node == parent.child_by_field_name("consequence"):
                yield condition, True
            elif node == parent.child_by_field_name("alternative"):
                yield condition, False
        elif parent.type == "compound_statement":
            for earlier in parent.named_children:
                if earlier.start_byte >= node.start_byte:
                    break
                if earlier.type == "if_statement" and earlier.child_by_field_name("alternative") is None \
                        and _leaves(earlier.child_by_field_name("consequence")):
                    yield earlier.child_by_field_name("condition"), False
        node = parent


def _leaves(statement: Node | None) -> bool:
    if statement is not None and statement.type == "compound_statement":
        body = [c for c in statement.named_children if c.type != "comment"]
        statement = body[-1] if body else None
    return statement is not None and statement.type in _LEAVES


def _relations(condition: Node, holds: bool, constant) -> Iterator[tuple[Node, str, float]]:
    """(variable, relation, value) facts of a condition known to hold or to fail."""
    while condition.type in ("condition_clause", "parenthesized_expression") and condition.named_children:
        condition = condition.child_by_field_name("value") or condition.named_children[0]
    if condition.type == "unary_expression" and text(condition.child_by_field_name("operator")) == "!":
        yield from _relations(condition.child_by_field_name("argument"), not holds, constant)
        return
    if condition.type != "binary_expression":
        return
    operator = text(condition.child_by_field_name("operator"))
    left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
    if operator == ("&&" if holds else "||"):
        for side in (left, right):
            yield from _relations(side, holds, constant)
        return
    relation = operator if holds else _NEGATED.get(operator)
    for variable, bound, as_written in ((left, right, True), (right, left, False)):
        if relation in _FLIPPED and variable.type == "identifier":
            value = constant(bound)
            if value is not None:
                yield variable, relation if as_written else _FLIPPED[relation], value
                return


def _assigned(name: str, condition: Node, launch: Node) -> bool:
    """Is the variable written between the test and the launch?"""
    function = launch
    while function.parent is not None and function.type != "function_definition":
        function = function.parent
    between = function.text[condition.end_byte - function.start_byte:launch.start_byte - function.start_byte]
    variable = re.escape(name.encode())
    written = rb"\b%s\s*(?:[-+*/%%&|^]|<<|>>)?=(?!=)|(?:\+\+|--)\s*%s\b|\b%s\s*(?:\+\+|--)" % ((variable,) * 3)
    return re.search(written, between) is not None
