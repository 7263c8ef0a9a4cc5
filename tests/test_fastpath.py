"""The fast path's translation half (issue 25) on the CPU: the device/host split, plans pinned against
what the C++ computes (expected launches worked out by hand from each wrapper's source, not from the
translator), fallbacks with their reasons, hostile wrappers that must never execute, `--plan`, and the
corpora's coverage.  NVRTC compiles run where NVRTC is found; the GPU test compares a translated
candidate with its load_inline build on a GPU."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from conftest import declarations

from cudaperf.cli import main
from cudaperf.rewards.execution.fastpath import Fallback, translate
from cudaperf.rewards.execution.fastpath.plan import translate_or_reason
from cudaperf.rewards.execution.fastpath.report import candidate_path, plan_record, read_builds
from cudaperf.rewards.execution.fastpath.split import PRELUDE, split
from cudaperf.rewards.execution.formats import load_candidate, load_task

ROOT = Path(__file__).resolve().parents[1]
HEAD = "#include <torch/extension.h>\n#include <cuda_runtime.h>\n"


def spec(cuda: str, functions: list[str], cpp: str | None = None, **extra) -> dict:
    cpp = declarations(cuda, functions) if cpp is None else cpp
    return {"name": "t", "cpp_sources": cpp, "cuda_sources": HEAD + cuda, "functions": functions, **extra}


def reason(cuda: str, functions: list[str], **extra) -> str:
    with pytest.raises(Fallback) as caught:
        translate(spec(cuda, functions, **extra))
    return caught.value.reason


# ------------------------------------------------------------------ split (no torch)

def test_split_keeps_device_code_and_blanks_host_code():
    cuda = HEAD + """#define TILE 16
constexpr int BLOCK = 256;
struct Pair { float a, b; };
__device__ float twice(float v) { return 2.0f * v; }
template <typename T> __global__ void k(const T* x, T* y, int n) { int i = threadIdx.x; if (i < n) y[i] = twice(x[i]); }
torch::Tensor run(torch::Tensor x) { auto y = torch::empty_like(x); return y; }
"""
    sp = split(cuda, "torch::Tensor run(torch::Tensor x);")
    body = sp.device[len(PRELUDE):]
    assert "torch/extension.h" not in body and "torch::" not in body
    assert "__device__ float twice" in body and "struct Pair" in body and "#define TILE 16" in body
    assert body.count("\n") == cuda.count("\n") + 1        # lines kept: NVRTC errors point at the candidate
    assert set(sp.kernels) == {"k"} and sp.kernels["k"].template == ("T",)
    assert [(p.name, p.type, p.pointer) for p in sp.kernels["k"].params] == [
        ("x", "T", True), ("y", "T", True), ("n", "int", False)]
    assert set(sp.host) == {"run"} and sp.constants["BLOCK"][1] == "256"


def test_extern_c_kernels_and_wrappers():
    sp = split(HEAD + 'extern "C" __global__ void k(float* y) {}\nextern "C" { __global__ void k2(int n) {} }\n'
                      'extern "C" torch::Tensor h(torch::Tensor x) { return x; }\n', "")
    assert sorted(sp.kernels) == ["k", "k2"] and list(sp.host) == ["h"]
    assert "torch::Tensor h" not in sp.device and 'extern "C" __global__ void k(float* y) {}' in sp.device
    named_kernel = spec('extern "C" __global__ void relu_kernel(float* y, int n) {}', ["relu_kernel"])
    with pytest.raises(Fallback, match="functions= names kernel relu_kernel"):
        translate(named_kernel)


def test_pybind_module_bindings_are_read_and_anything_else_falls_back():
    cuda = """__global__ void k(float* y) { y[0] = 1.0f; }
torch::Tensor fill(torch::Tensor y) { k<<<1, 1>>>(y.data_ptr<float>()); return y; }
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("forward", &fill, "fill (CUDA)"); }
"""
    t = translate({"name": "t", "cuda_sources": HEAD + cuda, "cpp_sources": ""})
    assert list(t.functions) == ["forward"] and "PYBIND11" not in t.device_source
    bad = cuda.replace('m.def("forward", &fill, "fill (CUDA)");', 'm.def("forward", &fill); py::class_<X>(m, "X");')
    with pytest.raises(Fallback, match="PYBIND11_MODULE statement"):
        translate({"name": "t", "cuda_sources": HEAD + bad, "cpp_sources": ""})


def test_kernels_in_cpp_sources_cannot_build():
    """CUDA-L1 writes whole CUDA files into `cpp_sources` with `cuda_sources=[]`: g++ compiles them, and
    `__global__` and `<<<` do not build there; without kernels it is only a module the fast path skips."""
    kernel = HEAD + ("__global__ void k(float* y) { y[0] = 1.0f; }\n"
                     "void run(torch::Tensor y) { k<<<1, 1>>>(y.data_ptr<float>()); }\n")
    with pytest.raises(Fallback, match="kernel code in cpp_sources"):
        translate({"name": "t", "cpp_sources": kernel, "cuda_sources": [], "functions": ["run"]})
    with pytest.raises(Fallback, match="load_inline without cuda_sources"):
        translate({"name": "t", "cpp_sources": "int twice(int x) { return 2 * x; }", "cuda_sources": [],
                   "functions": ["twice"]})

def test_functions_bound_from_an_empty_cpp_file_cannot_build():
    """torch binds `functions=` in the C++ file it compiles from `cpp_sources`: a name only `cuda_sources`
    defines is undeclared there (CUDA-L1's L1_051: the engine saw only torch's own argmax kernel run).  The
    build's failure is decided before what the translator cannot read (a kernel taking a reference)."""
    cuda = ("__global__ void k(float* y) { y[0] = 1.0f; }\n"
            "torch::Tensor fill(torch::Tensor y) { k<<<1, 1>>>(y.data_ptr<float>()); return y; }\n")
    with pytest.raises(Fallback, match="functions= names fill, which cpp_sources does not declare"):
        translate(spec(cuda, ["fill"], cpp=""))
    assert list(translate(spec(cuda, ["fill"])).functions) == ["fill"]     # declared: it builds
    by_reference = cuda.replace("float* y) {", "float& y) {").replace("y[0] = 1.0f", "y = 1.0f") + (
        'PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("fill", &fill); }\n')
    with pytest.raises(Fallback, match="PYBIND11_MODULE beside functions="):
        translate(spec(by_reference, ["fill"]))
    bound_kernel = cuda + 'PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("k", &k); }\n'
    with pytest.raises(Fallback, match="names kernel k, not a host function"):      # a module binding a kernel
        translate({"name": "t", "cuda_sources": HEAD + bound_kernel, "cpp_sources": ""})


# ------------------------------------------------------------------ plans against the C++ (torch on the CPU)

torch = pytest.importorskip("torch")
from cudaperf.rewards.execution.fastpath import interp  # noqa: E402
from cudaperf.rewards.execution.fastpath.module import FastModule  # noqa: E402


class Recorder:
    """A launcher that records each launch, pointers as (tensor name, byte offset)."""

    def __init__(self, tensors: dict[str, torch.Tensor]):
        self.tensors, self.calls, self.synced = tensors, [], 0

    def pointer(self, address: int):
        for name, t in self.tensors.items():
            start = t.data_ptr()
            if start <= address < start + max(1, t.numel() * t.element_size()):
                return name, address - start
        return ("?", address)

    def launch(self, kernel, grid, block, smem, stream, args):
        self.calls.append((kernel, grid, block, smem, stream,
                           [(c, self.pointer(v)) if c == "p" and v else (c, v) for c, v in args]))

    def synchronize(self):
        self.synced += 1


def run(cuda: str, fn: str, *args, names: dict | None = None, functions: list[str] | None = None,
        cpp: str | None = None):
    t = translate(spec(cuda, functions or [fn], cpp))
    rec = Recorder(dict(names or {}))
    module = FastModule(interp.Interpreter(t, rec, "cpu"))
    out = getattr(module, fn)(*args)
    return out, rec


SCALE_ADD = """
__global__ void scale_add_kernel(const float* a, const float* b, float* out, float alpha, int64_t n) {}
torch::Tensor scale_add(torch::Tensor a, torch::Tensor b, double alpha) {
    auto out = torch::empty_like(a);
    int64_t n = a.numel();
    int threads = 256;
    int blocks = (int)((n + threads - 1) / threads);
    scale_add_kernel<<<blocks, threads>>>(a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(),
                                          (float)alpha, n);
    return out;
}
"""


def test_scale_add_launch_matches_the_cpp():
    a, b = torch.randn(1000), torch.randn(1000)
    out, rec = run(SCALE_ADD, "scale_add", a, b, 0.1, names={"a": a, "b": b})
    # C++: n = 1000, blocks = (1000 + 255) / 256 = 4; alpha passed as (float)0.1
    (kernel, grid, block, smem, stream, args), = rec.calls
    assert (kernel, grid, block, smem, stream) == ("scale_add_kernel", (4, 1, 1), (256, 1, 1), 0, "default")
    assert args[:2] == [("p", ("a", 0)), ("p", ("b", 0))]
    assert args[2][0] == "p" and args[3] == ("f", 0.10000000149011612) and args[4] == ("q", 1000)
    assert out.shape == a.shape and out.dtype == a.dtype


def test_c_integer_semantics_and_dim3():
    cuda = """
__global__ void k(float* y, int a, int b, long c, unsigned d, float e) {}
torch::Tensor f(torch::Tensor x, int64_t m) {
    int rows = x.size(0), cols = x.size(-1);
    int big = rows * rows;                      // overflows int
    int neg = -7 / 2;                           // truncates toward zero
    long wide = (long)rows * rows;
    unsigned wrap = -1;
    float third = 1.0f / 3.0f;
    dim3 block(16, 16);
    dim3 grid((cols + block.x - 1) / block.x, (rows + 15) / 16);
    k<<<grid, block, 2 * 16 * sizeof(float)>>>(x.data_ptr<float>(), big, neg % 3, wide, wrap, third);
    return x;
}
"""
    x = torch.zeros(70000, 33)
    _, rec = run(cuda, "f", x, 3, names={"x": x})
    (_kernel, grid, block, smem, _stream, args), = rec.calls
    # cols + 16 - 1 = 48, / 16 = 3 (unsigned); (70000 + 15) / 16 = 4375; smem = 2*16*4 = 128
    assert grid == (3, 4375, 1) and block == (16, 16, 1) and smem == 128
    # 70000^2 = 4_900_000_000 -> int wraps to 4_900_000_000 - 2^32 = 605_032_704; -7/2 = -3, -3 % 3 = 0
    assert args[1:] == [("i", 605_032_704), ("i", 0), ("q", 4_900_000_000), ("I", 4_294_967_295),
                        ("f", 0.3333333432674408)]


def test_dispatch_instantiates_per_dtype_and_rejects_others():
    cuda = """
template <typename scalar_t>
__global__ void relu_k(const scalar_t* x, scalar_t* y, scalar_t lo, int64_t n) {}
torch::Tensor relu(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    auto y = torch::empty_like(x);
    const int64_t n = x.numel();
    const int threads = 128;
    const int blocks = std::min<int64_t>((n + threads - 1) / threads, 65535);
    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "relu", ([&] {
        relu_k<scalar_t><<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
            x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), static_cast<scalar_t>(0), n);
    }));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""
    t = translate(spec(cuda, ["relu"]))
    assert t.name_expressions == ["relu_k<float>", "relu_k<double>"]
    for dtype, code in ((torch.float64, "d"), (torch.float32, "f")):
        x = torch.zeros(10_000_000, dtype=dtype)
        _, rec = run(cuda, "relu", x, names={"x": x})
        # (10^7 + 127) / 128 = 78125 < 65535? no: min(78125, 65535) = 65535
        (kernel, grid, block, _smem, stream, args), = rec.calls
        assert kernel == f"relu_k<{'double' if code == 'd' else 'float'}>"
        assert (grid, block, stream) == ((65535, 1, 1), (128, 1, 1), "current")
        assert args[2] == (code, 0.0) and args[3] == ("q", 10_000_000)
    with pytest.raises(interp.PlanError, match="not implemented for 'int32'"):
        run(cuda, "relu", torch.zeros(4, dtype=torch.int32))


def test_loop_over_batches_with_pointer_offsets_and_vector_return():
    cuda = """
__global__ void row_k(const float* x, float* y, int n) {}
__global__ void sum_k(const float* y, float* s, int b) {}
static inline int cdiv(int a, int b) { return (a + b - 1) / b; }
std::vector<torch::Tensor> f(torch::Tensor x) {
    const int B = x.size(0), N = x.size(1);
    auto y = torch::zeros({B, N}, x.options());
    auto s = torch::empty({B}, torch::TensorOptions().dtype(torch::kFloat32).device(x.device()));
    for (int b = 0; b < B; ++b) {
        row_k<<<cdiv(N, 256), 256>>>(x.data_ptr<float>() + b * N, y.data_ptr<float>() + b * N, N);
    }
    if (B > 1) sum_k<<<1, B > 32 ? 32 : B>>>(y.data_ptr<float>(), s.data_ptr<float>(), B);
    return {y, s};
}
"""
    x = torch.randn(3, 300)
    out, rec = run(cuda, "f", x, names={"x": x})
    assert isinstance(out, list) and [tuple(o.shape) for o in out] == [(3, 300), (3,)]
    rec.tensors.update(y=out[0], s=out[1])
    rows = [c for c in rec.calls if c[0] == "row_k"]
    # cdiv(300, 256) = 2 blocks; offsets b * N floats = b * 1200 bytes
    assert [(c[1], c[5][0]) for c in rows] == [((2, 1, 1), ("p", ("x", 1200 * b))) for b in range(3)]
    (_kernel, grid, block, *_), = [c for c in rec.calls if c[0] == "sum_k"]
    assert (grid, block) == ((1, 1, 1), (3, 1, 1))


def test_a_default_constructed_vector_starts_empty_and_grows():
    # tests/kb_fresh/argmax_dim: the output's sizes gathered with push_back into a declared-only vector
    cuda = """
__global__ void k(const float* x, int64_t* y, int n) {}
torch::Tensor f(torch::Tensor x, int64_t dim) {
    std::vector<int64_t> out_shape;
    for (int64_t d = 0; d < x.dim(); ++d)
        if (d != dim) out_shape.push_back(x.size(d));
    auto y = torch::empty(out_shape, x.options().dtype(torch::kLong));
    k<<<1, 32>>>(x.data_ptr<float>(), y.data_ptr<int64_t>(), (int)y.numel());
    return y;
}
"""
    x = torch.randn(4, 5, 6)
    out, rec = run(cuda, "f", x, 1, names={"x": x})
    assert tuple(out.shape) == (4, 6) and out.dtype == torch.int64 and len(rec.calls) == 1


def test_what_dim_reduction_wrappers_write(monkeypatch):
    # tests/kb_fresh's wrappers: sizes gathered in while and for loops, an output's sizes edited in place,
    # <climits>, an alignment test on an address, a dtype conversion, the SM count asked of the device
    cuda = """
__global__ void k(const float* x, int64_t* t, float* y, int outer, int r, int inner, bool vec) {}
torch::Tensor f(torch::Tensor x, torch::Tensor targets, int64_t dim) {
    int64_t outer = 1, inner = 1;
    int64_t d = 0;
    while (d < dim) { outer *= x.size(d); ++d; }
    for (int64_t e = dim + 1; e < x.dim(); ++e) inner *= x.size(e);
    auto sizes = x.sizes().vec();
    sizes[dim] = 1;
    sizes[0] += 0;
    TORCH_CHECK(outer * inner < INT_MAX, "too large");
    TORCH_CHECK(x.sizes() == x.contiguous().sizes() && !(x.sizes() != x.sizes()), "shapes");
    auto t = targets.to(torch::kLong);
    bool vec = (inner % 4 == 0) && (reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0);
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    int blocks = sms * 4 + at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    auto y = torch::empty(sizes, x.options());
    k<<<blocks, 256>>>(x.data_ptr<float>(), t.data_ptr<int64_t>(), y.data_ptr<float>(), (int)outer,
                       (int)x.size(dim), (int)inner, vec);
    return y;
}
"""
    # no GPU here: the device's answer is stated (on a GPU torch gives it; traced, costmodel.cudashim does)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda i: type("P", (), {"multi_processor_count": 7}))
    x, targets = torch.randn(3, 5, 8), torch.arange(3, dtype=torch.int32)
    out, rec = run(cuda, "f", x, targets, 1, names={"x": x})
    assert tuple(out.shape) == (3, 1, 8)
    (_kernel, grid, _block, _smem, _stream, args), = rec.calls
    assert grid == (7 * 4 + 7, 1, 1)
    assert [a[1] for a in args[3:]] == [3, 5, 8, x.data_ptr() % 16 == 0]
    assert args[1][1][0] == "?"             # the converted targets: a new int64 tensor, not the int32 input


def test_cstdint_limits_and_the_opt_in_shared_memory_are_known(monkeypatch):
    """`INT32_MAX` (<cstdint>) in a size check and the shared memory a block may opt into, asked of the
    device to size a privatised histogram (tests/kb_fresh12's index_add_ wrappers fell back to the full
    build, and the cost model to reading them by patterns, on both)."""
    cuda = """
__global__ void k(const float* x, float* y, int cols, int slice) {}
torch::Tensor f(torch::Tensor x) {
    TORCH_CHECK(x.numel() < INT32_MAX && x.numel() > INT32_MIN && (uint64_t)x.numel() < UINT32_MAX, "too large");
    TORCH_CHECK((int64_t)x.numel() < INT64_MAX && (int64_t)x.numel() > INT64_MIN, "too large");
    int budget = 0, per_sm = 0;
    cudaDeviceGetAttribute(&budget, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
    cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0);
    int slice = budget / (int)(x.size(1) * sizeof(float));
    auto y = torch::empty_like(x);
    k<<<per_sm / 1024, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), (int)x.size(1), slice);
    return y;
}
"""
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda i: type(
        "P", (), {"shared_memory_per_block_optin": 232448, "shared_memory_per_multiprocessor": 233472}))
    x = torch.randn(4, 64)
    out, rec = run(cuda, "f", x, names={"x": x})
    (_kernel, grid, _block, _smem, _stream, args), = rec.calls
    assert grid == (233472 // 1024, 1, 1) and args[-1][1] == 232448 // 256 and tuple(out.shape) == (4, 64)


def test_sizeof_a_cuda_vector_type_and_a_cluster_kernel_translate():
    """`sizeof(float4)` (the grammar reads `float4` as a parenthesised variable) sizing dynamic shared memory,
    and a kernel declared `__global__ void __cluster_dims__(2, 1, 1) k(...)` (read as a declaration, so its
    launch was "not a kernel of the sources"): tests/kb_fresh13 fell back on both.  `sizeof` of a variable
    still falls back."""
    cuda = """
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(256) k(const float* x, float* y, int n) {}
torch::Tensor f(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = (int)x.numel();
    size_t smem = (size_t)(n / 4) * sizeof(float4) + sizeof(double2);
    k<<<2 * ((n + 255) / 256), 256, smem>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""
    assert "__cluster_dims__(2, 1, 1)" in split(HEAD + cuda, "").device   # NVRTC still sees the attribute
    x = torch.randn(1024)
    _out, rec = run(cuda, "f", x, names={"x": x})
    (kernel, grid, block, smem, _stream, _args), = rec.calls
    assert kernel == "k" and grid == (8, 1, 1) and block == (256, 1, 1) and smem == 256 * 16 + 16
    assert "sizeof(n)" in reason("__global__ void k(float* y) {}\ntorch::Tensor f(torch::Tensor x) {\n"
                                 "    int n = 4; k<<<1, sizeof(n)>>>(x.data_ptr<float>()); return x;\n}\n", ["f"])


def test_pop_back_edits_a_copy_of_the_sizes():
    """`auto s = x.sizes().vec(); s.pop_back();` (a last-dimension reduction's output shape, tests/kb_fresh5):
    the copy loses its last size, the tensor's sizes and a vector assigned from it stay; popping an empty
    vector falls back."""
    cuda = """
__global__ void k(const float* x, float* y, int rows, int cols) {}
torch::Tensor f(torch::Tensor x) {
    auto sizes = x.sizes().vec();
    const int cols = x.size(-1);
    sizes.pop_back();
    auto y = torch::empty(sizes, x.options());
    k<<<1, 32>>>(x.data_ptr<float>(), y.data_ptr<float>(), (int)(x.numel() / cols), cols);
    auto again = x.sizes().vec();
    std::vector<int64_t> kept;
    kept = again;
    again.pop_back();
    again.pop_back();
    TORCH_CHECK(kept.size() == 3, "an assigned vector is a copy");
    TORCH_CHECK(y.dim() == 2 && x.dim() == 3, "the copies are edited, not the tensors");
    return torch::empty(again, x.options());
}
"""
    x = torch.randn(3, 4, 5)
    out, rec = run(cuda, "f", x, names={"x": x})
    assert tuple(out.shape) == (3,) and tuple(x.shape) == (3, 4, 5)
    (_kernel, _grid, _block, _smem, _stream, args), = rec.calls
    assert [a[1] for a in args[2:]] == [12, 5]
    with pytest.raises(interp.Unsupported, match="pop_back"):
        run(cuda, "f", torch.randn(5), names={})


def test_back_and_front_of_sizes_read_and_assign_and_an_empty_reduction_fills():
    """tests/kb_fresh6's variance wrappers: `auto sizes = x.sizes().vec(); cols = sizes.back(); sizes.back()
    = 1;` (keepdim), `out.fill_(NAN)` for empty rows, `reinterpret_cast<std::uintptr_t>(p) % 16`."""
    cuda = """
__global__ void k(const float* x, float* y, long long rows, long long cols, bool vec) {}
torch::Tensor f(torch::Tensor x) {
    auto sizes = x.sizes().vec();
    const long long cols = sizes.back();
    const long long first = sizes.front();
    sizes.back() = 1;
    auto out = torch::empty(sizes, x.options());
    if (cols == 0) { out.fill_(NAN); return out; }
    const bool vec = (reinterpret_cast<std::uintptr_t>(x.data_ptr<float>()) % 16) == 0;
    k<<<1, 32>>>(x.data_ptr<float>(), out.data_ptr<float>(), x.numel() / cols, first * 0 + cols, vec);
    return out;
}
"""
    x = torch.randn(6, 8)
    out, rec = run(cuda, "f", x, names={"x": x})
    assert tuple(out.shape) == (6, 1)
    (_kernel, _grid, _block, _smem, _stream, args), = rec.calls
    assert [a[1] for a in args[2:]] == [6, 8, 1]        # torch's allocations are 512-byte aligned
    empty, rec = run(cuda, "f", torch.randn(6, 0), names={})
    assert tuple(empty.shape) == (6, 1) and torch.isnan(empty).all() and not rec.calls
    with pytest.raises(interp.Unsupported, match="out of range for 0 sizes"):
        run(cuda, "f", torch.randn(()), names={})       # .back() of no sizes: undefined in C++, the full build


def test_a_vector_copied_from_an_iterator_range_and_sqrtf():
    """tests/kb_fresh7's embedding and attention wrappers: `std::vector<int64_t> shape(idx.sizes().begin(),
    idx.sizes().end()); shape.push_back(D);` (a copy: the tensor's sizes stay) and `1.0f / sqrtf((float)D)`
    (rounded to float, as the C++ passes it)."""
    cuda = """
__global__ void k(const float* x, float* y, float scale, long long d) {}
torch::Tensor f(torch::Tensor idx, torch::Tensor w) {
    const long long D = w.size(1);
    std::vector<int64_t> shape(idx.sizes().begin(), idx.sizes().end());
    shape.push_back(D);
    auto out = torch::empty(shape, w.options());
    TORCH_CHECK(idx.dim() == 2, "the tensor's sizes are not edited");
    k<<<1, 32>>>(w.data_ptr<float>(), out.data_ptr<float>(), 1.0f / sqrtf((float)D), D);
    return out;
}
"""
    idx, w = torch.zeros(4, 5, dtype=torch.long), torch.randn(10, 3)
    out, rec = run(cuda, "f", idx, w, names={})
    assert tuple(out.shape) == (4, 5, 3)
    (_kernel, _grid, _block, _smem, _stream, args), = rec.calls
    assert args[2] == ("f", float(torch.tensor(1.0) / torch.tensor(3.0).sqrt())) and args[3] == ("q", 3)
    mixed = cuda.replace("idx.sizes().end()", "w.sizes().end()")
    assert reason(mixed, ["f"]) == "method .begin() at line 7"     # two containers: not a copy of one


def test_host_constants_from_pow_exp_and_log():
    """Host wrappers fold constants with the C math library (tests/kb_fresh10's Adam steps: `1.0 -
    std::pow(beta1, (double)step)`): double in, double out; `powf` rounds to float; C's infinities and
    NaN where Python's math raises."""
    cuda = """
__global__ void k(float* y, double bc, float f, double big, double nan, double zero_log) {}
torch::Tensor f(torch::Tensor x, double beta, int64_t step) {
    const double bc = 1.0 - std::pow(beta, (double)step);
    k<<<1, 32>>>(x.data_ptr<float>(), std::exp(std::log(bc)), powf(1.1f, 3.0f), std::exp(1000.0),
                 pow(-8.0, 1.0 / 3.0), log(0.0));
    return x;
}
"""
    x = torch.zeros(4)
    _out, rec = run(cuda, "f", x, 0.9, 10, names={"x": x})
    (_kernel, _grid, _block, _smem, _stream, args), = rec.calls
    assert args[1] == ("d", pytest.approx(1.0 - 0.9 ** 10, rel=1e-15))
    assert args[2] == ("f", float(torch.tensor(1.1) ** 3))
    assert args[3] == ("d", math.inf) and math.isnan(args[4][1]) and args[5] == ("d", -math.inf)


def test_cuda_memset_zeroes_the_bytes_before_the_launch_and_replays():
    """`cudaMemsetAsync(acc.data_ptr<double>(), 0, sizeof(double), stream)` before an accumulating kernel
    (tests/kb_fresh5's hinge losses): the bytes are set as a recorded torch call, in order with the launch,
    and again on a replayed call; a memset past the tensor's bytes is left to the full build."""
    cuda = """
__global__ void k(const float* x, double* acc, int n) {}
torch::Tensor f(torch::Tensor x, int64_t stream_handle, int64_t spill) {
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_handle);
    auto acc = torch::full({2}, 7.0, x.options().dtype(torch::kFloat64));
    cudaMemsetAsync(acc.data_ptr<double>() + 1, 0, sizeof(double) + spill, stream);
    k<<<1, 32, 0, stream>>>(x.data_ptr<float>(), acc.data_ptr<double>(), (int)x.numel());
    return acc;
}
"""
    from cudaperf.rewards.execution.fastpath.module import FastModule

    t = translate(spec(cuda, ["f"]))
    rec = Recorder({})
    module = FastModule(interp.Interpreter(t, rec, "cpu"))
    for _ in range(3):
        out = module.f(torch.randn(8), 0, 0)
        assert out.tolist() == [7.0, 0.0]
    assert [c[0] for c in rec.calls] == ["k"] * 3 and module._calls.replayed == 2
    with pytest.raises(interp.Unsupported, match="cudaMemset outside"):
        module.f(torch.randn(8), 0, 1)


def test_torch_check_and_dtype_mismatch_raise_like_the_cpp():
    cuda = """
__global__ void k(float* y, int n) {}
torch::Tensor f(torch::Tensor x, int64_t n) {
    TORCH_CHECK(x.dim() == 2, "expected 2-D input, got ", x.dim(), " dims");
    k<<<1, 32>>>(x.data_ptr<float>(), n);
    return x;
}
"""
    with pytest.raises(interp.PlanError, match="expected 2-D input, got 1 dims"):
        run(cuda, "f", torch.zeros(3), 1)
    with pytest.raises(interp.PlanError, match="expected scalar type float32 but found float64"):
        run(cuda, "f", torch.zeros(3, 3, dtype=torch.float64), 1)
    with pytest.raises(TypeError):
        run(cuda, "f", torch.zeros(3, 3), 1.5)     # pybind11 refuses a float for int64_t
    with pytest.raises(TypeError):
        run(cuda, "f", torch.zeros(3, 3), n=1)     # and keywords (load_inline binds positional arguments)


SWITCH = """template <int B> __global__ void k(float* y, int n) {}
torch::Tensor f(torch::Tensor x, int64_t threads) {
    int n = x.numel();
    switch (threads * 2 / 2) {
        case 1024: k<1024><<<1, 1024>>>(x.data_ptr<float>(), n); break;
        case 512:
        case 256: { k<256><<<2, 256>>>(x.data_ptr<float>(), n); } break;
        default: TORCH_CHECK(false, "unsupported block size ", threads); break;
        case 64: return torch::zeros_like(x);
    }
    return x;
}
"""


@pytest.mark.parametrize("threads, launched", [(1024, ["k<1024>"]), (512, ["k<256>"]), (256, ["k<256>"]), (64, [])])
def test_switch_picks_its_case_as_the_cpp_does(threads, launched):
    """The way wrappers pick a template instantiation (kb_fresh2's max_pool2d): labels grouped by an
    empty case, a default before the last case, `return` ending a case."""
    out, rec = run(SWITCH, "f", torch.ones(4), threads, names={})
    assert [c[0] for c in rec.calls] == launched
    assert out.sum().item() == (0 if threads == 64 else 4)


def test_switch_outside_the_subset_falls_back():
    with pytest.raises(interp.PlanError, match="unsupported block size 128"):
        run(SWITCH, "f", torch.ones(4), 128, names={})
    falls = SWITCH.replace("(x.data_ptr<float>(), n); break;", "(x.data_ptr<float>(), n);", 1)
    assert reason(falls, ["f"]) == "switch case that falls through at line 7"   # 5 of SWITCH, after HEAD
    nested = SWITCH.replace("case 1024: k", "case 1024: if (n > 3) break; k", 1)
    assert reason(nested, ["f"]) == "break statement at line 7"


TEMPLATED_HELPER = """template <int K> __global__ void k(const float* x, float* y, int n) {}
template <int K, typename T>
static void launch_k(const T* x, T* y, int n) {
    const int per_block = 256 / K;
    k<K><<<(n + per_block - 1) / per_block, per_block>>>(x, y, n);
}
torch::Tensor f(torch::Tensor x, int64_t kind) {
    auto y = torch::empty_like(x);
    const int n = x.numel();
    switch (kind) {
        case 1: launch_k<1, float>(x.data_ptr<float>(), y.data_ptr<float>(), n); break;
        case 4: launch_k<4, float>(x.data_ptr<float>(), y.data_ptr<float>(), n); break;
        default: TORCH_CHECK(false, "kind");
    }
    return y;
}
"""


@pytest.mark.parametrize("kind, launched", [(1, ("k<1>", (4, 1, 1), (256, 1, 1))),
                                            (4, ("k<4>", (16, 1, 1), (64, 1, 1)))])
def test_a_templated_launch_helper_is_instantiated_per_call(kind, launched):
    """kb_fresh5's conv1d `launch_rb<K>(...)`: each explicit instantiation translated with its template
    arguments in place (C++: per_block = 256 / K threads, ceil(1000 / per_block) blocks)."""
    out, rec = run(TEMPLATED_HELPER, "f", torch.ones(1000), kind, names={})
    assert [c[:3] for c in rec.calls] == [launched] and out.shape == (1000,)
    deduced = TEMPLATED_HELPER.replace("launch_k<1, float>(", "launch_k(")
    assert reason(deduced, ["f"]) == ("templated host function launch_k at line 4 called without its template "
                                      "arguments")


OCCUPANCY = """__global__ void persistent(const float* x, float* y, long long n) {}
torch::Tensor f(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const long long n = x.numel();
    int per_sm = 0;
    const int sms = 132;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, persistent, 256, 1024);
    if (per_sm < 1) per_sm = 1;
    long long blocks = std::min<long long>((long long)sms * per_sm, (n + 255) / 256);
    persistent<<<(unsigned)blocks, 256, 1024>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""


class Occupied(Recorder):
    """A launcher whose device holds `blocks` blocks per SM of any kernel; the queries it was asked."""

    def __init__(self, blocks: int):
        super().__init__({})
        self.blocks, self.asked = blocks, []

    def occupancy(self, kernel, threads, smem):
        self.asked.append((kernel, threads, smem))
        return self.blocks


@pytest.mark.parametrize("blocks, grid", [(3, 396), (0, 132)])
def test_an_occupancy_query_is_answered_by_the_launchers_device(blocks, grid):
    """A persistent grid sized by `cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ...)`: the
    launcher answers (the driver on a GPU, the analyzer while traced), the wrapper's arithmetic follows."""
    rec = Occupied(blocks)
    out = FastModule(interp.Interpreter(translate(spec(OCCUPANCY, ["f"])), rec, "cpu")).f(torch.ones(1 << 20))
    assert rec.asked == [("persistent", 256, 1024)]
    assert [c[:4] for c in rec.calls] == [("persistent", (grid, 1, 1), (256, 1, 1), 1024)]
    assert out.shape == (1 << 20,)
    nowhere = OCCUPANCY.replace("(&per_sm,", "(nullptr,")
    assert reason(nowhere, ["f"]) == ("cudaOccupancyMaxActiveBlocksPerMultiprocessor into something other than a "
                                      "local at line 9")


CONSTANT_WEIGHTS = """#define MAX_W 64
__constant__ float c_w[MAX_W];
__global__ void k(const float* x, float* y, int n, int nw) {}
torch::Tensor f(torch::Tensor x, torch::Tensor w) {
    auto y = torch::empty_like(x);
    const int nw = (int)w.numel();
    cudaMemcpyToSymbolAsync(c_w, w.data_ptr<float>() + 1, (nw - 1) * sizeof(float), sizeof(float),
                            cudaMemcpyDeviceToDevice, 0);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "copy failed: ", cudaGetErrorString(err));
    k<<<1, 32>>>(x.data_ptr<float>(), y.data_ptr<float>(), (int)x.numel(), nw);
    return y;
}
"""


class Copier(Recorder):
    """A recorder that also logs copies into device variables, in order with the launches."""

    def copy_to_symbol(self, source, start, count, symbol, offset, stream):
        self.calls.append(("copy", symbol, start, count, offset, stream))
        return source

    def symbol_size(self, symbol):
        return None


def test_weights_copied_into_constant_memory_precede_the_launch_and_replay():
    """`cudaMemcpyToSymbolAsync(c_w, w.data_ptr<float>() + 1, ..., sizeof(float), cudaMemcpyDeviceToDevice, 0)`
    (kb_fresh3/8/10's constant-memory convolutions): the variable's size comes from its declaration
    (64 floats), the copy is recorded before the launch and replayed; one past the variable's end is the
    runtime's cudaErrorInvalidValue ("invalid argument"), which the wrapper's check raises; a host-to-device
    copy is left to the full build."""
    t = translate(spec(CONSTANT_WEIGHTS, ["f"]))
    assert t.symbols == {"c_w": 256} and t.device_names() == ["k", "&c_w"]
    rec = Copier({})
    module = FastModule(interp.Interpreter(t, rec, "cpu"))
    for _ in range(3):
        module.f(torch.ones(8), torch.ones(9))
    assert rec.calls[:2] == [("copy", "c_w", 4, 32, 4, "default"), rec.calls[1]] and rec.calls[1][0] == "k"
    assert len(rec.calls) == 6 and module._calls.replayed == 2
    module.f(torch.ones(8), torch.ones(64))                      # 63 floats from offset 4: the last byte fits
    with pytest.raises(interp.PlanError, match="copy failed: invalid argument"):
        module.f(torch.ones(8), torch.ones(65))
    to_device = CONSTANT_WEIGHTS.replace("cudaMemcpyDeviceToDevice", "cudaMemcpyHostToDevice")
    with pytest.raises(interp.Unsupported, match="cudaMemcpyToSymbol from outside a GPU tensor"):
        FastModule(interp.Interpreter(translate(spec(to_device, ["f"])), Copier({}), "cpu")).f(torch.ones(8),
                                                                                               torch.ones(9))
    assert reason(CONSTANT_WEIGHTS.replace("(c_w, w.data", "(y, w.data"), ["f"]) == \
        "cudaMemcpyToSymbolAsync into 'y', not a device variable of the sources at line 9"


PARAMETER_STRUCT = """struct Consts { float scale, shift; std::int64_t n; int flag; };
__device__ float one(float x, const Consts& c) { return c.scale * x + c.shift; }
__global__ void k(const float* x, float* y, Consts c) {}
static int blocks_for(const Consts& c) { return (int)((c.n + 255) / 256); }
torch::Tensor f(torch::Tensor x, double a, double b) {
    auto y = torch::empty_like(x);
    Consts c;
    c.scale = (float)a;
    c.shift = (float)(1.0 - b);
    c.n = x.numel();
    c.n += 1;
    Consts d = c;
    d.scale = 5;
    k<<<blocks_for(c), 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), c);
    Consts z{2.5f};
    k<<<1, 32>>>(x.data_ptr<float>(), y.data_ptr<float>(), z);
    return y;
}
"""


def test_a_struct_filled_on_the_host_is_passed_by_value_in_c_layout():
    """kb_fresh10's Adam wrappers: `AdamConsts k; k.beta1 = ...; kernel<<<...>>>(..., k)`.  Fields are set
    one by one, copied with the struct (`d = c` then `d.scale = 5` leaves `c`), read by a helper through a
    const reference, brace-initialised with the rest zero, and packed as the C ABI lays them out (a 64-bit
    integer at offset 8, 24 bytes in all); a field never set packs as 0.  A struct whose layout is not plain
    (an array, a bit field, a const field, an alignment attribute) is left to the full build."""
    import struct

    x = torch.ones(1000)
    _, rec = run(PARAMETER_STRUCT, "f", x, 0.5, 0.25, names={"x": x})
    (_, grid, _, _, _, args), (_, _, _, _, _, zeroed) = rec.calls
    assert grid == (4, 1, 1) and args[-1][0] == "s" and len(args[-1][1]) == 24
    assert struct.unpack("@ffqi0q", args[-1][1]) == (0.5, 0.75, 1001, 0)
    assert struct.unpack("@ffqi0q", zeroed[-1][1]) == (2.5, 0.0, 0, 0)
    unset = PARAMETER_STRUCT.replace("Consts d = c;\n    d.scale = 5;", "int flag = c.flag;")
    with pytest.raises(interp.Unsupported, match="field flag read before it was given a value"):
        run(unset, "f", x, 0.5, 0.25)
    for layout in ("int flag[2]; }", "int flag : 4; }", "const int flag; }", "alignas(16) int flag; }"):
        assert reason(PARAMETER_STRUCT.replace("int flag; }", layout), ["f"]) == "local of type 'Consts' at line 9"
    aligned = PARAMETER_STRUCT.replace("struct Consts {", "struct __align__(32) Consts {")
    assert reason(aligned, ["f"]) == "local of type 'Consts' at line 9"


KERNEL_ALIASES = """template <int W> __global__ void rows(const float* x, float* y, long long m) {}
__global__ void any_rows(const float* x, float* y, long long m, int w) {}
template <typename K>
static long long grid_for(K kernel, long long m) {
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 256, 0);
    return std::min<long long>((long long)132 * per_sm, (m + 7) / 8);
}
torch::Tensor f(torch::Tensor x, int64_t w) {
    auto y = torch::empty_like(x);
    const long long m = x.size(0);
    if (w == 4) {
        auto k = rows<4>;
        k<<<(unsigned)grid_for(k, m), 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), m);
    } else {
        auto k = any_rows;
        k<<<(unsigned)grid_for(any_rows, m), 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), m, (int)w);
    }
    return y;
}
"""


@pytest.mark.parametrize("w, launched", [(4, "rows<4>"), (3, "any_rows")])
def test_a_local_naming_a_kernel_and_a_helper_deducing_its_type(w, launched):
    """kb_fresh9's `auto k = index_select_persistent_fixed_kernel<6>; k<<<pw_grid(k, m), ...>>>` and
    kb_fresh10's `persistent_blocks(embedding_bag_vec_kernel<VPL>, ...)`: the local stands for its kernel,
    and a helper whose template parameter only types its kernel parameter is translated once per kernel,
    its occupancy query asking about that kernel.  Assigning the local or using it as a number falls back."""
    rec = Occupied(3)
    FastModule(interp.Interpreter(translate(spec(KERNEL_ALIASES, ["f"])), rec, "cpu")).f(torch.ones(1000, 4), w)
    assert rec.asked == [(launched, 256, 0)]
    assert [c[:3] for c in rec.calls] == [(launched, (125, 1, 1), (256, 1, 1))]     # min(132 * 3, 1000 / 8)
    reassigned = KERNEL_ALIASES.replace("auto k = any_rows;", "auto k = any_rows;\n        k = any_rows;")
    assert reason(reassigned, ["f"]) == "assignment to 'k' at line 19"
    as_number = KERNEL_ALIASES.replace("auto k = any_rows;", "auto k = any_rows;\n        long long z = k + 1;")
    assert reason(as_number, ["f"]) == "kernel k used as a value at line 19"


TAIL = """__global__ void partial_sums(const float* x, float* partials, long long n) {}
torch::Tensor mean_of(torch::Tensor x) {
    const long long n = x.numel();
    auto partials = torch::ones({4}, x.options());      // the launcher below runs no kernel
    partial_sums<<<4, 256>>>(x.data_ptr<float>(), partials.data_ptr<float>(), n);
    return partials.sum() / (double)n + 2 * partials.mean() - partials;
}
"""


def test_a_torch_tail_over_partial_results_computes_as_torch_does():
    """A wrapper that ends in torch arithmetic over its kernels' partial results (the brief's "final
    .sum() or / n", kb_fresh3's kl_div): at::sum/mean and tensor-number operators, as torch computes them."""
    x = torch.arange(8, dtype=torch.float32)
    out, rec = run(TAIL, "mean_of", x, names={"x": x})
    assert [c[0] for c in rec.calls] == ["partial_sums"]
    assert torch.equal(out, torch.full((4,), 4 / 8 + 2 * 1.0 - 1.0))     # sum 4, mean 1, n 8
    compound = TAIL.replace("return partials.sum() / (double)n + 2 * partials.mean() - partials;",
                            "partials /= (double)n;\n    return partials;")
    with pytest.raises(interp.Unsupported, match="/= on a tensor"):     # in place: left to the full build
        run(compound, "mean_of", x, names={"x": x})
    with pytest.raises(Fallback, match=r"method \.sum\(\)"):          # over a dimension: not translated
        translate(spec(TAIL.replace("partials.sum()", "partials.sum(0)"), ["mean_of"]))


def test_a_limit_of_the_interpreter_is_not_the_candidates_error():
    """What the interpreter cannot follow at run time raises Unsupported, which the worker reports as
    beyond the fast path (the engine then runs the full build), even when the candidate wraps it."""
    from cudaperf.rewards.execution.worker import _beyond_fast_path

    candidate = load_candidate(ROOT / "tests/hacks/runtime/kb_beyond_fast_path.py")
    (args,) = read_builds(candidate.source)
    module = FastModule(interp.Interpreter(translate(args), Recorder({}), "cpu"))
    small = torch.zeros(1000)
    assert module.scale_add(small, small, 2.0).shape == small.shape     # 63 host iterations: interpreted
    big = torch.zeros(1 << 24)
    with pytest.raises(interp.Unsupported, match="more than 1000000 steps") as raised:
        module.scale_add(big, big, 2.0)
    assert _beyond_fast_path(raised.value) is raised.value
    try:
        raise ValueError("the candidate's own message") from raised.value
    except ValueError as wrapped:
        assert _beyond_fast_path(wrapped) is raised.value
    with pytest.raises(interp.PlanError) as check:                        # TORCH_CHECK: the candidate's error
        run("__global__ void k(float* y) {}\ntorch::Tensor f(torch::Tensor x) {\n"
            "  TORCH_CHECK(x.dim() == 2, \"2-D\");\n  k<<<1, 32>>>(x.data_ptr<float>());\n  return x;\n}\n", "f",
            torch.zeros(3))
    assert _beyond_fast_path(check.value) is None


def test_an_interpreter_bug_is_not_the_candidates_error(monkeypatch):
    """A KeyError (or any exception the compiled extension could not raise) out of a call is the
    interpreter's bug: Unsupported, so the engine runs the full build; the extension's own errors pass."""
    t = translate(spec(SCALE_ADD, ["scale_add"]))
    module = FastModule(interp.Interpreter(t, Recorder({}), "cpu"), capacity=0)

    def broken(*args, **kwargs):
        raise KeyError("slot")

    monkeypatch.setattr(interp.Interpreter, "call", broken)
    with pytest.raises(interp.Unsupported, match="the interpreter failed on scale_add: KeyError") as raised:
        module.scale_add(torch.zeros(4), torch.zeros(4), 1.0)
    assert isinstance(raised.value.__cause__, KeyError)

    def refused(*args, **kwargs):
        raise interp.ArgumentError("incompatible function arguments")

    monkeypatch.setattr(interp.Interpreter, "call", refused)
    with pytest.raises(interp.ArgumentError, match="incompatible function arguments"):   # pybind11's: the candidate's
        module.scale_add(torch.zeros(4), torch.zeros(4), 1.0)

    def mistyped(*args, **kwargs):
        return None + 1      # a TypeError of the interpreter's own

    monkeypatch.setattr(interp.Interpreter, "call", mistyped)
    with pytest.raises(interp.Unsupported, match="the interpreter failed on scale_add: TypeError"):
        module.scale_add(torch.zeros(4), torch.zeros(4), 1.0)


def test_memory_formats_are_checked_and_applied_as_the_cpp_does():
    """`x.is_contiguous(torch::MemoryFormat::ChannelsLast)` and `x.contiguous(at::MemoryFormat::...)`:
    the check reads the tensor's layout in that format (a CUDA-L1 solution's wrapper checked it in a
    TORCH_CHECK, and the translator stopped at the name)."""
    cuda = """
__global__ void k(float* y, int n) {}
torch::Tensor f(torch::Tensor x) {
    TORCH_CHECK(x.is_contiguous(torch::MemoryFormat::Contiguous), "x must be contiguous");
    auto y = x.contiguous(at::MemoryFormat::ChannelsLast);
    TORCH_CHECK(y.is_contiguous(c10::MemoryFormat::ChannelsLast), "y must be channels-last");
    k<<<1, 32>>>(y.data_ptr<float>(), y.numel());
    return y;
}
"""
    x = torch.randn(2, 3, 4, 5)
    out, rec = run(cuda, "f", x, names={"x": x})
    assert out.is_contiguous(memory_format=torch.channels_last) and not out.is_contiguous()
    assert len(rec.calls) == 1
    with pytest.raises(interp.PlanError, match="x must be contiguous"):
        run(cuda, "f", x.permute(0, 2, 3, 1))


def test_scalar_arguments_convert_as_pybind11_does():
    a, b = torch.randn(10), torch.randn(10)
    _, rec = run(SCALE_ADD, "scale_add", a, b, torch.tensor(0.25), names={"a": a, "b": b})
    assert rec.calls[0][5][3] == ("f", 0.25)          # a 1-element tensor through __float__
    _, rec = run(SCALE_ADD, "scale_add", a, b, 2, names={"a": a, "b": b})
    assert rec.calls[0][5][3] == ("f", 2.0)
    with pytest.raises(TypeError):
        run(SCALE_ADD, "scale_add", a, b, "0.5")


def test_shared_memory_above_48k_needs_the_attribute():
    cuda = """
__global__ void k(float* y) {}
torch::Tensor f(torch::Tensor x, int64_t opt_in) {
    size_t smem = 64 * 1024;
    if (opt_in) cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    k<<<1, 32, smem>>>(x.data_ptr<float>());
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "launch failed: ", cudaGetErrorString(err));
    return x;
}
"""
    x = torch.zeros(4)
    with pytest.raises(interp.PlanError, match="launch failed: invalid argument"):
        run(cuda, "f", x, 0)
    _, rec = run(cuda, "f", x, 1)
    assert rec.calls[0][3] == 65536


def test_block_over_1024_threads_is_a_launch_error_not_a_launch():
    cuda = """
__global__ void k(float* y) {}
torch::Tensor f(torch::Tensor x) { k<<<1, 2048>>>(x.data_ptr<float>()); C10_CUDA_KERNEL_LAUNCH_CHECK(); return x; }
"""
    with pytest.raises(interp.PlanError, match="invalid configuration"):
        run(cuda, "f", torch.zeros(4))


# ------------------------------------------------------------------ fallbacks and hostile wrappers

@pytest.mark.parametrize("body, expected", [
    ("auto z = at::matmul(x, x); return z;", r"call of at::matmul at line \d+"),
    ('system("rm -rf /tmp/x"); return x;', r"call of system at line \d+"),
    ('FILE* f = fopen("/etc/passwd", "r"); return x;', "local of type 'FILE\\*'|call of fopen"),
    ('std::ofstream out("x.txt"); return x;', "local of type 'std::ofstream'"),
    ('int fd = socket(2, 1, 0); return x;', "call of socket"),
    ('const char* h = std::getenv("HOME"); return x;', "call of std::getenv"),
    ("do { } while (false); return x;", "do statement"),
    ("static int calls = 0; calls++; return x;", "static local variable"),
    ("try { k<<<1, 1>>>(x.data_ptr<float>()); } catch (...) {} return x;", "try statement"),
    ("auto z = x.matmul(x); return z;", r"method \.matmul\(\)"),
    ("auto z = x.to(torch::kCPU); return z;", r"method \.to\(\)"),
    ("auto l = [&]() { return 1; }; return x;", "lambda expression"),
    ("x.data_ptr<float>()[0] = 1.0f; return x;", "assignment to"),
])
def test_outside_the_subset_falls_back_with_construct_and_line(body, expected):
    cuda = f"__global__ void k(float* y) {{}}\ntorch::Tensor f(torch::Tensor x) {{\n    {body}\n}}\n"
    assert re.search(expected, reason(cuda, ["f"]))


def test_const_float_locals_and_octal_constants_translate():
    """`const float inv = 1.0f / rows;` was read as an integer constant and crashed the translator
    (tests/kb_fresh3: two candidates could not be traced at all); `010` is C's octal 8."""
    cuda = """__global__ void k(float* y, float s, int n) {}
torch::Tensor f(torch::Tensor x) {
    const int rows = x.size(0);
    const float inv = 1.0f / (float)rows;
    const int eight = 010;
    k<<<eight, 32>>>(x.data_ptr<float>(), inv, rows);
    return x;
}
"""
    _, rec = run(cuda, "f", torch.zeros(4), names={})
    (kernel, grid, *_rest, args), = rec.calls
    assert kernel == "k" and grid == (8, 1, 1) and args[1] == ("f", 0.25) and args[2] == ("i", 4)


def test_casts_to_every_cuda_vector_type_translate():
    """A mask read as `uchar4` (tests/kb_fresh4's masked cumsum) fell back as "cast to 'const uchar4*'":
    every CUDA vector type is a pointee of n components, and pointer arithmetic steps by its size."""
    cuda = """__global__ void k(const float4* x, const uchar4* m, const short2* s, const double3* d, int n) {}
torch::Tensor f(torch::Tensor x, torch::Tensor mask) {
    const uchar4* m4 = reinterpret_cast<const uchar4*>(mask.data_ptr<bool>());
    k<<<2, 32>>>(reinterpret_cast<const float4*>(x.data_ptr<float>()) + 1, m4 + 1,
                 reinterpret_cast<const short2*>(x.data_ptr<float>()) + 1,
                 reinterpret_cast<const double3*>(x.data_ptr<float>()) + 1, (int)x.numel());
    return x;
}
"""
    x, mask = torch.zeros(32), torch.zeros(32, dtype=torch.bool)
    _, rec = run(cuda, "f", x, mask, names={"x": x, "mask": mask})
    (_kernel, _grid, *_rest, args), = rec.calls
    assert [a[1] for a in args] == [("x", 16), ("mask", 4), ("x", 4), ("x", 24), 32]


def test_casts_to_multiword_integer_pointers_translate():
    """A decoupled look-back scan's status words (tests/kb_fresh8's exclusive cumsum) fell back as "cast to
    'unsigned long long*'": multi-word integer pointees step by their size too."""
    cuda = """__global__ void k(unsigned long long* s, unsigned short* h, int n) {}
torch::Tensor f(torch::Tensor x, torch::Tensor scratch) {
    unsigned long long* status = reinterpret_cast<unsigned long long*>(scratch.data_ptr<int64_t>());
    k<<<2, 32>>>(status + 2, reinterpret_cast<unsigned short*>(x.data_ptr<float>()) + 3, (int)x.numel());
    return x;
}
"""
    x, scratch = torch.zeros(32), torch.zeros(8, dtype=torch.int64)
    _, rec = run(cuda, "f", x, scratch, names={"x": x, "scratch": scratch})
    (_kernel, _grid, *_rest, args), = rec.calls
    assert [a[1] for a in args] == [("scratch", 16), ("x", 6), 32]


def test_a_translator_bug_is_a_fallback_reason_not_a_crash(monkeypatch):
    """Whatever the translator raises on a candidate's text, the engine and the tracer get a reason and
    take the full build (or the regex reading) instead of failing the candidate's evaluation."""
    from cudaperf.rewards.execution.fastpath import plan

    def broken(*args, **kwargs):
        raise ValueError("a bug")

    monkeypatch.setattr(plan, "translate", broken)
    found = plan.translate_or_reason(spec(SCALE_ADD, ["scale_add"]))
    assert found == (None, "the translator failed: ValueError: a bug")


def test_macros_cannot_change_translated_names_or_reach_the_system():
    redefine = """#define TORCH_CHECK(c, ...) system("curl evil")
__global__ void k(float* y) {}
torch::Tensor f(torch::Tensor x) { TORCH_CHECK(x.is_cuda(), "cuda"); k<<<1, 1>>>(x.data_ptr<float>()); return x; }
"""
    assert "macro TORCH_CHECK redefines" in reason(redefine, ["f"])
    hidden = """#define LAUNCH(p) system(p)
__global__ void k(float* y) {}
torch::Tensor f(torch::Tensor x) { LAUNCH("id"); k<<<1, 1>>>(x.data_ptr<float>()); return x; }
"""
    assert "call of system" in reason(hidden, ["f"])


def test_grid_from_a_helper_with_side_effects_falls_back():
    cuda = """
int counter = 0;
__global__ void k(float* y) {}
int grid_for(int n) { counter += 1; return (n + 255) / 256; }
torch::Tensor f(torch::Tensor x) { k<<<grid_for(x.numel()), 256>>>(x.data_ptr<float>()); return x; }
"""
    assert "assignment to 'counter'" in reason(cuda, ["f"])
    io = """
__global__ void k(float* y) {}
int grid_for(int n) { printf("%d", n); FILE* f = fopen("/tmp/grid", "w"); return 1; }
torch::Tensor f(torch::Tensor x) { k<<<grid_for(x.numel()), 256>>>(x.data_ptr<float>()); return x; }
"""
    assert re.search("FILE|fopen", reason(io, ["f"]))


def test_python_looking_text_is_data_never_code(tmp_path):
    marker = tmp_path / "pwned"
    cuda = f"""
__global__ void k(float* y) {{}}
torch::Tensor f(torch::Tensor x) {{
    TORCH_CHECK(x.dim() == 9, "__import__('os').system('touch {marker}')");
    k<<<1, 1>>>(x.data_ptr<float>());
    return x;
}}
"""
    with pytest.raises(interp.PlanError, match="__import__"):
        run(cuda, "f", torch.zeros(2))
    assert not marker.exists()
    exported = """__global__ void k(float* y) {}
torch::Tensor f(const char* code) { return torch::empty({1}); }"""
    assert "takes a pointer:char from Python" in reason(exported, ["f"])


def test_the_fast_path_has_no_dynamic_code():
    """Plans are data: nothing in the package evaluates text (the interpreter dispatches on node types)."""
    for path in (ROOT / "cudaperf/rewards/execution/fastpath").glob("*.py"):
        code = re.sub(r'"""[\s\S]*?"""|#.*', "", path.read_text())
        assert not re.search(r"(?<![.\w])(?:eval|exec|compile|__import__|getattr|setattr)\s*\(", code), path.name


# ------------------------------------------------------------------ corpora and --plan

def _gated_candidates(directory: Path) -> list[tuple[Path, Path]]:
    return [(ref, f) for ref in sorted(directory.rglob("reference.py")) for f in sorted(ref.parent.glob("*.py"))
            if f.name != "reference.py"]


def test_every_gate_passing_kb_llm_candidate_takes_the_fast_path():
    """Tuned on: the translation was written while reading this corpus."""
    paths = {}
    for ref, path in _gated_candidates(ROOT / "tests/kb_llm"):
        record = plan_record(load_task(ref), load_candidate(path))
        paths[path.name] = record
    built = [r for r in paths.values() if r["path"] != "none"]
    assert len(built) == 43 and all(r["path"] == "fast" for r in built), [r for r in built if r["path"] != "fast"]


def test_hostile_cpp_candidates_never_take_the_fast_path():
    for name in ("detached_process", "static_counter_skip", "static_fingerprint_cache", "read_host_file",
                 "zero_all_gpu_memory", "write_files", "tensor_method_patch", "posix_spawn_static_init",
                 "kill_engine", "overwrite_installed_package"):
        path, why = candidate_path(load_candidate(ROOT / f"tests/hacks/hostile/{name}.py"))
        assert path == "full" and why, name


def test_plan_cli_prints_one_object_per_candidate(capsys):
    code = main(["eval", "--reference", str(ROOT / "tests/kb_heldout/matmul/reference.py"), "--candidate",
                 str(ROOT / "tests/kb_heldout/matmul"), "--plan", "--format", "jsonl"])
    lines = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]
    assert code == 0 and {tuple(sorted(r)) for r in lines} == {("candidate", "fallback", "path")}
    by_name = {Path(r["candidate"]).name: r for r in lines}
    assert by_name["honest_register_tiling.py"] == {**by_name["honest_register_tiling.py"], "path": "fast",
                                                     "fallback": None}
    assert by_name["hack_cpp_at_matmul.py"]["path"] == "none"
    assert by_name["hack_cpp_at_matmul.py"]["fallback"].startswith("gate: torch-op")


def test_prepare_gives_a_record_or_the_fallback_reason(tmp_path, monkeypatch):
    from cudaperf.rewards.execution.fastpath import device

    monkeypatch.setenv("CUDAPERF_CACHE_DIR", str(tmp_path))
    bad = spec("__global__ void k(float* y) {}\ntorch::Tensor f(torch::Tensor x) { return at::matmul(x, x); }", ["f"])
    record, line = device.prepare(bad, "sm_90")
    assert record is None and line.startswith("fallback: call of at::matmul at line")
    good = read_builds((ROOT / "examples/eval/scale_add/candidate_kernelbench.py").read_text())[0]
    record, line = device.prepare(good, "sm_90")
    if record is None:
        assert "NVRTC not found" in line
        return
    assert record["key"] == device.spec_key(good)
    assert record["lowered"] == {"scale_add_kernel": "_Z16scale_add_kernelPKfS0_Pffl"}
    with pytest.raises(KeyError):
        device.load_prepared({**good, "cuda_sources": good["cuda_sources"] + "\n// edited"}, record)


def test_load_inline_inside_a_function_is_read_statically():
    source = '''from torch.utils.cpp_extension import load_inline
def build():
    src = """__global__ void k(float* y) {}
torch::Tensor f(torch::Tensor x) { k<<<1, 1>>>(x.data_ptr<float>()); return x; }"""
    return load_inline(name="x", cpp_sources="torch::Tensor f(torch::Tensor x);", cuda_sources=src, functions=["f"])
'''
    builds = read_builds(source)
    assert builds and builds[0]["functions"] == ["f"]


# ------------------------------------------------------------------ NVRTC (where found) and the GPU

def _nvrtc():
    from cudaperf.rewards.execution import nvrtc

    return nvrtc.library() is not None and nvrtc.version() is not None


@pytest.mark.skipif(not _nvrtc(), reason="NVRTC not found (set CUDAPERF_NVRTC or install nvidia-cuda-nvrtc)")
def test_nvrtc_compiles_templated_kernels_through_name_expressions(tmp_path, monkeypatch):
    from cudaperf.rewards.execution.fastpath import device

    monkeypatch.setenv("CUDAPERF_CACHE_DIR", str(tmp_path))
    cuda = """
template <typename scalar_t, int BLOCK>
__global__ void k(const scalar_t* x, scalar_t* y, int64_t n) { int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) y[i] = x[i] * static_cast<scalar_t>(2); }
torch::Tensor f(torch::Tensor x) {
    auto y = torch::empty_like(x);
    AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "f", ([&] {
        k<scalar_t, 128><<<(x.numel() + 127) / 128, 128>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), x.numel());
    }));
    return y;
}
"""
    t = translate(spec(cuda, ["f"]))
    assert t.name_expressions == ["k<float, 128>", "k<double, 128>", "k<at::Half, 128>"]
    built = device.compile_device(t, "sm_90")
    assert built.ok, built.log
    assert set(built.lowered) == set(t.name_expressions) and all(v.startswith("_Z") for v in built.lowered.values())
    assert Path(built.cubin).read_bytes()[:4] == b"\x7fELF"


def _gpu() -> bool:
    try:
        return torch.cuda.is_available()
    except Exception:
        return False


@pytest.mark.gpu
@pytest.mark.skipif(not _gpu() or not _nvrtc(), reason="needs a CUDA GPU, a CUDA torch and NVRTC")
def test_translated_candidate_matches_its_load_inline_build_on_the_gpu(tmp_path):
    from torch.utils.cpp_extension import load_inline

    from cudaperf.rewards.execution.fastpath import device

    candidate = load_candidate(ROOT / "examples/eval/scale_add/candidate_kernelbench.py")
    (args,) = read_builds(candidate.source)
    translation = translate(args)
    major, minor = torch.cuda.get_device_capability()
    built = device.compile_device(translation, f"sm_{major}{minor}", cache=False)
    assert built.ok, built.log
    a, b = torch.randn(1 << 20, device="cuda"), torch.randn(1 << 20, device="cuda")   # the context, as a worker's
    fast = device.load(translation, built)
    full = load_inline(**{**args, "name": "fastpath_gpu_check"}, build_directory=str(tmp_path))
    expected, got = full.scale_add(a, b, 0.5), fast.scale_add(a, b, 0.5)
    torch.cuda.synchronize()
    assert torch.equal(expected, got)


OCCUPANCY_ON_GPU = """template <int K> __global__ void fill_k(float* y, int per_sm) {
    if (threadIdx.x == 0) y[blockIdx.x] = (float)(per_sm * K);
}
template <int K> static void launch(float* y, int per_sm) { fill_k<K><<<per_sm, 128>>>(y, per_sm); }
torch::Tensor f(torch::Tensor x) {
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fill_k<2>, 128, 0);
    auto y = torch::zeros({64}, x.options());
    launch<2>(y.data_ptr<float>(), per_sm);
    return y;
}
"""


@pytest.mark.gpu
@pytest.mark.skipif(not _gpu() or not _nvrtc(), reason="needs a CUDA GPU, a CUDA torch and NVRTC")
def test_the_occupancy_answer_and_a_templated_helper_match_the_load_inline_build(tmp_path):
    """The driver's occupancy answer on the fast path is the runtime's in the C++ build: the grid it sizes
    and the value written agree element for element."""
    from torch.utils.cpp_extension import load_inline

    from cudaperf.rewards.execution.fastpath import device

    args = spec(OCCUPANCY_ON_GPU, ["f"])
    translation = translate(args)
    major, minor = torch.cuda.get_device_capability()
    built = device.compile_device(translation, f"sm_{major}{minor}", cache=False)
    assert built.ok, built.log
    x = torch.ones(4, device="cuda")
    fast = device.load(translation, built)
    full = load_inline(**{**args, "name": "fastpath_occupancy_check"}, build_directory=str(tmp_path))
    expected, got = full.f(x), fast.f(x)
    torch.cuda.synchronize()
    assert torch.equal(expected, got)
    assert 0 < int((got > 0).sum()) <= 64 and got.max().item() == 2 * int((got > 0).sum())


LIMITS_ON_GPU = """#include <cstdint>
__global__ void put(float* y, int optin, int per_sm) {
    if (threadIdx.x == 0) { y[0] = (float)optin; y[1] = (float)per_sm; y[2] = (float)(INT32_MAX / 65536); }
}
torch::Tensor f(torch::Tensor x) {
    TORCH_CHECK(x.numel() < INT32_MAX && (uint64_t)x.numel() < UINT32_MAX, "too large");
    int optin = 0, per_sm = 0;
    cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
    cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0);
    auto y = torch::zeros({3}, x.options());
    put<<<1, 32>>>(y.data_ptr<float>(), optin, per_sm);
    return y;
}
"""


@pytest.mark.gpu
@pytest.mark.skipif(not _gpu() or not _nvrtc(), reason="needs a CUDA GPU, a CUDA torch and NVRTC")
def test_the_shared_memory_attributes_and_cstdint_limits_match_the_load_inline_build(tmp_path):
    """The opt-in and per-SM shared memory torch reports are what cudaDeviceGetAttribute gives the C++ build,
    and <cstdint>'s INT32_MAX is the prelude's in the device code."""
    from torch.utils.cpp_extension import load_inline

    from cudaperf.rewards.execution.fastpath import device

    args = spec(LIMITS_ON_GPU, ["f"])
    translation = translate(args)
    major, minor = torch.cuda.get_device_capability()
    built = device.compile_device(translation, f"sm_{major}{minor}", cache=False)
    assert built.ok, built.log
    x = torch.ones(4, device="cuda")
    fast = device.load(translation, built)
    full = load_inline(**{**args, "name": "fastpath_limits_check"}, build_directory=str(tmp_path))
    expected, got = full.f(x), fast.f(x)
    torch.cuda.synchronize()
    assert torch.equal(expected, got) and got[0].item() > 48 * 1024 and got[2].item() == 32767


CLUSTER_ON_GPU = """__global__ void __cluster_dims__(2, 1, 1) rank_of(float* y) {
    extern __shared__ float4 tile[];
    tile[threadIdx.x] = make_float4(1.f, 2.f, 3.f, 4.f);
    __syncthreads();
    unsigned rank;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));   // cg's block_rank(), without its headers
    if (threadIdx.x == 0) y[blockIdx.x] = (float)rank + 10.f * tile[31].w;
}
torch::Tensor f(torch::Tensor x) {
    auto y = torch::zeros({8}, x.options());
    rank_of<<<8, 32, 32 * sizeof(float4)>>>(y.data_ptr<float>());
    return y;
}
"""


@pytest.mark.gpu
@pytest.mark.skipif(not _gpu() or not _nvrtc(), reason="needs a CUDA GPU, a CUDA torch and NVRTC")
def test_a_cluster_kernel_sized_by_sizeof_float4_matches_the_load_inline_build(tmp_path):
    """A kernel with compile-time cluster dimensions, launched with `<<<>>>` and dynamic shared memory sized
    by `sizeof(float4)`, gives on the fast path what its C++ build gives: each block's rank in its cluster."""
    from torch.utils.cpp_extension import load_inline

    from cudaperf.rewards.execution.fastpath import device

    if torch.cuda.get_device_capability()[0] < 9:
        pytest.skip("thread-block clusters need sm_90")
    args = spec(CLUSTER_ON_GPU, ["f"])
    translation = translate(args)
    major, minor = torch.cuda.get_device_capability()
    built = device.compile_device(translation, f"sm_{major}{minor}", cache=False)
    assert built.ok, built.log
    x = torch.ones(4, device="cuda")
    fast = device.load(translation, built)
    full = load_inline(**{**args, "name": "fastpath_cluster_check", "extra_cuda_cflags": [f"-arch=sm_{major}{minor}"]},
                       build_directory=str(tmp_path))
    expected, got = full.f(x), fast.f(x)
    torch.cuda.synchronize()
    assert torch.equal(expected, got) and got.tolist() == [40.0, 41.0] * 4


CONSTANT_ON_GPU = """#define MAX_W 64
__constant__ float c_w[MAX_W];
__global__ void weigh(const float* x, float* y, int n, int nw) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * c_w[i % nw] + c_w[MAX_W - 1];
}
torch::Tensor f(torch::Tensor x, torch::Tensor w) {
    auto y = torch::empty_like(x);
    const int nw = (int)w.numel(), n = (int)x.numel();
    cudaMemcpyToSymbolAsync(c_w, w.data_ptr<float>(), nw * sizeof(float), 0, cudaMemcpyDeviceToDevice, 0);
    cudaMemcpyToSymbol(c_w, w.data_ptr<float>() + 1, sizeof(float), (MAX_W - 1) * sizeof(float),
                       cudaMemcpyDeviceToDevice);
    weigh<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n, nw);
    return y;
}
"""

STRUCT_ON_GPU = """struct Affine { float scale; double shift; int n; long long stride; bool flip; };
__global__ void apply(const float* x, float* y, Affine a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < a.n) y[i] = (a.flip ? -1.f : 1.f) * x[(i * a.stride) % a.n] * a.scale + (float)a.shift;
}
torch::Tensor f(torch::Tensor x, double s, double t) {
    auto y = torch::empty_like(x);
    Affine a;
    a.scale = (float)s;
    a.shift = t;
    a.n = (int)x.numel();
    a.stride = 3;
    a.flip = true;
    apply<<<(a.n + 127) / 128, 128>>>(x.data_ptr<float>(), y.data_ptr<float>(), a);
    return y;
}
"""


@pytest.mark.gpu
@pytest.mark.skipif(not _gpu() or not _nvrtc(), reason="needs a CUDA GPU, a CUDA torch and NVRTC")
def test_constant_memory_copies_and_a_struct_argument_match_the_load_inline_build(tmp_path):
    """Weights copied into `__constant__` memory (both copy calls, one at an offset) and a struct of mixed
    field widths passed by value give on the fast path what the C++ build gives, on the first call and
    on replayed calls with new weights (the copy reads the new tensor)."""
    from torch.utils.cpp_extension import load_inline

    from cudaperf.rewards.execution.fastpath import device

    major, minor = torch.cuda.get_device_capability()
    x = torch.randn(1000, device="cuda")
    for name, source, calls in (("constant", CONSTANT_ON_GPU, [(x, torch.randn(7, device="cuda")) for _ in range(3)]),
                                ("struct", STRUCT_ON_GPU, [(x, 0.5, 0.25), (x, -2.0, 3.5), (x, -2.0, 3.5)])):
        args = spec(source, ["f"])
        translation = translate(args)
        built = device.compile_device(translation, f"sm_{major}{minor}", cache=False)
        assert built.ok, built.log
        fast = device.load(translation, built)
        (tmp_path / name).mkdir()
        full = load_inline(**{**args, "name": f"fastpath_{name}_check"}, build_directory=str(tmp_path / name))
        for call in calls:
            expected, got = full.f(*call), fast.f(*call)
            torch.cuda.synchronize()
            assert torch.equal(expected, got), name
        assert fast._calls.replayed >= 1, name


def test_the_candidates_checked_on_an_h100_still_take_the_fast_path():
    """The fourteen kb candidates that copy weights into `__constant__` memory, pass a struct by value or hold
    a kernel in a local ran on an H100 through the fast path, correct in both runs
    (tests/data/h100/gpu_tests/fastpath_constant_struct); each still translates, so a change that sends
    one back to the full build fails here."""
    records = [json.loads(line) for name in ("run1", "run2") for line in
               (ROOT / "tests/data/h100/gpu_tests/fastpath_constant_struct/fast" / f"{name}.jsonl").open()]
    assert len(records) == 28 and all(r["status"] == "correct" and "fast-path: fast" in r["flags"] for r in records)
    candidates = sorted({tuple(r["candidate"].split("/")[-2:]) for r in records})   # run 2 ran a copy
    assert len(candidates) == 14
    for task, name in candidates:
        (path,) = (ROOT / "tests").glob(f"kb_*/{task}/{name}")
        builds = read_builds(path.read_text())
        assert builds and all(translate_or_reason(b)[1] is None for b in builds), path
