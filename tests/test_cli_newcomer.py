"""Issue 16 part B: the CLI defects a newcomer met in the first hour, each retried here."""

from __future__ import annotations

import json
import subprocess

import pytest

from cudaperf.analysis import arch as arch_table
from cudaperf.analysis.occupancy import occupancy
from cudaperf.analysis.resources import nvcc
from cudaperf.cli import main


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


# occupancy ------------------------------------------------------------------------------------------

def test_occupancy_takes_smem_and_block_dims_like_analyze(capsys):
    assert main(["occupancy", "--block", "32,8", "--registers", "32", "--smem", "65536",
                 "--max-dynamic-smem", "65536", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["block_size"] == 256 and doc["active_blocks_per_sm"] == 3  # 64 KB + 1 KB reserved into 228 KB
    assert main(["occupancy", "--block", "256", "--registers", "32", "--dynamic-smem", "65536",
                 "--max-dynamic-smem", "65536", "--format", "json"]) == 0  # the old spelling still works
    assert json.loads(capsys.readouterr().out)["active_blocks_per_sm"] == 3


@pytest.mark.parametrize("args, message", [
    (["--block", "0"], "0 threads"),
    (["--block", "2048"], "allows 1 to 1024"),
    (["--block", "64,32"], "2048 threads"),
    (["--registers", "300"], "allows 0 to 255"),
])
def test_occupancy_rejects_impossible_launches(capsys, args, message):
    base = {"--block": "256", "--registers": "32"}
    base.update(dict(zip(args[::2], args[1::2])))
    assert main(["occupancy", *[x for kv in base.items() for x in kv]]) == 2
    assert message in one_line_error(capsys)


def test_blackwell_is_in_the_table_with_sources():
    table = json.loads(arch_table.TABLE.read_text())
    for name in ("sm_100", "sm_120"):
        assert name in arch_table.names() and name in table["sources"]
        assert arch_table.get(name).tensor_tflops["fp16"] > arch_table.get(name).peak_tflops["fp16"]
    assert arch_table.names()[-2:] == ["sm_100", "sm_120"]  # numeric order


@pytest.mark.parametrize("name, block, registers, smem, blocks", [
    ("sm_100", 1024, 32, 0, 2),     # 64 warps per SM, as on sm_90
    ("sm_100", 64, 16, 0, 32),      # block slots
    ("sm_120", 1024, 32, 0, 1),     # 48 warps per SM: one 32-warp block
    ("sm_120", 64, 16, 0, 24),      # 24 block slots (cuda_occupancy.h, CUDA 13.0)
    ("sm_120", 128, 32, 65536, 1),  # 64 KB + 1 KB reserved; the pool tops out at 100 KB
    ("sm_100", 128, 32, 65536, 3),  # 228 KB pool
])
def test_blackwell_occupancy_follows_the_header_rules(name, block, registers, smem, blocks):
    fit = occupancy(name, block, registers, dynamic_smem=smem, max_dynamic_smem=smem or None)
    assert fit.active_blocks_per_sm == blocks


@pytest.mark.slow
@pytest.mark.skipif(nvcc() is None, reason="needs nvcc (CUDA 13) for ptxas's per-SM limits")
@pytest.mark.parametrize("name", ["sm_90", "sm_100", "sm_120"])
def test_threads_and_blocks_per_sm_agree_with_ptxas(tmp_path, name):
    """ptxas rejects __launch_bounds__ whose minimum blocks exceed the SM's thread or block slots."""
    a = arch_table.get(name)

    def accepted(threads: int, blocks: int) -> bool:
        unit = tmp_path / "lb.cu"
        unit.write_text(f"__global__ void __launch_bounds__({threads}, {blocks}) k(float* x) {{ x[0] = 1; }}\n")
        proc = subprocess.run([nvcc(), f"-arch={name}", "-cubin", "-o", str(tmp_path / "lb.cubin"), str(unit)],
                              capture_output=True, text=True, timeout=120)
        return "out of range" not in proc.stderr
    threads = a.max_warps_per_sm * 32
    assert accepted(threads // 2, 2) and not accepted(threads // 2 + 32, 2)
    assert accepted(32, a.max_blocks_per_sm) and not accepted(32, a.max_blocks_per_sm + 1)


# eval ---------------------------------------------------------------------------------------------

def test_a_worker_that_does_not_start_is_an_infra_error_not_a_candidate_timeout():
    from conftest import child_pids

    from cudaperf.rewards.config import RewardConfig
    from cudaperf.rewards.execution.pool import Pool
    from cudaperf.rewards.execution.result import ExecResult
    from cudaperf.rewards.unified import execution_part

    before = child_pids()
    with Pool([], device="none", spare=0, start_timeout=0.001) as pool:  # no Python starts in 1 ms
        out = pool.run({"format": "c", "reference": {}}, 30, 30)
    assert out["status"] == "infra_error" and "did not start" in out["reason"]
    assert child_pids() <= before
    assert execution_part(ExecResult("infra_error", out["reason"]), RewardConfig()) == (None, None)  # no reward


def test_progress_bar_draws_on_terminals_only():
    import io

    from cudaperf.progress import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal, pipe = Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        bar = Progress(3, "eval", stream, minimum=1)
        for item in ("a.cu", "b.cu", "c.cu"):
            bar.advance(item, "correct 1")
        bar.close()
    assert pipe.getvalue() == "" and "3/3" in terminal.getvalue() and "eval correct 1" in terminal.getvalue()


# train / refine -----------------------------------------------------------------------------------

def test_refine_model_means_what_train_model_means():
    from cudaperf.cli import build_parser

    parser = build_parser()
    local = parser.parse_args(["refine", "--reference", "r.py", "--model", "/models/m"])
    old = parser.parse_args(["refine", "--reference", "r.py", "--model-dir", "/models/m"])
    server = parser.parse_args(["refine", "--reference", "r.py", "--api-base", "http://h/v1", "--model", "served"])
    assert (local.model, local.endpoint) == ("/models/m", None) and old.model == "/models/m"
    assert (server.endpoint, server.model) == ("http://h/v1", "served")
    trained = parser.parse_args(["train", "--dataset", "t.jsonl", "--model", "/models/m", "-o", "out"])
    assert trained.model == "/models/m"


def test_refine_without_a_model_or_endpoint_is_a_usage_error(tmp_path, capsys):
    reference = tmp_path / "ref.py"
    reference.write_text("import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return x\n"
                         "def get_inputs():\n    return [torch.ones(4)]\ndef get_init_inputs():\n    return []\n")
    assert main(["refine", "--reference", str(reference)]) == 2
    assert "give --model" in one_line_error(capsys)


# analyze ------------------------------------------------------------------------------------------

HELPER = "#define TILE 16\n__device__ inline float twice(float x) { return 2.0f * x; }\n"
KERNEL = """#include "helper.h"
__global__ void tiled(const float* in, float* out, int n) {
    __shared__ float tile[TILE][TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = in[i];
    __syncthreads();
    if (i < n) out[i] = twice(tile[threadIdx.x][threadIdx.y]);
}
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A kernel whose helper header lives in another folder, as in cuda-samples (Common/)."""
    monkeypatch.setenv("CUDAPERF_CACHE_DIR", str(tmp_path / "cache"))
    from cudaperf.analysis import resources
    monkeypatch.setattr(resources, "_missing_headers", {})
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "helper.h").write_text(HELPER)
    (tmp_path / "src").mkdir()
    for name in ("a.cu", "b.cu"):
        (tmp_path / "src" / name).write_text(KERNEL)
    return tmp_path


@pytest.mark.skipif(nvcc() is None, reason="needs nvcc")
def test_include_dirs_reach_nvcc_and_the_macro_reader(project, capsys):
    args = ["analyze", str(project / "src" / "a.cu"), "--block", "16,16", "--format", "json"]
    assert main([*args, "-I", str(project / "common")]) == 0
    kernel = json.loads(capsys.readouterr().out)["files"][0]["kernels"][0]
    assert kernel["resources"]["source"] == "ptxas" and kernel["resources"]["static_smem"] == 16 * 16 * 4
    assert main(["analyze", str(project / "src" / "a.cu"), "--block", "16,16", "-isystem", str(project / "common"),
                 "--std", "c++20", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["files"][0]["kernels"][0]["resources"]["source"] == "ptxas"


@pytest.mark.skipif(nvcc() is None, reason="needs nvcc")
def test_a_missing_header_is_said_in_the_text_and_fails_the_next_file_without_nvcc(project, capsys, monkeypatch):
    from cudaperf.analysis import resources

    compiles = []
    real = resources.run_bounded
    monkeypatch.setattr(resources, "run_bounded", lambda *a, **k: compiles.append(a) or real(*a, **k))
    assert main(["analyze", str(project / "src"), "--block", "16,16"]) == 0
    out = capsys.readouterr().out
    assert out.count("[estimate: ptxas unavailable: header helper.h not found (pass its directory with -I") == 2
    assert len(compiles) == 1  # the second file including helper.h did not start nvcc


def test_text_shows_flops_dram_bytes_intensity_and_bound(tmp_path, capsys):
    source = tmp_path / "axpy.cu"
    source.write_text("__global__ void axpy(float a, const float* x, float* y, int n) {\n"
                      "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "    if (i < n) y[i] = a * x[i] + y[i];\n}\n")
    args = ["analyze", str(source), "--arg", "n=1048576", "--grid", "4096", "--block", "256", "--resources", "estimate"]
    assert main(args) == 0
    work = next(line for line in capsys.readouterr().out.splitlines() if line.strip().startswith("work"))
    assert main([*args, "--format", "json"]) == 0
    kernel = json.loads(capsys.readouterr().out)["files"][0]["kernels"][0]
    read, written = kernel["memory"]["dram_bytes_read"], kernel["memory"]["dram_bytes_write"]
    # one FMA (2 FLOPs) per element; x and y read once (8 B per element); y's writes may stay in L2 during
    # the kernel, but reach DRAM after it: the intensity counts them (4 B per element)
    assert "2,097,152 FLOPs" in work and read == 8 * 1048576 and "8.39 MB read" in work
    assert written == 0 and "(+ 4.19 MB after the kernel, counted in FLOP/B)" in work
    assert f"{2 * 1048576 / (read + 4 * 1048576):.2f} FLOP/B, memory-bound" in work


def test_unknown_kernel_exits_2_listing_the_kernels(capsys):
    from conftest import ROOT

    assert main(["analyze", str(ROOT / "examples" / "transpose.cu"), "--kernel", "transpose"]) == 2
    assert one_line_error(capsys) == ("cudaperf: error: no kernel named transpose; available: transpose_naive, "
                                      "transpose_shared, transpose_padded")


def test_shared_memory_helpers_are_followed_and_unknown_pointers_warn():
    from conftest import kernel_report

    from cudaperf.analysis.analyzer import Options, analyze_source

    source = """
template <class T> struct SharedMemory {
    __device__ inline operator T *() { extern __shared__ int __smem[]; return (T *)__smem; }
};
__device__ float* elsewhere();
template <class T> __global__ void reduce(const T* in, T* out) {
    T* sdata = SharedMemory<T>();
    unsigned tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) { if (tid < s) sdata[tid] += sdata[tid + s]; __syncthreads(); }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}
__global__ void opaque(float* out) { float* p = elsewhere(); p[threadIdx.x] = out[0]; }
"""
    report = kernel_report(source, kernel="reduce", T="float")
    shared = [a for a in report["memory"]["accesses"] if a["space"] == "shared"]
    assert {(a["kind"], a["text"]) for a in shared} >= {("store", "sdata[tid]"), ("load", "sdata[tid + s]"),
                                                         ("load", "sdata[0]")}
    assert report["memory"]["shared_store_wavefronts_per_request"] is not None
    diagnostics = analyze_source(source, "t.cu", Options(kernel="opaque", resources="estimate")).diagnostics
    assert any(d.severity == "warning" and "pointer p comes from elsewhere()" in d.message for d in diagnostics)


def test_a_missing_include_directory_is_a_usage_error(capsys):
    from conftest import ROOT

    for option in ("-I", "-isystem"):
        assert main(["analyze", option, "/no/such/dir", str(ROOT / "examples" / "transpose.cu")]) == 2
        assert "include directory /no/such/dir: no such directory" in one_line_error(capsys)
