"""Gate rules over CUDA C++ text: native candidates, and the CUDA/C++ strings of KernelBench
candidates.  Comments and string literals are blanked first (offsets kept), so a hack named in a
comment does not fire and one hidden in a comment cannot run."""

from __future__ import annotations

import re

from .formats import Candidate
from .gate_rules import Violation
from .gate_torch import heavy_class
from .spec import SpecError

_TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_KERNEL = re.compile(r"\b__global__\s+(?:[\w:<>,\s\*&]*?\s)?(\w+)\s*\(")
# the attributes a kernel's declaration may carry between `__global__ void` and its name, their arguments
# with parentheses nested twice, as in __launch_bounds__(((BM * BN) / TM), 2) or __attribute__((aligned(16)))
_KERNEL_ATTRIBUTE = re.compile(r"\b(?:__launch_bounds__|__cluster_dims__|__maxnreg__|__attribute__|__declspec)"
                               r"\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)")

# (rule, pattern, message) checked anywhere in the code.
PATTERNS: list[tuple[str, re.Pattern, str]] = [(rule, re.compile(p), msg) for rule, p, msg in [
    ("side-stream", r"\b(?:cudaStreamCreate\w*|cuStreamCreate\w*|getStreamFromPool|getStreamFromExternal|"
                    r"setCurrentCUDAStream|cudaStreamPerThread|cudaStreamNonBlocking)\b",
     "creates or switches to another CUDA stream"),
    ("cuda-graph", r"\b(?:cudaGraph\w*|cuGraph\w*|cudaStreamBeginCapture\w*|CUDAGraph)\b", "uses CUDA graphs"),
    ("threads", r"\bstd::(?:thread|jthread|async)\b|\bpthread_create\b|#\s*include\s*<(?:thread|future)>|"
                r"\bcudaLaunchHostFunc\b|\bcudaStreamAddCallback\b|#\s*pragma\s+omp\b",
     "starts host threads or host callbacks"),
    ("persisting-l2", r"\b(?:cudaLimitPersistingL2CacheSize|CU_LIMIT_PERSISTING_L2_CACHE_SIZE|accessPolicyWindow|"
                      r"cudaAccessPolicyWindow|cudaAccessProperty\w*|cudaCtxResetPersistingL2Cache|"
                      r"cudaStreamAttributeAccessPolicyWindow)\b", "touches the persisting-L2 carveout"),
    ("process-escape", r"\b(?:system|popen|fork|vfork|execv\w*|execl\w*|dlopen|dlsym|kill|setenv|putenv|"
                       r"socket)\s*\(|#\s*include\s*<(?:dlfcn\.h|unistd\.h|sys/\w+\.h|signal\.h)>",
     "system call from the candidate"),
    ("file-access", r"\b(?:fopen|freopen|open)\s*\(|\bstd::[io]?fstream\b|#\s*include\s*<(?:fstream|filesystem)>",
     "file access"),
    ("monkey-patch", r"\bpy::module_?::import\b|\bPyImport_\w+|\bPyObject_SetAttr\w*|\bpy::exec\b|\bpy::eval\b|"
                     r"\bPyRun_\w+|\bpy::setattr\b", "reaches into Python objects from C++"),
    ("library-call", r"\b(?:cublas\w*|cublasLt\w*|cudnn\w*|cufft\w*|cusparse\w*|cusolver\w*)\s*\(|"
                     r"\b(?:at|torch)::cuda::(?:blas|solver|sparse)::\w+|\bgetCurrentCUDA(?:Blas|Solver|Sparse)\w*\(",
     "calls a vendor library instead of a kernel"),   # an #include alone calls nothing
    ("precision-flags", r"\bcublasSetMathMode\b|\bCUBLAS_TF32\w*|\ballow_tf32\b|set_float32_matmul_precision|"
                        r"\bsetAllowTF32\w*|\bsetFloat32MatmulPrecision\b|\bsetAllow(?:FP16|BF16)Reduction\w*",
     "changes math precision globally"),
    ("result-cache", r"data_ptr\s*(?:<[^<>;]*>)?\s*\(\s*\)\s*[!=]=|[!=]=\s*\w+(?:\.|->)data_ptr\b|"
                     r"\b(?:version_counter|_version|unsafeGetTensorImpl)\b|\.version\s*\(\s*\)",
     "keys behaviour on tensor identity (pointer or version)"),
]]
_TORCH_CALL = re.compile(r"\b(?:torch|at)::((?:\w+::)*)(\w+)\s*(?:<[^;<>]*>)?\s*\(")
TORCH_CPP_ALLOWED = {"empty", "empty_like", "zeros", "zeros_like", "ones", "ones_like", "full", "full_like",
                     "empty_strided", "from_blob", "TensorOptions", "dtype", "device", "Device", "Scalar",
                     "IntArrayRef", "ArrayRef", "Tensor", "getCurrentCUDAStream", "CUDAGuard", "OptionalCUDAGuard",
                     "DeviceGuard", "OptionalDeviceGuard", "ScalarType", "MemoryFormat", "Layout", "check",
                     "getDefaultCUDAStream", "current_device", "elementSize", "isFloatingType", "toString",
                     "TensorArg", "checkAllSameGPU", "checkContiguous", "typeMetaToScalarType",
                     "ceil_div", "device_of"}
_TENSOR_METHOD = re.compile(  # in-place variants too; views (transpose, view, reshape) are fine
    r"\.\s*(matmul|mm|bmm|addmm|baddbmm|mv|dot|conv\w*|relu_?|gelu|silu|softmax|log_softmax|sigmoid|tanh|sum|"
    r"mean|amax|amin|argmax|argmin|prod|cumsum|cumprod|norm|exp|log|sqrt|rsqrt|pow|clamp_?|clamp_min|clamp_max|"
    r"add_?|sub_?|mul_?|div_?|einsum|where|sort|topk|linear|layer_norm|batch_norm|var|std|maximum|minimum|"
    r"max_pool\w*|avg_pool\w*|masked_fill_?|index_select|gather|scatter_?|tril|triu)_?\s*\(")
_LOW_PRECISION = re.compile(r"\b(?:__half2?|half2|__nv_bfloat16\w*|__float2half\w*|__float2bfloat16\w*|"
                            r"__float_to_tf32|nvcuda::wmma|wmma::|kHalf|kBFloat16|kFloat16)\b|"
                            r"cuda_fp16\.h|cuda_bf16\.h|\btf32\b|\.half\s*\(")
_REFERENCE_LOW = re.compile(r"float16|bfloat16|\bhalf\b|fp16|bf16", re.I)
_GLOBAL_DECL = re.compile(r"^\s*(?:static\s+)?(__device__\s+|__managed__\s+)?(?!typedef\b|using\b|template\b|"
                          r"struct\b|class\b|union\b|enum\b|namespace\b|extern\b|static_assert\b|return\b)"
                          r"[A-Za-z_][\w:<>,\s\*&]*?[\s\*&]\**(\w+)\s*(?:\[[^\]]*\]\s*)*(?:=[^;{]*|\{[^{}]*\})?;",
                          re.S)
_INCLUDE_BY_PATH = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([ \t]*(?:/|~|[^">\n]*\.\.[/\\])[^">\n]*)[>"]',
                              re.M)   # a host file, its text shown back in compiler errors
_HOLDS_DATA = re.compile(r"Tensor|\*|std::|optional|\bvoid\b|\[")   # types that can keep a result
_AUTO_DATA = re.compile(r"Tensor|\b(?:torch|at)::(?!cuda::)|data_ptr|malloc|\bnew\b|std::")  # `auto x = <that>`
_STATIC_LOCAL = re.compile(r"\bstatic\s+(?!const\b|constexpr\b|inline\b|__\w+)([^;(){}=]*?)\b(\w+)\s*(?:=|;|\[|\{)")


def blank(source: str) -> str:
    """Comments and string/char literal contents become spaces (newlines kept); `extern "C"` stays."""
    def repl(m: re.Match) -> str:
        text = m.group(0)
        if text == '"C"':
            return text
        keep = text[0] if text[0] in "\"'" else ""
        inner = re.sub(r"[^\n]", " ", text[len(keep):len(text) - len(keep)])
        return keep + inner + keep
    return _TOKEN.sub(repl, source)


def _line(text: str, offset: int, line0: int) -> int:
    return line0 + text.count("\n", 0, offset)


def kernels(code: str) -> dict[str, int]:
    """Kernel name -> offset of its definition, in blanked code."""
    code = _KERNEL_ATTRIBUTE.sub(lambda m: " " * len(m.group(0)), code)
    return {m.group(1): m.start(1) for m in _KERNEL.finditer(code)}


def _top_level_statements(code: str) -> list[tuple[int, str]]:
    """(offset, text) of statements outside any function or class body (namespace and extern "C" blocks
    do not count as bodies)."""
    out, depth, start, opaque = [], 0, 0, []
    i = 0
    while i < len(code):
        ch = code[i]
        if ch == "{":
            head = code[start:i]
            transparent = re.search(r"\b(?:namespace\s*\w*|extern\s*\"C\")\s*$", head) is not None
            opaque.append(not transparent)
            if transparent:
                start = i + 1
            else:
                depth += 1
        elif ch == "}":
            if opaque and opaque.pop():
                depth -= 1
                if depth == 0:
                    start = i + 1
            elif not opaque:
                start = i + 1
        elif ch == ";" and depth == 0:
            out.append((start, code[start:i + 1]))
            start = i + 1
        elif ch == "#" and depth == 0 and code[start:i].strip() == "":
            i = code.find("\n", i)
            if i < 0:
                break
            start = i + 1
        i += 1
    return out


def _holds_data(statement: str) -> bool:
    """A declaration whose type (or, for `auto`, whose initialiser) can keep a result."""
    declared, _, initialiser = statement.partition("=")
    return _HOLDS_DATA.search(declared) is not None or (
        re.search(r"\bauto\b", declared) is not None and _AUTO_DATA.search(initialiser) is not None)


def _state(code: str, line0: int) -> list[Violation]:
    found = []
    for offset, text in _top_level_statements(code):
        m = _GLOBAL_DECL.match(text)
        if m is None or re.search(r"\b(?:const|constexpr|__constant__|__shared__)\b", text.split("=")[0]) \
                or "(" in text.split("=")[0]:
            continue
        line = _line(code, offset + m.start(2), line0)
        if m.group(1):
            found.append(Violation("device-global-state", line, f"mutable device global '{m.group(2)}'"))
        elif _holds_data(text):
            found.append(Violation("result-cache", line, f"mutable host global '{m.group(2)}' persists across "
                                                         "calls"))
    for m in _STATIC_LOCAL.finditer(code):
        end = code.find(";", m.start())
        if "__shared__" not in m.group(1) and _holds_data(code[m.start():end if end >= 0 else len(code)]):
            found.append(Violation("result-cache", _line(code, m.start(), line0),
                                   f"static variable '{m.group(2)}' persists across calls"))
    return found


def scan(source: str, line0: int = 1, reference: str = "") -> list[Violation]:
    """Hack patterns in one CUDA/C++ text whose first line is `line0`."""
    code = blank(source)
    found = []
    for rule, pattern, message in PATTERNS:
        found.extend(Violation(rule, _line(code, m.start(), line0), f"{message}: {m.group(0).strip()}")
                     for m in pattern.finditer(code))
    for name, line in _torch_calls(code, line0):   # C++ is not followed: a heavy op is taken as the main one
        cls = heavy_class(name.lstrip("."))
        found.append(Violation("torch-op", line, f"calls {name}() ({cls}) instead of computing it") if cls else
                     Violation("torch-tail", line, f"torch computes {name}() in C++ (the measured work share decides)"))
    if not _REFERENCE_LOW.search(reference):
        found.extend(Violation("precision-downgrade", _line(code, m.start(), line0),
                               f"lower precision than the reference: {m.group(0)}")
                     for m in _LOW_PRECISION.finditer(code))
    found.extend(_state(code, line0))
    found.extend(Violation("file-access", _line(source, m.start(), line0), f"includes {m.group(1)!r} by path")
                 for m in _INCLUDE_BY_PATH.finditer(source))
    return found


def _torch_calls(code: str, line0: int) -> list[tuple[str, int]]:
    """(name, line) of the torch computations a blanked C++ text calls: `at::`/`torch::` functions
    beyond allocation and device plumbing, and tensor compute methods."""
    out = []
    for m in _TORCH_CALL.finditer(code):
        namespace, name = m.group(1), m.group(2)
        if "functional" in namespace or (name not in TORCH_CPP_ALLOWED and not name.startswith("k")
                                         and not namespace.startswith(("cuda::", "detail::"))):
            out.append((f"{m.group(0).rstrip('(').strip()}", _line(code, m.start(), line0)))
    out.extend((f".{m.group(1)}", _line(code, m.start(), line0)) for m in _TENSOR_METHOD.finditer(code))
    return out


def check_sources(texts: list[tuple[str, int]], reference: str = "") -> list[Violation]:
    """KernelBench candidates: the CUDA/C++ strings (text, first line) taken together; kernels must
    be defined, and each defined kernel referenced (launched) somewhere outside its definition."""
    found = [v for text, line0 in texts for v in scan(text, line0, reference)]
    blanked = [(blank(text), line0) for text, line0 in texts]
    defined = {name: _line(code, off, line0) for code, line0 in blanked for name, off in kernels(code).items()}
    if not defined:
        return [*found, Violation("no-cuda-kernel", 1, "no __global__ kernel in the candidate's sources")]
    everything = "\n".join(code for code, _ in blanked)
    used = {n for n in defined if len(re.findall(rf"\b{re.escape(n)}\b", everything)) > 1}
    if not used:
        found.append(Violation("decoy-kernel", min(defined.values()),
                               f"kernel(s) {', '.join(defined)} defined but never launched"))
    found.extend(Violation("unlaunched-kernel", defined[n], f"kernel {n} is never launched")
                 for n in defined if used and n not in used)
    return found


def check_native(candidate: Candidate, reference: str = "", names: set[str] | None = None) -> list[Violation]:
    """Native and C-format candidates: the spec must parse, use only bound names (`names`: the C
    harness's arguments; None when the reference's inputs are unnamed) and launch kernels the source
    defines."""
    if candidate.spec is None:
        return [Violation("launch-spec", 1, candidate.spec_error or "no launch spec")]
    found = scan(candidate.source, 1, reference)
    if names is not None:
        try:
            candidate.spec.check_names(names)
        except SpecError as exc:
            found.append(Violation("launch-spec", 1, str(exc)))
    defined = kernels(blank(candidate.source))
    if not defined:
        return [*found, Violation("no-cuda-kernel", 1, "no __global__ kernel in the candidate")]
    missing = [k for k in candidate.spec.kernels if k not in defined]
    if missing:
        found.append(Violation("launch-spec", 1, f"spec launches undefined kernel(s): {', '.join(missing)}"))
    found.extend(Violation("unlaunched-kernel", _line(candidate.source, off, 1), f"kernel {n} is never launched")
                 for n, off in defined.items() if n not in candidate.spec.kernels)
    return found
