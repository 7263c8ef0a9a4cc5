"""Valid code the grammar (or our own checks) read as syntax errors on HeCBench and cuda-samples: a line
comment of stars, types given to macros, `typeid`, `new T*[n]`, explicit instantiations, GCC's
`__const__`, an alignment after an array's size, statement macros after `if (...)`, and `#if` chains
that split a parameter list, a loop's head or a brace (source.clean, source.mend_macro_uses,
source.mend_type_arguments, source.mend_split_conditionals).  Each test of a construct fails on the
code before the change; the others guard what must stay (a comment nothing closes, casts and `sizeof`
left as written, include guards long and short, chains that split nothing) and that a
kernel-generating macro still sees its types (the last three failed on the change's first version)."""

from __future__ import annotations

from conftest import accesses, kernel_report

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.analysis.source import load, mend_type_arguments

KERNEL = """
__global__ void scale(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}
"""


def _syntax(code: str) -> list[tuple[int, str]]:
    report = analyze_source(code, "test.cu", Options(resources="estimate"))
    return [(d.line, d.message) for d in report.diagnostics if d.kind == "syntax"]


def test_a_line_comment_of_stars_is_no_unterminated_comment():
    """cuda-samples' `//*****` banners (20 files): the `/*` inside a line comment was counted as an opening."""
    code = "//****************************\n// banner\n//****************************\n" + KERNEL
    assert _syntax(code) == []
    assert _syntax('const char* s = "/*";\n' + KERNEL) == []


def test_a_block_comment_nothing_closes_is_still_reported_where_it_opens():
    code = KERNEL + "/* closed */\nint x;\n/* never closed\nint y;\n"
    assert [(line, m) for line, m in _syntax(code) if "comment" in m] == [(8, "unterminated comment")]


TYPE_ARGUMENTS = """
#define talloc(type, num) (type *)malloc(sizeof(type) * (num))
#define CMP_SWP(t1,_a,_b,t2,_c,_d) if(_a>_b) {t1 _t=_a;_a=_b;_b=_t; t2 _s=_c;_c=_d;_d=_s;}
__device__ void sort2(float& a, float& b, int& c, int& d) {
  CMP_SWP(float, a, b, unsigned int, c, d);
}
void host(int k, va_list v) {
  int* m = talloc(int, k * 2);
  char* c = va_arg(v, const char *);
  struct node** q = talloc(struct node*, k);
}
""" + KERNEL


def test_types_given_to_macros_are_read():
    """HeCBench's `talloc(int, k)`, `hypre_CTAlloc(double, n)`, `va_arg(list, char*)` and segsort's
    `CMP_SWP(K, a, b, int, c, d)`: a type is no expression, so each call was a syntax error."""
    assert _syntax(TYPE_ARGUMENTS) == []
    r = kernel_report(TYPE_ARGUMENTS, kernel="scale", n=1 << 20)
    assert accesses(r, "out", "store")[0]["pattern"] == "coalesced"


def test_casts_and_operands_that_name_types_are_left_as_written():
    code = b"""#define F(x) (x)
void h(int k) { g((unsigned int)k); int s = sizeof(int); F((int)k); std::function<void(int)> f; }
"""
    source = load(code, "x.cu")
    assert not mend_type_arguments(source)
    assert source.data == code
    given = load(b"#define F(x) (x)\nvoid h(int k) { F(unsigned int); g(F(const char *), k); }\n", "y.cu")
    assert mend_type_arguments(given)
    assert given.data == b"#define F(x) (x)\nvoid h(int k) { F(0           ); g(F(0           ), k); }\n"


def test_host_cpp_the_grammar_lacks_is_read():
    """`typeid(T) == typeid(double)` (cuda-samples' MC_ samples), `new const float *[n]` (opticalFlow,
    lulesh, easyWave), explicit instantiations (`template class PiEstimator<float>;`), GCC's `__const__`
    (adamw) and `__attribute__((aligned(n)))` after an array's size (affine, lulesh)."""
    code = """
template <typename Real> struct PiEstimator { Real x; };
template class PiEstimator<float>;
template class PiEstimator<double>;
static __device__ __const__ float table[4] = {1, 2, 3, 4};
unsigned short image[1024] __attribute__((aligned(1024)));
void host(int n) {
  if (typeid(float) == typeid(double)) n = 1;
  const float **levels = new const float *[n];
  int** grid = new int*[n];
}
""" + KERNEL
    assert _syntax(code) == []


def test_a_statement_macro_after_an_if_gets_its_semicolon():
    """bicgstab's `if (verbose) PRINT_INFO(delta)`, the macro empty in the first arm of its `#if` and a
    statement in the other: the grammar glued the next line onto the call."""
    code = """
#ifdef QUIET
#define PRINT_INFO(var)
#else
#define PRINT_INFO(var) printf(#var ": %f\\n", var);
#endif
void host(float delta, int verbose) {
  if (verbose) PRINT_INFO(delta)
  delta = 2 * delta;
}
""" + KERNEL
    assert _syntax(code) == []


PARAMETERS_SPLIT = """
__global__ void pad(float* __restrict__ out, const float* in, int* __restrict__ flags
#ifdef DYNAMIC_PARTITION
                    , int* __restrict__ worklist
#endif
    ) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef DYNAMIC_PARTITION
  worklist[i] = i;
#endif
  out[i] = in[i] + flags[i];
}
"""


def test_an_if_arm_inside_a_parameter_list_is_read_as_the_lowering_picks_arms():
    """HeCBench's pad and sc (`, int* worklist` under `#ifdef DYNAMIC_PARTITION`), cuda-samples' Sobel
    (`#ifndef FIXED_BLOCKWIDTH`): the grammar cannot take a directive inside parentheses."""
    assert _syntax(PARAMETERS_SPLIT) == []
    plain = kernel_report(PARAMETERS_SPLIT)
    assert {a["array"] for a in plain["memory"]["accesses"]} == {"out", "in", "flags"}
    report = analyze_source(PARAMETERS_SPLIT, "test.cu", Options(resources="estimate",
                                                                  defines={"DYNAMIC_PARTITION": "1"}))
    arrays = {a["array"] for a in report.kernels[0].to_json()["memory"]["accesses"]}
    assert arrays == {"out", "in", "flags", "worklist"}


def test_a_loop_head_split_between_arms_keeps_its_body():
    """multimaterial's `#ifdef LINKED` / `for (...) {` / `#else` / `for (...) {` / `#endif`: the loop's
    body was lost with the error; now the second arm's loop is read (LINKED is not defined)."""
    code = """
__global__ void walk(const int* first, const int* next, const int* ids, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
#ifdef LINKED
  for (int ix = first[i]; ix >= 0; ix = next[ix]) {
#else
  for (int ix = first[i]; ix < first[i + 1]; ix++) {
#endif
    sum += ids[ix];
  }
  out[i] = sum;
}
"""
    assert _syntax(code) == []
    assert accesses(kernel_report(code), "ids", "load")
    assert not accesses(kernel_report(code), "next", "load")


def test_a_wrapper_that_opens_a_brace_in_one_chain_and_closes_it_in_another_is_read():
    """`#ifdef __cplusplus` / `extern "C" {` / `#endif` ... `#ifdef __cplusplus` / `}` / `#endif`
    (clenergy's and mdh's WKFUtils, lavaMD's helpers)."""
    code = '#ifdef __cplusplus\nextern "C" {\n#endif\nint helper(int x) { return 2 * x; }\n' \
           '#ifdef __cplusplus\n}\n#endif\n' + KERNEL
    assert _syntax(code) == []


def test_a_long_chain_such_as_an_include_guard_is_left_as_written():
    """An error inside an include guard must not blank the header: chains longer than
    SPLIT_CHAIN_LINES stay as the grammar read them."""
    filler = "\n".join(f"int v{i} = {i};" for i in range(50))
    code = f"#ifndef GUARD_H\n#define GUARD_H\n{filler}\nint broken = ;\n{KERNEL}\n#endif\n"
    report = analyze_source(code, "test.cu", Options(resources="estimate"))
    assert [k.to_json()["name"] for k in report.kernels] == ["scale"]
    assert _syntax(code)  # the real error is still reported


def test_a_macro_that_generates_kernels_is_expanded_with_the_types_as_written():
    """The recall corpus's `DEFINE_FILL(float, f32)`: the parse reads the type as `0`, but the kernel the
    macro generates must be read with it (a `double` fill stores 8 bytes a lane)."""
    code = """
#define DEFINE_FILL(T, suffix) \\
    __global__ void fill_##suffix(T *p, T v, int n) { \\
        int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = v; }
DEFINE_FILL(float, f32)
DEFINE_FILL(double, f64)
"""
    report = analyze_source(code, "test.cu", Options(resources="estimate", args={"n": 1 << 20}))
    kernels = {k.to_json()["name"]: k.to_json() for k in report.kernels}
    assert set(kernels) == {"fill_f32", "fill_f64"}
    stores = {name: [a["sectors_per_request"] for a in k["memory"]["accesses"] if a["kind"] == "store"]
              for name, k in kernels.items()}
    assert stores == {"fill_f32": [4.0], "fill_f64": [8.0]}


def test_a_short_include_guard_around_an_error_is_left_whole():
    """A header under SPLIT_CHAIN_LINES lines with one syntax error: its guard's own `#define` must not
    count as defined above the `#ifndef` (the first version blanked the whole file)."""
    code = "#ifndef SCALE_CUH\n#define SCALE_CUH\n" + KERNEL + "int broken = ;\n#endif\n"
    report = analyze_source(code, "scale.cuh", Options(resources="estimate"))
    assert [k.to_json()["name"] for k in report.kernels] == ["scale"]
    assert _syntax(code)  # the error is still reported


def test_a_chain_of_whole_definitions_is_not_resolved_for_an_error_inside_it():
    """`#ifdef USE_DOUBLE` / a kernel / `#else` / a kernel / `#endif` splits nothing: both kernels stay,
    as the grammar reads them, whatever error one arm holds."""
    code = """
#ifdef USE_DOUBLE
__global__ void kd(double* p) { p[threadIdx.x] = 1.0; }
int broken = ;
#else
__global__ void kf(float* p) { p[threadIdx.x] = 1.0f; }
#endif
"""
    report = analyze_source(code, "test.cu", Options(resources="estimate"))
    assert sorted(k.to_json()["name"] for k in report.kernels) == ["kd", "kf"]


def test_the_toolkits_calling_conventions_are_read_as_the_preprocessor_leaves_them():
    """cuda-samples' `void CUDART_CB myStreamCallback(...)` and Vulkan's `VKAPI_ATTR ... VKAPI_CALL`: empty
    on Linux, defined in headers the analysis does not read."""
    code = "void CUDART_CB callback(cudaStream_t stream, cudaError_t status, void* data) { }\n" \
           "static VKAPI_ATTR unsigned VKAPI_CALL debug(int severity) { return 0; }\n" + KERNEL
    assert _syntax(code) == []
