"""`cudaperf eval` end to end on the CPU machine: statuses without a GPU, JSON and JSONL output,
batch progress, exit codes, and no worker left behind."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import child_pids

from cudaperf.cli import main
from cudaperf.rewards.execution import driver

EXAMPLES = Path(__file__).parents[1] / "examples" / "eval"
HACKS = Path(__file__).parent / "hacks"
pytestmark = pytest.mark.skipif(driver.device_count() > 0, reason="these expectations are for a machine without a GPU")
needs_nvcc = pytest.mark.skipif(shutil.which("nvcc") is None, reason="no nvcc")


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CUDAPERF_CACHE_DIR", str(tmp_path / "cache"))


def _eval(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["eval", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@needs_nvcc
def test_native_candidate_without_gpu_is_compiled_and_reported_no_gpu(capsys):
    code, out, _ = _eval(capsys, "--reference", str(EXAMPLES / "scale_add" / "reference.py"),
                         "--candidate", str(EXAMPLES / "scale_add" / "candidate_native.cu"), "--format", "json")
    doc = json.loads(out)
    assert code == 3 and doc["status"] == "no_gpu" and doc["compiled"] is True and doc["format"] == "native"


@needs_nvcc
def test_c_reference_runs_on_the_cpu_without_gpu(capsys):
    _code, out, _ = _eval(capsys, "--reference", str(EXAMPLES / "saxpy_c" / "reference.c"),
                         "--candidate", str(EXAMPLES / "saxpy_c" / "candidate.cu"), "--format", "json")
    doc = json.loads(out)
    assert doc["status"] == "no_gpu" and "C reference ran on the CPU for 3 configuration" in doc["reason"]


@needs_nvcc
def test_compile_error_is_reported_without_gpu(capsys):
    code, out, _ = _eval(capsys, "--reference", str(EXAMPLES / "scale_add" / "reference.py"),
                         "--candidate", str(HACKS / "runtime" / "native_compile_error.cu"))
    assert code == 1 and "compile_error" in out and "identifier \"c\" is undefined" in out


def test_rejected_hack_text_output(capsys):
    code, out, _ = _eval(capsys, "--reference", str(HACKS / "reference.py"), "--candidate",
                         str(HACKS / "timer_patch.py"))
    assert code == 1 and "rejected (monkey-patch: line" in out and "elapsed_time" in out


def test_python_syntax_error_is_a_compile_error(tmp_path, capsys):
    (tmp_path / "cand.py").write_text("class ModelNew(:\n")
    _code, out, _ = _eval(capsys, "--reference", str(HACKS / "reference.py"), "--candidate", str(tmp_path / "cand.py"),
                         "--format", "json")
    assert json.loads(out)["status"] == "compile_error"


@needs_nvcc
def test_batch_over_a_directory_writes_jsonl_with_progress(tmp_path, capsys):
    before = child_pids()
    out_file = tmp_path / "results.jsonl"
    code, _, err = _eval(capsys, "--reference", str(HACKS / "reference.py"), "--candidate", str(HACKS),
                         "--format", "jsonl", "-o", str(out_file))
    lines = [json.loads(line) for line in out_file.read_text().splitlines()]
    by_name = {Path(r["candidate"]).name: r for r in lines}
    assert "reference.py" not in by_name and len(lines) == len(list(HACKS.glob("*.py"))) - 1
    assert by_name["side_stream.py"]["status"] == "rejected"
    assert by_name["honest_linear_relu.py"]["status"] == "no_gpu"
    assert f"{len(lines)}/{len(lines)}" not in err and code == 1  # stderr is no terminal here: no progress bar
    assert child_pids() <= before  # every worker is gone


def test_usage_errors_exit_2(tmp_path, capsys):
    assert _eval(capsys, "--reference", str(tmp_path / "nope.py"), "--candidate", "x.py")[0] == 2
    for fmt in ("json", "text"):  # the reference as its own candidate: one line, no IndexError, no silent 1
        code, out, err = _eval(capsys, "--reference", str(HACKS / "reference.py"), "--candidate",
                               str(HACKS / "reference.py"), "--format", fmt)
        assert code == 2 and out == "" and "is the reference" in err and len(err.splitlines()) == 1
    (tmp_path / "ref.c").write_text("void f(void) {}")
    code, _, err = _eval(capsys, "--reference", str(tmp_path / "ref.c"), "--candidate", "x.cu")
    assert code == 2 and "harness" in err


@needs_nvcc
@pytest.mark.slow
def test_build_without_gpu_compiles_kernelbench_extensions(capsys):
    """--build-without-gpu runs the real load_inline build (nvcc and g++ on the torch headers; a CPU
    build of torch cannot link it): an honest candidate is compiled, a broken one is a compile_error
    with nvcc's message, and nothing is left running."""
    pytest.importorskip("torch")
    pytest.importorskip("cudaperf.rewards.execution.sandbox", reason="sandbox.py is not in this branch yet")
    before = child_pids()
    runtime = HACKS / "runtime"
    code, out, _ = _eval(capsys, "--reference", str(EXAMPLES / "scale_add" / "reference.py"), "--candidate",
                         str(EXAMPLES / "scale_add" / "candidate_kernelbench.py"), str(runtime / "kb_compile_error.py"),
                         "--build-without-gpu", "--format", "jsonl")
    honest, broken = (json.loads(line) for line in out.splitlines())
    assert honest["status"] == "no_gpu" and honest["compiled"] is True, honest
    assert "extension build" in honest["reason"] and any("compiled, not linked" in ln for ln in honest["log"])
    assert broken["status"] == "compile_error" and "error" in broken["reason"] and broken["compiled"] is False
    assert code == 1 and child_pids() <= before


def test_kernelbench_without_gpu_says_the_extension_was_not_built(capsys):
    code, out, _ = _eval(capsys, "--reference", str(EXAMPLES / "scale_add" / "reference.py"), "--candidate",
                         str(EXAMPLES / "scale_add" / "candidate_kernelbench.py"), "--format", "json")
    doc = json.loads(out)
    assert code == 3 and doc["status"] == "no_gpu" and doc["compiled"] is None  # 3: no GPU, as for profile
    assert "--build-without-gpu" in doc["reason"]


def test_binary_junk_as_a_python_candidate_is_a_one_line_compile_error(tmp_path, capsys):
    (tmp_path / "junk.py").write_bytes(bytes(range(256)) * 8)
    code, out, _ = _eval(capsys, "--reference", str(HACKS / "reference.py"), "--candidate", str(tmp_path / "junk.py"),
                         "--format", "json")
    doc = json.loads(out)
    assert code == 1 and doc["status"] == "compile_error" and "None" not in doc["reason"] and "\n" not in doc["reason"]
