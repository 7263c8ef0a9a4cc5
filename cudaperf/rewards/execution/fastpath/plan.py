"""Host wrappers -> call plans: a closed tree of nodes the interpreter (`interp`) knows, never Python
source.  Every identifier is resolved here (parameters, locals, the candidate's constants and macros,
a fixed table of torch/CUDA names); every call and method is checked against a fixed list.  Anything
else is a `Fallback` naming the construct and its line, and the caller uses the full build: a
translation that cannot say what the C++ does must not guess.

Macros are expanded in a host function's text before it is parsed (the analyzer's expander), except
those named like a construct of the subset (`TORCH_CHECK`, `AT_DISPATCH_*`, `dim3`...): redefining
one of those is a fallback, so a macro cannot change what a translated name means.
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass, field

from ....analysis.macros import _arguments
from ....analysis.parse import Node, parse, text
from . import split as splitting

# ---------------------------------------------------------------- plan nodes


@dataclass(frozen=True)
class Lit:
    value: object
    ctype: str


@dataclass(frozen=True)
class Name:
    name: str


@dataclass(frozen=True)
class Unary:
    op: str
    operand: object


@dataclass(frozen=True)
class Binary:
    op: str
    left: object
    right: object


@dataclass(frozen=True)
class Ternary:
    cond: object
    then: object
    other: object


@dataclass(frozen=True)
class Cast:
    ctype: str
    operand: object


@dataclass(frozen=True)
class Call:
    """A builtin from `BUILTINS` (allocation, options, math, CUDA runtime queries)."""
    fn: str
    args: tuple
    line: int


@dataclass(frozen=True)
class Method:
    """A method from `METHODS` on a tensor, options, sizes or stream value; `ctype` for data_ptr<T>."""
    obj: object
    name: str
    args: tuple
    ctype: str | None
    line: int


@dataclass(frozen=True)
class Helper:
    name: str
    args: tuple
    line: int


@dataclass(frozen=True)
class Field:
    """`.x`, `.y` or `.z` of a dim3, or a field of a struct local."""
    obj: object
    name: str


@dataclass(frozen=True)
class InitList:
    items: tuple
    ctype: str | None = None     # std::vector<T>{...} / std::make_tuple: "list" or "tuple"


@dataclass(frozen=True)
class Index:
    obj: object
    index: object
    line: int


@dataclass(frozen=True)
class Decl:
    name: str
    ctype: str
    init: object | None
    ctor: tuple | None      # dim3 g(a, b)
    line: int


@dataclass(frozen=True)
class Assign:
    name: str
    op: str
    value: object
    line: int


@dataclass(frozen=True)
class SetItem:
    """`sizes[i] = value` (or `op=`) on a local std::vector<int64_t>."""
    name: str
    index: object
    op: str
    value: object
    line: int


@dataclass(frozen=True)
class SetField:
    """`params.n = value` (or `op=`) on a struct local."""
    name: str
    field: str
    op: str
    value: object
    line: int


@dataclass(frozen=True)
class Eval:
    expr: object


@dataclass(frozen=True)
class If:
    cond: object
    then: tuple
    other: tuple


@dataclass(frozen=True)
class For:
    init: tuple
    cond: object | None
    update: tuple
    body: tuple
    line: int


@dataclass(frozen=True)
class Return:
    value: object | None


@dataclass(frozen=True)
class Check:
    cond: object
    message: tuple
    line: int


@dataclass(frozen=True)
class Throw:
    kind: str
    message: tuple
    line: int


@dataclass(frozen=True)
class Launch:
    kernel: str              # the NVRTC name expression: `k` or `k<float, 256>`
    grid: object
    block: object
    smem: object | None
    stream: object | None
    args: tuple
    codes: tuple             # parameter codes: p (pointer) or a driver scalar letter
    line: int


@dataclass(frozen=True)
class SetAttribute:
    kernel: str
    value: object
    line: int


@dataclass(frozen=True)
class Dispatch:
    selector: object
    name: str
    cases: tuple             # ((dtype name, body), ...)
    line: int


@dataclass(frozen=True)
class Function:
    name: str
    params: tuple            # ((name, ctype), ...)
    returns: str
    body: tuple
    line: int


@dataclass
class Translation:
    """Everything one load_inline call needs on the fast path."""
    device_source: str
    name_expressions: list[str]
    functions: dict[str, Function]             # the exported ones (functions=)
    helpers: dict[str, Function]
    constants: dict[str, object]               # name -> expression node
    kernels: dict[str, splitting.Kernel]
    nvrtc_options: list[str] = field(default_factory=list)
    # device variables the wrappers copy into (cudaMemcpyToSymbol) -> their bytes (None: not known statically)
    symbols: dict[str, int | None] = field(default_factory=dict)
    # structs the wrappers fill and pass by value -> ((field, STRUCT_FIELDS key), ...)
    structs: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)

    def device_names(self) -> list[str]:
        """The name expressions NVRTC lowers: the kernels launched, then `&symbol` for each variable copied into."""
        return self.name_expressions + [f"&{name}" for name in self.symbols]


class Fallback(Exception):
    """The construct outside the subset, with its line: the full build must run."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


# ---------------------------------------------------------------- the closed vocabularies

INT_TYPES = {"int": "int", "int32_t": "int", "signed": "int", "signed int": "int", "short": "int",
             "unsigned": "unsigned", "unsigned int": "unsigned", "uint32_t": "unsigned",
             "long": "long", "long int": "long", "long long": "long", "long long int": "long", "int64_t": "long",
             "ssize_t": "long", "ptrdiff_t": "long", "size_t": "unsigned long", "uint64_t": "unsigned long",
             "unsigned long": "unsigned long", "unsigned long long": "unsigned long",
             "unsigned long int": "unsigned long", "uintptr_t": "unsigned long", "intptr_t": "long",
             "bool": "bool", "float": "float", "double": "double", "char": "int"}
INT_TYPES |= {f"std::{t}": c for t, c in INT_TYPES.items() if t.endswith("_t")}    # <cstdint>'s, qualified
# element types a data_ptr<T> exists for in torch, by dtype
DATA_TYPES = {"float": "float32", "double": "float64", "at::Half": "float16", "c10::Half": "float16",
              "torch::Half": "float16", "at::BFloat16": "bfloat16", "c10::BFloat16": "bfloat16",
              "torch::BFloat16": "bfloat16", "int": "int32", "int32_t": "int32", "int64_t": "int64", "long": "int64",
              "int8_t": "int8", "uint8_t": "uint8", "int16_t": "int16", "short": "int16", "bool": "bool",
              "signed char": "int8", "unsigned char": "uint8"}
# pointee sizes for pointer arithmetic and casts
ELEMENT_SIZES = {"float": 4, "double": 8, "half": 2, "__half": 2, "at::Half": 2, "c10::Half": 2, "__nv_bfloat16": 2,
                 "at::BFloat16": 2, "c10::BFloat16": 2, "int": 4, "int32_t": 4, "unsigned": 4, "unsigned int": 4,
                 "uint32_t": 4, "int64_t": 8, "long": 8, "uint64_t": 8, "long long": 8, "size_t": 8, "int8_t": 1,
                 "uint8_t": 1, "char": 1, "unsigned char": 1, "signed char": 1, "bool": 1, "int16_t": 2, "short": 2,
                 "half2": 4, "__half2": 4, "__nv_bfloat162": 4, "void": 1, "unsigned long long": 8,
                 "unsigned long": 8, "unsigned short": 2, "uint16_t": 2,
                 # CUDA's vector types (char1 ... double4): n components, no padding
                 **{f"{base}{n}": size * n for base, size in (("char", 1), ("uchar", 1), ("short", 2), ("ushort", 2),
                                                              ("int", 4), ("uint", 4), ("long", 8), ("ulong", 8),
                                                              ("longlong", 8), ("ulonglong", 8), ("float", 4),
                                                              ("double", 8))
                    for n in (1, 2, 3, 4)}}
SCALAR_DTYPES = {"kFloat": "float32", "kFloat32": "float32", "kDouble": "float64", "kFloat64": "float64",
                 "kHalf": "float16", "kFloat16": "float16", "kBFloat16": "bfloat16", "kInt": "int32",
                 "kInt32": "int32", "kLong": "int64", "kInt64": "int64", "kInt8": "int8", "kChar": "int8",
                 "kUInt8": "uint8", "kByte": "uint8", "kInt16": "int16", "kShort": "int16", "kBool": "bool"}
# c10::MemoryFormat's values, as torch names them in Python
MEMORY_FORMATS = {"Contiguous": "contiguous_format", "ChannelsLast": "channels_last",
                  "ChannelsLast3d": "channels_last_3d", "Preserve": "preserve_format"}
DISPATCH = {"AT_DISPATCH_FLOATING_TYPES": ("float32", "float64"),
            "AT_DISPATCH_FLOATING_TYPES_AND_HALF": ("float32", "float64", "float16")}
DTYPE_CTYPE = {"float32": "float", "float64": "double", "float16": "at::Half", "bfloat16": "at::BFloat16",
               "int32": "int", "int64": "int64_t", "int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t",
               "bool": "bool"}
# the field types a struct passed by value may hold: (plan ctype, `struct` format letter; native alignment
# is the C ABI's, on the host and on the GPU)
STRUCT_FIELDS = {**{t: ("int", "i") for t in ("int", "int32_t", "signed", "signed int")},
                 **{t: ("unsigned", "I") for t in ("unsigned", "unsigned int", "uint32_t")},
                 **{t: ("long", "q") for t in ("long", "long int", "long long", "long long int", "int64_t")},
                 **{t: ("unsigned long", "Q") for t in ("unsigned long", "unsigned long long", "uint64_t", "size_t")},
                 "float": ("float", "f"), "double": ("double", "d"), "bool": ("bool", "?")}
STRUCT_FIELDS |= {f"std::{t}": v for t, v in STRUCT_FIELDS.items() if t.endswith("_t")}   # <cstdint>'s, qualified
KERNEL_CODES = {"int": "i", "unsigned": "I", "long": "q", "unsigned long": "Q", "float": "f", "double": "d",
                "bool": "b"}
CUDA_CONSTANTS = {"cudaSuccess": Lit(0, "error"),
                  "cudaFuncAttributeMaxDynamicSharedMemorySize": Lit("max_dynamic_smem", "attribute"),
                  "nullptr": Lit(None, "pointer"), "NULL": Lit(None, "pointer"),
                  "stderr": Lit("stderr", "file"), "stdout": Lit("stdout", "file"),
                  # <climits>, as split.PRELUDE gives them to the device code
                  "INT_MAX": Lit(2**31 - 1, "int"), "INT_MIN": Lit(-2**31, "int"),
                  "UINT_MAX": Lit(2**32 - 1, "unsigned"), "LLONG_MAX": Lit(2**63 - 1, "long"),
                  # <cstdint>'s
                  "INT32_MAX": Lit(2**31 - 1, "int"), "INT32_MIN": Lit(-2**31, "int"),
                  "UINT32_MAX": Lit(2**32 - 1, "unsigned"), "INT64_MAX": Lit(2**63 - 1, "long"),
                  "INT64_MIN": Lit(-2**63, "long"),
                  # cudaMemcpyKind
                  **{kind: Lit(value, "int") for value, kind in enumerate(
                      ("cudaMemcpyHostToHost", "cudaMemcpyHostToDevice", "cudaMemcpyDeviceToHost",
                       "cudaMemcpyDeviceToDevice", "cudaMemcpyDefault"))},
                  # <cmath>'s
                  "NAN": Lit(math.nan, "float"), "INFINITY": Lit(math.inf, "float")}
# cudaDeviceGetAttribute's attributes and the cudaDeviceProp fields they read (the interpreter's
# `device_property`: what torch reports of the GPU; while traced, costmodel.cudashim's stated H200)
DEVICE_ATTRIBUTES = {"cudaDevAttrMultiProcessorCount": "multiProcessorCount",
                     "cudaDevAttrMaxThreadsPerBlock": "maxThreadsPerBlock",
                     "cudaDevAttrMaxThreadsPerMultiProcessor": "maxThreadsPerMultiProcessor",
                     "cudaDevAttrMaxSharedMemoryPerBlock": "sharedMemPerBlock",
                     "cudaDevAttrMaxSharedMemoryPerBlockOptin": "sharedMemPerBlockOptin",
                     "cudaDevAttrMaxSharedMemoryPerMultiprocessor": "sharedMemPerMultiprocessor",
                     "cudaDevAttrWarpSize": "warpSize"}
BUILTINS = {"dim3", "empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like", "full_like",
            "TensorOptions",
            "dtype", "device", "Device", "min", "max", "ceil", "floor", "sqrt", "abs", "pow", "exp", "log",
            "current_stream",
            "cudaGetLastError", "cudaPeekAtLastError", "cudaGetErrorString", "cudaDeviceSynchronize",
            "launch_check", "printf", "fprintf", "make_tuple", "ceil_div", "device_property", "memset", "occupancy",
            "copy_to_symbol"}
METHODS = {"size", "sizes", "numel", "stride", "strides", "dim", "ndimension", "contiguous", "data_ptr", "options",
           "dtype", "scalar_type", "is_cuda", "is_contiguous", "device", "view", "reshape", "element_size",
           "zero_", "fill_", "vec", "stream",
           "transpose", "t", "permute", "is_cpu", "index", "unsqueeze", "squeeze", "is_floating_point",
           "get_device", "layout", "requires_grad", "push_back", "pop_back", "clone", "to", "sum", "mean"}
_TORCH_FUNCS = {"empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like", "full_like",
                "TensorOptions", "dtype", "device", "Device"}
RESERVED = {"TORCH_CHECK", "AT_ASSERTM", "AT_ASSERT", "TORCH_INTERNAL_ASSERT", "C10_CUDA_KERNEL_LAUNCH_CHECK",
            "C10_CUDA_CHECK", "AT_CUDA_CHECK", "dim3", "torch", "at", "c10", "std", "cudaGetLastError", "cudaStream_t",
            "cudaFuncSetAttribute", "return", "if", "for", "while", "int", "float", "double", "auto", "const",
            "cudaDeviceSynchronize", "printf", "sizeof", "true", "false", "nullptr", "void", "Tensor",
            "cudaSuccess", "cudaError_t", "scalar_t", "static_cast", "reinterpret_cast", *DISPATCH,
            "AT_DISPATCH_FLOATING_TYPES_AND", "AT_DISPATCH_FLOATING_TYPES_AND2"}

MAX_HELPER_DEPTH = 8
MAX_EXPANSION = 200_000

_TOKENS = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?\*/|[A-Za-z_]\w*|\S', re.S)


def expand(text_: str, macros: dict, hidden: frozenset = frozenset(), depth: int = 0) -> str:
    """The C preprocessor's macro replacement on one host function (strings and comments untouched,
    `#x` stringified, `##` pasted, results rescanned with the macro hidden); Fallback when it runs away."""
    if depth > 32:
        raise Fallback("macro expansion nested more than 32 deep")
    out, pos = [], 0
    for m in _TOKENS.finditer(text_):
        if m.start() < pos:
            continue
        name = m.group(0)
        macro = macros.get(name)
        if macro is None or name in hidden:
            continue
        end = m.end()
        if macro.params is None:
            body = macro.body
        else:
            paren = end
            while paren < len(text_) and text_[paren] in " \t\r\n":
                paren += 1
            if paren >= len(text_) or text_[paren] != "(":
                continue
            parsed = _arguments(text_, paren)
            if parsed is None:
                raise Fallback(f"unbalanced arguments of macro {name}")
            args, end = parsed
            params = list(macro.params)
            if len(args) == 1 and args[0] == "" and not params:
                args = []
            mapping = dict(zip(params, args))
            if params and params[-1] == "...":
                mapping["__VA_ARGS__"] = ", ".join(args[len(params) - 1:])
            elif len(args) != len(params):
                raise Fallback(f"macro {name} called with {len(args)} arguments for {len(params)}")
            body = re.sub(r"(?<![#\w])#\s*([A-Za-z_]\w*)",
                          lambda t, mapping=mapping: '"' + mapping[t.group(1)].replace('"', '\\"') + '"'
                          if t.group(1) in mapping else t.group(0), macro.body)
            body = _TOKENS.sub(lambda t, mapping=mapping: expand(mapping[t.group(0)], macros, hidden, depth + 1)
                               if t.group(0) in mapping else t.group(0), body)
            body = re.sub(r"\s*##\s*", "", body)
        out.append(text_[pos:m.start()])
        out.append(" " + expand(body, macros, hidden | {name}, depth + 1) + " ")
        pos = end
        if sum(map(len, out)) > MAX_EXPANSION:
            raise Fallback(f"macro {name} expands past {MAX_EXPANSION} characters")
    out.append(text_[pos:])
    return "".join(out)


def normalise_type(raw: str, types: dict[str, str] | None = None) -> str | None:
    """A C++ type as the plan's ctype; None when outside the subset."""
    t = re.sub(r"\b(?:const|volatile|__restrict__|__restrict|restrict|struct|typename|inline|static|constexpr)\b",
               " ", raw)
    t = " ".join(t.replace("&", " ").split())
    pointer = t.count("*")
    t = t.replace("*", "").strip()
    if types and t in types:
        t = types[t]
    if pointer:
        return f"pointer:{t}" if pointer == 1 else None
    if t in INT_TYPES:
        return INT_TYPES[t]
    if re.fullmatch(r"(?:torch|at)::Tensor|Tensor", t):
        return "tensor"
    if t == "dim3":
        return "dim3"
    if t == "auto":
        return "auto"
    if t in ("cudaStream_t", "at::cuda::CUDAStream", "c10::cuda::CUDAStream"):
        return "stream"
    if t == "cudaError_t":
        return "error"
    if re.fullmatch(r"(?:torch|at|c10)::(?:TensorOptions)", t):
        return "options"
    if re.fullmatch(r"(?:torch|at|c10)::(?:ScalarType|Dtype)", t):
        return "dtype"
    if re.fullmatch(r"(?:torch|at|c10)::Device", t):
        return "device"
    if re.fullmatch(r"std::vector<\s*(?:int64_t|long|int|size_t)\s*>|(?:torch|at|c10)::IntArrayRef", t):
        return "sizes"
    if re.fullmatch(r"std::vector<\s*(?:torch|at)::Tensor\s*>", t):
        return "list"
    if re.fullmatch(r"std::tuple<[\w:,\s]*>", t) and "Tensor" in t:
        return "tuple"
    if t == "void":
        return "void"
    if t in ("std::string", "const char", "char"):
        return "str"
    return None


# ---------------------------------------------------------------- translation

_GUARDS = re.compile(r"^(?:(?:at|c10)::cuda::)?(?:CUDAGuard|OptionalCUDAGuard|DeviceGuard|OptionalDeviceGuard)$|"
                     r"^(?:at|c10|torch)::(?:DeviceGuard|OptionalDeviceGuard)$|^(?:at|c10)::cuda::(?:Optional)?CUDAGuard$")


def _type_in_parentheses(value: Node | None) -> Node | None:
    """`sizeof(float4)`: the grammar knows no CUDA type names, so it reads a parenthesised identifier; the
    identifier, which `sizeof` then takes as a type name (a variable's name is not one, and fails there)."""
    inner = value.named_children if value is not None and value.type == "parenthesized_expression" else []
    return inner[0] if len(inner) == 1 and inner[0].type in ("identifier", "qualified_identifier") else None


_KERNEL_TYPE = "cudaperf_kernel_t"   # a deduced template parameter that only types a kernel parameter


def _line(node: Node, base: int) -> int:
    return base + node.start_point[0]


class _Translator:
    def __init__(self, sp: splitting.Split, extra_macros: dict):
        self.sp = sp
        self.macros = {**sp.macros, **extra_macros}
        self.helpers: dict[str, Function] = {}
        self.in_progress: set[str] = set()
        self.name_expressions: list[str] = []
        self.constants: dict[str, object] = {}
        self.symbols: dict[str, int | None] = {}
        self.structs: dict[str, tuple[tuple[str, str], ...]] = {}
        clash = sorted(set(self.macros) & (RESERVED | set(sp.kernels)))
        self.clash = clash

    # -- functions --
    def function(self, name: str, depth: int = 0, targs: tuple[str, ...] = (),
                 kernels: tuple[tuple[int, str], ...] = ()) -> Function:
        """A host function translated once, by name; a templated one once per instantiation (`targs`, the
        explicit template arguments as `template_argument` gives them), keyed `name<args>`; one given kernels
        (`kernels`: parameter position, name expression) once per set of them, those parameters standing
        for their kernel (a template parameter that is only a kernel parameter's type is deduced so)."""
        key = f"{name}<{','.join(targs)}>" if targs else name
        key += f"[{','.join(f'{i}={e}' for i, e in kernels)}]" if kernels else ""
        if key in self.helpers:
            return self.helpers[key]
        host = self.sp.host.get(name)
        if host is None:
            raise Fallback(f"no host definition of {name} in the sources")
        if key in self.in_progress or depth > MAX_HELPER_DEPTH:
            raise Fallback(f"recursive host function {name} at line {host.line}")
        if name in self.sp.overloaded:
            raise Fallback(f"overloaded host function {name} at line {host.line}")
        if host.template != bool(targs) and not (host.template and kernels):
            raise Fallback(f"templated host function {name} at line {host.line} called without its template "
                           "arguments" if host.template else f"call of {key}, not a template")
        if self.clash:
            raise Fallback(f"macro {self.clash[0]} redefines a name the translation interprets")
        self.in_progress.add(key)
        try:
            node, line = self._definition(host, targs, dict(kernels))
            fn = _FunctionTranslator(self, line, depth).definition(node, key, dict(kernels))
        finally:
            self.in_progress.discard(key)
        self.helpers[key] = fn
        return fn

    def _definition(self, host: splitting.HostFunction, targs: tuple[str, ...],
                    kernels: dict[int, str]) -> tuple[Node, int]:
        """The function definition of `host` after macro expansion, and the line it starts on; a template's
        without its `template <...>` header and with its parameters replaced by `targs` (as the
        preprocessor replaces object-like macros: whole tokens, strings and comments untouched), or, called
        without them, by a placeholder where each is the type of a parameter given a kernel."""
        from ....analysis.source import Macro

        source, line, macros = host.text, host.line, self.macros
        if host.template:
            header = next((c for c in parse(host.text.encode()).root_node.named_children
                           if c.type == "template_declaration"), None)
            inner = next((c for c in header.named_children if c.type == "function_definition"), None) \
                if header is not None else None
            names = splitting.template_names(header) if inner is not None else ()
            if not targs:
                params = inner.child_by_field_name("declarator").child_by_field_name("parameters").named_children \
                    if inner is not None else []
                deduced = {text(params[i].child_by_field_name("type")) for i in kernels if i < len(params)}
                if not names or not set(names) <= deduced:
                    raise Fallback(f"templated host function {host.name} at line {host.line} called without its "
                                   "template arguments")
                targs = tuple(_KERNEL_TYPE for _ in names)
            if len(names) != len(targs) or not all(names):
                raise Fallback(f"templated host function {host.name} at line {host.line} called with "
                               f"{len(targs)} template arguments for {len(names)} parameters")
            source = host.text.encode()[inner.start_byte:inner.end_byte].decode()
            line += inner.start_point[0]
            macros = {**macros, **{n: Macro(n, None, v, 0) for n, v in zip(names, targs)}}
        expanded = expand(source, macros) if macros else source
        root = parse(expanded.encode()).root_node
        node = next((c for c in root.named_children if c.type == "function_definition"), None)
        if node is None or root.has_error:
            raise Fallback(f"host function {host.name} at line {host.line} does not parse after macro expansion")
        return node, line

    def constant(self, name: str) -> object | None:
        if name in self.constants:
            return self.constants[name]
        entry = self.sp.constants.get(name)
        if entry is None:
            return None
        ctype, init, line = entry
        tree = parse(f"void f() {{ auto x = {init}; }}".encode())
        decl = tree.root_node.named_children[0].child_by_field_name("body").named_children[0]
        value = decl.child_by_field_name("declarator").child_by_field_name("value")
        expr = _FunctionTranslator(self, line, 0).expr(value)
        norm = INT_TYPES.get(" ".join(ctype.split()), "auto")
        node = Cast(norm, expr) if norm != "auto" else expr
        self.constants[name] = node
        return node

    def struct(self, raw: str) -> str | None:
        """`struct:Name` for a struct of the sources whose fields are all plain scalars (STRUCT_FIELDS), else None."""
        name = " ".join(re.sub(r"\b(?:const|struct)\b", " ", raw).split())
        fields = self.sp.structs.get(name)
        if not fields or any(t not in STRUCT_FIELDS for _, t in fields):
            return None
        self.structs[name] = fields
        return f"struct:{name}"

    def symbol(self, name: str, reader: _FunctionTranslator) -> Lit:
        """A `__constant__`/`__device__` variable a wrapper copies into, and its size in bytes where its
        element type and dimensions are constants here (NVRTC's module says so on the GPU in any case)."""
        if name not in self.symbols:
            ctype, dims, _ = self.sp.symbols[name]
            size = ELEMENT_SIZES.get(ctype)
            for dim in dims:
                try:
                    tree = parse(f"int x = {expand(dim, self.macros)};".encode()).root_node.named_children[0]
                    value = tree.child_by_field_name("declarator").child_by_field_name("value")
                    size = size * reader.const_int(value) if size is not None and value is not None else None
                except Fallback:
                    size = None
            self.symbols[name] = size
        return Lit(name, "symbol")


class _FunctionTranslator:
    def __init__(self, tr: _Translator, base: int, depth: int):
        self.tr, self.base, self.depth = tr, base, depth
        self.scopes: list[dict[str, str]] = [{}]
        self.types: dict[str, str] = {}      # scalar_t inside a dispatch case
        self.consts: dict[str, int] = {}     # const/constexpr integer locals with constant initialisers

    def fail(self, what: str, node: Node) -> Fallback:
        return Fallback(f"{what} at line {_line(node, self.base)}")

    # -- scopes --
    def declare(self, name: str, ctype: str, node: Node) -> None:
        if name in self.tr.sp.kernels or name in RESERVED:
            raise self.fail(f"local {name} shadows a kernel or a translated name", node)
        self.scopes[-1][name] = ctype

    def lookup(self, name: str) -> str | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def block(self, node: Node) -> tuple:
        self.scopes.append({})
        try:
            if node.type == "compound_statement":
                return tuple(s for c in node.named_children if c.type != "comment" for s in self.statement(c))
            return tuple(self.statement(node))
        finally:
            self.scopes.pop()

    def definition(self, node: Node, name: str, kernels: dict[int, str] | None = None) -> Function:
        specifiers = splitting._specifiers(node)
        if re.search(r"\bextern\b", specifiers):
            raise self.fail(f"host function {name} declared extern", node)
        returns = normalise_type(re.sub(r"\b(?:static|inline|__host__|__forceinline__|__inline__)\b", "",
                                        specifiers))
        if returns is None:
            raise self.fail(f"return type {specifiers.strip()!r} of {name}", node)
        declarator = node.child_by_field_name("declarator")
        params = []
        for i, p in enumerate(declarator.child_by_field_name("parameters").named_children):
            if p.type != "parameter_declaration":
                raise self.fail(f"parameter {text(p)!r} of {name}", p)
            d = p.child_by_field_name("declarator")
            if kernels and i in kernels and d is not None and d.type == "identifier":
                self.declare(text(d), f"kernel:{kernels[i]}", p)     # stands for the kernel it was given
                continue
            raw = text(p.child_by_field_name("type"))
            stars = ""
            while d is not None and d.type in ("pointer_declarator", "reference_declarator"):
                if d.type == "pointer_declarator":
                    stars += "*"
                elif "const" not in text(p) and "Tensor" not in raw:
                    raise self.fail(f"reference parameter {text(p)!r} of {name}", p)
                d = d.named_children[-1] if d.named_children else None
            ctype = normalise_type(raw + stars) or (self.tr.struct(raw) if not stars else None)
            if ctype is None or ctype in ("auto", "void") or d is None:
                raise self.fail(f"parameter type {text(p)!r} of {name}", p)
            params.append((text(d), ctype))
            self.declare(text(d), ctype, p)
        body = self.block(node.child_by_field_name("body"))
        return Function(name, tuple(params), returns, body, self.base)

    # -- statements --
    def statement(self, node: Node) -> list:
        kind = node.type
        if kind == "comment":
            return []
        if kind == "compound_statement":
            return [If(Lit(1, "int"), self.block(node), ())]
        if kind == "declaration":
            return self.declaration(node)
        if kind == "expression_statement":
            if not node.named_children:
                return []
            return self.expression_statement(node.named_children[0])
        if kind == "if_statement":
            cond = self.condition(node.child_by_field_name("condition"))
            then = self.block(node.child_by_field_name("consequence"))
            alt = node.child_by_field_name("alternative")
            other = ()
            if alt is not None:
                inner = alt.named_children[0] if alt.type == "else_clause" else alt
                other = self.block(inner)
            return [If(cond, then, other)]
        if kind == "for_statement":
            self.scopes.append({})
            try:
                init_node = node.child_by_field_name("initializer")
                init = tuple(self.statement(init_node) if init_node is not None and init_node.type == "declaration"
                             else self.expression_statement(init_node) if init_node is not None else [])
                cond_node = node.child_by_field_name("condition")
                cond = self.expr(cond_node) if cond_node is not None else None
                upd = node.child_by_field_name("update")
                update = tuple(self.expression_statement(upd)) if upd is not None else ()
                body = self.block(node.child_by_field_name("body"))
            finally:
                self.scopes.pop()
            return [For(init, cond, update, body, _line(node, self.base))]
        if kind == "switch_statement":
            return self.switch(node)
        if kind == "while_statement":
            cond = self.condition(node.child_by_field_name("condition"))
            return [For((), cond, (), self.block(node.child_by_field_name("body")), _line(node, self.base))]
        if kind == "return_statement":
            value = node.named_children[0] if node.named_children else None
            return [Return(self.expr(value) if value is not None else None)]
        if kind == "throw_statement":
            call = node.named_children[0] if node.named_children else None
            if call is not None and call.type == "call_expression" and re.fullmatch(
                    r"std::(?:runtime_error|invalid_argument|out_of_range|logic_error)",
                    text(call.child_by_field_name("function"))):
                kind_name = text(call.child_by_field_name("function")).split("::")[-1]
                args = tuple(self.expr(a) for a in call.child_by_field_name("arguments").named_children)
                return [Throw(kind_name, args, _line(node, self.base))]
            raise self.fail("throw of something other than a std exception", node)
        raise self.fail(f"{kind.replace('_', ' ')}", node)

    def switch(self, node: Node) -> list:
        """`switch (v) { case A: ... break; case B: case C: ... break; default: ... }`, the way wrappers pick a
        template instantiation: an if-else chain on v, read once into a local of its own.  Every case but
        the last ends in `break`, `return` or `throw` (an empty case joins the next one's labels); a case
        that falls through, or a `break` anywhere else, is a fallback."""
        line = _line(node, self.base)
        selector = f"switch@{line}"         # no C++ name has an `@`
        arms: list[tuple[object | None, tuple]] = []     # (condition, body); None: the default
        labels: list[object] = []
        default = False
        cases = [c for c in node.child_by_field_name("body").named_children if c.type != "comment"]
        for i, case in enumerate(cases):
            if case.type != "case_statement":
                raise self.fail(f"{case.type.replace('_', ' ')} in a switch", case)
            label = case.child_by_field_name("value")
            if label is None:
                default = True
            else:
                labels.append(Binary("==", Name(selector), self.expr(label)))
            body = [c for c in case.named_children if c.type != "comment" and
                    (label is None or c.start_byte != label.start_byte)]
            if not body and i < len(cases) - 1:
                continue
            if body and body[-1].type == "break_statement":
                body.pop()
            elif i < len(cases) - 1 and (not body or body[-1].type not in ("return_statement", "throw_statement")):
                raise self.fail("switch case that falls through", case)
            self.scopes.append({})
            try:
                translated = tuple(s for c in body for s in self.statement(c))
            finally:
                self.scopes.pop()
            test = None if default else labels[0]
            for more in labels[1:] if not default else ():
                test = Binary("||", test, more)
            arms.append((test, translated))
            labels, default = [], False
        chain: tuple = next((body for test, body in arms if test is None), ())
        for test, body in reversed([arm for arm in arms if arm[0] is not None]):
            chain = (If(test, body, chain),)
        value = self.condition(node.child_by_field_name("condition"))
        return [If(Lit(1, "int"), (Decl(selector, "auto", value, None, line), *chain), ())]

    def condition(self, node: Node) -> object:
        inner = [c for c in node.named_children if c.type != "comment"]
        if len(inner) != 1 or inner[0].type == "declaration":
            raise self.fail("declaration in a condition", node)
        return self.expr(inner[0])

    def declaration(self, node: Node) -> list:
        type_node = node.child_by_field_name("type")
        raw = text(type_node)
        if _GUARDS.match(" ".join(raw.split())):
            return []    # one GPU per worker: a device guard changes nothing
        prefix = " ".join(text(c) for c in node.children if c.type in ("type_qualifier", "storage_class_specifier"))
        prefix += " " + node.text[:type_node.start_byte - node.start_byte].decode(errors="replace")
        if "static" in prefix:
            raise self.fail("static local variable", node)
        out = []
        for d in node.children_by_field_name("declarator"):
            stars, target = "", d
            init, ctor = None, None
            if d.type == "init_declarator":
                target = d.child_by_field_name("declarator")
                value = d.child_by_field_name("value")
                alias = self.kernel_value(value) if value is not None and raw.strip() == "auto" and \
                    target.type == "identifier" else None
                if alias is not None:          # `auto k = kern<6>;`: a name for the kernel, nothing to run
                    self.declare(text(target), f"kernel:{alias}", d)
                    continue
                copied = self.iterator_range(value) if value is not None and value.type == "argument_list" else None
                if copied is not None:       # `std::vector<int64_t> shape(x.sizes().begin(), x.sizes().end())`
                    init = Method(self.expr(copied), "vec", (), None, _line(d, self.base))
                elif value is not None and value.type == "argument_list":
                    ctor = tuple(self.expr(a) for a in value.named_children)
                elif value is not None and value.type == "initializer_list":
                    init = InitList(tuple(self.expr(a) for a in value.named_children))
                elif value is not None:
                    init = self.expr(value)
            while target is not None and target.type in ("pointer_declarator", "reference_declarator"):
                stars += "*" if target.type == "pointer_declarator" else ""
                target = target.named_children[-1] if target.named_children else None
            if target is not None and target.type == "function_declarator" and d.type == "function_declarator" \
                    and re.fullmatch(r"dim3", raw.strip()):
                ctor = self.reparse_arguments(target.child_by_field_name("parameters"))
                target = target.child_by_field_name("declarator")
            if target is None or target.type != "identifier":
                raise self.fail(f"declarator {text(d)!r}", d)
            ctype = normalise_type(raw + stars, self.types) or (self.tr.struct(raw) if not stars else None)
            if ctype is None or ctype == "void":
                raise self.fail(f"local of type {raw + stars!r}", node)
            if ctype == "auto" and init is None:
                raise self.fail("auto without initialiser", node)
            self.declare(text(target), ctype, d)
            value_node = d.child_by_field_name("value") if d.type == "init_declarator" else None
            if "const" in prefix and value_node is not None and ctype in INT_TYPES.values():
                try:
                    self.consts[text(target)] = self.const_int(value_node)
                except Fallback:
                    self.consts.pop(text(target), None)
            out.append(Decl(text(target), ctype, init, ctor, _line(d, self.base)))
        return out

    @staticmethod
    def iterator_range(arguments: Node) -> Node | None:
        """The container of a `(c.begin(), c.end())` argument pair (one spelling both times), else None."""
        items = arguments.named_children
        if len(items) != 2:
            return None
        ends = []
        for item, name in zip(items, ("begin", "end")):
            fn = item.child_by_field_name("function") if item.type == "call_expression" else None
            if fn is None or fn.type != "field_expression" or text(fn.child_by_field_name("field")) != name or \
                    item.child_by_field_name("arguments").named_children:
                return None
            ends.append(fn.child_by_field_name("argument"))
        return ends[0] if " ".join(text(ends[0]).split()) == " ".join(text(ends[1]).split()) else None

    def reparse_arguments(self, params: Node) -> tuple:
        """`dim3 block(TILE, TILE)` parses as a function declaration when TILE reads as a type: the
        parameter list read again as the constructor's arguments."""
        inner = text(params)
        tree = parse(f"void f() {{ g{inner}; }}".encode())
        call = tree.root_node.named_children[0].child_by_field_name("body").named_children[0].named_children[0]
        if tree.root_node.has_error or call.type != "call_expression":
            raise self.fail(f"declarator {inner!r}", params)
        return tuple(self.expr(a) for a in call.child_by_field_name("arguments").named_children)

    def expression_statement(self, node: Node) -> list:
        if node.type == "comma_expression":
            return [s for c in node.named_children for s in self.expression_statement(c)]
        if node.type == "assignment_expression":
            left = node.child_by_field_name("left")
            op = text(node.child_by_field_name("operator")) or node.children[1].type
            target = left.child_by_field_name("argument") if left.type == "subscript_expression" else None
            end = left.child_by_field_name("function") if left.type == "call_expression" else None
            if end is not None and end.type == "field_expression" and \
                    text(end.child_by_field_name("field")) in ("back", "front") and \
                    not left.child_by_field_name("arguments").named_children:
                target = end.child_by_field_name("argument")     # `sizes.back() = 1`
            if target is not None and target.type == "identifier" and self.lookup(text(target)) in ("sizes", "auto"):
                index = self.expr(left).index
                return [SetItem(text(target), index, op, self.expr(node.child_by_field_name("right")),
                                _line(node, self.base))]
            if left.type == "field_expression":
                name, member = self.struct_field(left)
                value = self.expr(node.child_by_field_name("right"))
                return [SetField(name, member, op, value, _line(node, self.base))]
            if left.type != "identifier" or self.lookup(text(left)) is None or \
                    self.lookup(text(left)).startswith("kernel:"):
                raise self.fail(f"assignment to {text(left)!r}", node)
            return [Assign(text(left), op, self.expr(node.child_by_field_name("right")), _line(node, self.base))]
        if node.type == "update_expression":
            arg = node.child_by_field_name("argument")
            if arg.type != "identifier" or self.lookup(text(arg)) is None:
                raise self.fail(f"increment of {text(arg)!r}", node)
            op = "+=" if "++" in text(node) else "-="
            return [Assign(text(arg), op, Lit(1, "int"), _line(node, self.base))]
        if node.type == "call_expression":
            return self.call_statement(node)
        raise self.fail(f"expression statement {node.type.replace('_', ' ')}", node)

    def struct_field(self, node: Node) -> tuple[str, str]:
        """(local, field) of `local.field` where the local is a struct of the sources, else a fallback."""
        obj, member = node.child_by_field_name("argument"), text(node.child_by_field_name("field"))
        ctype = self.lookup(text(obj)) if obj.type == "identifier" else None
        if text(node.child_by_field_name("operator")) != "." or ctype is None or not ctype.startswith("struct:") or \
                member not in dict(self.tr.structs[ctype[7:]]):
            raise self.fail(f"field {text(node)!r}", node)
        return text(obj), member

    def call_statement(self, node: Node) -> list:
        fn = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        name = " ".join(text(fn).split())
        line = _line(node, self.base)
        config = next((c for c in node.children if c.type == "kernel_call_syntax"), None)
        if config is not None:
            return [self.launch(fn, config, args, line)]
        if name in ("TORCH_CHECK", "AT_ASSERTM", "AT_ASSERT", "TORCH_INTERNAL_ASSERT"):
            items = args.named_children
            if not items:
                raise self.fail(f"{name} without a condition", node)
            return [Check(self.expr(items[0]), tuple(self.expr(a) for a in items[1:]), line)]
        if name in DISPATCH or name in ("AT_DISPATCH_FLOATING_TYPES_AND", "AT_DISPATCH_FLOATING_TYPES_AND2"):
            return [self.dispatch(name, args, line)]
        if name in ("C10_CUDA_KERNEL_LAUNCH_CHECK", "C10_CUDA_CHECK", "AT_CUDA_CHECK"):
            inner = tuple(self.expr(a) for a in args.named_children)
            return [Eval(Call("launch_check", inner, line))]
        if name in ("cudaDeviceGetAttribute", "cudaGetDevice"):
            items = args.named_children
            local = self.out_local(items, name, node)
            if name == "cudaGetDevice":
                return [Assign(local, "=", Lit(0, "int"), line)]     # one GPU per worker: device 0
            attr = " ".join(text(items[1]).split()) if len(items) == 3 else ""
            if attr not in DEVICE_ATTRIBUTES:
                raise self.fail(f"cudaDeviceGetAttribute({attr})", node)
            return [Assign(local, "=", Call("device_property", (Lit(DEVICE_ATTRIBUTES[attr], "str"),), line), line)]
        if name == "cudaOccupancyMaxActiveBlocksPerMultiprocessor":
            items = args.named_children
            local = self.out_local(items, name, node)
            if len(items) != 4:
                raise self.fail(f"{name} with {len(items)} arguments", node)
            query = Call("occupancy", (Lit(self.kernel_ref(items[1]), "str"), self.expr(items[2]), self.expr(items[3])),
                         line)
            return [Assign(local, "=", query, line)]
        if name == "cudaFuncSetAttribute":
            items = args.named_children
            if len(items) != 3:
                raise self.fail("cudaFuncSetAttribute with other than 3 arguments", node)
            attr = self.expr(items[1])
            if attr != CUDA_CONSTANTS["cudaFuncAttributeMaxDynamicSharedMemorySize"]:
                raise self.fail(f"cudaFuncSetAttribute({text(items[1])})", node)
            return [SetAttribute(self.kernel_ref(items[0]), self.expr(items[2]), line)]
        return [Eval(self.expr(node))]

    def out_local(self, items: list, name: str, node: Node) -> str:
        """The local a runtime query writes through its first argument, `&local`."""
        out = items[0] if items else None
        if out is None or out.type != "pointer_expression" or text(out.child_by_field_name("operator")) != "&" \
                or self.lookup(text(out.child_by_field_name("argument"))) is None:
            raise self.fail(f"{name} into something other than a local", node)
        return text(out.child_by_field_name("argument"))

    def kernel_ref(self, node: Node) -> str:
        while node.type in ("cast_expression", "parenthesized_expression", "pointer_expression"):
            node = node.child_by_field_name("value") or node.child_by_field_name("argument") or node.named_children[-1]
        return self.kernel_expression(node)[1]

    def kernel_value(self, node: Node) -> str | None:
        """The name expression of a kernel named by `node`: a kernel of the sources, an instantiation of one,
        or a local or parameter standing for one (`auto k = kern<4>;`); None for anything else."""
        if node.type == "identifier" and (self.lookup(text(node)) or "").startswith("kernel:"):
            return self.lookup(text(node))[7:]
        if node.type == "identifier" and text(node) in self.tr.sp.kernels and self.lookup(text(node)) is None:
            return self.name_expression(text(node), (), node)
        if node.type == "template_function" and text(node.child_by_field_name("name")) in self.tr.sp.kernels:
            return self.name_expression(text(node.child_by_field_name("name")),
                                        tuple(node.child_by_field_name("arguments").named_children), node)
        return None

    def kernel_expression(self, node: Node) -> tuple[str, str]:
        """(kernel, name expression) of what a launch or a query names, or a fallback."""
        expression = self.kernel_value(node)
        if expression is None:
            raise self.fail(f"launch of {text(node)!r}, not a kernel of the sources", node)
        return expression.split("<", 1)[0], expression

    def template_argument(self, node: Node) -> str:
        if node.type == "type_descriptor":
            raw = " ".join(text(node).split())
            raw = self.types.get(raw, raw)
            if raw in ELEMENT_SIZES or raw in INT_TYPES:
                return raw
            if re.fullmatch(r"[A-Za-z_]\w*", raw):   # a constant name read as a type
                inner = parse(f"int x = {raw};".encode()).root_node.named_children[0]
                value = inner.child_by_field_name("declarator").child_by_field_name("value")
                return str(self.const_int(_Rebased(value, raw)))
            raise self.fail(f"template argument {raw!r}", node)
        if node.type in ("true", "false"):
            return node.type
        return str(self.const_int(node))

    def const_int(self, node: Node) -> int:
        """A template argument or dispatch constant: an integer known at translation time."""
        if isinstance(node, _Rebased):
            name = node.name
            if name in self.consts and self.lookup(name) is not None:
                return self.consts[name]
            const = self.tr.constant(name)
            if isinstance(const, Cast) and isinstance(const.operand, Lit) and isinstance(const.operand.value, int):
                return const.operand.value
            raise Fallback(f"template argument {name!r} not a constant")
        if node.type == "number_literal":   # read as any literal is (`_number`): a float one is not a constant
            value = _number(text(node), node, self)
            sign = -1 if isinstance(value, Unary) and value.op == "-" else 1
            value = value.operand if isinstance(value, Unary) else value
            if isinstance(value, Lit) and isinstance(value.value, int):
                return sign * value.value
        if node.type == "identifier" and text(node) in self.consts and self.lookup(text(node)) is not None:
            return self.consts[text(node)]
        if node.type == "identifier":
            const = self.tr.constant(text(node))
            if isinstance(const, Cast) and isinstance(const.operand, Lit) and isinstance(const.operand.value, int):
                return const.operand.value
        if node.type == "parenthesized_expression":
            return self.const_int(node.named_children[0])
        if node.type == "binary_expression":
            left, right = (self.const_int(node.child_by_field_name(k)) for k in ("left", "right"))
            op = text(node.child_by_field_name("operator"))
            table = {"+": left + right, "-": left - right, "*": left * right}
            if op in table:
                return table[op]
            if op == "/" and right:
                return int(left / right)
        raise self.fail(f"template argument {text(node)!r} not a constant", node)

    def name_expression(self, name: str, targs: tuple, node: Node) -> str:
        kernel = self.tr.sp.kernels[name]
        if name in self.tr.sp.overloaded:
            raise self.fail(f"overloaded kernel {name}", node)
        values = tuple(self.template_argument(a) for a in targs)
        if len(values) != len(kernel.template):
            raise self.fail(f"kernel {name} with deduced or default template arguments", node)
        expression = f"{name}<{', '.join(values)}>" if values else name
        if expression not in self.tr.name_expressions:
            self.tr.name_expressions.append(expression)
        return expression

    def launch(self, fn: Node, config: Node, args: Node, line: int) -> Launch:
        name, expression = self.kernel_expression(fn)
        kernel = self.tr.sp.kernels[name]
        bound = dict(zip(kernel.template, expression[len(name) + 1:-1].split(", ") if "<" in expression else ()))
        parts = [self.expr(c) for c in config.named_children]
        if not 2 <= len(parts) <= 4:
            raise Fallback(f"launch of {name} with {len(parts)} configuration values at line {line}")
        values = [self.expr(a) for a in args.named_children]
        if len(values) != len(kernel.params):
            raise Fallback(f"launch of {name} with {len(values)} arguments for {len(kernel.params)} parameters "
                           f"at line {line}")
        codes = []
        for p in kernel.params:
            if p.pointer:
                codes.append("p")
                continue
            base = bound.get(p.type, p.type)
            base = " ".join(re.sub(r"\b(?:const|volatile|__restrict__)\b", " ", base).split())
            struct = self.tr.struct(base)
            code = KERNEL_CODES.get(INT_TYPES.get(base, "")) or (f"s:{struct[7:]}" if struct else None)
            if code is None:
                raise Fallback(f"kernel {name} parameter {p.name} of type {base!r} passed by value at line {line}")
            codes.append(code)
        return Launch(expression, parts[0], parts[1], parts[2] if len(parts) > 2 else None,
                      parts[3] if len(parts) > 3 else None, tuple(values), tuple(codes), line)

    def dispatch(self, name: str, args: Node, line: int) -> Dispatch:
        items = list(args.named_children)
        dtypes = list(DISPATCH.get(name, ("float32", "float64")))
        if name in ("AT_DISPATCH_FLOATING_TYPES_AND", "AT_DISPATCH_FLOATING_TYPES_AND2"):
            extra = 1 if name.endswith("_AND") else 2
            for item in items[:extra]:
                dt = self.expr(item)
                if not (isinstance(dt, Lit) and dt.ctype == "dtype"):
                    raise Fallback(f"{name} with a non-constant type at line {line}")
                dtypes.append(dt.value)
            items = items[extra:]
        if len(items) != 3:
            raise Fallback(f"{name} with {len(items)} arguments at line {line}")
        selector = self.expr(items[0])
        label = items[1]
        lam = items[2]
        while lam.type == "parenthesized_expression":
            lam = lam.named_children[0]
        if lam.type != "lambda_expression":
            raise Fallback(f"{name} without a lambda at line {line}")
        body = lam.child_by_field_name("body")
        cases = []
        for dt in dtypes:
            saved = self.types
            self.types = {**saved, "scalar_t": DTYPE_CTYPE[dt]}
            try:
                cases.append((dt, self.block(body)))
            finally:
                self.types = saved
        message = text(label).strip('"') if label.type == "string_literal" else name
        return Dispatch(selector, message, tuple(cases), line)

    # -- expressions --
    def expr(self, node: Node) -> object:
        kind = node.type
        line = _line(node, self.base)
        if kind == "number_literal":
            return _number(text(node), node, self)
        if kind in ("true", "false"):
            return Lit(kind == "true", "bool")
        if kind == "null":
            return Lit(None, "pointer")
        if kind in ("string_literal", "concatenated_string", "raw_string_literal"):
            return Lit(_string(node), "str")
        if kind == "char_literal":
            raise self.fail("character literal", node)
        if kind == "parenthesized_expression":
            return self.expr(node.named_children[0])
        if kind == "identifier":
            return self.name(node)
        if kind == "qualified_identifier":
            return self.qualified(node)
        if kind == "unary_expression":
            op = text(node.child_by_field_name("operator"))
            if op not in ("-", "+", "!", "~"):
                raise self.fail(f"unary {op}", node)
            return Unary(op, self.expr(node.child_by_field_name("argument")))
        if kind == "binary_expression":
            op = text(node.child_by_field_name("operator"))
            if op not in ("+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "&&", "||", "==", "!=", "<", ">",
                          "<=", ">="):
                raise self.fail(f"operator {op}", node)
            return Binary(op, self.expr(node.child_by_field_name("left")), self.expr(node.child_by_field_name("right")))
        if kind == "conditional_expression":
            return Ternary(self.expr(node.child_by_field_name("condition")),
                           self.expr(node.child_by_field_name("consequence")),
                           self.expr(node.child_by_field_name("alternative")))
        if kind == "cast_expression":
            return self.cast(text(node.child_by_field_name("type")), node.child_by_field_name("value"), node)
        if kind == "sizeof_expression":
            t = node.child_by_field_name("type") or _type_in_parentheses(node.child_by_field_name("value"))
            if t is None:
                raise self.fail("sizeof of an expression", node)
            raw = " ".join(text(t).split())
            raw = self.types.get(raw, raw)
            if raw not in ELEMENT_SIZES:
                raise self.fail(f"sizeof({raw})", node)
            return Lit(ELEMENT_SIZES[raw], "unsigned long")
        if kind == "initializer_list":
            return InitList(tuple(self.expr(c) for c in node.named_children))
        if kind == "compound_literal_expression":
            ctype = normalise_type(text(node.child_by_field_name("type")))
            if ctype not in ("list", "sizes", "tuple"):
                raise self.fail(f"compound literal {text(node.child_by_field_name('type'))!r}", node)
            items = node.child_by_field_name("value")
            return InitList(tuple(self.expr(c) for c in items.named_children), ctype)
        if kind == "subscript_expression":
            idx = node.child_by_field_name("indices") or node.child_by_field_name("index")
            inner = [c for c in idx.named_children] if idx is not None and idx.type == "subscript_argument_list" \
                else [idx]
            if len(inner) != 1 or inner[0] is None:
                raise self.fail("subscript", node)
            return Index(self.expr(node.child_by_field_name("argument")), self.expr(inner[0]), line)
        if kind == "call_expression":
            return self.call(node)
        if kind == "field_expression" and text(node.child_by_field_name("operator")) == "->" and \
                re.fullmatch(r"(?:at::cuda::|c10::cuda::)?getCurrentDeviceProperties\(\s*\)",
                             " ".join(text(node.child_by_field_name("argument")).split())):
            field = text(node.child_by_field_name("field"))
            if field not in DEVICE_ATTRIBUTES.values():
                raise self.fail(f"device property {field}", node)
            return Call("device_property", (Lit(field, "str"),), line)
        if kind == "field_expression" and node.child_by_field_name("argument").type == "identifier" and \
                (self.lookup(text(node.child_by_field_name("argument"))) or "").startswith("struct:"):
            local, member = self.struct_field(node)
            return Field(Name(local), member)
        if kind == "field_expression" and text(node.child_by_field_name("field")) in ("x", "y", "z") and \
                text(node.child_by_field_name("operator")) != "->":
            return Field(self.expr(node.child_by_field_name("argument")), text(node.child_by_field_name("field")))
        raise self.fail(f"{kind.replace('_', ' ')} {text(node)[:40]!r}", node)

    def cast(self, raw: str, value: Node, node: Node) -> object:
        raw = " ".join(raw.split())
        ctype = normalise_type(raw, self.types)
        if ctype is None or ctype in ("auto", "tensor", "list", "tuple", "str", "options", "device"):
            raise self.fail(f"cast to {raw!r}", node)
        if ctype.startswith("pointer:") and ctype[8:] not in ELEMENT_SIZES:
            raise self.fail(f"cast to {raw!r}", node)
        return Cast(ctype, self.expr(value))

    def name(self, node: Node) -> object:
        name = text(node)
        if (self.lookup(name) or "").startswith("kernel:"):
            raise self.fail(f"kernel {name} used as a value", node)
        if self.lookup(name) is not None:
            return Name(name)
        if name in CUDA_CONSTANTS:
            return CUDA_CONSTANTS[name]
        const = self.tr.constant(name)
        if const is not None:
            return const
        if name in self.tr.sp.kernels:
            raise self.fail(f"kernel {name} used as a value", node)
        if name in self.tr.macros:
            raise self.fail(f"macro {name} that does not expand to an expression", node)
        raise self.fail(f"unknown name {name}", node)

    def qualified(self, node: Node) -> object:
        name = " ".join(text(node).split())
        m = re.fullmatch(r"(?:torch|at|c10)::(?:ScalarType::)?(k?\w+)", name)
        key = m.group(1) if m and m.group(1).startswith("k") else f"k{m.group(1)}" if m else ""
        if key in SCALAR_DTYPES:
            return Lit(SCALAR_DTYPES[key], "dtype")
        if re.fullmatch(r"(?:torch|at|c10)::(?:DeviceType::)?(?:kCUDA|CUDA)", name):
            return Lit("cuda", "device")
        if re.fullmatch(r"(?:torch|at|c10)::(?:DeviceType::)?(?:kCPU|CPU)", name):
            return Lit("cpu", "device")
        if name in ("torch::kStrided", "at::kStrided", "c10::kStrided"):
            return Lit("strided", "layout")
        m = re.fullmatch(r"(?:torch|at|c10)::MemoryFormat::(\w+)", name)
        if m and m.group(1) in MEMORY_FORMATS:
            return Lit(MEMORY_FORMATS[m.group(1)], "memory_format")
        raise self.fail(f"name {name}", node)

    def call(self, node: Node) -> object:
        fn = node.child_by_field_name("function")
        args_node = node.child_by_field_name("arguments")
        line = _line(node, self.base)
        if any(c.type == "kernel_call_syntax" for c in node.children):
            raise self.fail("kernel launch inside an expression", node)
        if " ".join(text(fn).split()) in ("cudaMemcpyToSymbol", "cudaMemcpyToSymbolAsync"):
            return self.copy_to_symbol(text(fn), args_node.named_children, node, line)
        helper = text(fn) if fn.type == "identifier" else text(fn.child_by_field_name("name")) \
            if fn.type == "template_function" else None
        items = args_node.named_children if args_node is not None else []
        kernels = tuple((i, e) for i, e in enumerate(self.kernel_value(a) for a in items) if e is not None) \
            if helper in self.tr.sp.host and helper not in self.tr.sp.kernels else ()
        if kernels:      # `blocks_for(kern<4>, n)`: the helper translated for that kernel, which it is not given
            targs = tuple(self.template_argument(t) for t in fn.child_by_field_name("arguments").named_children) \
                if fn.type == "template_function" else ()
            given = tuple(self.expr(a) for i, a in enumerate(items) if i not in dict(kernels))
            return self.helper_call(helper, targs, given, node, line, kernels)
        args = tuple(self.expr(a) for a in args_node.named_children) if args_node is not None else ()
        template = fn
        scope = ""
        if fn.type == "qualified_identifier" and fn.child_by_field_name("name") is not None and \
                fn.child_by_field_name("name").type == "template_function":
            template, scope = fn.child_by_field_name("name"), text(fn.child_by_field_name("scope")) + "::"
        if template.type == "template_function":
            fname = scope + text(template.child_by_field_name("name"))
            targs = template.child_by_field_name("arguments").named_children
            if fname in ("static_cast", "reinterpret_cast", "const_cast") and len(targs) == 1 and len(args) == 1:
                return self.cast(text(targs[0]), args_node.named_children[0], node)
            if fname in ("std::min", "std::max") and len(targs) == 1 and len(args) == 2:
                ctype = normalise_type(text(targs[0]), self.types)
                if ctype not in INT_TYPES.values():
                    raise self.fail(f"call of {text(fn)}", node)
                return Call(fname[5:], tuple(Cast(ctype, a) for a in args), line)
            if not scope and fname in self.tr.sp.host and fname not in self.tr.sp.kernels:
                return self.helper_call(fname, tuple(self.template_argument(t) for t in targs), args, node, line)
            raise self.fail(f"call of {text(fn)}", node)
        if fn.type == "field_expression":
            return self.method(fn, args, node, line)
        name = " ".join(text(fn).split())
        if name in ("at::cuda::getCurrentCUDAStream", "c10::cuda::getCurrentCUDAStream",
                    "at::cuda::getDefaultCUDAStream", "c10::cuda::getDefaultCUDAStream"):
            return Call("current_stream", (), line)
        if name in ("std::pow", "pow", "powf", "std::exp", "exp", "expf", "std::log", "log", "logf", "sqrtf"):
            base = name.split("::")[-1]
            if len(args) != (2 if base.startswith("pow") else 1):
                raise self.fail(f"{name} with {len(args)} arguments", node)
            if base.endswith("f"):                    # the float functions round their arguments to float
                return Call(base[:-1], tuple(Cast("float", a) for a in args), line)
            return Call(base, args, line)
        if name in ("std::min", "std::max", "min", "max", "std::ceil", "ceil", "std::floor", "floor", "ceilf",
                    "floorf", "std::sqrt", "sqrt", "std::abs", "abs", "at::ceil_div", "c10::ceil_div"):
            base = name.split("::")[-1].rstrip("f") if name not in ("ceilf", "floorf") else name[:-1]
            return Call(base, args, line)
        if name in ("cudaGetLastError", "cudaPeekAtLastError", "cudaGetErrorString", "cudaDeviceSynchronize",
                    "printf", "fprintf"):
            if name == "fprintf" and (not args or args[0] not in (CUDA_CONSTANTS["stderr"], CUDA_CONSTANTS["stdout"])):
                raise self.fail("fprintf to a file", node)
            return Call(name, args, line)
        if name in ("cudaMemsetAsync", "cudaMemset"):   # the stream is torch's current one, as the launches'
            if not 3 <= len(args) <= (4 if name == "cudaMemsetAsync" else 3):
                raise self.fail(f"{name} with {len(args)} arguments", node)
            return Call("memset", tuple(args[:3]), line)
        if name == "std::make_tuple":
            return InitList(args, "tuple")
        m = re.fullmatch(r"(?:torch|at)::(\w+)", name)
        if m and m.group(1) in _TORCH_FUNCS:
            return Call(m.group(1), args, line)
        if fn.type == "identifier" and name in self.tr.sp.host:
            if name in self.tr.sp.kernels:
                raise self.fail(f"kernel {name} called without a launch", node)
            return self.helper_call(name, (), args, node, line)
        if name == "dim3":
            if not 1 <= len(args) <= 3:
                raise self.fail("dim3 with other than 1 to 3 values", node)
            return Call("dim3", args, line)
        if fn.type in ("primitive_type", "identifier") and normalise_type(name) in INT_TYPES.values():
            return Cast(normalise_type(name), args[0]) if len(args) == 1 else self._bad(name, node)
        raise self.fail(f"call of {name}", node)

    def copy_to_symbol(self, name: str, items: list[Node], node: Node, line: int) -> Call:
        """`cudaMemcpyToSymbol(symbol, src, count[, offset[, kind]])` and its Async form (`[, stream]` after the
        kind): the C++ API's defaults filled in (offset 0, host to device, the legacy default stream)."""
        asynchronous = name.endswith("Async")
        if not 3 <= len(items) <= (6 if asynchronous else 5):
            raise self.fail(f"{name} with {len(items)} arguments", node)
        if items[0].type != "identifier" or text(items[0]) not in self.tr.sp.symbols or self.lookup(text(items[0])):
            raise self.fail(f"{name} into {text(items[0])!r}, not a device variable of the sources", node)
        rest = [self.expr(a) for a in items[1:]]
        offset = rest[2] if len(rest) > 2 else Lit(0, "unsigned long")
        kind = rest[3] if len(rest) > 3 else CUDA_CONSTANTS["cudaMemcpyHostToDevice"]
        stream = rest[4] if len(rest) > 4 else Lit("default", "stream")
        return Call("copy_to_symbol", (self.tr.symbol(text(items[0]), self), rest[0], rest[1], offset, kind, stream),
                    line)

    def helper_call(self, name: str, targs: tuple[str, ...], args: tuple, node: Node, line: int,
                    kernels: tuple[tuple[int, str], ...] = ()) -> Helper:
        helper = self.tr.function(name, self.depth + 1, targs, kernels)
        if len(helper.params) != len(args):
            raise self.fail(f"call of {helper.name} with {len(args)} arguments", node)
        return Helper(helper.name, args, line)

    def _bad(self, name: str, node: Node) -> object:
        raise self.fail(f"call of {name}", node)

    @staticmethod
    def end_of(obj: object, name: str, line: int) -> Index:
        """`v.front()` / `v.back()` of a size list: `v[0]` / `v[v.size() - 1]` (an empty list's is the
        interpreter's out-of-range refusal, where the C++ is undefined)."""
        last = Binary("-", Method(obj, "size", (), None, line), Lit(1, "int"))
        return Index(obj, Lit(0, "int") if name == "front" else last, line)

    def method(self, fn: Node, args: tuple, node: Node, line: int) -> object:
        obj_node = fn.child_by_field_name("argument")
        field = fn.child_by_field_name("field")
        op = text(fn.child_by_field_name("operator")) or next((c.type for c in fn.children if c.type in (".", "->")),
                                                                 ".")
        if op == "->":
            raise self.fail("-> access", node)
        ctype = None
        if field.type == "template_method":
            name = text(field.child_by_field_name("name"))
            targs = field.child_by_field_name("arguments").named_children
            raw = " ".join(text(targs[0]).split()) if len(targs) == 1 else ""
            raw = self.types.get(raw, raw)
            if name not in ("data_ptr", "data", "const_data_ptr", "mutable_data_ptr") or raw not in DATA_TYPES:
                raise self.fail(f"method {text(field)}", node)
            name, ctype = "data_ptr", raw
        else:
            name = text(field)
            if name in ("data_ptr", "const_data_ptr", "mutable_data_ptr"):
                name, ctype = "data_ptr", "void"
            elif name == "ndimension":
                name = "dim"
            elif name in ("back", "front") and not args:    # a size list's end: an index, read or assigned
                return self.end_of(self.expr(obj_node), name, line)
        if name not in METHODS or (name == "to" and not (len(args) == 1 and isinstance(args[0], Lit)
                                                         and args[0].ctype == "dtype")) \
                or (name in ("sum", "mean") and args):
            raise self.fail(f"method .{name}()", node)     # .to(): a dtype conversion; .sum(): of everything
        return Method(self.expr(obj_node), name, args, ctype, line)


@dataclass(frozen=True)
class _Rebased:
    """A name met as a template type argument, to be read as a constant."""
    node: object
    name: str


def float32(value: float) -> float:
    """`value` rounded to the nearest float (`1.1f` is 1.10000002...), infinite beyond float's range: C's
    conversion to float, for literals here and for the interpreter's float arithmetic."""
    try:
        return struct.unpack("f", struct.pack("f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def _number(raw: str, node: Node, tr: _FunctionTranslator) -> object:
    s = raw.replace("'", "").strip()
    if s[:1] in "+-":   # tree-sitter reads `-1` as one literal: C reads unary minus on 1
        inner = _number(s[1:].strip(), node, tr)
        return Unary(s[0], inner)
    if re.fullmatch(r"(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*", s):
        digits = re.sub(r"[uUlL]+$", "", s)
        suffix = s[len(digits):].lower()
        value = int(digits, 8) if re.fullmatch(r"0\d+", digits) else int(digits, 0)
        if "u" in suffix:
            return Lit(value, "unsigned long" if "l" in suffix or value >= 1 << 32 else "unsigned")
        if "l" in suffix or value >= 1 << 31:
            return Lit(value, "long")
        return Lit(value, "int")
    m = re.fullmatch(r"((?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)([fFlL]?)", s)
    if m and ("." in m.group(1) or "e" in m.group(1).lower() or m.group(2)):
        if m.group(2) in ("l", "L"):
            raise tr.fail(f"long double literal {raw}", node)
        return Lit(float32(float(m.group(1))), "float") if m.group(2) else Lit(float(m.group(1)), "double")
    raise tr.fail(f"number {raw}", node)


def _string(node: Node) -> str:
    parts = [node] if node.type == "string_literal" else [c for c in node.named_children if c.type == "string_literal"]
    out = []
    for p in parts:
        for c in p.named_children:
            if c.type == "string_content":
                out.append(text(c))
            elif c.type == "escape_sequence":
                out.append({"\\n": "\n", "\\t": "\t", '\\"': '"', "\\\\": "\\"}.get(text(c), text(c)))
    return "".join(out)


# ---------------------------------------------------------------- entry points

_NVCC_FLAG = re.compile(r"^(?:-O[0-3]|--use_fast_math|-use_fast_math|--ftz=(?:true|false)|--prec-div=(?:true|false)|"
                        r"--prec-sqrt=(?:true|false)|--fmad=(?:true|false)|-lineinfo|--expt-relaxed-constexpr|"
                        r"--expt-extended-lambda|-std=c\+\+1[147]|-std=c\+\+20|--std=c\+\+1[147]|-D\w+(?:=\S*)?|"
                        r"-U\w+|-Xptxas\s*-O[0-3]|--ptxas-options=-v|-Xptxas=-v|-Xptxas\s*-v|"
                        r"-maxrregcount=\d+|--maxrregcount=\d+|-arch=sm_\d+a?|-gencode=\S+|--restrict|-Xcompiler\s*\S+|"
                        r"-w|-Wno-\S+|-g|-G)$")
# What torch's build passes to nvcc for every extension; NVRTC gets the same so half arithmetic that
# fails there fails here.
TORCH_NVCC_DEFINES = ["-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__",
                      "-D__CUDA_NO_BFLOAT16_CONVERSIONS__", "-D__CUDA_NO_HALF2_OPERATORS__"]


def _nvrtc_options(flags: list[str]) -> list[str]:
    out = []
    pending_ptxas = False
    for flag in flags:
        flag = flag.strip()
        if pending_ptxas or flag.startswith(("-Xptxas=", "--ptxas-options=")):   # ptxas -O3 is the default
            value = flag.split("=", 1)[1] if not pending_ptxas else flag
            pending_ptxas = False
            if not re.fullmatch(r"-O[0-3]|-v|--verbose|-warn-spills|--warn-on-spills", value):
                raise Fallback(f"ptxas option {value!r}")
            continue
        if flag in ("-Xptxas", "--ptxas-options"):
            pending_ptxas = True
            continue
        m = re.fullmatch(r"-(prec-div|prec-sqrt|ftz|fmad|use_fast_math|expt-relaxed-constexpr|"
                         r"expt-extended-lambda)(=.*)?", flag)
        if m:
            flag = f"--{m.group(1)}{m.group(2) or ''}"
        if not _NVCC_FLAG.match(flag):
            raise Fallback(f"nvcc flag {flag!r}")
        if flag in ("--use_fast_math", "-use_fast_math"):
            out.append("--use_fast_math")
        elif flag.startswith(("-D", "-U", "--ftz", "--prec-", "--fmad", "-lineinfo", "-std", "--std",
                              "-maxrregcount", "--maxrregcount", "-G", "-w")):
            out.append(flag if not flag.startswith("-std") else "-" + flag)
    return out


def _sources(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return "\n".join(value)
    raise Fallback("load_inline sources that are not strings")


def translate(spec: dict) -> Translation:
    """One load_inline call's arguments (torch_ext.normalise) -> Translation; raises Fallback."""
    unknown = set(spec) - {"name", "cpp_sources", "cuda_sources", "functions", "extra_cflags",
                           "extra_cuda_cflags", "with_cuda", "is_python_module", "with_pytorch_error_handling",
                           "extra_ldflags", "extra_include_paths"}
    if unknown:
        raise Fallback(f"load_inline argument {sorted(unknown)[0]}")
    if [f for f in spec.get("extra_ldflags") or [] if str(f).strip()]:
        raise Fallback("load_inline extra_ldflags")
    if [f for f in spec.get("extra_include_paths") or [] if str(f).strip()]:
        raise Fallback("load_inline extra_include_paths")
    if spec.get("is_python_module") is False:
        raise Fallback("load_inline is_python_module=False")
    functions = spec.get("functions")
    if isinstance(functions, str):
        functions = [functions]
    if isinstance(functions, dict):
        functions = list(functions)
    if functions is not None and (not functions or not all(isinstance(f, str) for f in functions)):
        raise Fallback("load_inline functions= that is not a list of names")
    cuda, cpp = _sources(spec.get("cuda_sources")), _sources(spec.get("cpp_sources"))
    if not cuda.strip():
        if re.search(r"__global__|<<<", cpp):
            raise Fallback("kernel code in cpp_sources (the host compiler cannot build it)")
        raise Fallback("load_inline without cuda_sources")
    options = [*TORCH_NVCC_DEFINES, *_nvrtc_options([f for f in spec.get("extra_cuda_cflags") or [] if str(f).strip()])]
    host_defines = {}
    for flag in [f for f in spec.get("extra_cflags") or [] if str(f).strip()]:
        m = re.fullmatch(r"-D(\w+)(?:=(.*))?", flag.strip())
        if m:
            host_defines[m.group(1)] = m.group(2) or "1"
        elif not re.fullmatch(r"-O[0-3]|-std=c\+\+1[47]|-std=c\+\+20|-w|-g|-fopenmp|-march=native|-ffast-math|"
                              r"-Wno-\S+|-DNDEBUG", flag.strip()):
            raise Fallback(f"host compiler flag {flag!r}")
    sp = splitting.split(cuda, cpp)
    bindings = _buildable_bindings(sp, functions, cpp)
    if sp.problems:
        raise Fallback(sp.problems[0])
    from ....analysis.source import Macro

    extra = {k: Macro(k, None, v, 0) for k, v in host_defines.items()}
    tr = _Translator(sp, extra)
    exported = {}
    for name, cxx in bindings.items():
        fn = tr.function(cxx)
        for _, ctype in fn.params:
            if ctype.startswith(("pointer:", "struct:")) or ctype in ("dim3", "stream", "error", "options", "str"):
                raise Fallback(f"exported function {name} takes a {ctype} from Python")
        exported[name] = fn
    if not tr.name_expressions:
        raise Fallback("the exported functions launch no kernel")
    return Translation(sp.device, tr.name_expressions, exported, tr.helpers, tr.constants, sp.kernels, options,
                       tr.symbols, tr.structs)


def _buildable_bindings(sp: splitting.Split, functions: list[str] | None, cpp: str) -> dict[str, str]:
    """The module's bindings (Python name -> C++ function), or raise where no compiler could build the
    extension (torch's generated module binds `functions=` from `cpp_sources`): asked before what the
    translator cannot read, since these decide what runs anywhere."""
    if functions is not None and sp.bindings:
        raise Fallback("PYBIND11_MODULE beside functions= (two module definitions)")
    if functions is None and not sp.bindings:
        raise Fallback("load_inline without functions= or PYBIND11_MODULE bindings")
    bindings = {f: f for f in functions} if functions is not None else sp.bindings
    for cxx in bindings.values():
        if cxx in sp.kernels and cxx not in sp.host:
            raise Fallback(f"functions= names kernel {cxx}, not a host function (no build can bind it)")
    for name in functions or ():
        if not re.search(rf"\b{re.escape(name)}\s*\(", cpp):
            raise Fallback(f"functions= names {name}, which cpp_sources does not declare (no build can bind it)")
    return bindings


def translate_or_reason(spec: dict) -> tuple[Translation | None, str | None]:
    """(translation, None) or (None, the fallback reason): for reports and the engine, which must not
    raise; a translator bug met on a candidate's text is a fallback too (the full build is the truth)."""
    try:
        return translate(spec), None
    except Fallback as exc:
        return None, exc.reason
    except RecursionError:
        return None, "source nested too deeply"
    except Exception as exc:   # named in the reason, which the result's flags carry
        first = str(exc).splitlines()[0][:160] if str(exc) else ""
        return None, f"the translator failed: {type(exc).__name__}: {first}"
