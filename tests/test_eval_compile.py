"""Compile stage on the CPU: cubins (nvcc or NVRTC), C references (cc), the disk cache, parallel
compiles, and the load_inline argument reader.  nvcc is on the CPU machines; no GPU, no torch."""

from __future__ import annotations

import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from cudaperf.rewards.execution import compile as cc
from cudaperf.rewards.execution.formats import load_task
from cudaperf.rewards.execution.harness import call_reference, make_inputs
from cudaperf.rewards.execution.torch_ext import _variants, extract_builds

EXAMPLES = Path(__file__).parents[1] / "examples" / "eval"
needs_compiler = pytest.mark.skipif(cc.available_backend() is None, reason="neither NVRTC nor nvcc")


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CUDAPERF_CACHE_DIR", str(tmp_path / "cache"))


@needs_compiler
def test_cubin_compiles_then_comes_from_the_cache():
    source = 'extern "C" __global__ void k(float* p) { p[threadIdx.x] = 1.0f; }'
    first = cc.compile_cuda(source, "sm_90")
    assert first.ok and not first.cached and Path(first.path).read_bytes()[:4] == b"\x7fELF"
    second = cc.compile_cuda(source, "sm_90")
    assert second.ok and second.cached and second.path == first.path
    assert cc.compile_cuda(source, "sm_80").cached is False  # the architecture is part of the key


@needs_compiler
def test_compile_error_names_the_problem_and_is_cached():
    bad = cc.compile_cuda('extern "C" __global__ void k(float* p) { p[0] = undefined_name; }', "sm_90")
    assert not bad.ok and "undefined_name" in bad.first_error and "candidate.cu" in bad.first_error
    again = cc.compile_cuda('extern "C" __global__ void k(float* p) { p[0] = undefined_name; }', "sm_90")
    assert again.cached and not again.ok


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="no nvcc")
def test_compiles_run_in_parallel():
    sources = [f'extern "C" __global__ void k{i}(float* p) {{ p[0] = {i}; }}' for i in range(4)]
    start = time.perf_counter()
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda s: cc.compile_cuda(s, "sm_90", backend="nvcc"), sources))
    wall = time.perf_counter() - start
    assert all(r.ok for r in results)
    assert wall < sum(r.seconds for r in results)  # overlapped, not one after another


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="no nvcc")
def test_compile_timeout_kills_the_compiler():
    source = 'extern "C" __global__ void k(int* p) { p[0] = 7; }'
    result = cc.compile_cuda(source, "sm_90", backend="nvcc", timeout=0.05)  # nvcc needs about 0.2 s
    assert not result.ok and "longer than" in result.log and not result.cacheable


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler")
def test_c_reference_runs_on_the_cpu():
    task = load_task(EXAMPLES / "saxpy_c" / "reference.c")
    lib = cc.compile_c(task.source)
    assert lib.ok
    values = make_inputs(task.harness, task.harness.configs[1], seed=3)
    out = call_reference(lib.path, task.harness, values)
    np.testing.assert_allclose(out["y"], 2.5 * 0 + (-0.5) * values["x"] + values["y"], rtol=1e-6)
    assert np.array_equal(out["x"], values["x"])  # inputs are copies; the C code cannot touch ours


def test_c_compile_error_is_reported():
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    result = cc.compile_c("void f(int n) { return n; ")
    assert not result.ok and "error" in result.first_error


def test_load_inline_arguments_are_read_without_running_the_candidate():
    source = (EXAMPLES / "scale_add" / "candidate_kernelbench.py").read_text()
    (build,) = extract_builds(source)
    assert build["name"] == "scale_add_ext" and build["functions"] == ["scale_add"]
    assert "__global__ void scale_add_kernel" in build["cuda_sources"]
    assert extract_builds("import x\nload_inline(name=x.name(), cpp_sources='')") is None


def test_fast_variant_swaps_only_the_heavy_header():
    spec = {"name": "e", "cuda_sources": "#include <torch/extension.h>\n__global__ void k() {}"}
    (fast, fast_spec), (plain, plain_spec) = _variants(spec)
    assert (fast, plain) == ("fast", "plain")
    assert fast_spec["cuda_sources"][0].startswith("#include <torch/types.h>") and plain_spec == spec
    assert [v[0] for v in _variants({"name": "e", "cuda_sources": "#include <torch/extension.h>\nPYBIND11_MODULE"})] \
        == ["plain"]
