"""The tree-sitter-cuda frontend: one parser, and the query files kept in ``grammars/``."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

import tree_sitter
import tree_sitter_cuda

LANGUAGE = tree_sitter.Language(tree_sitter_cuda.language())
_PARSER = tree_sitter.Parser(LANGUAGE)

Node = tree_sitter.Node
Tree = tree_sitter.Tree


def parse(data: bytes) -> Tree:
    return _PARSER.parse(data)


def _grammar_file(name: str) -> str:
    """Installed packages carry grammars/ as ``cudaperf.grammars``; a source checkout has it at the top."""
    try:
        installed = resources.files("cudaperf.grammars").joinpath(name)
        if installed.is_file():
            return installed.read_text()
    except ModuleNotFoundError:
        pass
    return (Path(__file__).resolve().parents[2] / "grammars" / name).read_text()


@cache
def query(name: str) -> tree_sitter.Query:
    """Load ``grammars/<name>.scm`` once."""
    return tree_sitter.Query(LANGUAGE, _grammar_file(f"{name}.scm"))


def matches(name: str, node: Node) -> list[dict[str, list[Node]]]:
    return [captures for _, captures in tree_sitter.QueryCursor(query(name)).matches(node)]


def text(node: Node | None) -> str:
    spelled = node.text if node is not None else None  # each read of `.text` copies the bytes: read once
    return spelled.decode(errors="replace") if spelled is not None else ""


def descendants(node: Node):
    """The node and every named node below it, in source order."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.named_children))


def enclosing_function(node: Node) -> Node | None:
    """The function definition holding `node` (itself if it is one), or None."""
    while node is not None and node.type != "function_definition":
        node = node.parent
    return node


def position(node: Node) -> tuple[int, int]:
    """1-based line and column of a node's start."""
    row, col = node.start_point
    return row + 1, col + 1


def error_nodes(root: Node, limit: int = 50) -> list[Node]:
    """ERROR and MISSING nodes, outermost first; a bounded walk so huge broken files stay fast."""
    found: list[Node] = []
    stack = [root]
    while stack and len(found) < limit:
        node = stack.pop()
        if node.is_error or node.is_missing:
            found.append(node)
            continue
        if node.has_error:
            stack.extend(reversed(node.children))
    return found


def call_heading_block(statement: Node | None, following: Node | None) -> Node | None:
    """The call in `NAME(args)` written without its `;` before a block (`KERNEL_LOOP(i, B * N) {...}`:
    a loop macro whose arguments the grammar could not read as a declaration), else None."""
    call = statement.named_children[0] if statement is not None and statement.type == "expression_statement" \
        and len(statement.named_children) == 1 else None
    if call is None or call.type != "call_expression" or text(statement).rstrip().endswith(";") or \
            following is None or following.type != "compound_statement" or \
            call.child_by_field_name("function").type != "identifier":
        return None
    return call

