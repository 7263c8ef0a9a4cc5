"""Questions the lowering asks of syntax trees alone (no environment): names, jumps, assignments."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..parse import Node, descendants, text

_JUMPS = ("break_statement", "continue_statement", "goto_statement")


def _jumps(node: Node | None) -> bool:
    """Does a break, continue or goto leave a loop early, or a switch case, somewhere under node?"""
    return node is not None and any(n.type in _JUMPS for n in descendants(node))


def _addressed_names(node: Node | None) -> set[str]:
    """Local variables whose address a call receives (`swap((void**)&p, &q)`)."""
    names: set[str] = set()
    for n in descendants(node) if node is not None else ():
        if n.type == "argument_list":
            _add_addressed(n, names)
    return names


def _add_addressed(arguments: Node, names: set[str]) -> None:
    """Add the local variables whose address the argument list passes."""
    for arg in arguments.named_children:
        while arg.type in ("cast_expression", "parenthesized_expression") and arg.named_children:
            arg = arg.named_children[-1]
        inner = arg.child_by_field_name("argument") if arg.type == "pointer_expression" else None
        if inner is not None and text(arg.child_by_field_name("operator")) == "&" and inner.type == "identifier":
            names.add(text(inner))


_WRITES = {"assignment_expression": "left", "update_expression": "argument"}  # what each kind writes


@dataclass
class LoopParts:
    """What the lowering of a loop asks of its body and of its header's update, found in one walk
    of each (it walked them four times, again at every level of nesting)."""

    assigned: set[str] = field(default_factory=set)  # variables assigned or incremented
    writes: Counter[str] = field(default_factory=Counter)  # assignments and increments per target as spelled
    jumps: bool = False  # a break, continue or goto (_jumps)
    addressed: set[str] = field(default_factory=set)  # variables whose address a call receives (_addressed_names)


def loop_parts(node: Node | None, addresses: bool) -> LoopParts:
    """`node`'s LoopParts; `addressed` only when `addresses` asks for it."""
    parts = LoopParts()
    for n in descendants(node) if node is not None else ():
        kind = n.type
        if kind in _WRITES:
            target = n.child_by_field_name(_WRITES[kind])
            spelled = text(target)
            parts.writes[spelled] += 1
            if target is not None and target.type == "identifier":
                parts.assigned.add(spelled)
        elif kind in _JUMPS:
            parts.jumps = True
        elif kind == "argument_list" and addresses:
            _add_addressed(n, parts.addressed)
    return parts


def _condition_text(node: Node) -> str:
    """A condition as written, without the parentheses of `if (...)` around it (but keeping those
    of `(float)x > (float)y`, which a plain strip would cut)."""
    spelled = text(node).strip()
    while spelled.startswith("(") and spelled.endswith(")") and _balanced(spelled[1:-1]):
        spelled = spelled[1:-1].strip()
    return spelled


def _balanced(spelled: str) -> bool:
    depth = 0
    for ch in spelled:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def _root_identifier(node: Node | None) -> str | None:
    """`s` of `s.a[2].b`: the variable a member or element expression starts from."""
    while node is not None and node.type in ("field_expression", "subscript_expression", "parenthesized_expression"):
        node = node.child_by_field_name("argument") if node.type != "parenthesized_expression" else \
            (node.named_children[0] if node.named_children else None)
    return text(node) if node is not None and node.type == "identifier" else None


def _unparenthesized(node: Node | None) -> Node | None:
    while node is not None and node.type in ("condition_clause", "parenthesized_expression") and node.named_children:
        node = node.named_children[-1]
    return node


def _identifiers(node: Node) -> set[str]:
    return {text(n) for n in descendants(node) if n.type == "identifier"}


def _mentions(node: Node | None, names: set[str]) -> bool:
    return node is not None and bool(_identifiers(node) & names)


def _comma_parts(node: Node | None) -> list[Node]:
    """`a += s, b += t` -> [`a += s`, `b += t`] (a single expression: itself; none: [])."""
    if node is None:
        return []
    if node.type != "comma_expression":
        return [node]
    return [part for child in node.named_children for part in _comma_parts(child)]
