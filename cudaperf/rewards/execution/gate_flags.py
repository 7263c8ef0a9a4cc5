"""The gate's reading of what a candidate hands to load_inline (or cpp_extension.load) that ends up
on a command line: compiler and linker flags, include paths, the extension's name.  torch writes
them into a ninja file whose commands run through the shell, before any other defence, and some
flags run programs by themselves (gcc's `-wrapper` and `-fplugin`, nvcc's `-ccbin`, `-Wl,-plugin`).
So each token comes from an allowlist of what honest candidates use (optimisation levels, `-D`/`-U`
with plain values, the language standard, warnings, nvcc's code-generation and ptxas options), made
of characters no shell gives a meaning to, and everything must be a literal the gate can read.
Linking cuBLAS or cuDNN is the library-call hack, not a flag problem."""

from __future__ import annotations

import ast
import re
from typing import Any

from .gate_rules import Violation
from .torch_ext import literal, module_literals

FLAG_KEYWORDS = ("extra_cflags", "extra_cuda_cflags", "extra_ldflags")
_WORD = r"[\w.+/=-]"     # no shell metacharacters
_HOST = re.compile(
    r"-O[0-3sg]?|-Ofast|-std=(c|gnu)\+\+\w+|-[DU][A-Za-z_]\w*(=[\w.+-]*)?|-w|-W(?![lap],)[\w=+-]*|-g[0-3]?|"
    r"-pedantic|-fPIC|-fpic|-f(no-)?(unroll-loops|fast-math|math-errno|strict-aliasing|omit-frame-pointer|"
    r"exceptions|rtti)|-m(arch|tune)=[\w.-]+|-I" + _WORD + r"+|-pthread")
_CUDA = re.compile(
    r"--?use_fast_math|-lineinfo|--?expt-relaxed-constexpr|--?expt-extended-lambda|--?extended-lambda|"
    r"-G|--?restrict|-res-usage|--resource-usage|--?maxrregcount[= ]?\d+|"
    r"-arch(=|\s*)(sm|compute)_\d+a?|--gpu-architecture[= ](sm|compute)_\d+a?|-code[= ](sm|compute)_\d+a?|"
    r"(-gencode|--generate-code)[= ]?arch=compute_\d+a?,code=\[?(sm|compute)_\d+a?(,(sm|compute)_\d+a?)*\]?|"
    r"--extra-device-vectorization|--diag[-_]suppress[= ][\w,]+|-Xcudafe[= ]--diag[-_]suppress=[\w,]+|"
    r"--?(ftz|prec-div|prec-sqrt|fmad)[= ]?(true|false)|--?(threads|t)[= ]?\d+|"
    r"(-Xptxas|--ptxas-options)[= ][\w.,=+-]+|--?default-stream[= ]?per-thread")
_LINK = re.compile(r"-l(cuda|cudart|curand|m|dl|rt|pthread)|-L" + _WORD + "+")
_LIBRARY = re.compile(r"-l(cublas\w*|cudnn\w*|cufft\w*|cusparse\w*|cusolver\w*)")
_HOST_PASS = re.compile(r"(-Xcompiler|--compiler-options)[= ](?P<flags>[^;&|`$<>()]*)")
_PATH = re.compile(_WORD + "+")
_TAKES_VALUE = ("-Xcompiler", "--compiler-options", "-Xptxas", "--ptxas-options", "-Xcudafe", "-gencode",
                "--generate-code", "-arch", "--gpu-architecture", "-code", "-t", "--threads", "-maxrregcount",
                "--maxrregcount", "--diag-suppress", "--diag_suppress")


def _allowed(keyword: str, token: str) -> bool:
    if keyword == "extra_ldflags":
        return bool(_LINK.fullmatch(token))
    if keyword == "extra_cuda_cflags":
        passed = _HOST_PASS.fullmatch(token)
        if passed:
            return all(_HOST.fullmatch(f) for f in re.split(r"[,\s]+", passed["flags"].strip("'\" ")) if f)
        return bool(_CUDA.fullmatch(token) or _HOST.fullmatch(token))
    return bool(_HOST.fullmatch(token))


def _tokens(value: Any) -> list[str] | None:
    """Whitespace-separated tokens of the flags (they reach a shell joined by spaces), a value after
    -Xcompiler/-Xptxas kept with its option; None unless a string or a list of strings."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return None
    tokens: list[str] = []
    for token in (t for v in value for t in v.split()):
        if tokens and tokens[-1] in _TAKES_VALUE:
            tokens[-1] = f"{tokens[-1]} {token}"
        else:
            tokens.append(token)
    return tokens


def _name(node: ast.Call, env: dict[str, Any]) -> Any:
    value = next((k.value for k in node.keywords if k.arg == "name"), node.args[0] if node.args else None)
    try:
        return literal(value, env) if value is not None else None
    except ValueError:
        return None


def check(tree: ast.Module) -> list[Violation]:
    env = module_literals(tree)
    found = []
    for node in ast.walk(tree):
        callee = getattr(node.func, "attr", getattr(node.func, "id", None)) if isinstance(node, ast.Call) else None
        if callee not in ("load_inline", "load"):
            continue
        name = _name(node, env)
        if callee == "load_inline" and not (isinstance(name, str) and name.isidentifier()):
            found.append(Violation("build-flags", node.lineno, "the extension's name must be a literal identifier"))
        for kw in node.keywords:
            if kw.arg not in (*FLAG_KEYWORDS, "extra_include_paths"):
                continue
            try:
                tokens = _tokens(literal(kw.value, env))
            except ValueError:
                tokens = None
            if tokens is None:
                found.append(Violation("build-flags", kw.value.lineno, f"{kw.arg} is not a literal list of strings"))
                continue
            for token in tokens:
                if kw.arg == "extra_include_paths":
                    ok = bool(_PATH.fullmatch(token))
                elif kw.arg == "extra_ldflags" and _LIBRARY.fullmatch(token):
                    found.append(Violation("library-call", kw.value.lineno, f"links a vendor library: {token}"))
                    continue
                else:
                    ok = _allowed(kw.arg, token)
                if not ok:
                    found.append(Violation("build-flags", kw.value.lineno, f"{kw.arg} passes {token!r}"))
    return found


def check_spec(spec: dict) -> list[str]:
    """The same allowlist over a load_inline call's arguments as the worker saw them at run time (a call
    whose arguments the gate could not read ahead: the engine builds it on the worker's request)."""
    problems = []
    name = spec.get("name")
    if not (isinstance(name, str) and name.isidentifier()):
        problems.append("the extension's name must be an identifier")
    for keyword in (*FLAG_KEYWORDS, "extra_include_paths"):
        if spec.get(keyword) is None:
            continue
        tokens = _tokens(spec[keyword])
        if tokens is None:
            problems.append(f"{keyword} is not a list of strings")
            continue
        for token in tokens:
            ok = bool(_PATH.fullmatch(token)) if keyword == "extra_include_paths" else \
                not _LIBRARY.fullmatch(token) and _allowed(keyword, token)
            if not ok:
                problems.append(f"{keyword} passes {token!r}")
    return problems
