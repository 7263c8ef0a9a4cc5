"""ptxas resource usage: parsing real nvcc output, caching, template instantiation, time limits."""

from __future__ import annotations

import subprocess
import tempfile
import time

import pytest

from cudaperf.analysis import resources
from cudaperf.analysis.resources import compile_resources, kernel_key, nvcc

needs_nvcc = pytest.mark.skipif(nvcc() is None, reason="needs nvcc")

SOURCE = b"""
template <int S> __global__ void strided(const float* in, float* out) { out[threadIdx.x] = in[threadIdx.x * S]; }
namespace ns {
__global__ void __launch_bounds__(128, 4) tile(float* a) {
    __shared__ float s[64];
    s[threadIdx.x % 64] = a[threadIdx.x];
    __syncthreads();
    a[threadIdx.x] = s[63 - threadIdx.x % 64];
}
}
extern "C" __global__ void local_array(double* d) {
    double x[32];
    for (int i = 0; i < 32; i++) x[i] = d[i * threadIdx.x];
    d[threadIdx.x] = x[threadIdx.x % 32];
}
"""


def test_kernel_keys_from_demangled_names():
    assert kernel_key("void ns::k<4, float>(float const*, float*)") == "k<4,float>"
    assert kernel_key("void (anonymous namespace)::kk<(int)4>(float*)") == "kk<4>"
    assert kernel_key("void t<32u, 8, uint>(float*)") == "t<32,8,uint>"
    assert kernel_key("ns::lb(float*)") == "lb" and kernel_key("c_kernel") == "c_kernel"


@needs_nvcc
def test_ptxas_figures_instantiation_and_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CUDAPERF_CACHE_DIR", str(tmp_path))
    found = compile_resources(SOURCE, "t.cu", "sm_90", {}, ["strided<4>"])
    assert isinstance(found, dict), found
    assert set(found) == {"strided<4>", "tile", "local_array"}
    assert found["tile"].static_smem == 256 and found["tile"].barriers == 1
    assert found["local_array"].stack_bytes == 256  # the dynamically indexed array lives in local memory
    assert all(r.source == "ptxas" and r.registers_per_thread > 0 for r in found.values())
    start = time.perf_counter()
    again = compile_resources(SOURCE, "t.cu", "sm_90", {}, ["strided<4>"])
    assert again == found and time.perf_counter() - start < 0.05  # from the disk cache
    assert len(list(tmp_path.rglob("*.json"))) == 1


@needs_nvcc
def test_a_file_that_does_not_compile_says_why(tmp_path, monkeypatch):
    monkeypatch.setenv("CUDAPERF_CACHE_DIR", str(tmp_path))
    result = compile_resources(b"__global__ void k(float* a) { a[0] = undefined_thing; }", "t.cu", "sm_90", {})
    assert isinstance(result, str) and result.startswith("does not compile standalone")


@needs_nvcc
def test_time_limit_kills_the_whole_compiler(tmp_path, monkeypatch):
    monkeypatch.setenv("CUDAPERF_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the translation unit is written under tmp_path
    monkeypatch.setattr(resources, "COMPILE_TIMEOUT_S", 1)
    heavy = b"".join(b"#define M%d(x) ((x) * %d + M%d(x) + M%d(x))\n" % (i, i, i - 1, i - 1) for i in range(1, 40))
    heavy += b"#define M0(x) (x)\n__global__ void k(int* a) { a[0] = M39(1); }\n"
    result = compile_resources(heavy, "t.cu", "sm_90", {})
    assert result == "nvcc took longer than 1 s"
    assert not list(tmp_path.glob("cudaperf-*"))  # the unit's directory is gone
    time.sleep(0.5)
    leftovers = subprocess.run(["pgrep", "-f", str(tmp_path)], capture_output=True, text=True).stdout.strip()
    assert not leftovers  # no cc1plus/cicc/ptxas outlives the limit
