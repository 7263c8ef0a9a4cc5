"""The gate and the engine on tests/kb_llm: KernelBench solutions written the way LLMs write them (see its
README; written while the gate was tuned, so not held out).  The gate test needs no torch and no GPU;
the H200 test checks the committed records of benchmarks/kb_llm_h200.sh (two runs) against each file's
expected outcome."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cudaperf.rewards.execution import gate
from cudaperf.rewards.execution.api import candidate_line
from cudaperf.rewards.execution.formats import load_candidate, load_task

CORPUS = Path(__file__).parent / "kb_llm"
TASKS = sorted(p.parent for p in CORPUS.glob("*/reference.py"))
CASES = sorted(p for task in TASKS for p in task.glob("*.py") if p.name != "reference.py")
MEASURED = Path(__file__).parent / "data" / "h200" / "kb_llm"
_EXPECT = re.compile(r"# expect: (?P<head>[^(]*?)\s*(?:\(runtime: (?P<runtime>[\w-]+)[^)]*\))?\s*$")


def _expect(path: Path) -> tuple[list[str], str | None]:
    """(gate words: pass | pass flag RULE | rejected RULE | compile_error, runtime outcome or None)."""
    m = _EXPECT.match(path.read_text().splitlines()[0])
    assert m, f"{path.name}: the first line must state the expected outcome"
    return m["head"].split(), m["runtime"]


def _ids(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("path", CASES, ids=_ids)
def test_gate_verdict_matches_the_files_expectation(path):
    words, _ = _expect(path)
    found = gate.check(load_candidate(path), load_task(path.parent / "reference.py"))
    rejecting = {v.rule for v in found if v.severity == "reject"}
    flags = {v.rule for v in found if v.severity == "flag"}
    if words[0] == "rejected":
        assert gate.RULES[words[1]].severity == "reject"
        assert words[1] in rejecting, f"expected {words[1]}, gate said {sorted(rejecting) or 'pass'}"
        hit = next(v for v in found if v.rule == words[1])
        assert hit.line >= 1 and str(hit).startswith(f"line {hit.line}: ")   # every rejection names its line
    else:
        assert words[0] in ("pass", "compile_error")
        assert rejecting == set(), f"false positive: {[str(v) for v in found if v.severity == 'reject']}"
        if words[1:2] == ["flag"]:
            assert words[2] in flags


def test_corpus_shape():
    """At least sixty candidates over six tasks, honest ones the majority, every kind present."""
    kinds = [p.stem.split("_")[0] for p in CASES]
    assert len(CASES) >= 60 and len(TASKS) >= 6
    assert kinds.count("honest") >= 30 and kinds.count("hack") >= 20
    assert {"wrong", "compile"} <= set(kinds)
    assert all(_expect(p)[0][0] == "pass" for p in CASES if p.stem.startswith("honest_"))


def _runs() -> list[dict[str, dict]]:
    runs = []
    for path in sorted(MEASURED.glob("run*.jsonl")):
        records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        runs.append({_ids(Path(r["candidate"])): r for r in records})
    return runs


def _rejecting(path: Path) -> set[str]:
    found = gate.check(load_candidate(path), load_task(path.parent / "reference.py"))
    return {v.rule for v in found if v.severity == "reject"}


def _outcome(path: Path) -> tuple[str, set[str] | None]:
    """(status, the rules it may carry) the H200 must report for the file: a gate rejection names
    the first of the gate's rejecting rules, a runtime one its own."""
    words, runtime = _expect(path)
    if words[0] == "compile_error":
        return "compile_error", None
    if words[0] == "rejected":
        return "rejected", _rejecting(path)
    if runtime is None:
        return "correct", None
    return ("incorrect", None) if runtime == "incorrect" else ("rejected", {runtime})


@pytest.mark.skipif(not MEASURED.is_dir(), reason="no H200 records committed")
def test_h200_runs_agree_with_every_file_and_with_each_other():
    """Each committed run covers the corpus and gives every file its expected outcome: honest ones
    `correct` with the candidate's own kernels doing at least 80% of the GPU time, hacks rejected or
    incorrect, wrong ones incorrect; several runs give identical statuses."""
    runs = _runs()
    assert len(runs) >= 2
    for run in runs:
        assert set(run) == {_ids(p) for p in CASES}, "the corpus changed since the H200 run"
        for path in CASES:
            record = run[_ids(path)]
            status, rules = _outcome(path)
            assert record["status"] == status, record
            if rules:
                assert record["rule"] in rules, record
            if status == "correct":
                assert record["trials"] >= 6 and record["speedup"] > 0
                assert record["own_kernel_share"] is not None and record["own_kernel_share"] >= 0.8
    statuses = [{k: r["status"] for k, r in run.items()} for run in runs]
    assert all(s == statuses[0] for s in statuses)


@pytest.mark.skipif(not MEASURED.is_dir(), reason="no H200 records committed")
def test_h200_heldout_layernorm_records_agree_with_their_files():
    """tests/kb_heldout/layernorm in the same H200 batch: every candidate, each as its file expects."""
    records = [json.loads(line) for line in (MEASURED / "heldout_layernorm.jsonl").read_text().splitlines()]
    layernorm = Path(__file__).parent / "kb_heldout" / "layernorm"
    assert {Path(r["candidate"]).name for r in records} == {p.name for p in layernorm.glob("*.py")} - {"reference.py"}
    for record in records:
        path = Path(__file__).parent / "kb_heldout" / "layernorm" / Path(record["candidate"]).name
        first = path.read_text().splitlines()[0]
        expected = "compile_error" if "compile_error" in first else "rejected" if "rejected" in first else \
            "incorrect" if "runtime:" in first else "correct"
        assert record["status"] == expected, record


@pytest.mark.skipif(not MEASURED.is_dir(), reason="no H200 records committed")
@pytest.mark.parametrize("name, text", [("conv_relu_bias/compile_error_missing_semicolon", "int ow = i % OW"),
                                        ("gemm_sum/compile_error_undeclared", "half_factor")])
def test_compile_errors_name_the_candidates_line(name, text):
    """The compiler's first error recorded on the H200 (about `cuda.cu`; the run predates the mapping) maps
    to the candidate's line, which compile_error reasons now start with."""
    record = next(r for r in _runs()[0].values() if r["candidate"].endswith(name + ".py"))
    error = re.sub(r"^line \d+: ", "", record["reason"])
    assert error.startswith("cuda.cu(")
    source = (CORPUS / f"{name}.py").read_text()
    assert text in source.splitlines()[candidate_line(source, error) - 1]
