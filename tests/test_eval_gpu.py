"""The engine on a real GPU (run on the H200, see tests/data/h200/eval/): honest candidates correct
with plausible speedups, every runtime hack incorrect or rejected, compile errors, hung kernels and
sticky CUDA errors contained, workers recycled and cleaned up.  Results are written as JSON lines to
$CUDAPERF_EVAL_RESULTS when set."""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import child_pids

from cudaperf.rewards.execution import driver
from cudaperf.rewards.execution.api import Evaluator, Options
from cudaperf.rewards.execution.formats import load_candidate, load_task

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(driver.device_count() == 0, reason="needs an NVIDIA GPU")]
pytest.importorskip("torch")

ROOT = Path(__file__).parents[1]
RUNTIME = ROOT / "tests" / "hacks" / "runtime"
SCALE_ADD = ROOT / "examples" / "eval" / "scale_add"


def _expected(path: Path) -> str:
    first = path.read_text().splitlines()[0]
    return first.split(":", 1)[1].strip()


def _save(by_name: dict) -> None:
    if os.environ.get("CUDAPERF_EVAL_RESULTS"):
        with open(os.environ["CUDAPERF_EVAL_RESULTS"], "w") as f:
            for name, r in by_name.items():
                f.write(json.dumps({"case": name, **r.to_json()}) + "\n")


@pytest.fixture(scope="module")
def run():
    before = child_pids()
    evaluator = Evaluator(Options(run_timeout=20, compile_timeout=300))   # saxpy_c's CPU reference: 8 s of timing
    task = load_task(SCALE_ADD / "reference.py")
    cases = sorted(RUNTIME.iterdir())
    examples = [SCALE_ADD / "candidate_native.cu", SCALE_ADD / "candidate_kernelbench.py"]
    hacks = ROOT / "tests" / "hacks"
    linear = load_candidate(hacks / "honest_linear_relu.py")
    with ThreadPoolExecutor(1) as side:  # a second task's extension builds while the batch runs
        linear_stage = side.submit(evaluator.prepare, load_task(hacks / "reference.py"), linear)
        results = evaluator.evaluate_many(task, [load_candidate(p) for p in [*cases, *examples]])
        by_name = {Path(r.candidate).name: r for r in results}
        early, job = linear_stage.result()
    _save(by_name)
    by_name["linear_relu"] = early or evaluator.execute(job, linear.label)
    saxpy = ROOT / "examples" / "eval" / "saxpy_c"
    by_name["saxpy_c"] = evaluator.evaluate(load_task(saxpy / "reference.c"), load_candidate(saxpy / "candidate.cu"))
    by_name["after_errors"] = evaluator.evaluate(task, load_candidate(SCALE_ADD / "candidate_native.cu"))
    by_name["warm"] = evaluator.evaluate(task, load_candidate(SCALE_ADD / "candidate_native.cu"))
    _save(by_name)
    yield by_name
    evaluator.close()
    assert child_pids() <= before


@pytest.mark.parametrize("name", sorted(p.name for p in RUNTIME.iterdir()))
def test_runtime_case_status(run, name):
    assert run[name].status == _expected(RUNTIME / name), run[name]


@pytest.mark.parametrize("name", ["candidate_native.cu", "candidate_kernelbench.py", "saxpy_c", "linear_relu",
                                  "after_errors", "warm"])
def test_honest_candidates_are_correct_with_plausible_speedups(run, name):
    result = run[name]
    assert result.status == "correct", result
    assert result.trials >= 6 and result.time_ms["candidate"] > 0
    assert result.speedup > 1 if name == "saxpy_c" else 0.05 < result.speedup < 10  # C: against one CPU core
    assert not [f for f in result.flags if f.startswith(("implausible", "below-memory"))], result.flags


def test_kernels_launched_are_the_candidates(run):
    assert run["candidate_native.cu"].kernels_launched == ["scale_add"]
    assert any("scale_add_kernel" in k for k in run["candidate_kernelbench.py"].kernels_launched)


def test_a_wrapper_beyond_the_fast_path_is_run_on_the_full_build(run):
    flags = run["kb_beyond_fast_path.py"].flags
    assert any(f.startswith("fast-path: fell back to the full build at run time: the wrapper ran more than")
               for f in flags), flags


def test_precision_downgrade_is_flagged_and_fails(run):
    half = run["native_half.cu"]
    assert half.status == "incorrect" and any(f.startswith("gate:precision-downgrade") for f in half.flags)


def test_native_path_is_fast_on_a_warm_worker(run):
    assert run["warm"].seconds < 2


def test_compare_compile_and_a_task_that_allows_tf32():
    """`--compile` times torch.compile(reference) too; a TF32 task runs the reference's matmul in TF32
    and checks the candidate's fp32 kernel at fp16 tolerances."""
    hacks = ROOT / "tests" / "hacks"
    with Evaluator(Options(compare_compile=True, allow_tf32=True, run_timeout=300)) as evaluator:
        result = evaluator.evaluate(load_task(hacks / "reference.py"), load_candidate(hacks / "honest_linear_relu.py"))
    if os.environ.get("CUDAPERF_EVAL_RESULTS"):
        with open(os.environ["CUDAPERF_EVAL_RESULTS"], "a") as f:
            f.write(json.dumps({"case": "compile_and_tf32", **result.to_json()}) + "\n")
    assert result.status == "correct", result
    assert result.time_ms["compile"] > 0 and 0 < result.speedup_compile < 100


def test_triage_times_only_the_candidates_the_ranker_picks():
    """untimed(top_k=1, uncertain_p=1): every honest candidate of a group is still checked and
    `correct`; only those triage.timed keeps are timed, the others come back with no time."""
    from cudaperf.rewards.triage import timed, untimed

    group = sorted((ROOT / "tests" / "kb_llm" / "mse_loss").glob("honest_*.py"))[:3]
    task = load_task(ROOT / "tests" / "kb_llm" / "mse_loss" / "reference.py")
    candidates = [load_candidate(p) for p in group]
    keep = timed(task.source, [c.source for c in candidates], 1, 1.0)
    assert 1 <= len(keep) < len(candidates)
    assert untimed([task] * len(candidates), candidates, 1, 1.0) == set(range(len(candidates))) - keep
    with Evaluator(Options(compile_timeout=300)) as evaluator:
        results = evaluator.evaluate_many(task, candidates, untimed=set(range(len(candidates))) - keep)
    assert [r.status for r in results] == ["correct"] * len(candidates), results
    assert {i for i, r in enumerate(results) if r.time_ms["candidate"] is not None} == keep
