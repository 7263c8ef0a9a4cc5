"""`cudaperf analyze`: formats, exit codes, schema, and bad input (never a traceback)."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from conftest import ROOT

from cudaperf.analysis.report import SCHEMA_FILE
from cudaperf.cli import main

EXAMPLE = ROOT / "examples" / "transpose.cu"


def run(*args: str, cwd: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cudaperf", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout)


def schema() -> dict:
    return json.loads(SCHEMA_FILE.read_text())


def test_json_output_validates_against_the_schema():
    proc = run("analyze", str(EXAMPLE), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    jsonschema.validate(doc, schema())
    kernels = {k["name"]: k for k in doc["files"][0]["kernels"]}
    assert kernels["transpose_shared"]["memory"]["shared_load_wavefronts_per_request"] == 32
    assert kernels["transpose_padded"]["memory"]["shared_load_wavefronts_per_request"] == 1
    assert kernels["transpose_naive"]["memory"]["global_store_sectors_per_request"] == 32


def test_schema_rejects_invented_keys():
    doc = json.loads(run("analyze", str(EXAMPLE), "--format", "json").stdout)
    doc["files"][0]["kernels"][0]["memory"]["made_up"] = 1
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema())


def test_text_output_uses_path_line_column():
    proc = run("analyze", str(EXAMPLE), "--kernel", "transpose_shared")
    assert proc.returncode == 0
    assert f"{EXAMPLE}:26:32: shared" in proc.stdout and "32.00 wavefronts/req" in proc.stdout
    assert "transpose_naive" not in proc.stdout


def test_cli_launch_and_args_override_inference(tmp_path):
    src = tmp_path / "k.cu"
    src.write_text("__global__ void k(const float* a, float* b, int s) "
                   "{ int i = blockIdx.x * blockDim.x + threadIdx.x; b[i] = a[i * s]; }\n")
    doc = json.loads(run("analyze", str(src), "--grid", "8", "--block", "128", "--arg", "s=2",
                         "--format", "json").stdout)
    k = doc["files"][0]["kernels"][0]
    assert k["launch"]["grid"] == [8, 1, 1] and k["launch"]["block"] == [128, 1, 1]
    assert k["launch"]["source"] == "cli" and k["launch"]["args"]["s"] == {"value": 2, "source": "cli"}
    assert k["memory"]["global_load_sectors_per_request"] == 8


def test_directories_are_searched_recursively(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "x.cuh").write_text("__global__ void x(float* p) { p[threadIdx.x] = 0; }")
    (tmp_path / "y.cu").write_text("__global__ void y(float* p) { p[threadIdx.x] = 0; }")
    (tmp_path / "notes.txt").write_text("__global__ void z() {}")
    doc = json.loads(run("analyze", str(tmp_path), "--format", "json").stdout)
    assert sorted(k["name"] for f in doc["files"] for k in f["kernels"]) == ["x", "y"]


@pytest.mark.parametrize("args, message", [
    (["analyze", "--grid", "0", "EXAMPLE"], "launch dimensions must be >= 1"),
    (["analyze", "--block", "2048", "EXAMPLE"], "exceeds 1024 threads"),
    (["analyze", "--grid", "1,99999999999", "EXAMPLE"], "exceeds the CUDA limit"),
    (["analyze", "--arg", "n", "EXAMPLE"], "expected NAME=VALUE"),
    (["analyze", "--block", "a,b", "EXAMPLE"], "expected X[,Y[,Z]]"),
    (["analyze", "--arch", "volta", "EXAMPLE"], "--arch must look like"),
    (["analyze", "missing.cu"], "no such file"),
    (["frobnicate"], "invalid choice"),
])
def test_usage_errors_exit_2_with_one_line(args, message):
    proc = run(*[str(EXAMPLE) if a == "EXAMPLE" else a for a in args])
    assert proc.returncode == 2
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


BAD_INPUTS = {
    "empty.cu": b"",
    "binary.cu": bytes(range(256)) * 64,
    "latin1.cu": "__global__ void k(float* a) { a[threadIdx.x] = 1.f; } // caf\xe9\n".encode("latin-1"),
    "comment.cu": b"__global__ void k(float* a) { a[threadIdx.x] = 1.f; }\n/* never closed\n__global__ void j() {}",
    "braces.cu": b"__global__ void k(float* a) { if (a) { for (;;) { ",
    "deep.cu": b"__global__ void k(float* a) {" + b"if (threadIdx.x) {" * 300 + b"a[0] = 1;" + b"}" * 300 + b"}",
    "parens.cu": b"__global__ void k(float* a) { a[" + b"(" * 2000 + b"threadIdx.x" + b")" * 2000 + b"] = 0; }",
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_never_tracebacks(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(BAD_INPUTS[name])
    proc = run("analyze", str(path), "--format", "json")
    assert "Traceback" not in proc.stderr
    if name == "binary.cu":
        assert proc.returncode == 2 and "binary file" in proc.stderr
        return
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    jsonschema.validate(doc, schema())
    if name in ("latin1.cu", "comment.cu", "braces.cu", "deep.cu", "parens.cu"):
        assert [k["name"] for k in doc["files"][0]["kernels"]][:1] == ["k"]
    if name == "latin1.cu":
        assert any("UTF-8" in d["message"] for d in doc["files"][0]["diagnostics"])
    if name == "comment.cu":
        assert any("unterminated comment" in d["message"] for d in doc["files"][0]["diagnostics"])


def test_binary_file_among_good_files_is_reported_and_skipped(tmp_path):
    (tmp_path / "bad.cu").write_bytes(b"\x00\x01\x02" * 100)
    (tmp_path / "good.cu").write_text("__global__ void g(float* p) { p[threadIdx.x] = 0; }")
    proc = run("analyze", str(tmp_path), "--format", "json")
    assert proc.returncode == 0 and "binary file" in proc.stderr
    doc = json.loads(proc.stdout)
    files = {Path(f["path"]).name: f for f in doc["files"]}
    assert files["bad.cu"]["diagnostics"][0]["severity"] == "error"
    assert [k["name"] for k in files["good.cu"]["kernels"]] == ["g"]


@pytest.mark.slow
def test_macro_soup_is_fast_and_partial(tmp_path):
    lines = [f"#define M{i}(x) ((x) * {i} + M{i - 1}(x))" for i in range(1, 2000)]
    junk = "\n".join(lines) + "\n" + "M1999(3) <<< >>> ;;; {{ )) " * 2000 + "\n"
    body = junk * 60
    path = tmp_path / "soup.cu"
    path.write_text(body + "__global__ void k(float* a) { a[threadIdx.x] = M3(2); }\n")
    assert path.stat().st_size > 5 * 1024 * 1024
    proc = run("analyze", str(path), "--format", "json", timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert "k" in [k["name"] for k in json.loads(proc.stdout)["files"][0]["kernels"]]


def test_huge_file_is_refused_in_one_line(tmp_path):
    path = tmp_path / "huge.cu"
    path.write_bytes(b"// x\n" * (4 * 1024 * 1024))
    proc = run("analyze", str(path))
    assert proc.returncode == 2 and "file too large" in proc.stderr and "Traceback" not in proc.stderr


def test_main_is_callable_in_process(capsys):
    collector = gc.get_threshold(), gc.get_freeze_count()
    assert main(["analyze", str(EXAMPLE), "--kernel", "transpose_padded", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [k["name"] for k in doc["files"][0]["kernels"]] == ["transpose_padded"]
    assert (gc.get_threshold(), gc.get_freeze_count()) == collector  # a host's collector is its own


def test_occupancy_calculator_command():
    proc = run("occupancy", "--block", "256", "--registers", "40", "--format", "json")
    assert proc.returncode == 0
    doc = json.loads(proc.stdout)
    assert (doc["active_blocks_per_sm"], doc["limiter"], doc["theoretical"]) == (6, "registers", 0.75)
    text = run("occupancy", "--block", "128", "--registers", "32", "--static-smem", "40000", "--dynamic-smem", "16000")
    assert text.returncode == 0 and "cannot launch" in text.stdout and "MaxDynamicSharedMemorySize" in text.stdout
    bad = run("occupancy", "--arch", "sm_99", "--block", "1", "--registers", "1")
    assert bad.returncode == 2 and "unknown architecture" in bad.stderr


def test_analyze_reports_resources_and_occupancy():
    doc = json.loads(run("analyze", str(EXAMPLE), "--kernel", "transpose_padded", "--resources", "estimate",
                         "--format", "json").stdout)
    kernel = doc["files"][0]["kernels"][0]
    assert kernel["resources"]["source"] == "estimate"
    assert kernel["resources"]["static_smem"] == 32 * 33 * 4 and kernel["resources"]["barriers"] == 1
    assert 0 < kernel["occupancy"]["theoretical"] <= 1


def test_kernelbench_candidate_python_file():
    """The CUDA inside a KernelBench-style .py candidate, at the .py file's own line numbers, with the
    torch wrapper's launch inferred once --arg fixes the tensor size."""
    path = ROOT / "examples" / "kernelbench_candidate.py"
    doc = json.loads(run("analyze", str(path), "--arg", "size=16777216", "--resources", "estimate",
                         "--format", "json").stdout)
    kernel = doc["files"][0]["kernels"][0]
    assert kernel["name"] == "scale_add_kernel" and kernel["line"] == 12
    assert kernel["launch"]["grid"] == [65536, 1, 1] and kernel["launch"]["block"] == [256, 1, 1]
    assert [a["line"] for a in kernel["memory"]["accesses"]] == [15, 15, 15]
    assert kernel["memory"]["global_load_sectors_per_request"] == 4
    no_cuda = run("analyze", str(ROOT / "benchmarks" / "accuracy.py"))
    assert no_cuda.returncode == 2 and "no CUDA source strings" in no_cuda.stderr
