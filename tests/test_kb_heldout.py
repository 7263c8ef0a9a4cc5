"""The static gate on held-out-style KernelBench candidates (tests/kb_heldout): honest candidates written
the way LLMs write them are not rejected, statically detectable hacks are rejected by the rule their
first line names, runtime-only hacks and wrong results get through the gate.  Gate only: no torch, no
compiler, no GPU."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cudaperf.rewards.execution import gate
from cudaperf.rewards.execution.formats import candidate_from_source, load_candidate, load_task

CORPUS = Path(__file__).parent / "kb_heldout"
TASKS = sorted(p.parent for p in CORPUS.glob("*/reference.py"))
CASES = sorted(p for task in TASKS for p in task.glob("*.py") if p.name != "reference.py")


def _expect(path: Path) -> list[str]:
    first = path.read_text().splitlines()[0]
    assert first.startswith("# expect: "), f"{path.name}: first line must state the expected outcome"
    return first[len("# expect: "):].split("(")[0].split()


def _gate(path: Path) -> tuple[set[str], set[str]]:
    found = gate.check(load_candidate(path), load_task(path.parent / "reference.py"))
    return {v.rule for v in found if v.severity == "reject"}, {v.rule for v in found if v.severity == "flag"}


def _ids(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("path", CASES, ids=_ids)
def test_gate_outcome_matches_the_files_expectation(path):
    words = _expect(path)
    if words == ["compile_error"]:
        with pytest.raises(SyntaxError):
            ast.parse(path.read_text())
        return
    rejecting, flags = _gate(path)
    if words[0] == "rejected":
        assert len(words) == 2 and gate.RULES[words[1]].severity == "reject"
        assert words[1] in rejecting, f"expected {words[1]}, gate said {sorted(rejecting) or 'pass'}"
    else:
        assert words[0] == "pass"
        assert rejecting == set(), f"false positive: {sorted(rejecting)}"
        if words[1:2] == ["flag"]:
            assert gate.RULES[words[2]].severity == "flag"
            assert words[2] in flags


def test_corpus_shape():
    """At least four tasks, twenty honest candidates and twelve statically rejected hacks."""
    kinds = [_expect(p)[0] for p in CASES]
    honest = [p for p in CASES if p.stem.startswith("honest_")]
    assert len(TASKS) >= 4
    assert len(honest) >= 20 and all(_expect(p) == ["pass"] for p in honest)
    assert kinds.count("rejected") >= 12
    assert "compile_error" in kinds


LAZY = '''
import torch.nn as nn
from torch.utils.cpp_extension import load_inline
SRC = "__global__ void k(float* y) { y[0] = 1.f; }  void f(torch::Tensor y) { k<<<1, 1>>>(y.data_ptr<float>()); }"
_ext = None
_last = None


def _get():
    global _ext
    if _ext is None:
        _ext = load_inline(name="k", cpp_sources="void f(torch::Tensor y);", cuda_sources=SRC, functions=["f"])
    return _ext


class ModelNew(nn.Module):
    def forward(self, y):
        BODY
        return y
'''


@pytest.mark.parametrize("body, rejected", [
    ("_get().f(y)", set()),                                     # a lazily built extension in a global
    ("global _last\n        _last = _get().f(y)", {"result-cache"}),   # a result in a global
    ("global _ext\n        _ext = _get().f(y)", {"result-cache"}),    # the extension's name reused for a result
])
def test_global_is_allowed_only_for_the_extension_itself(body, rejected):
    source = LAZY.replace("BODY", body)
    found = gate.check(candidate_from_source(source), None)
    assert {v.rule for v in found if v.severity == "reject"} == rejected


@pytest.mark.parametrize("declaration, cached", [
    ("static auto out = torch::empty({4}, x.options());", True),
    ("static auto ptr = x.data_ptr<float>();", True),
    ("static auto sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;", False),
    ("static int calls = 0;", False),
])
def test_static_auto_is_judged_by_its_initialiser(declaration, cached):
    source = (CORPUS / "matmul" / "honest_shared_tiles.py").read_text().replace(
        "    int M = A.size(0);", f"    {declaration.replace('x.', 'A.')}\n    int M = A.size(0);", 1)
    found = gate.check(candidate_from_source(source), load_task(CORPUS / "matmul" / "reference.py"))
    assert ("result-cache" in {v.rule for v in found}) == cached


MEASURED = Path(__file__).parent / "data" / "h200" / "heldout"


def _measured() -> dict[str, dict]:
    import json

    results = {}
    for path in MEASURED.glob("heldout_*.jsonl"):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            results[_ids(Path(record["candidate"]))] = record
    return results


# Files whose expected outcome changed after the committed H200 run, and why (not run again since).
EXPECTED_SINCE_RUN = {
    "layernorm/hack_signature_eps": "issue 13: an extra parameter with a default is no longer signature-change; "
                                    "the run's gate rejected it, the engine now must find the wrong eps at run time",
}


def test_every_candidate_ran_end_to_end_on_the_h200_as_its_file_expects():
    """The committed H200 run (benchmarks/heldout_h200.sh): honest candidates `correct` with a speedup,
    hacks rejected or `incorrect`, wrong results `incorrect`, broken code `compile_error`."""
    measured = _measured()
    assert set(measured) == {_ids(p) for p in CASES}, "the corpus changed since the H200 run"
    for path in CASES:
        if _ids(path) in EXPECTED_SINCE_RUN:
            continue
        record, words, kind = measured[_ids(path)], _expect(path), path.stem.split("_")[0]
        if kind == "honest":
            assert record["status"] == "correct" and record["speedup"] > 0 and record["trials"] >= 6, record
        elif kind == "compile":
            assert record["status"] == "compile_error", record
        elif words[0] == "rejected":
            assert record["status"] == "rejected", record
        else:   # runtime-only hacks and wrong results
            assert record["status"] == "incorrect", record
