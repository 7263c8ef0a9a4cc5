"""Issue 29: what the clang frontend does where the CUDA toolkit is absent or no launch is in view.

Declaration shims (cudaperf/analysis/data/cuda_shims) stand in for cooperative groups, CUB, cuRAND,
Thrust and WMMA only where the real header is not found, and the report says so; a missing header
does not stop clang from instantiating the file's templates; a template kernel nothing launches is
analysed under a stated assumption; a launch several host templates deep is bound from the concrete
call at the top."""

from __future__ import annotations

import pytest
from conftest import analyze_with_clang, diagnostic_text

from cudaperf.analysis.analyzer import Options, analyze_file

pytestmark = pytest.mark.usefixtures("libclang")


CURAND = """\
#include <curand_kernel.h>
__global__ void step(curandState* states, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curandState s = states[i];
  out[i] = curand_uniform(&s);
  states[i] = s;
}
"""


def test_a_curand_state_has_the_toolkits_layout_through_the_shim(tmp_path):
    (tmp_path / "k.cu").write_text(CURAND)
    report = analyze_with_clang(tmp_path / "k.cu")
    loads = [a for a in report.kernels[0].accesses if a.access.array == "states" and a.access.kind == "load"]
    # the copy reads the toolkit's members (six unsigned, two int, a float, a double) 48 bytes apart
    assert sum(a.access.size for a in loads) == 44 and {a.pattern for a in loads} == {"strided"}
    assert "declaration shims stood in for headers not found: curand.h, curand_kernel.h" in diagnostic_text(report)
    tree = analyze_file(tmp_path / "k.cu", Options(resources="estimate"))
    assert {a.access.type_name for a in tree.kernels[0].accesses if a.access.array == "states"} == {"?"}


MISSING_FIRST = """\
#include <cub/cub.cuh>
#include "not_there.h"
template <typename T, int B>
__global__ void scale(T* x) { x[blockIdx.x * B + threadIdx.x] *= 2; }
void run(double* x) { scale<double, 128><<<16, 128>>>(x); }
"""


def test_a_missing_header_does_not_stop_the_instances(tmp_path):
    """Without KEEP_GOING a missing header is fatal and clang instantiates nothing after it."""
    from cudaperf.analysis import clangfront

    (tmp_path / "k.cu").write_text(MISSING_FIRST)
    facts = clangfront.facts_for(tmp_path / "k.cu", Options())
    assert facts.instances == {"scale": ["double", "128"]} and facts.assumed == {}
    assert facts.shims == ["cub/cub.cuh"] and facts.missing_headers == ["not_there.h"]
    kernel = analyze_with_clang(tmp_path / "k.cu").kernels[0]
    assert {a.access.size for a in kernel.accesses} == {8}


def test_a_projects_own_header_wins_over_the_shim(tmp_path):
    (tmp_path / "include" / "cub").mkdir(parents=True)
    (tmp_path / "include" / "cub" / "cub.cuh").write_text("#pragma once\n#define OWN_CUB 3\n")
    (tmp_path / "k.cu").write_text("#include <cub/cub.cuh>\n"
                                   "__global__ void k(float* x) { x[threadIdx.x * OWN_CUB] = 0; }\n")
    report = analyze_file(tmp_path / "k.cu", Options(frontend="clang", resources="estimate",
                                                     include_dirs=[str(tmp_path / "include")]))
    assert "shims" not in diagnostic_text(report)
    assert report.kernels[0].accesses[0].pattern == "strided"


LONE = """\
template <typename T, int TILE, typename Acc = double, int PAD = 2 * 4>
__global__ void lone(T* out, const Acc* in) { out[blockIdx.x * TILE + threadIdx.x + PAD] = in[threadIdx.x]; }
"""


def test_a_template_kernel_nothing_launches_is_analysed_under_a_stated_assumption(tmp_path):
    (tmp_path / "k.cu").write_text(LONE)
    report = analyze_with_clang(tmp_path / "k.cu")
    sizes = {a.access.array: a.access.size for a in report.kernels[0].accesses}
    assert sizes == {"out": 4, "in": 8}  # T assumed float, Acc its default
    assert "template kernel lone has no instance in view; analysed as lone<float, 256, double, 8> (assumed" \
        in diagnostic_text(report)
    tree = analyze_file(tmp_path / "k.cu", Options(resources="estimate")).kernels[0]
    assert {a.access.type_name for a in tree.accesses if a.access.array == "out"} == {"?"}


DEEP = """\
template <typename T> __global__ void deep(T* a) { a[threadIdx.x] = 0; }
template <typename T> void step(T* a) { deep<T><<<1, 32>>>(a); }
template <typename V> void run(V* a) { step<V>(a); }
template <typename W> void outer(W* a) { run(a); }
void go(double* a) { outer<double>(a); }
"""


def test_a_launch_three_host_templates_deep_is_bound_from_the_top_call(tmp_path):
    from cudaperf.analysis import clangfront

    (tmp_path / "k.cu").write_text(DEEP)
    facts = clangfront.facts_for(tmp_path / "k.cu", Options())
    assert facts.instances == {"deep": ["double"]} and facts.assumed == {}
    assert {a.access.size for a in analyze_with_clang(tmp_path / "k.cu").kernels[0].accesses} == {8}


def test_the_shims_declare_what_kernels_use_without_errors(tmp_path):
    """Every shim compiles with the usual calls, so a file using them keeps its declarations valid."""
    from cudaperf.analysis import clangfront

    (tmp_path / "k.cu").write_text("""\
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/cub.cuh>
#include <curand_kernel.h>
#include <mma.h>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
namespace cg = cooperative_groups;
using namespace nvcuda;
template <int B> __global__ void k(float* a, curandStatePhilox4_32_10_t* s) {
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> t = cg::tiled_partition<32>(b);
  float v = cg::reduce(t, a[b.thread_rank()], cg::plus<float>()) + t.shfl_down(1.0f, 1);
  typedef cub::BlockReduce<float, B> R; __shared__ typename R::TempStorage rs;
  typedef cub::BlockScan<int, B> S; __shared__ typename S::TempStorage ss; int o; S(ss).ExclusiveSum(1, o);
  float4 r = curand_uniform4(&s[threadIdx.x]);
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c; wmma::fill_fragment(c, 0.0f);
  a[0] = R(rs).Sum(v) + r.x + c.x[0];
  b.sync();
}
void run(float* a, curandStatePhilox4_32_10_t* s) {
  thrust::device_vector<float> v(16);
  thrust::sort(thrust::device, v.begin(), v.end());
  k<128><<<1, 128>>>(thrust::raw_pointer_cast(v.data()), s);
  size_t bytes; cub::DeviceReduce::Sum(nullptr, bytes, a, a, 16);
}
""")
    facts = clangfront.facts_for(tmp_path / "k.cu", Options())
    assert facts.errors == 0 and facts.instances == {"k": ["128"]}
    assert facts.shims == ["cooperative_groups.h", "cooperative_groups/reduce.h", "cub/cub.cuh", "curand.h",
                           "curand_kernel.h", "mma.h", "thrust/cudaperf_thrust.h", "thrust/device_vector.h",
                           "thrust/sort.h"]


TYPES_AS_WRITTEN = """\
#include <mma.h>
#include <thrust/complex.h>
using namespace nvcuda;
#define M 8
__global__ void k(const thrust::complex<float>* __restrict__ in, thrust::complex<double>* out, const double* d) {
  out[threadIdx.x] = in[threadIdx.x];
  wmma::fragment<wmma::accumulator, M, M, 4, double> c[2];
  wmma::load_matrix_sync(c[0], d, 8, wmma::mem_row_major);
  for (int t = 0; t < c[0].num_elements; t++) c[1].x[t] = d[t];
}
"""


def test_struct_types_a_kernel_names_resolve_as_written(tmp_path):
    """`thrust::complex<float>*` parameters (the toolkit's layout) and WMMA fragment locals (the element
    type the fragment declares) get clang's types under the text the lowering looks up."""
    from cudaperf.analysis import clangfront

    (tmp_path / "k.cu").write_text(TYPES_AS_WRITTEN)
    facts = clangfront.facts_for(tmp_path / "k.cu", Options())
    assert facts.types["complex<float>"].size == 8 and facts.types["complex<double>"].size == 16
    assert facts.types["accumulator, M, M, 4, double>"].size == 16  # 8x8 doubles over 32 threads
    sizes = {a.access.array: a.access.size for a in analyze_with_clang(tmp_path / "k.cu").kernels[0].accesses
             if a.access.array in ("in", "out")}
    assert sizes == {"in": 8, "out": 16}
