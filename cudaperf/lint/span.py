"""Where a finding ends: the expression it points at (`in[i * 32]`, `k(const float* in)`,
`(threadIdx.x % 2)`), so editors and code-scanning services underline the smell, not one character."""

from __future__ import annotations

from ..analysis import parse

# Nodes an identifier grows into while they start at the same place: `a` -> `a[i]` -> `a[i].x`.
_POSTFIX = frozenset({"subscript_expression", "field_expression", "call_expression", "template_function",
                      "qualified_identifier"})
# Nodes whose head ends at one of their fields: a kernel at its declarator, a branch at its condition.
_HEAD = {"function_definition": "declarator", "if_statement": "condition", "while_statement": "condition",
         "switch_statement": "condition"}


class Spans:
    """One parse of a file's text, asked for the end of each finding."""

    def __init__(self, text: str):
        data = text.encode()
        self.root = parse.parse(data).root_node
        self.lines = data.split(b"\n")

    def end(self, line: int, column: int) -> tuple[int, int]:
        """1-based end line and exclusive end column of the expression starting at 1-based (line,
        column), cut at the end of that line; (line, column) itself where nothing starts there."""
        point = (line - 1, column - 1)
        node = self.root.named_descendant_for_point_range(point, point)
        if node is None or tuple(node.start_point) != point:
            return line, column
        while node.parent is not None and tuple(node.parent.start_point) == point and node.parent.type in _POSTFIX:
            node = node.parent
        head = node.child_by_field_name(_HEAD[node.type]) if node.type in _HEAD else None
        row, col = (head or node).end_point
        if row != point[0]:
            return line, len(self.lines[point[0]]) + 1
        return line, col + 1
