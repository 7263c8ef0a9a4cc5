"""The precise frontend: libclang resolves what tree-sitter cannot know, the tree-sitter lowering does the rest.

tree-sitter reads the file as written.  What the compiler knows and the text does not say is lost:
a macro defined in a header found only through the build's `-I`, the `#if` arm a `-D` selects, a
`typedef` or `using` in a header, an `enum` or `constexpr` constant computed from other constants,
`sizeof` of a struct.  This frontend runs clang's real preprocessor and semantic analysis on the file
(libclang, the PyPI `libclang` wheel; `pip install 'cudaperf[clang]'`) with the file's own flags (the
compile database's -I/-D/-std, see compdb.py) and turns what clang resolved into facts the existing
lowering consumes, so every analysis and lint rule runs unchanged on the same IR:

- macros: every definition in force in the translation unit (the active `#if` arm, headers reached
  through any include path, `-D`/`-U`), replacing the text reader's first-arm guesses;
- types: typedefs and aliases resolved to their canonical type, structs with their members (clang's
  layout), so a `real_t` from a header is a `float`, not an unknown type;
- constants: namespace-scope `const`/`constexpr` integers and enumerators, evaluated by clang.

Clang's CUDA support needs the CUDA headers, which a machine without the toolkit lacks: the frontend
compiles with `-nocudainc -nocudalib` and a prelude that defines the qualifiers, the built-in
variables, `dim3` and the vector types (../shared/reference/parsers.md lists the pitfalls).  The
toolkit's libraries kernels use (cooperative groups, CUB, cuRAND, Thrust, WMMA) get declaration shims
(data/cuda_shims/), searched after every other include path, so a real toolkit found through the
build's flags wins; a note names the shims a file used.  Other headers that cannot be found stay
missing: clang reports them and goes on (`KEEP_GOING`: a missing header is an error, not a fatal one
that would stop template instantiation for the rest of the file).  Where libclang cannot read the
file at all, or finds none of the kernels tree-sitter finds, the file is analysed with tree-sitter
alone and a note says so.
"""

from __future__ import annotations

import ctypes
import os
import re
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from .ctype import BUILTIN_TYPES, CType, array_of, normalize, struct_of
from .source import Diagnostic, Macro, SourceError, SourceFile

INSTALL_HINT = "pip install 'cudaperf[clang]'"
KEEP_GOING = 0x200  # CXTranslationUnit_KeepGoing: a missing header does not end the file's semantic analysis
MAX_CLANG_BYTES = 2 * 1024 * 1024  # --frontend auto leaves larger files to tree-sitter
ANCESTOR_INCLUDES = 6  # directories above the file searched for headers when no database says where


class ClangUnavailable(SourceError):
    """libclang is not installed (or its library does not load); the message is one line."""


_VECTOR_BASES = [("char", "signed char", 1), ("uchar", "unsigned char", 1), ("short", "short", 2),
                 ("ushort", "unsigned short", 2), ("int", "int", 4), ("uint", "unsigned int", 4),
                 ("long", "long", 8), ("ulong", "unsigned long", 8), ("longlong", "long long", 8),
                 ("ulonglong", "unsigned long long", 8), ("float", "float", 4), ("double", "double", 8)]


_MATH = [(f, 1) for f in ("sqrtf", "expf", "logf", "sinf", "cosf", "tanf", "floorf", "ceilf", "fabsf", "rsqrtf",
                          "exp2f", "log2f", "log10f", "tanhf", "erff", "roundf", "truncf", "atanf", "asinf", "acosf",
                          "sinhf", "coshf", "expm1f", "log1pf", "cbrtf", "rintf")] + \
    [(f, 2) for f in ("powf", "fminf", "fmaxf", "fmodf", "atan2f", "hypotf")] + [("fmaf", 3)]
_FAST_MATH = [("__expf", 1), ("__logf", 1), ("__sinf", 1), ("__cosf", 1), ("__fdividef", 2), ("__saturatef", 1),
              ("__frsqrt_rn", 1), ("__fsqrt_rn", 1), ("__powf", 2)]
# the runtime API's host calls: declared, so that a host function template calling them stays valid and its
# calls (and the kernel launches in it) stay in the AST
_RUNTIME_API = [
    "enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, "
    "cudaMemcpyDeviceToDevice, cudaMemcpyDefault };",
    "enum { cudaSuccess = 0 }; typedef struct CUevent_st *cudaEvent_t;",
    "cudaError_t cudaMalloc(void** p, size_t n); template <class T> cudaError_t cudaMalloc(T** p, size_t n);",
    "cudaError_t cudaMallocManaged(void** p, size_t n, unsigned f = 1);",
    "template <class T> cudaError_t cudaMallocManaged(T** p, size_t n, unsigned f = 1);",
    "cudaError_t cudaMallocHost(void** p, size_t n); template <class T> cudaError_t cudaMallocHost(T** p, size_t n);",
    "cudaError_t cudaFree(void* p); cudaError_t cudaFreeHost(void* p);",
    "cudaError_t cudaMemcpy(void* d, const void* s, size_t n, cudaMemcpyKind k);",
    "cudaError_t cudaMemcpyAsync(void* d, const void* s, size_t n, cudaMemcpyKind k, cudaStream_t st = 0);",
    "cudaError_t cudaMemset(void* d, int v, size_t n); cudaError_t cudaMemsetAsync(void* d, int v, size_t n, "
    "cudaStream_t st = 0);",
    "template <class T> cudaError_t cudaMemcpyToSymbol(const T& s, const void* src, size_t n, size_t o = 0, "
    "cudaMemcpyKind k = cudaMemcpyHostToDevice);",
    "template <class T> cudaError_t cudaMemcpyFromSymbol(void* d, const T& s, size_t n, size_t o = 0, "
    "cudaMemcpyKind k = cudaMemcpyDeviceToHost);",
    "cudaError_t cudaDeviceSynchronize(); cudaError_t cudaGetLastError(); cudaError_t cudaPeekAtLastError();",
    "const char* cudaGetErrorString(cudaError_t e); cudaError_t cudaSetDevice(int d);",
    "cudaError_t cudaStreamCreate(cudaStream_t* s); cudaError_t cudaStreamSynchronize(cudaStream_t s);",
    "cudaError_t cudaStreamDestroy(cudaStream_t s); cudaError_t cudaEventCreate(cudaEvent_t* e);",
    "cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0); cudaError_t cudaEventSynchronize(cudaEvent_t e);",
    "cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b); "
    "cudaError_t cudaEventDestroy(cudaEvent_t e);",
]


def _prelude() -> str:
    vectors = []
    for name, base, size in _VECTOR_BASES:
        for n, members in ((1, "x"), (2, "x, y"), (3, "x, y, z"), (4, "x, y, z, w")):
            align = size * (n if n != 3 else 1)
            align = min(align, 16)
            vectors.append(f"struct __attribute__((aligned({align}))) {name}{n} {{ {base} {members}; }};")
    return "\n".join([
        "#pragma clang system_header",
        "#define __CUDACC__ 1", "#define __NVCC__ 1", "#define __CUDACC_VER_MAJOR__ 12",
        "#define __CUDACC_VER_MINOR__ 3", "#define CUDART_VERSION 12030", "#define CUDA_VERSION 12030",
        "#define __global__ __attribute__((global))", "#define __device__ __attribute__((device))",
        "#define __host__ __attribute__((host))", "#define __shared__ __attribute__((shared))",
        "#define __constant__ __attribute__((constant))", "#define __managed__ __attribute__((managed))",
        "#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))",
        "#define __forceinline__ __inline__ __attribute__((always_inline))",
        "#define __noinline__ __attribute__((noinline))", "#define __restrict__ __restrict",
        "#define __align__(n) __attribute__((aligned(n)))", "#define __grid_constant__",
        "#define __maxnreg__(n)", "#define __cluster_dims__(...)",
        "typedef __SIZE_TYPE__ size_t;",
        *vectors,
        "struct dim3 { unsigned int x, y, z; __host__ __device__ constexpr dim3(unsigned int vx = 1, "
        "unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {} "
        "__host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {} "
        "__host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; } };",
        "typedef struct CUstream_st *cudaStream_t; typedef int cudaError_t;",
        'extern "C" int __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, '
        "cudaStream_t stream = 0);",
        'extern "C" int cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);',
        "extern const __device__ uint3 threadIdx; extern const __device__ uint3 blockIdx;",
        "extern const __device__ dim3 blockDim; extern const __device__ dim3 gridDim;",
        "extern const __device__ int warpSize;",
        "__device__ void __syncthreads(); __device__ void __syncwarp(unsigned mask = 0xffffffff);",
        "__device__ void __threadfence(); __device__ void __threadfence_block();",
        "struct __half { unsigned short __x; }; struct __nv_bfloat16 { unsigned short __x; };",
        "typedef __half half; typedef __nv_bfloat16 nv_bfloat16;",
        "struct __attribute__((aligned(4))) __half2 { __half x, y; }; typedef __half2 half2;",
        "struct __attribute__((aligned(4))) __nv_bfloat162 { __nv_bfloat16 x, y; }; "
        "typedef __nv_bfloat162 nv_bfloat162;",
        "typedef unsigned long long cudaTextureObject_t; typedef unsigned long long cudaSurfaceObject_t;",
        "typedef long clock_t; __device__ long long clock64();",
        "typedef unsigned int uint; typedef unsigned short ushort;",
        *_RUNTIME_API,
        *(f"__device__ float {f}({', '.join(['float'] * n)}); __device__ double {f[:-1]}({', '.join(['double'] * n)});"
          for f, n in _MATH),
        *(f"__device__ float {f}({', '.join(['float'] * n)});" for f, n in _FAST_MATH),
        *(f"__device__ {t} {f}({t}* address, {t} value);" for f in ("atomicAdd", "atomicSub", "atomicExch",
                                                                    "atomicMin", "atomicMax")
          for t in ("int", "unsigned int", "unsigned long long", "float", "double")),
        *(f"__device__ {t} atomicCAS({t}* address, {t} compare, {t} value);"
          for t in ("int", "unsigned int", "unsigned long long")),
        *(f"__device__ {t} {f}({t} a, {t} b);" for f in ("min", "max")
          for t in ("int", "unsigned int", "long long", "float", "double")),
        *(f"template <class T> __device__ T {f}(unsigned mask, T v, int lane, int width = 32);"
          for f in ("__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync")),
        "__device__ unsigned __ballot_sync(unsigned mask, int p); __device__ int __any_sync(unsigned, int);",
        "__device__ int __all_sync(unsigned, int); __device__ int __popc(unsigned); __device__ int __clz(int);",
        "__device__ int __ffs(int); template <class T> __device__ T __ldg(const T* p);",
        "",
    ])


# headers the toolkit provides: found in the prelude's directory as empty files (the prelude declares
# what clang needs), so a missing toolkit does not end the preprocessing of the file
_TOOLKIT_HEADERS = ("cuda.h", "cuda_runtime.h", "cuda_runtime_api.h", "device_launch_parameters.h",
                    "cuda_fp16.h", "cuda_bf16.h", "vector_types.h", "device_functions.h", "math_constants.h",
                    "cuda_profiler_api.h", "driver_types.h", "sm_60_atomic_functions.h", "cuda_fp8.h")

# clang's own resource headers (stddef.h, float.h ...), which the PyPI wheel does not ship: minimal
# stand-ins, searched last (-idirafter) so that a real clang or gcc install, when found, comes first
_RESOURCE_HEADERS = {
    "stddef.h": "#ifndef __CUDAPERF_STDDEF\n#define __CUDAPERF_STDDEF\ntypedef __SIZE_TYPE__ size_t;\n"
                "typedef __PTRDIFF_TYPE__ ptrdiff_t;\ntypedef struct { long long __a; long double __b; } max_align_t;\n"
                "#endif\n#undef NULL\n#define NULL __null\n#ifndef offsetof\n"
                "#define offsetof(t, m) __builtin_offsetof(t, m)\n#endif\n",
    "stdarg.h": "#ifndef __CUDAPERF_STDARG\n#define __CUDAPERF_STDARG\ntypedef __builtin_va_list va_list;\n"
                "typedef __builtin_va_list __gnuc_va_list;\n#define va_start(v, l) __builtin_va_start(v, l)\n"
                "#define va_end(v) __builtin_va_end(v)\n#define va_arg(v, l) __builtin_va_arg(v, l)\n"
                "#define va_copy(d, s) __builtin_va_copy(d, s)\n#endif\n",
    "stdbool.h": "#pragma once\n",
    "float.h": "#pragma once\n" + "".join(f"#define {p}_{n} __{p}_{n}__\n" for p in ("FLT", "DBL", "LDBL")
                                          for n in ("MAX", "MIN", "EPSILON", "DIG", "MANT_DIG", "MAX_EXP",
                                                    "MIN_EXP", "MAX_10_EXP", "MIN_10_EXP", "DENORM_MIN")),
    "limits.h": "#pragma once\n#ifndef CHAR_BIT\n#define CHAR_BIT __CHAR_BIT__\n#endif\n"
                "#ifndef INT_MAX\n#define INT_MAX __INT_MAX__\n#define INT_MIN (-__INT_MAX__ - 1)\n"
                "#define UINT_MAX (__INT_MAX__ * 2U + 1U)\n#define LONG_MAX __LONG_MAX__\n"
                "#define LONG_MIN (-__LONG_MAX__ - 1L)\n#define ULONG_MAX (__LONG_MAX__ * 2UL + 1UL)\n"
                "#define SHRT_MAX __SHRT_MAX__\n#define SCHAR_MAX __SCHAR_MAX__\n#define UCHAR_MAX 255\n"
                "#define LLONG_MAX __LONG_LONG_MAX__\n#define LLONG_MIN (-__LONG_LONG_MAX__ - 1LL)\n"
                "#define ULLONG_MAX (__LONG_LONG_MAX__ * 2ULL + 1ULL)\n#endif\n",
}

SHIM_DIR = Path(__file__).resolve().parent / "data" / "cuda_shims"
# the libraries' other public headers: each is the library's one shim (given to libclang as an in-memory
# file in SHIM_DIR, found where the real header is absent, like the shims themselves)
_SHIM_ALIASES = {
    "cooperative_groups.h": ("cooperative_groups/reduce.h", "cooperative_groups/scan.h",
                             "cooperative_groups/memcpy_async.h"),
    "cub/cub.cuh": tuple(f"cub/{h}.cuh" for h in (
        "util_type", "util_macro", "util_debug", "util_ptx", "block/block_reduce", "block/block_scan",
        "block/block_load", "block/block_store", "block/block_exchange", "block/block_adjacent_difference",
        "warp/warp_reduce", "warp/warp_scan", "warp/warp_exchange", "device/device_reduce", "device/device_scan",
        "device/device_select", "device/device_radix_sort", "device/device_segmented_reduce",
        "iterator/counting_input_iterator", "iterator/transform_input_iterator")),
    "thrust/cudaperf_thrust.h": tuple(f"thrust/{h}.h" for h in (
        "device_vector", "host_vector", "device_ptr", "device_malloc", "device_free", "device_reference",
        "execution_policy", "functional", "tuple", "pair", "random", "complex", "version", "sort", "scan",
        "reduce", "transform", "transform_reduce", "transform_scan", "copy", "fill", "sequence", "count",
        "unique", "remove", "for_each", "generate", "find", "gather", "scatter", "replace", "inner_product",
        "extrema", "binary_search", "adjacent_difference", "shuffle", "equal", "tabulate", "partition",
        "swap", "detail/type_traits", "system/cuda/execution_policy", "iterator/zip_iterator",
        "iterator/transform_iterator", "iterator/counting_iterator", "iterator/constant_iterator",
        "iterator/permutation_iterator", "iterator/discard_iterator", "iterator/reverse_iterator")),
}


def _shim_files() -> list[tuple[str, str]]:
    return [(str(SHIM_DIR / alias), f'#include "{SHIM_DIR / shim}"\n')
            for shim, aliases in _SHIM_ALIASES.items() for alias in aliases]


def _shim(file_name: str) -> str | None:
    """The header a shim stands in for (`cub/cub.cuh`), if `file_name` is one of the shims."""
    name = os.path.normpath(file_name)
    root = str(SHIM_DIR) + os.sep
    return name[len(root):] if name.startswith(root) else None


_lock = threading.Lock()
_state: dict = {}


def _prelude_dir() -> str:
    with _lock:
        if "dir" not in _state:
            directory = tempfile.mkdtemp(prefix="cudaperf-clang-")
            Path(directory, "cudaperf_cuda_prelude.h").write_text(_prelude())
            for name in _TOOLKIT_HEADERS:
                Path(directory, name).write_text("#pragma once\n")
            Path(directory, "resource").mkdir()
            for name, text in _RESOURCE_HEADERS.items():
                Path(directory, "resource", name).write_text(text)
            _state["dir"] = directory
        return _state["dir"]


def _cindex():
    """clang.cindex, with its library loaded; ClangUnavailable (one line) if either is missing."""
    if "cindex" in _state:
        return _state["cindex"]
    try:
        import clang.cindex as ci
    except ImportError:
        raise ClangUnavailable(f"--frontend clang needs libclang ({INSTALL_HINT})") from None
    try:
        ci.Index.create()
    except Exception as exc:  # the bindings without a library: clang.cindex.LibclangError
        raise ClangUnavailable(f"--frontend clang: libclang does not load ({exc}); {INSTALL_HINT}") from None
    lib = ci.conf.lib
    try:  # clang_Cursor_Evaluate: not wrapped by every version of the Python bindings
        lib.clang_Cursor_Evaluate.argtypes = [ci.Cursor]
        lib.clang_Cursor_Evaluate.restype = ctypes.c_void_p
        lib.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getKind.restype = ctypes.c_int
        lib.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
        lib.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]
        _state["evaluate"] = True
    except AttributeError:
        _state["evaluate"] = False
    _state["cindex"] = ci
    return ci


def check() -> None:
    """Raise ClangUnavailable (one line) unless libclang is installed and loads."""
    _cindex()


def available() -> bool:
    try:
        _cindex()
        return True
    except ClangUnavailable:
        return False


def _evaluate_int(ci, cursor) -> int | None:
    if not _state.get("evaluate"):
        return None
    lib = ci.conf.lib
    result = lib.clang_Cursor_Evaluate(cursor)
    if not result:
        return None
    try:
        if lib.clang_EvalResult_getKind(result) != 1:  # CXEval_Int
            return None
        return int(lib.clang_EvalResult_getAsLongLong(result))
    finally:
        lib.clang_EvalResult_dispose(result)


@dataclass
class ClangFacts:
    """What clang resolved in one translation unit."""

    macros: dict[str, list[Macro]] = field(default_factory=dict)  # in force, in order of definition
    types: dict[str, CType] = field(default_factory=dict)  # typedef/alias/struct name -> type
    constants: dict[str, int] = field(default_factory=dict)  # evaluated integer constants and enumerators
    kernels: list[str] = field(default_factory=list)  # __global__ functions defined in the main file
    # kernel -> template arguments of the first instance the translation unit launches or calls, as clang
    # deduced them (`degrid_kernel<<<...>>>(d_out, ...)` with `PRECISION2* d_out`: `float2`)
    instances: dict[str, list[str]] = field(default_factory=dict)
    # the template kernels among them bound by assumption, not by a launch (_assumed_arguments)
    assumed: dict[str, list[str]] = field(default_factory=dict)
    errors: int = 0
    missing_headers: list[str] = field(default_factory=list)
    shims: list[str] = field(default_factory=list)  # declaration shims that stood in for headers not found
    seconds: float = 0.0

    def apply_source(self, source: SourceFile) -> None:
        """Clang's macro table replaces the text reader's: the `#if` arms the flags select, every
        header's definitions (-D given to the analyzer came in through clang's command line)."""
        for name in [n for n, m in source.macros.items() if m.line > 0 and n not in self.macros]:
            del source.macros[name]  # defined in an `#if` arm the compiler skips, or undefined again
            source.redefined.pop(name, None)
        for name, found in self.macros.items():
            source.macros[name] = found[0]
            if len(found) > 1:
                source.redefined[name] = found
            else:
                source.redefined.pop(name, None)

    def apply_scope(self, scope) -> None:
        """Types and constants clang resolved, where tree-sitter could not resolve them itself."""
        for name, ctype in self.types.items():
            known = scope.types.user.get(name)
            if known is None or known.name == "?" or (known.size != ctype.size and ctype.size > 0):
                scope.types.user[name] = ctype
        source = scope.source
        for name, value in self.constants.items():
            if name in scope.arrays or name in source.macros:
                continue
            scope.constants.pop(name, None)  # evaluated by the compiler: the value, not the initializer
            source.macros[name] = Macro(name, None, str(value), 0)


def _macro_of(cursor, data: bytes | None, main: bool) -> Macro | None:
    tokens = list(cursor.get_tokens())
    if not tokens:
        return None
    name = tokens[0].spelling
    params = None
    body_start = 1
    if len(tokens) > 1 and tokens[1].spelling == "(" and \
            tokens[1].extent.start.offset == tokens[0].extent.end.offset:
        params, i = [], 2
        while i < len(tokens) and tokens[i].spelling != ")":
            if tokens[i].spelling != ",":
                params.append(tokens[i].spelling)
            i += 1
        body_start = i + 1
    if data is not None and body_start < len(tokens):
        start, end = tokens[body_start].extent.start.offset, cursor.extent.end.offset
        body = data[start:end].decode(errors="replace").replace("\\\r\n", " ").replace("\\\n", " ").strip()
    else:
        body = " ".join(t.spelling for t in tokens[body_start:])
    return Macro(name, tuple(params) if params is not None else None, body, cursor.location.line if main else 0)


_RECORDS = ("STRUCT_DECL", "CLASS_DECL", "UNION_DECL")


class _Types:
    """clang types -> CType, structs with their members (cached by canonical spelling)."""

    def __init__(self, ci):
        self.ci = ci
        self.cache: dict[str, CType | None] = {}

    def of(self, ctype, depth: int = 0) -> CType | None:
        ci = self.ci
        canonical = ctype.get_canonical()
        spelling = canonical.spelling
        if spelling in self.cache:
            return self.cache[spelling]
        kind = canonical.kind
        result: CType | None = None
        if kind == ci.TypeKind.POINTER:
            pointee = self.of(canonical.get_pointee(), depth + 1) if depth < 4 else None
            result = CType("pointer", 8, 8, pointee=pointee)
        elif kind == ci.TypeKind.CONSTANTARRAY:
            element = self.of(canonical.element_type, depth + 1)
            result = array_of(element, canonical.element_count) if element is not None else None
        elif kind == ci.TypeKind.RECORD and depth < 6:
            declaration = canonical.get_declaration()
            name = normalize(spelling)
            builtin = BUILTIN_TYPES.get(name)
            if builtin is not None:
                result = builtin
            else:
                members = []
                for member in declaration.get_children():
                    if member.kind == ci.CursorKind.FIELD_DECL:
                        mtype = self.of(member.type, depth + 1)
                        if mtype is None:
                            size = member.type.get_size()
                            mtype = CType("?", max(size, 1), max(member.type.get_align(), 1)) if size > 0 else None
                        if mtype is None:
                            members = None
                            break
                        members.append((member.spelling, mtype))
                size, align = canonical.get_size(), canonical.get_align()
                if members is not None and size > 0:
                    laid = struct_of(name, members, align if align > 0 else None)
                    if laid.size != size:  # clang's layout is the compiler's: keep its size
                        laid = CType(laid.name, size, align, laid.is_float, laid.fields)
                    result = laid
        elif kind == ci.TypeKind.ENUM:
            result = BUILTIN_TYPES.get("int") if canonical.get_size() == 4 else None
        else:
            result = BUILTIN_TYPES.get(normalize(spelling))
        self.cache[spelling] = result
        return result


def _walk_declarations(ci, cursor, main_file: str, facts: ClangFacts, types: _Types, depth: int = 0) -> None:
    kinds = ci.CursorKind
    for child in cursor.get_children():
        kind = child.kind
        if kind.is_preprocessing() or kind not in _wanted(ci):
            continue
        location = child.location.file
        if location is None:
            continue
        if _system(str(location)):
            # the C library's typedefs (clock_t, uint, int64_t) are what kernels use from there; its
            # namespaces, structs and constants (and all of the C++ library) are not walked
            if kind == kinds.TYPEDEF_DECL and depth == 0 and "/c++/" not in os.path.normpath(str(location)):
                resolved = types.of(child.underlying_typedef_type)
                if resolved is not None and child.spelling and not child.spelling.startswith("_"):
                    facts.types.setdefault(child.spelling, resolved)
            continue
        if kind in (kinds.NAMESPACE, kinds.LINKAGE_SPEC, kinds.UNEXPOSED_DECL) and depth < 8:
            _walk_declarations(ci, child, main_file, facts, types, depth + 1)
            continue
        name = child.spelling
        if kind in (kinds.TYPEDEF_DECL, kinds.TYPE_ALIAS_DECL):
            resolved = types.of(child.underlying_typedef_type)
            if resolved is not None and name:
                facts.types.setdefault(name, resolved)
        elif kind.name in _RECORDS and child.is_definition() and name:
            resolved = types.of(child.type)
            if resolved is not None:
                facts.types.setdefault(name, resolved)
        elif kind == kinds.ENUM_DECL:
            for constant in child.get_children():
                if constant.kind == kinds.ENUM_CONSTANT_DECL:
                    facts.constants.setdefault(constant.spelling, int(constant.enum_value))
        elif kind == kinds.VAR_DECL and name:
            qualified = child.type.is_const_qualified() or any(t.spelling == "constexpr"
                                                                for t in list(child.get_tokens())[:4])
            if qualified and child.type.get_canonical().kind in _INTEGER_KINDS(ci):
                value = _evaluate_int(ci, child)
                if value is not None:
                    facts.constants.setdefault(name, value)
        elif kind in (kinds.FUNCTION_DECL, kinds.FUNCTION_TEMPLATE) and \
                _same_name(location, main_file) and any(c.kind == kinds.CUDAGLOBAL_ATTR for c in child.get_children()):
            facts.kernels.append(name)
            _declared_types(ci, child, main_file, facts, types)


_STORAGE = {"__shared__", "__device__", "__constant__", "__managed__", "static", "extern", "register", "constexpr"}


def _declared_types(ci, kernel, main_file: str, facts: ClangFacts, types: _Types) -> None:
    """Struct types a kernel's parameters point to and its locals hold (those clang completed: a WMMA
    fragment array, `thrust::complex<float>* in`), keyed by their text as written, which is what the
    lowering looks up (`complex<float>`).  Dependent types (a template's `T`) are left to the template's
    arguments, and CUB's TempStorage, whose layout in the shim is a stand-in, is left unknown."""
    kinds, tk = ci.CursorKind, ci.TypeKind
    data = None
    for node in kernel.walk_preorder():
        if node.kind not in (kinds.PARM_DECL, kinds.VAR_DECL) or node.location.file is None or \
                not _same_name(node.location.file, main_file):
            continue
        ctype = node.type
        for _ in range(4):
            if ctype.kind in (tk.POINTER, tk.LVALUEREFERENCE):
                ctype = ctype.get_pointee()
            elif ctype.kind in (tk.CONSTANTARRAY, tk.INCOMPLETEARRAY):
                ctype = ctype.element_type
        canonical = ctype.get_canonical()
        declared = canonical.get_declaration().location.file
        if canonical.kind != tk.RECORD or canonical.get_size() <= 0 or \
                (declared is not None and (_shim(str(declared)) or "").startswith("cub/")):
            continue
        data = data if data is not None else Path(main_file).read_bytes()
        written = data[node.extent.start.offset:node.location.offset].decode(errors="replace")
        key = normalize(" ".join(w for w in written.split() if w not in _STORAGE))
        if key and key not in facts.types and key not in BUILTIN_TYPES:
            resolved = types.of(ctype)
            if resolved is not None:
                facts.types[key] = resolved


_FRAGMENTS = re.compile(rb"#\s*include\s*<mma\.h>")  # WMMA fragments are kernels' locals
_TEMPLATE_KERNEL = re.compile(rb"template\s*<[^{;]*?__global__|__global__[^{;]*?template", re.DOTALL)
_HOST_BODIES = ("FUNCTION_DECL", "FUNCTION_TEMPLATE", "CXX_METHOD", "CONSTRUCTOR")
MAX_CALLS_WALKED = 200_000


def _template_arguments(ci, function) -> list[str] | None:
    count = function.get_num_template_arguments()
    if count <= 0:
        return None
    out = []
    for i in range(count):
        try:
            kind = function.get_template_argument_kind(i)
        except ValueError:  # a kind these Python bindings do not know (a pack, a null pointer ...)
            return None
        if kind == ci.TemplateArgumentKind.TYPE:
            out.append(function.get_template_argument_type(i).get_canonical().spelling)
        elif kind == ci.TemplateArgumentKind.INTEGRAL:
            out.append(str(function.get_template_argument_value(i)))
        else:
            return None
    return out


def _template_parameters(ci, template) -> list[str]:
    kinds = ci.CursorKind
    return [c.spelling for c in template.get_children()
            if c.kind in (kinds.TEMPLATE_TYPE_PARAMETER, kinds.TEMPLATE_NON_TYPE_PARAMETER)]


def _bare(spelling: str) -> str:
    """`const T *__restrict` -> `T`."""
    words = [w for w in spelling.replace("*", " ").replace("&", " ").split()
             if w not in ("const", "volatile", "__restrict", "__restrict__", "restrict")]
    return words[0] if len(words) == 1 else ""


def _written_template_arguments(launch, name: str) -> list[str]:
    """The template arguments written at a launch (`k<TData, 4><<<...>>>` -> ["TData", "4"])."""
    tokens = [t.spelling for t in launch.get_tokens()][:64]
    if name not in tokens:
        return []
    i = tokens.index(name) + 1
    if i >= len(tokens) or tokens[i] != "<":
        return []
    out, current, depth = [], [], 0
    for token in tokens[i + 1:]:
        if token in ("<<<", ">>>"):
            break
        if token == "<":
            depth += 1
        elif token in (">", ">>") and depth == 0:
            out.append(" ".join(current))
            return out
        elif token == ">":
            depth -= 1
        elif token == "," and depth == 0:
            out.append(" ".join(current))
            current = []
            continue
        current.append(token)
    return []


def _bind(ci, template, call, name: str, binding: dict[str, str]) -> dict[str, str] | None:
    """The arguments of the function template `template`, called as `name` by `call` inside another
    template whose parameters `binding` gives: same-named parameters, arguments written at the call
    (`k<TData, 4>`: the caller's parameter, an integer, a built-in type), and a parameter `T*` given an
    argument whose type is the caller's parameter (`run(CmplxType* out)` calling `k(out)`).  None
    unless every parameter is bound."""
    kinds = ci.CursorKind
    params = _template_parameters(ci, template)
    bound = {p: binding[p] for p in params if p in binding}
    for p, arg in zip(params, _written_template_arguments(call, name)):
        if arg in binding:
            bound[p] = binding[arg]
        elif re.fullmatch(r"-?\d+[uUlL]*", arg):
            bound[p] = arg.rstrip("uUlL")
        elif arg in BUILTIN_TYPES:
            bound[p] = arg
    formals = [_bare(c.type.spelling) for c in template.get_children() if c.kind == kinds.PARM_DECL]
    actual = [_bare(c.type.spelling) for c in list(call.get_children())[1:]
              if c.kind != kinds.CALL_EXPR or c.spelling != "cudaConfigureCall"]
    for formal, given_type in zip(formals, actual[-len(formals):] if formals else []):
        if formal in params and formal not in bound and given_type in binding:
            bound[formal] = binding[given_type]
    return bound if params and all(p in bound for p in params) else None


MAX_HOST_DEPTH = 4  # host templates between a concrete call and the launch: run<float> -> step<T> -> k<T>


def _kernel(ci, cursor) -> bool:
    return any(c.kind == ci.CursorKind.CUDAGLOBAL_ATTR for c in cursor.get_children())


def _instances(ci, root, files: set[str], facts: ClangFacts) -> None:
    """The template arguments of kernels the unit's own functions launch (or call), as clang deduced
    them.  A launch inside a host function template (`degridGPU<CmplxType>` launching
    `degrid_kernel<<<...>>>(out, ...)`) is dependent: clang resolves it only in the host template's
    instantiation, which libclang does not show; there the kernel's parameters are bound from the
    host template's arguments at its first concrete call (see _bind), through up to MAX_HOST_DEPTH
    host templates calling one another."""
    kinds = ci.CursorKind
    templates: dict[str, object] = {}  # function template name -> its cursor (kernels and host code)
    concrete: dict[str, list[str]] = {}  # host template -> the arguments of its first concrete call
    dependent: list[tuple[str, object, object]] = []  # (callee name, the call, the enclosing template)
    walked = 0
    for child in root.get_children():
        if child.kind.is_preprocessing() or child.location.file is None or \
                os.path.normpath(os.path.abspath(str(child.location.file))) not in files:
            continue
        stack = [(child, None)]
        while stack and walked < MAX_CALLS_WALKED:
            node, enclosing = stack.pop()
            walked += 1
            if node.kind == kinds.FUNCTION_TEMPLATE:
                templates.setdefault(node.spelling, node)
                enclosing = node
            elif node.kind == kinds.CALL_EXPR:
                callee = node.referenced
                if callee is not None and callee.kind == kinds.FUNCTION_DECL:
                    arguments = _template_arguments(ci, callee)
                    if arguments and not any("type-parameter" in a for a in arguments):
                        if _kernel(ci, callee):
                            facts.instances.setdefault(callee.spelling, arguments)
                        else:
                            concrete.setdefault(callee.spelling, arguments)
                elif callee is None and enclosing is not None:
                    first = next(iter(node.get_children()), None)
                    name = next((g.spelling for g in first.walk_preorder() if g.spelling), "") if first else ""
                    if name:
                        dependent.append((name, node, enclosing))
            stack.extend((c, enclosing) for c in reversed(list(node.get_children())))  # in source order
    bindings = {name: dict(zip(_template_parameters(ci, templates[name]), arguments))
                for name, arguments in concrete.items() if name in templates}
    for _ in range(MAX_HOST_DEPTH):
        found = False
        for name, call, enclosing in dependent:
            target = templates.get(name)
            binding = bindings.get(enclosing.spelling)
            if target is None or binding is None or name in bindings or name in facts.instances:
                continue
            bound = _bind(ci, target, call, name, binding)
            if bound is not None:
                bindings[name] = bound
                found = True
        if not found:
            break
    for name, binding in bindings.items():
        if name not in facts.instances and _kernel(ci, templates[name]):
            facts.instances[name] = [binding[p] for p in _template_parameters(ci, templates[name])]
    for name in facts.kernels:
        template = templates.get(name)
        if template is not None and name not in facts.instances:
            assumed = _assumed_arguments(ci, template)
            if assumed is not None:
                facts.instances[name] = facts.assumed[name] = assumed


ASSUMED_TYPE = "float"  # a template kernel nothing instantiates: each type parameter without a default
ASSUMED_VALUE = "256"  # and each integer parameter without one (a block size, the most common use)


def _assumed_arguments(ci, template) -> list[str] | None:
    """Arguments for a template kernel no launch or instantiation in view binds: each parameter's
    declared default, else ASSUMED_TYPE or ASSUMED_VALUE (a `bool` one: true).  None for a template
    template parameter or a pack."""
    kinds = ci.CursorKind
    out = []
    for param in template.get_children():
        if param.kind == kinds.TEMPLATE_TEMPLATE_PARAMETER:
            return None
        if param.kind not in (kinds.TEMPLATE_TYPE_PARAMETER, kinds.TEMPLATE_NON_TYPE_PARAMETER):
            continue
        tokens = [t.spelling for t in param.get_tokens()]
        if "..." in tokens:
            return None
        default = tokens[tokens.index("=") + 1:] if "=" in tokens else []
        if param.kind == kinds.TEMPLATE_TYPE_PARAMETER:
            written = " ".join(default)
            out.append(written if written in BUILTIN_TYPES else ASSUMED_TYPE)
            continue
        value = None
        if default:
            expression = next((c for c in param.get_children() if c.kind.is_expression()), None)
            value = _evaluate_int(ci, expression) if expression is not None else None
        if value is None and param.type.get_canonical().kind == ci.TypeKind.BOOL:
            value = 1
        out.append(str(value) if value is not None else ASSUMED_VALUE)
    return out


def _wanted(ci):
    if "wanted" not in _state:
        k = ci.CursorKind
        _state["wanted"] = {k.NAMESPACE, k.LINKAGE_SPEC, k.UNEXPOSED_DECL, k.TYPEDEF_DECL, k.TYPE_ALIAS_DECL,
                            k.STRUCT_DECL, k.CLASS_DECL, k.UNION_DECL, k.ENUM_DECL, k.VAR_DECL, k.FUNCTION_DECL,
                            k.FUNCTION_TEMPLATE}
    return _state["wanted"]


def _system(file_name: str) -> bool:
    """A header of the C or C++ library, the prelude or a shim: nothing the analysis needs from there but
    the top-level typedefs (`curandState`)."""
    name = os.path.normpath(file_name)
    return name.startswith(("/usr/include", "/usr/lib", "/include/", "/lib/", _state.get("dir", "\0"),
                            str(SHIM_DIR))) or "/c++/" in name


def _same_name(location, main_file: str) -> bool:
    return os.path.normpath(os.path.abspath(str(location))) == main_file


def _INTEGER_KINDS(ci):  # a constant table, built once the bindings are loaded
    if "integers" not in _state:
        t = ci.TypeKind
        _state["integers"] = {t.BOOL, t.CHAR_U, t.UCHAR, t.CHAR16, t.CHAR32, t.USHORT, t.UINT, t.ULONG, t.ULONGLONG,
                              t.CHAR_S, t.SCHAR, t.WCHAR, t.SHORT, t.INT, t.LONG, t.LONGLONG, t.ENUM}
    return _state["integers"]


def compile_args(options, path: str | Path, database: bool = False) -> list[str]:
    """clang's command line for `path` under the analyzer's options (include dirs and defines already
    merged from the compile database by compdb.apply)."""
    prelude = _prelude_dir()
    arch = options.arch.rstrip("a") if options.arch.startswith("sm_") else "sm_90"
    args = ["-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib", f"--cuda-gpu-arch={arch}",
            f"-std={options.std}", "-Wno-unknown-cuda-version", "-ferror-limit=0", "-w",
            "-include", str(Path(prelude, "cudaperf_cuda_prelude.h")), f"-I{prelude}",
            f"-idirafter{Path(prelude, 'resource')}"]
    args += [f"-D{k}={v}" for k, v in options.defines.items()]
    args += [f"-I{Path(d).resolve()}" for d in options.include_dirs]
    args += [a for d in options.system_include_dirs for a in ("-isystem", str(Path(d).resolve()))]
    if not database:
        args += [f"-idirafter{d}" for d in guessed_include_dirs(Path(path).resolve().parent)]
    return [*args, f"-idirafter{SHIM_DIR}"]  # last: a toolkit or a project's own copy of CUB comes first


MAX_NEARBY_DIRS = 8  # a directory with more subdirectories is a collection of projects, not one project


def _subdirectories(directory: Path) -> list[Path]:
    """The subdirectories of a small project directory (sorted), none for a larger one (HeCBench's `src/`
    of 500 programs, whose headers are not this file's)."""
    try:
        found = sorted(d for d in directory.iterdir() if d.is_dir() and not d.name.startswith("."))
    except OSError:
        return []
    return found if len(found) <= MAX_NEARBY_DIRS else []


def guessed_include_dirs(here: Path) -> list[Path]:
    """Where a file's headers likely are when no compile database says (searched after every -I, with
    -idirafter): its own directory (an `#include <kernel.h>` beside it), its subdirectories (`inc/`,
    `src/`), its sibling directories (miniFE's `src/` including <TypeTraits.hpp> from `utils/`, as the
    build's `-I../utils` does), then the directories above and their `Common`/`common`/`include`
    (cuda-samples' <helper_cuda.h>)."""
    out = [here, *_subdirectories(here), *(d for d in _subdirectories(here.parent) if d != here)]
    for directory in list(here.parents)[:ANCESTOR_INCLUDES]:
        out.append(directory)
        out += [directory / sub for sub in ("Common", "common", "include") if (directory / sub).is_dir()]
    return list(dict.fromkeys(out))


_UNIT_SUFFIXES = (".cu", ".cpp", ".cc", ".cxx")


def translation_unit(path: Path) -> Path:
    """The file clang compiles `path` in: itself, or a source file beside it (or in the directory above)
    that `#include`s it (HeCBench's main.cu including kernels.cu after the header defining GCF_DIM)."""
    from .project import neighbours
    from .source import _include_sites

    for unit in neighbours(path):
        if unit.suffix in _UNIT_SUFFIXES and any(site == path for _, site in _include_sites(unit)):
            return unit
    return path


def facts_for(path: str | Path, options, database: bool = False) -> ClangFacts:
    """Parse `path` with libclang under `options` and gather the facts; ClangUnavailable without
    libclang, ClangFailed where libclang cannot read the file.  A file another source includes (and
    no compile database lists) is parsed as part of that translation unit."""
    ci = _cindex()
    start = time.perf_counter()
    main_file = str(Path(path).resolve())
    unit_file = main_file if database else str(translation_unit(Path(main_file)))
    # function bodies are needed only for the instances of templates (the launches that instantiate them)
    # and for the types of WMMA fragments
    data = Path(main_file).read_bytes()
    templates = _TEMPLATE_KERNEL.search(data) is not None
    flags = ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD | KEEP_GOING
    if not templates and not _FRAGMENTS.search(data):  # bodies: locals' types (_declared_types) too
        flags |= ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES
    try:
        index = ci.Index.create()
        unit = index.parse(unit_file, args=compile_args(options, unit_file, database), options=flags,
                           unsaved_files=_shim_files())
    except ci.TranslationUnitLoadError as exc:
        raise ClangFailed(f"libclang could not parse the file ({exc or 'translation unit not loaded'})") from None
    facts = ClangFacts()
    contents: dict[str, bytes | None] = {}
    definition = ci.CursorKind.MACRO_DEFINITION
    for cursor in unit.cursor.get_children():
        if cursor.kind != definition:
            continue
        location = cursor.location.file
        if location is None:
            continue
        file_name = str(location)
        if _system(file_name):
            continue
        if file_name not in contents:
            try:
                contents[file_name] = Path(file_name).read_bytes()
            except OSError:
                contents[file_name] = None
        macro = _macro_of(cursor, contents[file_name], _same_name(location, main_file))
        if macro is not None:
            facts.macros.setdefault(macro.name, []).append(macro)
    for diagnostic in unit.diagnostics:
        if diagnostic.severity >= ci.Diagnostic.Error:
            facts.errors += 1
            if diagnostic.spelling.endswith("file not found"):
                facts.missing_headers.append(diagnostic.spelling.split("'")[1] if "'" in diagnostic.spelling
                                             else diagnostic.spelling)
    facts.shims = sorted({shim for inclusion in unit.get_includes()
                          if (shim := _shim(str(inclusion.include))) is not None})
    _walk_declarations(ci, unit.cursor, main_file, facts, _Types(ci))
    if templates:
        _instances(ci, unit.cursor, {main_file, unit_file}, facts)
    facts.seconds = time.perf_counter() - start
    return facts


class ClangFailed(Exception):
    """libclang could not read the file; the analysis falls back to tree-sitter."""


def attach(source: SourceFile, path: str | Path, options, tree_kernels: int | None = None,
           database: bool = False) -> list[Diagnostic]:
    """Give `source` clang's facts (ClangUnavailable propagates).  Returns notes for the report: a
    fallback to tree-sitter, headers clang could not find."""
    try:
        facts = facts_for(path, options, database)
    except ClangUnavailable:
        raise
    except ClangFailed as exc:
        return [Diagnostic(1, 1, "note", f"clang frontend: {exc}; analysed with tree-sitter")]
    except Exception as exc:  # a crash inside libclang's bindings costs the precision, not the file
        return [Diagnostic(1, 1, "note", f"clang frontend failed ({type(exc).__name__}: {exc}); "
                                         "analysed with tree-sitter")]
    if tree_kernels and not facts.kernels:
        return [Diagnostic(1, 1, "note", f"clang frontend: clang found none of the file's kernels "
                                         f"({facts.errors} errors); analysed with tree-sitter")]
    facts.apply_source(source)
    source.facts = facts
    notes = []
    if facts.shims:
        notes.append(Diagnostic(1, 1, "note", f"clang frontend: declaration shims stood in for headers not found: "
                                              f"{', '.join(facts.shims)} (declarations only; -I to the CUDA "
                                              "toolkit gives the real ones)"))
    for name, arguments in facts.assumed.items():
        notes.append(Diagnostic(1, 1, "note", f"clang frontend: template kernel {name} has no instance in view; "
                                              f"analysed as {name}<{', '.join(arguments)}> (assumed: a declared "
                                              f"default, else {ASSUMED_TYPE} for a type, {ASSUMED_VALUE} for "
                                              "an integer)"))
    if facts.missing_headers:
        shown = ", ".join(dict.fromkeys(facts.missing_headers))
        notes.append(Diagnostic(1, 1, "note", f"clang frontend: headers not found: {shown} "
                                              "(pass -I or a compile database)"))
    return notes
