"""The tree-sitter-cuda frontend: one parser, and the query files kept in ``grammars/``."""

from __future__ import annotations

import bisect
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

import tree_sitter
import tree_sitter_cuda

LANGUAGE = tree_sitter.Language(tree_sitter_cuda.language())
_PARSER = tree_sitter.Parser(LANGUAGE)

Node = tree_sitter.Node
Tree = tree_sitter.Tree


def parse(data: bytes) -> Tree:
    """The tree of `data`, shared by whoever asks for the same text up to 1 MiB (trees are never
    edited): a file is parsed for its analysis, as a header or unit of its neighbours, for its
    launches, for the index fills of its launches and for lint's spans."""
    return _shared(data) if len(data) <= _SHARED_BYTES else _PARSER.parse(data)


_SHARED_BYTES = 1024 * 1024  # larger trees are not kept past their use


@lru_cache(maxsize=16)
def _shared(data: bytes) -> Tree:
    return _PARSER.parse(data)


def grammar_dir() -> Path:
    """Installed packages carry grammars/ as ``cudaperf.grammars``; a source checkout has it at the top
    (a sandbox that runs the analyzer must let it read there)."""
    try:   # a namespace package's files() is a MultiplexedPath: a file in it is a real path
        installed = resources.files("cudaperf.grammars").joinpath("types.scm")
        if installed.is_file():
            return Path(str(installed)).parent
    except ModuleNotFoundError:
        pass
    return Path(__file__).resolve().parents[2] / "grammars"


def _grammar_file(name: str) -> str:
    return (grammar_dir() / name).read_text()


@cache
def query(name: str) -> tree_sitter.Query:
    """Load ``grammars/<name>.scm`` once."""
    return tree_sitter.Query(LANGUAGE, _grammar_file(f"{name}.scm"))


# queries asked of the same tree, run as one: a query's cost is mostly its walk of the tree, and
# a file's scope asks the first three, its launches the last three
_GROUPS = (("types", "functions", "globals"), ("launches", "aliases", "calls"))
_GROUP_OF = {name: group for group in _GROUPS for name in group}


def matches(name: str, node: Node) -> list[dict[str, list[Node]]]:
    group = _GROUP_OF.get(name)
    if group is None:
        return [captures for _, captures in tree_sitter.QueryCursor(query(name)).matches(node)]
    return list(_group_matches(group, node)[group.index(name)])


@cache
def _grouped(group: tuple[str, ...]) -> tuple[tree_sitter.Query, tuple[int, ...]]:
    """The group's queries as one, and the index of each one's first pattern in it (and the end)."""
    counts = [query(name).pattern_count for name in group]
    return (tree_sitter.Query(LANGUAGE, "\n".join(_grammar_file(f"{name}.scm") for name in group)),
            tuple(sum(counts[:i]) for i in range(len(counts) + 1)))


@lru_cache(maxsize=8)  # holding `node` keeps its tree alive, so no other tree's node can take its place
def _group_matches(group: tuple[str, ...], node: Node) -> tuple[list[dict[str, list[Node]]], ...]:
    """Each query of the group's matches under `node`, from one walk (in the order it alone gives)."""
    combined, starts = _grouped(group)
    found: tuple[list[dict[str, list[Node]]], ...] = tuple([] for _ in group)
    for pattern, captures in tree_sitter.QueryCursor(combined).matches(node):
        found[bisect.bisect_right(starts, pattern) - 1].append(captures)
    return found


def text(node: Node | None) -> str:
    spelled = node.text if node is not None else None  # each read of `.text` copies the bytes: read once
    return spelled.decode(errors="replace") if spelled is not None else ""


def descendants(node: Node):
    """The node and every named node below it, in source order (walked with a cursor: building
    each node's list of named children cost about three times as much)."""
    yield node
    if not hasattr(node, "walk"):  # a list of nodes made a block (lower.statements._Block)
        for child in node.named_children:
            yield from descendants(child)
        return
    cursor = node.walk()
    if not cursor.goto_first_child():
        return
    depth = 1
    while True:
        below = cursor.node
        if below.is_named:
            yield below
        if cursor.goto_first_child():
            depth += 1
            continue
        while not cursor.goto_next_sibling():
            cursor.goto_parent()
            depth -= 1
            if depth == 0:
                return


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
