"""The access graph: a networkx DiGraph over a kernel's IR.

Nodes are the kernel, its loops, branches, barriers and memory accesses (attribute ``stmt``
holds the IR object, ``kind`` its type).  ``contains`` edges give nesting in program order
(``order``; for branches ``side`` says then/else); ``feeds`` edges run from a load to every
access, branch or loop whose index or condition uses the loaded value, which is what makes an
access indirect or a branch data-dependent.  Analyses walk it through ``contexts``.
"""

from __future__ import annotations

from collections.abc import Iterator

import networkx as nx

from .ir import Access, Barrier, Branch, Kernel, Loop, Stmt
from .symbolic import loads_in

KERNEL = "kernel"


def build(kernel: Kernel) -> nx.DiGraph:
    g = nx.DiGraph(name=kernel.name)
    g.add_node(KERNEL, kind="kernel", stmt=kernel, context=())
    order = 0

    def add(stmts: list[Stmt], parent, context: tuple, side: bool | None) -> None:
        nonlocal order
        for stmt in stmts:
            order += 1
            g.add_node(stmt.id, kind=type(stmt).__name__.lower(), stmt=stmt, context=context, line=stmt.line)
            g.add_edge(parent, stmt.id, relation="contains", order=order, side=side)
            if isinstance(stmt, Loop):
                add(stmt.body, stmt.id, context + (stmt,), None)
            elif isinstance(stmt, Branch):
                add(stmt.then, stmt.id, context + ((stmt, True),), True)
                add(stmt.orelse, stmt.id, context + ((stmt, False),), False)

    add(kernel.body, KERNEL, (), None)
    for node, data in list(g.nodes(data=True)):
        stmt = data["stmt"]
        exprs = [stmt.offset] if isinstance(stmt, Access) else [stmt.condition] if isinstance(stmt, Branch) else \
            [stmt.init, stmt.condition, stmt.update] if isinstance(stmt, Loop) else []
        for expr in exprs:
            for load in loads_in(expr):
                if load.access_id in g:
                    g.add_edge(load.access_id, node, relation="feeds")
    return g


def statements(g: nx.DiGraph, kind: type) -> Iterator[tuple[Stmt, tuple]]:
    """IR statements of one type with their context (enclosing loops and branch sides), in program
    order: the order `build` adds them in, which networkx keeps."""
    for data in g.nodes.values():
        if isinstance(data["stmt"], kind):
            yield data["stmt"], data["context"]


def accesses(g: nx.DiGraph) -> Iterator[tuple[Access, tuple]]:
    return statements(g, Access)


def branches(g: nx.DiGraph) -> Iterator[tuple[Branch, tuple]]:
    return statements(g, Branch)


def barriers(g: nx.DiGraph) -> Iterator[tuple[Barrier, tuple]]:
    return statements(g, Barrier)


def loops(g: nx.DiGraph) -> Iterator[tuple[Loop, tuple]]:
    return statements(g, Loop)


def data_dependent(g: nx.DiGraph, node) -> bool:
    """Does a loaded value reach this node (its index or condition)?"""
    return any(g.edges[p, node]["relation"] == "feeds" for p in g.predecessors(node))
