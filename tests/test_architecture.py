"""The package's arrows, read from the source with `ast` (every import, also those inside functions;
not those under `if TYPE_CHECKING:`): the analysis core imports nothing outward, no module circles
back to itself through others, and rewards, analysis and lint do not reach up into rl."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parents[1] / "cudaperf"
# rewards reaching into rl: none, the whole-candidate cost model sits below both (cudaperf.costmodel);
# a new arrow upwards fails, and so does a listed one that is gone (update the list then)
KNOWN_UPWARD: set[tuple[str, str]] = set()
# circles left beyond a package whose __init__ holds helpers its submodules import: none
KNOWN_CIRCLES: list[set[str]] = []


def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_only(tree: ast.AST) -> set[int]:
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip |= {id(n) for child in node.body for n in ast.walk(child)}
    return skip


def _graph() -> nx.DiGraph:
    modules = {_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = nx.DiGraph()
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        graph.add_node(name)
        tree = ast.parse(path.read_text())
        skip = _type_checking_only(tree)
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                targets = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in modules] or [target]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif _lazy_exports(node):  # `__getattr__` imports these on first use: arrows all the same
                targets = [f"{package}.{v.value}" for v in node.value.values]
            else:
                continue
            graph.add_edges_from((name, t) for t in targets if t in modules and t != name)
    return graph


def _lazy_exports(node: ast.AST) -> bool:
    """`_EXPORTS = {name: module}` of a package whose `__getattr__` imports `.module` on first use."""
    return isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_EXPORTS" for t in node.targets) \
        and isinstance(node.value, ast.Dict)


GRAPH = _graph()
# The arrows between the package's parts, all of them: which part imports which (rewards' execution
# engine is a part of its own, as the cost model sits between it and the rest of rewards).  A new
# arrow fails, and so does a listed one that is gone (update the map then); no arrow points back up.
PART_ARROWS = {
    "analysis": set(),
    "lint": {"analysis"},
    "rewards.execution": {"analysis"},
    "costmodel": {"analysis", "rewards.execution"},
    "rewards": {"analysis", "costmodel", "rewards.execution"},
    "rl": {"analysis", "costmodel", "lint", "rewards", "rewards.execution"},
}



def _part(module: str) -> str | None:
    parts = module.split(".")[1:]
    part = ".".join(parts[:2]) if parts[:2] == ["rewards", "execution"] else parts[0] if parts else None
    return part if part in PART_ARROWS else None


def test_the_analysis_core_imports_nothing_outward():
    outward = [(a, b) for a, b in GRAPH.edges
               if a.startswith("cudaperf.analysis") and not b.startswith("cudaperf.analysis")]
    assert outward == []


def test_rewards_analysis_and_lint_do_not_reach_up_into_rl():
    below = ("cudaperf.rewards", "cudaperf.analysis", "cudaperf.lint")
    upward = {(a, b) for a, b in GRAPH.edges if a.startswith(below) and b.startswith("cudaperf.rl")}
    assert upward == KNOWN_UPWARD


def test_the_parts_import_each_other_only_along_the_pinned_arrows():
    found: dict[str, set[str]] = {part: set() for part in PART_ARROWS}
    for a, b in GRAPH.edges:
        if _part(a) and _part(b) and _part(a) != _part(b):
            found[_part(a)].add(_part(b))
    assert found == PART_ARROWS
    arrows = nx.DiGraph([(a, b) for a, to in PART_ARROWS.items() for b in to])
    assert nx.is_directed_acyclic_graph(arrows)


def test_no_module_circles_back_to_itself():
    circles = [c for c in nx.strongly_connected_components(GRAPH) if len(c) > 1]
    left = [c for c in circles if c not in KNOWN_CIRCLES and not _package_and_its_modules(c)]
    assert left == []
    assert all(c in circles for c in KNOWN_CIRCLES)


def test_the_cost_model_sits_below_rewards_and_rl():
    """cudaperf.costmodel (a kernel's time terms, the ranker, a whole candidate's estimate) imports
    neither rewards' scoring side nor rl; both import it."""
    cost = [(a, b) for a, b in GRAPH.edges if a.startswith("cudaperf.costmodel")]
    assert not [(a, b) for a, b in cost if b.startswith("cudaperf.rl")]
    assert not [(a, b) for a, b in cost if b.startswith("cudaperf.rewards") and not b.startswith(
        "cudaperf.rewards.execution")]
    assert GRAPH.has_edge("cudaperf.rewards.triage", "cudaperf.costmodel.model")
    assert GRAPH.has_edge("cudaperf.rewards.scoring", "cudaperf.costmodel.candidates")


def test_the_engine_s_former_circles_stay_broken():
    """gate.py and its scanners share gate_rules.py; api.py and cluster.py share options.py."""
    assert not GRAPH.has_edge("cudaperf.rewards.execution.gate_cuda", "cudaperf.rewards.execution.gate")
    assert not nx.has_path(GRAPH, "cudaperf.rewards.execution.cluster", "cudaperf.rewards.execution.api")


def _package_and_its_modules(circle: set[str]) -> bool:
    """A package's __init__ and the submodules that import helpers from it: every circle runs
    through the __init__ (without it the submodules import one another in one direction only)."""
    roots = [m for m in circle if all(other == m or other.startswith(m + ".") for other in circle)]
    return bool(roots) and nx.is_directed_acyclic_graph(GRAPH.subgraph(circle - set(roots)))
