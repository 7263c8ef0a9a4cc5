"""Split `load_inline` sources into device code NVRTC can compile and the host functions to translate.

The full build parses <torch/extension.h> for every candidate only because the host wrappers use it;
kernels, `__device__` helpers and the types, constants and macros they use never do.  So the device
source is the candidate's own text with host function definitions, torch/ATen/c10/pybind includes and
declarations of torch-typed functions blanked (line numbers kept, so NVRTC's errors point at the
candidate's lines), behind a small prelude standing for what torch's headers brought in implicitly
(fixed-width integer types, limits macros, `std::` math, `cuda_fp16.h`).  Read with tree-sitter-cuda
(the analyzer's frontend), not regexes, so braces in strings or comments cannot shift a boundary.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ....analysis.parse import Node, parse, text
from ....analysis.source import Macro, without_attributes

# Headers torch's extension headers bring; none is needed by device code.
_TORCH_INCLUDE = re.compile(r"^(?:torch/|ATen/|c10/|pybind11/|THC/|caffe2/|Python\.h|cuda\.h|cublas\w*\.h|cublasLt\.h|"
                            r"cudnn\w*\.h|cufft\w*\.h|cusparse\.h|cusolver\w*\.h)")
# Headers NVRTC ships (or the CUDA toolkit's include directory holds): kept as written.
_DEVICE_HEADERS = re.compile(r"^(?:cuda_fp16\.h|cuda_bf16\.h|cuda_fp8\.h|mma\.h|cuda_runtime\.h|"
                             r"cuda_runtime_api\.h|device_launch_parameters\.h|cooperative_groups\.h|"
                             r"cooperative_groups/\w+\.h|cuda_pipeline\w*\.h|cuda_awbarrier\w*\.h|"
                             r"vector_types\.h|vector_functions\.h|math_constants\.h|sm_\d+_intrinsics\.h|"
                             r"device_functions\.h|cuda/\w+|cuda/std/\w+)$")
# Host standard headers: dropped, the prelude provides what kernels use from them.
_STD_HEADERS = re.compile(r"^(?:c?math(?:\.h)?|c?stdint(?:\.h)?|stdint\.h|c?float(?:\.h)?|float\.h|c?limits(?:\.h)?|"
                          r"limits\.h|algorithm|vector|iostream|c?stdio(?:\.h)?|stdio\.h|c?assert(?:\.h)?|"
                          r"assert\.h|type_traits|utility|tuple|string|sstream|cstddef|stddef\.h|cstdlib|"
                          r"stdlib\.h|numeric|array|functional|memory|cstring|string\.h|iomanip|chrono|"
                          r"initializer_list|optional|stdexcept|exception|cfenv|climits|cstdio|cmath)$")
_TORCH_TYPES = re.compile(r"\b(?:torch|at|c10|py|pybind11)::|\bTensor\b|\bstd::(?:vector|tuple|pair|string)\b")
_LIMITS = re.compile(r"numeric_limits")

PRELUDE = r"""// cudaperf fast path prelude: what torch's headers gave the device code implicitly
typedef signed char int8_t; typedef unsigned char uint8_t; typedef short int16_t; typedef unsigned short uint16_t;
typedef int int32_t; typedef unsigned int uint32_t; typedef long int64_t; typedef unsigned long uint64_t;
typedef long intptr_t; typedef unsigned long uintptr_t; typedef long ptrdiff_t;
#define INT_MAX 2147483647
#define INT_MIN (-INT_MAX - 1)
#define UINT_MAX 4294967295U
#define LLONG_MAX 9223372036854775807LL
#define INT32_MAX 2147483647
#define INT32_MIN (-INT32_MAX - 1)
#define UINT32_MAX 4294967295U
#define INT64_MAX 9223372036854775807LL
#define INT64_MIN (-INT64_MAX - 1)
#define FLT_MAX 3.402823466e+38F
#define FLT_MIN 1.175494351e-38F
#define FLT_EPSILON 1.192092896e-07F
#define DBL_MAX 1.7976931348623158e+308
#define DBL_MIN 2.2250738585072014e-308
#define DBL_EPSILON 2.2204460492503131e-016
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
#ifndef M_PI
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#endif
#include <cuda_fp16.h>
#include <cuda_bf16.h>
namespace std { using ::exp; using ::exp2; using ::log; using ::log2; using ::sqrt; using ::abs; using ::fabs;
  using ::tanh; using ::pow; using ::fmax; using ::fmin; using ::max; using ::min; using ::floor; using ::ceil;
  using ::erf; using ::sin; using ::cos; using ::rsqrt; using ::round; using ::log1p; using ::expm1;
  using ::isnan; using ::isinf; using ::fma; using ::tan; using ::atan; using ::sinh; using ::cosh; }
"""
# c10::Half and c10::BFloat16 as torch defines them for device code: 16-bit storage, arithmetic in
# float (so `scalar_t` kernels dispatched for half compile and round as they do in the full build).
_HALF_PRELUDE = r"""namespace c10 {
#define CUDAPERF_HALF16(T, ST, TO, FROM) \
struct alignas(2) T { unsigned short x; T() = default; \
  __host__ __device__ T(float v) { ST h = TO(v); x = *reinterpret_cast<unsigned short*>(&h); } \
  __host__ __device__ T(const ST& h) { x = *reinterpret_cast<const unsigned short*>(&h); } \
  __host__ __device__ operator float() const { return FROM(*reinterpret_cast<const ST*>(&x)); } \
  __host__ __device__ operator ST() const { return *reinterpret_cast<const ST*>(&x); } }; \
__host__ __device__ inline T operator+(const T& a, const T& b) { return float(a) + float(b); } \
__host__ __device__ inline T operator-(const T& a, const T& b) { return float(a) - float(b); } \
__host__ __device__ inline T operator*(const T& a, const T& b) { return float(a) * float(b); } \
__host__ __device__ inline T operator/(const T& a, const T& b) { return float(a) / float(b); } \
__host__ __device__ inline T operator-(const T& a) { return -float(a); } \
__host__ __device__ inline T& operator+=(T& a, const T& b) { a = a + b; return a; } \
__host__ __device__ inline T& operator-=(T& a, const T& b) { a = a - b; return a; } \
__host__ __device__ inline T& operator*=(T& a, const T& b) { a = a * b; return a; } \
__host__ __device__ inline T& operator/=(T& a, const T& b) { a = a / b; return a; } \
__host__ __device__ inline float operator+(T a, float b) { return float(a) + b; } \
__host__ __device__ inline float operator-(T a, float b) { return float(a) - b; } \
__host__ __device__ inline float operator*(T a, float b) { return float(a) * b; } \
__host__ __device__ inline float operator/(T a, float b) { return float(a) / b; } \
__host__ __device__ inline float operator+(float a, T b) { return a + float(b); } \
__host__ __device__ inline float operator-(float a, T b) { return a - float(b); } \
__host__ __device__ inline float operator*(float a, T b) { return a * float(b); } \
__host__ __device__ inline float operator/(float a, T b) { return a / float(b); } \
__host__ __device__ inline double operator+(T a, double b) { return double(float(a)) + b; } \
__host__ __device__ inline double operator*(T a, double b) { return double(float(a)) * b; } \
__host__ __device__ inline double operator+(double a, T b) { return a + double(float(b)); } \
__host__ __device__ inline double operator*(double a, T b) { return a * double(float(b)); } \
__host__ __device__ inline T operator+(T a, int b) { return a + T(float(b)); } \
__host__ __device__ inline T operator*(T a, int b) { return a * T(float(b)); } \
__host__ __device__ inline bool operator>(T a, T b) { return float(a) > float(b); } \
__host__ __device__ inline bool operator<(T a, T b) { return float(a) < float(b); } \
__host__ __device__ inline bool operator>=(T a, T b) { return float(a) >= float(b); } \
__host__ __device__ inline bool operator<=(T a, T b) { return float(a) <= float(b); } \
__host__ __device__ inline bool operator==(T a, T b) { return float(a) == float(b); } \
__host__ __device__ inline bool operator!=(T a, T b) { return float(a) != float(b); }
CUDAPERF_HALF16(Half, __half, __float2half, __half2float)
CUDAPERF_HALF16(BFloat16, __nv_bfloat16, __float2bfloat16, __bfloat162float)
#undef CUDAPERF_HALF16
}
namespace at { using c10::Half; using c10::BFloat16; }
namespace torch { using c10::Half; using c10::BFloat16; }
"""
_USES_HALF = re.compile(r"\b(?:at|c10|torch)::(?:Half|BFloat16)\b|AT_DISPATCH_\w*(?:HALF|AND)")
_LIMITS_PRELUDE = "#include <cuda/std/limits>\nnamespace std { using cuda::std::numeric_limits; }\n"
PRELUDE_LINES = PRELUDE.count("\n")


@dataclass(frozen=True)
class Param:
    name: str
    type: str          # base type without qualifiers (`float`, `scalar_t`, `int64_t`)
    pointer: bool      # pointer or array parameter


@dataclass(frozen=True)
class Kernel:
    name: str
    params: tuple[Param, ...]
    template: tuple[str, ...]     # template parameter names, in order
    line: int


@dataclass(frozen=True)
class HostFunction:
    name: str
    text: str          # the whole definition as written
    line: int          # its first line in its source
    source: str        # "cuda" or "cpp"
    template: bool = False


@dataclass
class Split:
    device: str                                   # NVRTC-compilable source (prelude + candidate text)
    kernels: dict[str, Kernel] = field(default_factory=dict)
    host: dict[str, HostFunction] = field(default_factory=dict)
    macros: dict[str, Macro] = field(default_factory=dict)
    constants: dict[str, tuple[str, str, int]] = field(default_factory=dict)   # name -> (type, init, line)
    # `__constant__`/`__device__` variables of the device code: name -> (element type, array dimensions, line)
    symbols: dict[str, tuple[str, tuple[str, ...], int]] = field(default_factory=dict)
    # plain structs of named scalar fields: name -> ((field, type as written), ...); None: other members
    structs: dict[str, tuple[tuple[str, str], ...] | None] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)   # fallback reasons found while splitting
    overloaded: set[str] = field(default_factory=set)
    bindings: dict[str, str] = field(default_factory=dict)   # PYBIND11_MODULE's m.def: Python name -> C++ name


_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\([^)]*\))?[ \t]*((?:[^\n\\]|\\\n|\\.)*)$", re.M)


def macros_of(source: str, problems: list[str], label: str) -> dict[str, Macro]:
    """#define lines of one source (line continuations joined); a name defined twice differently is
    reported, since which one a host use sees depends on the preprocessor's state there."""
    found: dict[str, Macro] = {}
    for m in _DEFINE.finditer(source):
        params = tuple(p.strip() for p in m.group(2)[1:-1].split(",") if p.strip()) if m.group(2) else None
        body = re.sub(r"\\\n", " ", m.group(3)).strip()
        body = re.sub(r"//.*$|/\*.*?\*/", "", body).strip()
        line = source.count("\n", 0, m.start()) + 1
        macro = Macro(m.group(1), params, body, line)
        old = found.get(macro.name)
        if old is not None and (old.params, old.body) != (params, body):
            problems.append(f"macro {macro.name} defined twice at line {line} ({label})")
        found[macro.name] = macro
    return found


def _specifiers(node: Node) -> str:
    """The text of a function definition before its declarator (qualifiers, return type)."""
    declarator = node.child_by_field_name("declarator")
    if declarator is None:
        return ""
    return node.text[: declarator.start_byte - node.start_byte].decode(errors="replace")


def _function_name(node: Node) -> str | None:
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type in ("pointer_declarator", "reference_declarator"):
        declarator = declarator.child_by_field_name("declarator") or (
            declarator.named_children[-1] if declarator.named_children else None)
    if declarator is None or declarator.type != "function_declarator":
        return None
    name = declarator.child_by_field_name("declarator")
    return text(name) if name is not None and name.type in ("identifier", "field_identifier") else None


def _params(node: Node) -> tuple[Param, ...] | None:
    """Kernel parameters; None when one is neither a scalar nor a pointer (a struct by reference...)."""
    declarator = node.child_by_field_name("declarator")
    plist = declarator.child_by_field_name("parameters") if declarator is not None else None
    out = []
    for p in plist.named_children if plist is not None else []:
        if p.type != "parameter_declaration":
            return None
        base = text(p.child_by_field_name("type"))
        d = p.child_by_field_name("declarator")
        pointer = False
        while d is not None and d.type in ("pointer_declarator", "array_declarator", "reference_declarator"):
            if d.type == "reference_declarator":
                return None
            pointer = True
            d = d.child_by_field_name("declarator") or next(
                (c for c in d.named_children if c.type in ("identifier", "pointer_declarator")), None)
        name = text(d) if d is not None else ""
        out.append(Param(name, base, pointer))
    return tuple(out)


def template_names(node: Node) -> tuple[str, ...]:
    plist = node.child_by_field_name("parameters")
    names = []
    for p in plist.named_children if plist is not None else []:
        ident = [c for c in p.named_children if c.type in ("type_identifier", "identifier")]
        names.append(text(ident[-1]) if ident else "")
    return tuple(names)


def split(cuda: str, cpp: str) -> Split:
    """Device source and host functions of one load_inline call's sources."""
    problems: list[str] = []
    macros = {**macros_of(cpp, problems, "cpp_sources"), **macros_of(cuda, problems, "cuda_sources")}
    result = Split("", macros=macros, problems=problems)
    device = _walk(cuda, "cuda", result)
    _walk(cpp, "cpp", result)
    prelude = PRELUDE
    if _USES_HALF.search(cuda + cpp):
        prelude += _HALF_PRELUDE
    if _LIMITS.search(device):
        prelude += _LIMITS_PRELUDE
    result.device = prelude + "#line 1\n" + device
    return result


def _walk(source: str, label: str, result: Split) -> str:
    """Collect kernels and host functions of one source; return it with host parts blanked."""
    data = source.encode()
    # `__global__ void __cluster_dims__(2, 1, 1) k(...)`: the grammar reads the attribute as a declaration and
    # loses the kernel; the tree is parsed without it, the text NVRTC compiles keeps it
    tree = parse(without_attributes(data))
    blanks: list[tuple[int, int]] = []

    def blank(node: Node) -> None:
        blanks.append((node.start_byte, node.end_byte))

    def visit(container: Node) -> None:
        for node in container.named_children:
            kind = node.type
            if kind in ("namespace_definition", "linkage_specification"):
                body = node.child_by_field_name("body")
                if body is not None:
                    if kind == "namespace_definition" and text(node.child_by_field_name("name")) in (
                            "torch", "at", "c10", "py", "pybind11"):
                        blank(node)
                    elif body.type == "declaration_list":
                        visit(body)
                    else:   # `extern "C" __global__ void k(...) {...}`: one definition, no braces around it
                        one(body, node)
                continue
            one(node, node)

    def one(node: Node, outer: Node) -> None:
        """One top-level item (`outer` is what to blank: the item, or its `extern "C"` wrapper)."""
        kind = node.type
        if kind == "preproc_include":
            path = text(node.child_by_field_name("path")).strip("<>\"")
            if _TORCH_INCLUDE.match(path) or _STD_HEADERS.match(path):
                blank(outer)
            elif not _DEVICE_HEADERS.match(path) and not path.startswith(("cub/", "thrust/")):
                result.problems.append(f"#include {path} at line {node.start_point[0] + 1} ({label})")
            return
        func, template = node, None
        if kind == "template_declaration":
            inner = next((c for c in node.named_children if c.type in ("function_definition", "declaration")),
                         None)
            if inner is None:
                return
            func, template = inner, node
        if func.type == "function_definition":
            specifiers = _specifiers(func)
            name = _function_name(func)
            line = node.start_point[0] + 1
            if name is None:
                if _TORCH_TYPES.search(specifiers):
                    blank(outer)
                return
            if "__global__" in specifiers:
                params = _params(func)
                if name in result.kernels:
                    result.overloaded.add(name)
                if params is None:
                    result.problems.append(f"kernel {name} at line {line} takes a reference parameter")
                    return
                result.kernels[name] = Kernel(name, params, template_names(template) if template else (), line)
                return
            device_side = "__device__" in specifiers
            if not device_side or "__host__" in specifiers:
                if name in result.host and label == result.host[name].source:
                    result.overloaded.add(name)
                result.host[name] = HostFunction(name, text(node), line, label, template is not None)
            if not device_side:
                blank(outer)
            return
        if kind == "declaration" or (kind == "template_declaration" and func.type == "declaration"):
            body = text(node)
            if _TORCH_TYPES.search(body) or ("(" in body.split("=")[0] and "__device__" not in body):
                blank(outer)   # a host prototype, or a torch-typed global
                return
            _constant(node, result)
            if label == "cuda":
                _symbol(node, result)
            return
        if kind == "struct_specifier" or (kind == "type_definition" and node.child_by_field_name("type") is not None
                                          and node.child_by_field_name("type").type == "struct_specifier"):
            _struct(node, data, result)
            return
        if kind == "function_definition":
            return
        if kind == "ERROR" and _TORCH_TYPES.search(text(node)):
            result.problems.append(f"unparsed host code at line {node.start_point[0] + 1} ({label})")
            blank(outer)

    visit(tree.root_node)
    if re.search(r"^\s*#\s*pragma\s+pack", source, re.M):    # packing the host and device would both have to follow
        result.structs = dict.fromkeys(result.structs)
    out = bytearray(data)
    for start, end in _bindings(source, label, result):
        blanks.append((len(source[:start].encode()), len(source[:end].encode())))
    for start, end in blanks:
        out[start:end] = re.sub(rb"[^\n]", b" ", bytes(out[start:end]))
    return out.decode(errors="replace")


def _constant(node: Node, result: Split) -> None:
    """`const int BLOCK = 256;` or `constexpr int BM = 64, BN = 64;` at namespace scope: the host
    wrapper may use them too."""
    type_node = node.child_by_field_name("type")
    if type_node is None:
        return
    qualifiers = node.text[:type_node.start_byte - node.start_byte].decode(errors="replace")
    base = text(type_node)
    if not re.search(r"\b(?:const|constexpr)\b", qualifiers) or "__" in qualifiers or \
            not re.fullmatch(r"int|unsigned(?: int)?|long(?: long)?|int64_t|int32_t|size_t|float|double|bool|auto|"
                             r"uint32_t|uint64_t", " ".join(base.split())):
        return
    for d in node.children_by_field_name("declarator"):
        value = d.child_by_field_name("value") if d.type == "init_declarator" else None
        name = d.child_by_field_name("declarator") if d.type == "init_declarator" else None
        if value is not None and name is not None and name.type == "identifier" and value.type not in (
                "initializer_list", "argument_list"):
            result.constants[text(name)] = (base, text(value), node.start_point[0] + 1)


_LAYOUT_CHANGES = re.compile(r"__align__|alignas|__attribute__|__declspec")


def _struct(node: Node, data: bytes, result: Split) -> None:
    """`struct P { float a; int n; };` or `typedef struct { ... } P;`: its fields in order, where each is one
    or more plain names of one type (the host may fill one and pass it to a kernel by value).  `data` is the
    source as written: the tree was parsed with attributes blanked, and one may change the layout."""
    spec = node if node.type == "struct_specifier" else node.child_by_field_name("type")
    body = spec.child_by_field_name("body")
    name = spec.child_by_field_name("name") if node is spec else node.child_by_field_name("declarator")
    if body is None or name is None or name.type != "type_identifier":
        return
    head = data[spec.start_byte:body.start_byte].decode(errors="replace")
    fields: list[tuple[str, str]] | None = [] if not _LAYOUT_CHANGES.search(head) else None
    for member in body.named_children if fields is not None else ():
        if member.type == "comment":
            continue
        type_node = member.child_by_field_name("type")
        declarators = member.children_by_field_name("declarator")
        if member.type != "field_declaration" or type_node is None or not declarators or \
                any(d.type != "field_identifier" for d in declarators) or \
                not re.fullmatch(r"(?:\w|\s|::)+(?:,\s*\w+)*\s*;", text(member)) or \
                re.search(r"\b(?:const|volatile|static|mutable)\b", text(member)):   # plain, writable, laid out
            fields = None
            break
        fields += [(text(d), " ".join(text(type_node).split())) for d in declarators]
    result.structs[text(name)] = tuple(fields) if fields else None


def _symbol(node: Node, result: Split) -> None:
    """`__constant__ float c_w[N];` or `__device__ int counter;` at namespace scope: a variable the host
    wrapper may fill with cudaMemcpyToSymbol (its dimensions kept as written, macros unexpanded)."""
    type_node = node.child_by_field_name("type")
    qualifiers = node.text[:type_node.start_byte - node.start_byte].decode(errors="replace") \
        if type_node is not None else ""
    if not re.search(r"\b(?:__constant__|__device__)\b", qualifiers):
        return
    for d in node.children_by_field_name("declarator"):
        dims = []
        while d is not None and d.type == "array_declarator":
            size = d.child_by_field_name("size")
            dims.insert(0, text(size) if size is not None else "")
            d = d.child_by_field_name("declarator")
        if d is not None and d.type == "identifier":
            result.symbols[text(d)] = (" ".join(text(type_node).split()), tuple(dims), node.start_point[0] + 1)


_MODULE = re.compile(r"PYBIND11_MODULE\s*\(\s*TORCH_EXTENSION_NAME\s*,\s*(\w+)\s*\)\s*\{")
_DEF = re.compile(r'^\s*(\w+)\s*\.\s*def\s*\(\s*"(\w+)"\s*,\s*&?\s*(\w+)\s*(?:,\s*"(?:[^"\\]|\\.)*"\s*)*\)\s*$', re.S)


def _bindings(source: str, label: str, result: Split) -> list[tuple[int, int]]:
    """PYBIND11_MODULE blocks made only of `m.def("name", &function, "doc")`: their bindings, and the
    character ranges to blank; anything else in such a block is a problem (a fallback)."""
    from ..gate_cuda import blank as blank_literals

    code = blank_literals(source)
    ranges = []
    for m in _MODULE.finditer(code):
        depth, end = 1, None
        for i in range(m.end(), len(code)):
            depth += (code[i] == "{") - (code[i] == "}")
            if depth == 0:
                end = i
                break
        line = source.count("\n", 0, m.start()) + 1
        if end is None:
            result.problems.append(f"unterminated PYBIND11_MODULE at line {line} ({label})")
            continue
        for statement in filter(str.strip, source[m.end():end].split(";")):
            d = _DEF.match(statement)
            if d is None or d.group(1) != m.group(1):
                result.problems.append(f"PYBIND11_MODULE statement {' '.join(statement.split())[:60]!r} "
                                       f"at line {line} ({label})")
                break
            result.bindings[d.group(2)] = d.group(3)
        ranges.append((m.start(), end + 1))
    return ranges
