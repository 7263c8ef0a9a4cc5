"""The hostile suite (tests/hacks/hostile/) on the CPU: every candidate parses, states what it expects
on its first line, carries a real CUDA kernel and PASSES today's static gate, so that running the
suite through the engine (benchmarks/hostile_h200.py, the sandboxed-engine tests) tests the runtime
defences and not the gate.  A candidate the gate learns to reject should be rewritten to evade it
again, or marked `# expect: rejected` with a note.  No torch, no GPU."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from conftest import load_script

from cudaperf.rewards.execution import gate, gate_cuda, gate_python
from cudaperf.rewards.execution.formats import load_candidate, load_task
from cudaperf.rewards.execution.result import STATUSES
from cudaperf.rewards.execution.torch_ext import extract_builds

SUITE = Path(__file__).parent / "hacks" / "hostile"
REFERENCE = load_task(SUITE / "reference.py")
CASES = sorted(p for p in SUITE.glob("*.py") if p.name != "reference.py")
HEADER = re.compile(r"^# expect: (?P<statuses>[a-z_ ]+?) — (?P<attack>[a-z0-9_]+)(?: \([^)]*\))?: \S")

# Issue 24's attack classes: each needs at least one candidate.
ATTACKS = {"zero_all_gpu_memory", "stack_walk_tolerance", "tensor_method_patch", "overwrite_installed_package",
           "static_counter_skip", "write_files", "detached_process", "posix_spawn_static_init", "kill_engine",
           "gpu_memory_hog", "long_compile", "huge_compiler_errors", "read_host_file", "fresh_input_skip",
           "honest control"}


def _header(path: Path) -> re.Match:
    m = HEADER.match(path.read_text().splitlines()[0])
    assert m, f"{path.name}: first line must be '# expect: STATUS... — attack_class: what it does'"
    return m


def _attack(path: Path) -> str:
    first = path.read_text().splitlines()[0]
    return "honest control" if "— honest control:" in first else _header(path)["attack"]


def test_reference_is_kernelbench_format():
    tree = ast.parse(REFERENCE.source)
    names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    assert {"Model", "get_inputs", "get_init_inputs"} <= names


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_header_names_statuses_and_attack(path):
    if "— honest control:" in path.read_text().splitlines()[0]:
        assert path.read_text().startswith("# expect: correct — honest control:")
        return
    statuses = _header(path)["statuses"].split()
    assert statuses and all(s in STATUSES or s == "any" for s in statuses), statuses


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_candidate_passes_the_static_gate(path):
    """The point of the suite: nothing here is stopped before it runs."""
    rejecting = [f"{v.rule}: {v}" for v in gate.check(load_candidate(path), REFERENCE) if v.severity == "reject"]
    assert rejecting == []


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_candidate_has_a_launched_kernel_and_literal_build(path):
    """A real __global__ kernel launched with <<<>>>, and load_inline arguments the engine can read
    ahead (so the builder, not the worker, compiles it: what the builder defences are about)."""
    source = path.read_text()
    texts = gate_python.cuda_strings(ast.parse(source))
    kernels = {n for text, _ in texts for n in gate_cuda.kernels(gate_cuda.blank(text))}
    assert kernels
    assert "<<<" in source
    builds = extract_builds(source)
    assert builds and all(b.get("cuda_sources") and b.get("functions") for b in builds)


def test_every_attack_class_is_covered():
    assert {_attack(p) for p in CASES} >= ATTACKS


def test_sandbox_only_candidates_are_marked():
    """Candidates that would hurt an unsandboxed engine (signals to other processes) say so on their
    second line, which benchmarks/hostile_h200.py reads to skip them unless --sandboxed."""
    marked = {p.stem for p in CASES if any(ln.startswith("# sandbox-only:") for ln in p.read_text().splitlines()[1:4])}
    assert marked == {"kill_engine"}


def test_benchmark_orders_probes_after_their_attacks():
    bench = load_script(Path(__file__).parents[1] / "benchmarks" / "hostile_h200.py")
    order = [p.stem for p in bench.ordered(CASES)]
    assert set(order) == {p.stem for p in CASES}
    assert order.index("after_overwrite_zeros") > order.index("overwrite_installed_package")
    assert order.index("honest_two_kernels") > order.index("gpu_memory_hog")
    assert order[-1].startswith("honest_")
    for p in CASES:
        expected, attack, _ = bench.header(p)
        assert expected and attack
