"""The frontend: constructs the grammar rejects, macros, constants, templates, error tolerance."""

from __future__ import annotations

import pytest
from conftest import accesses, kernel_report

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.analysis.source import clean


def names(code: str, **kw) -> list[str]:
    return [k.kernel.name for k in analyze_source(code, "t.cu", Options(**kw)).kernels]


def test_unsupported_constructs_are_blanked_without_moving_positions():
    code = b"struct __align__(16) V { float x; };\n__global__ void __launch_bounds__(128, 2, 1) k(float* a) {}\n"
    cleaned, attributes = clean(code)
    assert len(cleaned) == len(code) and cleaned.count(b"\n") == code.count(b"\n")
    assert b"__align__" not in cleaned and b"__launch_bounds__(128, 2" in cleaned and b", 1)" not in cleaned
    assert [(name, args) for _, name, args in attributes] == [("__align__", ("16",)),
                                                                 ("__launch_bounds__", ("128", "2", "1"))]


def test_every_problem_construct_still_yields_its_kernel_at_the_right_line():
    code = """#define KERNEL __global__ void
struct __align__(16) V { float x, y, z, w; };
__global__ void __launch_bounds__(256, 2, 1) lb3(V* v) { v[threadIdx.x].y = 1.f; }
__global__ void __maxnreg__(32) capped(float* a) { a[threadIdx.x] = 0.f; }
__global__ void __cluster_dims__(2, 1, 1) clustered(float* a) { a[threadIdx.x] = 0.f; }
__global__ void lambda(float* a) { auto f = [=] __device__ (int i) { return 2 * i; }; a[threadIdx.x] = 1.f; }
KERNEL hidden(float* a) { a[threadIdx.x] = 3.f; }
"""
    options = Options(block=(256, 1, 1), grid=(4, 1, 1))
    reports = {k.kernel.name: k for k in analyze_source(code, "t.cu", options).kernels}
    assert set(reports) == {"lb3", "capped", "clustered", "lambda", "hidden"}
    assert reports["lb3"].kernel.line == 3 and reports["hidden"].kernel.line == 7
    assert reports["lb3"].kernel.launch_bounds == (256, 2, 1)
    store = reports["lb3"].accesses[0]
    assert (store.access.line, store.access.column) == (3, 58)  # columns are the file's, not shifted
    assert store.access.offset is not None and store.coalescing.sectors_per_request == pytest.approx(16)


def test_syntax_error_in_one_kernel_keeps_the_others():
    code = """
__global__ void first(float* a) { a[threadIdx.x] = 1.f; }
__global__ void broken(float* a) { a[threadIdx.x] = UNKNOWN_MACRO(1 +; }
__global__ void last(float* a) { a[threadIdx.x] = 2.f; }
"""
    report = analyze_source(code, "t.cu")
    assert [k.kernel.name for k in report.kernels] == ["first", "broken", "last"]
    assert any("syntax error" in d.message for d in report.diagnostics)


def test_kernel_after_a_host_syntax_error_is_recovered():
    code = """
void host() { int x = (; launch<<<(>>>; }
}}}
__global__ void survivor(float* a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0.f; }
"""
    assert "survivor" in names(code)


def test_commented_and_string_kernels_are_not_kernels():
    code = '// __global__ void c(float* a) {}\nconst char* s = "__global__ void d() {}";\n' \
           '__global__ void real(float* a) { a[0] = 1.f; }\n'
    assert names(code) == ["real"]


def test_defines_constexpr_and_cli_defines():
    code = """
#define TILE 16
#define IDX(r, c) ((r) * WIDTH + (c))
constexpr int PAD = 1;
__global__ void k(const float* in, float* out) {
    __shared__ float s[TILE][TILE + PAD];
    s[threadIdx.y][threadIdx.x] = in[IDX(threadIdx.y, threadIdx.x)];
    __syncthreads();
    out[IDX(threadIdx.x, threadIdx.y)] = s[threadIdx.x][threadIdx.y];
}"""
    r = kernel_report(code.replace("WIDTH", "1024"), grid=(1, 1, 1), block=(16, 16, 1))
    assert accesses(r, "s", "load")[0]["index"] == "(threadIdx.x * 68) + (threadIdx.y * 4)"
    # a warp = tx 0..15 x ty 0..1: 16 rows of WIDTH floats, two adjacent words in each -> 16 sectors
    assert accesses(r, "out")[0]["sectors_per_request"] == pytest.approx(16)
    # WIDTH only from -D: the index resolves, and changes with the value given
    narrow = analyze_source(code, "t.cu", Options(grid=(1, 1, 1), block=(16, 16, 1), defines={"WIDTH": "1"}))
    # in[ty + tx] for tx < 16, ty < 2: words 0..16 = 68 bytes over 3 sectors
    assert narrow.kernels[0].accesses[0].coalescing.sectors_per_request == pytest.approx(3)


def test_template_arguments_from_a_launch_in_the_file():
    code = """
template <int STRIDE, typename T>
__global__ void k(const T* in, T* out) { int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = in[i * STRIDE]; }
void run(const double* a, double* b) { k<4, double><<<128, 256>>>(a, b); }
"""
    report = analyze_source(code, "t.cu").kernels[0]
    assert report.launch.source == "inferred" and report.launch.grid == (128, 1, 1)
    load = report.accesses[0]
    assert load.access.size == 8 and load.coalescing.sectors_per_request == pytest.approx(32)


def test_template_arguments_from_kernel_name_and_arg():
    code = "template <int S> __global__ void k(const float* in, float* out) " \
           "{ out[threadIdx.x] = in[threadIdx.x * S]; }"
    by_name = analyze_source(code, "t.cu", Options(kernel="k<2>", grid=(1, 1, 1), block=(32, 1, 1))).kernels[0]
    by_arg = analyze_source(code, "t.cu", Options(args={"S": 4}, grid=(1, 1, 1), block=(32, 1, 1))).kernels[0]
    assert by_name.accesses[0].coalescing.sectors_per_request == pytest.approx(8)
    assert by_arg.accesses[0].coalescing.sectors_per_request == pytest.approx(16)


@pytest.mark.parametrize("flag, requests", [("true", 2.0), ("false", 8.0)])
def test_a_bool_template_argument_from_the_kernel_name_picks_its_branch(flag, requests):
    """`k<true>` named as the kernel (how the cost model asks for a traced launch) binds `VEC`: only the taken
    side of `if (VEC)` counts (tests/kb_fresh11's SwiGLU counted its vector and scalar paths both)."""
    code = """template <bool VEC> __global__ void k(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (VEC) { reinterpret_cast<float4*>(y)[i] = reinterpret_cast<const float4*>(x)[i]; }
    else { for (int j = 0; j < 4; ++j) y[4 * i + j] = x[4 * i + j]; }
}"""
    report = analyze_source(code, "t.cu", Options(kernel=f"k<{flag}>", grid=(64, 1, 1), block=(256, 1, 1),
                                                  args={"n": 65536}))
    assert report.kernels[0].to_json()["features"]["global_requests_per_thread"] == pytest.approx(requests)


def test_host_launch_with_dim3_and_arguments():
    code = """
__global__ void k(const float* in, float* out, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) out[y * width + x] = in[y * width + x];
}
int main() {
    const int w = 2048, h = 1024;
    dim3 block(32, 8);
    dim3 grid((w + block.x - 1) / 32, (h + 7) / 8);
    k<<<grid, block>>>(0, 0, w, h);
}"""
    report = analyze_source(code, "t.cu").kernels[0]
    assert report.launch.block == (32, 8, 1) and report.launch.grid == (64, 128, 1)
    assert report.launch.args == {"width": 2048.0, "height": 1024.0}
    assert report.launch.arg_sources == {"width": "inferred", "height": "inferred"}


HOST_VALUES = """
__global__ void k(float* a, int n, int t) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - t) a[i] = 0.f;
}
void run(float* a, int n) {
    for (int t = 0; t < n - 1; t++)
        k<<<(n + 255) / 256, 256>>>(a, n, t);
}
int main(int argc, char** argv) {
    int size = 4096;
    PARSE
    run(0, size);
}"""


@pytest.mark.parametrize("parse, n", [("", 4096.0), ("read_size(argc, argv, &size);", None)])
def test_a_host_value_stops_where_its_address_goes_to_a_call(parse, n):
    """`size` reaches the launch through `run`'s parameter until its address goes to a call that
    may write it (HeCBench gaussian: `int size = -1;` then `parseCommandline(..., &size)`).  `t`,
    which the loop around the launch changes, is judged at the loop's first iteration."""
    (kernel,) = analyze_source(HOST_VALUES.replace("PARSE", parse), "t.cu", Options(resources="estimate")).kernels
    assert kernel.launch.args["t"] == 0.0
    if n is None:
        assert kernel.launch.args.get("n") != 4096.0 and "grid" in kernel.launch.guessed
    else:
        assert kernel.launch.args["n"] == n and kernel.launch.grid == (16, 1, 1)


def test_statement_macro_grid_stride_loop():
    code = """
#define CUDA_KERNEL_LOOP(i, n) for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)
__global__ void scale(const int n, const float* in, float* out) {
    CUDA_KERNEL_LOOP(index, n) { out[index] = 2.f * in[index]; }
}"""
    r = kernel_report(code, grid=(16, 1, 1), block=(256, 1, 1), n=16 * 256 * 4)
    load = accesses(r, "in")[0]
    assert load["executions_per_thread"] == pytest.approx(4) and load["line"] == 4


def test_unknown_arguments_are_inferred_from_bounds_checks_or_defaulted():
    code = """
__global__ void k(const float* in, float* out, int n, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i * stride];
}"""
    report = analyze_source(code, "t.cu", Options(grid=(10, 1, 1), block=(128, 1, 1))).kernels[0]
    assert report.launch.args["n"] == 1280 and report.launch.arg_sources["n"] == "inferred"
    assert report.launch.arg_sources["stride"] == "default"


def test_arg_values_feed_host_launch_expressions():
    """A KernelBench-style torch wrapper: the size comes from a tensor, so only --arg can fix it."""
    code = """
__global__ void add_kernel(const float* a, const float* b, float* out, int size) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) out[i] = a[i] + b[i];
}
torch::Tensor add_cuda(torch::Tensor a, torch::Tensor b) {
    auto size = a.numel();
    auto out = torch::zeros_like(a);
    const int block_size = 256;
    const int num_blocks = (size + block_size - 1) / block_size;
    add_kernel<<<num_blocks, block_size>>>(a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), size);
    return out;
}
void launcher(const float* a, float* out, int n) {
    add_kernel<<<(n + 127) / 128, 128>>>(a, a, out, n);
}"""
    unknown = analyze_source(code, "w.cu", Options(resources="estimate")).kernels[0]
    assert unknown.launch.block == (256, 1, 1) and unknown.launch.grid == (4096, 1, 1)  # grid defaulted
    known = analyze_source(code, "w.cu", Options(resources="estimate", args={"size": 1000000})).kernels[0]
    assert known.launch.grid == (3907, 1, 1) and known.launch.source == "inferred"
    assert known.launch.args["size"] == 1000000 and known.launch.arg_sources["size"] == "cli"


def test_helper_template_argument_named_like_a_type_is_the_callers_value():
    """`tail<BLOCK>(...)` parses BLOCK as a type; the helper's `N >= 64` must see 256 (grid-uniform), also
    when the helper names its parameter differently from the caller."""
    from conftest import kernel_report

    code = """
template <unsigned int N> __device__ void tail(volatile float* s, unsigned int t) { if (N >= 64) s[t] += s[t + 32]; }
template <unsigned int BLOCK> __global__ void k(float* g) {
  __shared__ float s[BLOCK]; unsigned int t = threadIdx.x; s[t] = g[t]; __syncthreads();
  if (t < 32) tail<BLOCK>(s, t);
}
"""
    report = kernel_report(code, kernel="k<256>", grid=(4, 1, 1), block=(256, 1, 1))
    assert [b["uniformity"] for b in report["branches"] if b["line"] == 2] == ["grid"]


def test_loads_through_a_local_array_of_row_pointers_are_followed():
    """A register-blocked kernel keeps its rows' pointers in a local array (`rows[i] = a + (m0 + i) * K`, filled
    in one loop, read in another): the loads through them are the global loads they are (tests/kb_fresh9's
    batched matvec had none, so its estimate was the host time alone).  A second pointer stored at one
    element (a swap) and the array's pointers are not followed."""
    code = """__global__ void k(const float* __restrict__ a, float* out, int K) {
    const float* rows[4];
    for (int i = 0; i < 4; ++i) rows[i] = a + (blockIdx.x * 4 + i) * K;
    float acc = 0.f;
    for (int j = threadIdx.x; j < K; j += 32)
        for (int i = 0; i < 4; ++i) acc += __ldg(rows[i] + j);
    out[blockIdx.x * 32 + threadIdx.x] = acc;
}"""
    options = Options(grid=(64, 1, 1), block=(32, 1, 1), args={"K": 1024})
    loads = [a for a in analyze_source(code, "t.cu", options).kernels[0].to_json()["memory"]["accesses"]
             if a["space"] == "global" and a["kind"] == "load"]
    assert len(loads) == 1 and loads[0]["executions_per_thread"] == pytest.approx(128)
    assert loads[0]["pattern"] == "coalesced" and "blockIdx.x" in loads[0]["index"]
    swapped = code.replace("float acc = 0.f;", "rows[0] = rows[1]; float acc = 0.f;")
    assert not [a for a in analyze_source(swapped, "t.cu", options).kernels[0].to_json()["memory"]["accesses"]
                if a["space"] == "global" and a["kind"] == "load"]
