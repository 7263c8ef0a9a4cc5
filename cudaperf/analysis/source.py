"""Reading CUDA source: decoding, position-preserving clean-up, and the macro table.

tree-sitter-cuda rejects a few real CUDA constructs (``__align__``, three-argument
``__launch_bounds__``, ``__maxnreg__``, ``__cluster_dims__``, device lambdas).  Instead of
rewriting the text, they are overwritten with spaces of the same length, so every byte offset,
line and column the parser reports still points at the user's file.  Values they carried
(launch bounds, register caps) are kept on the side.
"""

from __future__ import annotations

import bisect
import codecs
import itertools
import re
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from pathlib import Path

MAX_FILE_BYTES = 16 * 1024 * 1024


class SourceError(Exception):
    """Input that cannot be analysed at all; the message is one line for the user."""


@dataclass(frozen=True)
class Diagnostic:
    line: int
    column: int
    severity: str  # "error" | "warning" | "note"
    message: str
    kind: str = ""  # "syntax": text the parser could not read (lint's syntax-error rule reports those)

    def to_json(self) -> dict:
        return {"line": self.line, "column": self.column, "severity": self.severity, "message": self.message}


@dataclass(frozen=True)
class Macro:
    name: str
    params: tuple[str, ...] | None  # None for object-like macros
    body: str
    line: int
    alternatives: tuple[str, ...] = ()  # bodies of its definitions in the other arms of an #if chain


@dataclass
class SourceFile:
    path: str
    data: bytes  # cleaned text the parser sees (same length as the file)
    raw: bytes = b""  # the file as read, for the compiler
    macros: dict[str, Macro] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # attributes the grammar cannot hold, keyed by the byte offset where they appeared
    attributes: list[tuple[int, str, tuple[str, ...]]] = field(default_factory=list)
    # macros the file defines more than once in sequence, every definition in order (see macro())
    redefined: dict[str, list[Macro]] = field(default_factory=dict)
    facts: object | None = None  # what the clang frontend resolved (clangfront.ClangFacts), else None
    # offsets of blanked uses of macros that declare device code (`#define DEV __device__`: mend_macro_uses)
    device_qualifiers: list[int] = field(default_factory=list)
    # types given to macros, read as `0` (mend_type_arguments): offset -> the text as written
    type_arguments: dict[int, bytes] = field(default_factory=dict)

    def as_written(self) -> bytes:
        """`data` with the types given to macros back: what a macro that generates definitions
        (`DEFINE_FILL(float, f32)`) must be expanded with."""
        data = bytearray(self.data)
        for start, written in self.type_arguments.items():
            data[start:start + len(written)] = written
        return bytes(data)

    def line_of(self, offset: int) -> int:
        return self.data.count(b"\n", 0, offset) + 1

    def macro(self, name: str, line: int) -> Macro | None:
        """The definition of `name` in force at `line` (a macro the file redefines further down is
        its first definition above that line)."""
        later = self.redefined.get(name)
        if later is None:
            return self.macros.get(name)
        return next((m for m in reversed(later) if 0 < m.line <= line), later[0])


def _keep_length(error: UnicodeDecodeError) -> tuple[str, int]:
    return "?" * (error.end - error.start), error.end


codecs.register_error("cudaperf-keep-length", _keep_length)


_CONTROL = bytes(b for b in range(32) if b < 9 or b > 13)  # control bytes other than whitespace


def decode(raw: bytes, path: str) -> tuple[bytes, list[Diagnostic]]:
    """Reject binaries; replace invalid UTF-8 bytes one-for-one so offsets stay valid."""
    diagnostics: list[Diagnostic] = []
    head = raw[:8192]
    if b"\x00" in head or (head and len(head) - len(head.translate(None, _CONTROL)) > len(head) // 10):
        raise SourceError(f"{path}: binary file, not CUDA source")
    try:
        raw.decode("utf-8")
        return raw, diagnostics
    except UnicodeDecodeError as first:
        line = raw.count(b"\n", 0, first.start) + 1
        diagnostics.append(Diagnostic(line, 1, "warning", "invalid UTF-8 bytes replaced by '?'"))
        return raw.decode("utf-8", errors="cudaperf-keep-length").encode(), diagnostics


_BALANCED = r"\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)"
_ATTRIBUTE = re.compile(rb"\b(__align__|__maxnreg__|__cluster_dims__|__launch_bounds__)\s*(" +
                        _BALANCED.encode() + rb")")
_GNU_RESTRICT = re.compile(rb"\b__restrict\b")  # GCC's spelling, which the grammar does not know
_LAMBDA_QUALIFIERS = re.compile(rb"\]\s*((?:(?:__host__|__device__)\s*)+)(?=[(\{]|mutable)")
_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)]*\))?[ \t]*((?:[^\n]*\\\r?\n)*[^\n]*)",
                     re.MULTILINE)
_COMMENT = re.compile(rb"/\*.*?\*/|//[^\n]*", re.DOTALL)
# a line comment, a block comment (to its end, or to the end of the file), a string or character literal
_COMMENT_OR_LITERAL_PATTERN = rb'//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
_COMMENT_OR_LITERAL = re.compile(_COMMENT_OR_LITERAL_PATTERN, re.DOTALL)
# C++ the grammar does not know, respelled at the same length to what it does: `typeid(T)` as `sizeof(T)`
# (host code; an operand the analysis never follows), `new const float*[n]` as `new float [n]`, and
# explicit instantiations (`template class PiEstimator<float>;`, which declare nothing the analysis
# reads) blanked
_TYPEID = re.compile(rb"\btypeid(?=\s*\()")
_NEW_POINTER_ARRAY = re.compile(rb"\bnew\s+((?:(?:const|volatile)\s+)*)(?:(?:unsigned|signed|struct)\s+)*"
                                rb"[A-Za-z_][\w:]*(?:\s*<[^<>;()]*>)?\s*(\*+)\s*\[")
_GNU_CONST = re.compile(rb"\b__const__\b")  # GCC's spelling of const
# `float a[32] __attribute__((aligned(64)));`: an alignment after an array's size, which the grammar does not take
_ALIGNED_ARRAY = re.compile(rb"\]\s*(__attribute__\s*\(\(\s*(?:__)?aligned(?:__)?\s*\([^()]*\)\s*\)\))")
_EXPLICIT_INSTANTIATION = re.compile(rb"^[ \t]*(?:extern[ \t]+)?template[ \t]+(?:class|struct)[ \t]+[\w:]+[ \t]*"
                                     rb"<[^;{}<>]*>[ \t]*;", re.MULTILINE)


def _top_level_commas(inner: bytes) -> list[int]:
    commas, depth = [], 0
    for i, ch in enumerate(inner):
        if ch in b"([{":
            depth += 1
        elif ch in b")]}":
            depth -= 1
        elif ch == ord(",") and depth == 0:
            commas.append(i)
    return commas


def _split_args(inner: bytes) -> list[bytes]:
    bounds = [-1, *_top_level_commas(inner), len(inner)]
    return [inner[a + 1:b].strip() for a, b in itertools.pairwise(bounds)]


def _blank(buf: bytearray, start: int, end: int) -> None:
    buf[start:end] = bytes(b if b in b"\r\n" else 32 for b in buf[start:end])


def _blank_attributes(data: bytes, buf: bytearray) -> list[tuple[int, str, tuple[str, ...]]]:
    """Blank in `buf` the kernel attributes the grammar cannot parse (`__cluster_dims__(...)`, a
    `__launch_bounds__` past its second argument); the attributes found."""
    attributes: list[tuple[int, str, tuple[str, ...]]] = []
    for m in _ATTRIBUTE.finditer(data):
        name = m.group(1).decode()
        args = tuple(a.decode(errors="replace") for a in _split_args(m.group(2)[1:-1]))
        attributes.append((m.start(), name, args))
        if name == "__launch_bounds__":
            commas = _top_level_commas(m.group(2)[1:-1])
            if len(commas) >= 2:  # keep the first two arguments, which the grammar accepts
                _blank(buf, m.start(2) + 1 + commas[1], m.end() - 1)
        else:
            _blank(buf, m.start(), m.end())
    return attributes


def without_attributes(data: bytes) -> bytes:
    """`data` with the kernel attributes the grammar cannot parse blanked, at the same length and lines:
    for a reader that parses this and keeps the text (the fast path's split, which NVRTC compiles)."""
    buf = bytearray(data)
    _blank_attributes(data, buf)
    return bytes(buf)


def clean(data: bytes) -> tuple[bytes, list[tuple[int, str, tuple[str, ...]]]]:
    """Blank out what the grammar cannot parse; return the new bytes and the attributes removed."""
    buf = bytearray(data)
    attributes = _blank_attributes(data, buf)
    for m in _LAMBDA_QUALIFIERS.finditer(data):
        _blank(buf, m.start(1), m.end(1))
    for m in _GNU_RESTRICT.finditer(data):
        buf[m.start():m.end()] = b"restrict  "
    # each pattern only where its word occurs: a search for a plain word costs a tenth of a pattern's
    if b"typeid" in data:
        for m in _TYPEID.finditer(data):
            buf[m.start():m.end()] = b"sizeof"
    if b"*[" in data or b"* [" in data:
        for m in _NEW_POINTER_ARRAY.finditer(data):
            _blank(buf, m.start(1), m.end(1))
            _blank(buf, m.start(2), m.end(2))
    if b"__const__" in data:
        for m in _GNU_CONST.finditer(data):
            buf[m.start():m.end()] = b"const    "
    if b"aligned" in data:
        for m in _ALIGNED_ARRAY.finditer(data):
            _blank(buf, m.start(1), m.end(1))
    if b"template class" in data or b"template struct" in data:
        for m in _EXPLICIT_INSTANTIATION.finditer(data):
            _blank(buf, m.start(), m.end())
    return bytes(buf), attributes


# what a qualifier macro may stand for and the analysis can do without: function qualifiers, restrict,
# GNU attributes (not `extern`, `volatile`, `constexpr`, memory spaces or `__global__`, which carry meaning)
_QUALIFIER_WORDS = frozenset({"__device__", "__host__", "__forceinline__", "__noinline__", "inline", "__inline__",
                              "__inline", "static", "__restrict__", "__restrict", "restrict"})
_GNU_ATTRIBUTE = re.compile(r"__attribute__\s*" + _BALANCED)
# what the mending leaves as it is: comments (one nothing closes runs to the end), string and character literals,
# preprocessor lines (continued too)
_UNTOUCHED = re.compile(_COMMENT_OR_LITERAL_PATTERN + rb'|^[ \t]*#(?:[^\n]*\\\r?\n)*[^\n]*', re.DOTALL | re.MULTILINE)


def _qualifier_macros(source: SourceFile) -> dict[str, bool]:
    """Object-like macros that stand for qualifiers only, or for nothing (`#define DEV __device__`,
    `#define RESTRICT __restrict__`, `#define HD`), in every arm of the #if chain that defines them
    (`#ifdef __CUDACC__` / `#define DEV __device__` / `#else` / `#define DEV`): name -> whether one
    of them declares device code."""
    found = {}
    for name, macro in source.macros.items():
        if macro.params is None and name not in source.redefined and not name.startswith("__"):
            words = [w for body in (macro.body, *macro.alternatives) for w in _GNU_ATTRIBUTE.sub(" ", body).split()]
            if all(w in _QUALIFIER_WORDS for w in words):
                found[name] = "__device__" in words
    return found


# calling conventions of CUDA's and Vulkan's headers, which the analysis does not read: nothing on Linux
# (`void CUDART_CB callback(cudaStream_t, cudaError_t, void*)`), blanked where the file does not define them
_CALLING_CONVENTIONS = ("CUDART_CB", "CUDARTAPI", "CUDAAPI", "VKAPI_ATTR", "VKAPI_CALL", "VKAPI_PTR")


class _Spans:
    """Byte spans in order, asked whether an offset lies in one."""

    def __init__(self, spans: list[tuple[int, int]]):
        self.spans = spans
        self.starts = [start for start, _ in spans]

    def __contains__(self, at: int) -> bool:
        i = bisect.bisect_right(self.starts, at) - 1
        return i >= 0 and at < self.spans[i][1]


def _untouched(data: bytes) -> _Spans:
    """The spans of comments, literals and directives."""
    return _Spans([m.span() for m in _UNTOUCHED.finditer(data)])


_LAST_CALL = re.compile(r"([A-Za-z_]\w*)\s*\([^;{}]*\)\s*\Z")  # `... NAME(args)` ending a body


def statement_macros(macros: dict[str, Macro]) -> set[str]:
    """Function-like macros whose body is a statement of its own: it ends in `;` or `}`, or in a call
    of such a macro (bitcracker's `ALL_ROUND_B1_1()`, a row of `ROUND(...)` calls)."""
    functions = {name: macro.body.rstrip() for name, macro in macros.items() if macro.params is not None}
    # in any arm of its #if chain: `#define PRINT_INFO(v)` / `#else` / `#define PRINT_INFO(v) printf(...);`
    found = {name for name, macro in macros.items() if macro.params is not None and
             any(body.rstrip().endswith((";", "}")) for body in (macro.body, *macro.alternatives))}
    ending = {name: m.group(1) for name, body in functions.items() if name not in found
              for m in [_LAST_CALL.search(body)] if m is not None}
    while True:
        more = {name for name, last in ending.items() if name not in found and last in found}
        if not more:
            return found
        found |= more


_CALL_SCAN = 4096  # bytes a statement macro's arguments may span


def _call_end(data: bytes, opening: int, limit: int) -> int | None:
    """The offset after the `)` closing the parenthesis at `opening` (literals and comments
    skipped), None before `limit` or past _CALL_SCAN bytes."""
    depth, i, n = 0, opening, min(limit, opening + _CALL_SCAN)
    while i < n:
        ch = data[i]
        if ch in (34, 39):  # a string or character literal: to its closing quote
            i += 1
            while i < n and data[i] != ch and data[i] != 10:
                i += 2 if data[i] == 92 else 1
        elif ch == 47 and data[i + 1:i + 2] in (b"/", b"*"):  # a comment: to its end
            close = data.find(b"\n" if data[i + 1] == 47 else b"*/", i + 2)
            i = n if close < 0 else close + (data[i + 1] == 42)
        elif ch == 40:
            depth += 1
        elif ch == 41:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


_GAP = re.compile(rb"[ \t\r\n]*")
# what may follow a statement macro's call (not `{`, `;` or an operator)
_NEXT_STATEMENT = re.compile(rb"[A-Za-z_}#]|//|/\*")


# a macro's argument that is a type spelled with keywords (`int`, `unsigned int`, `const float *`, `struct
# node*`): no expression, so the grammar cannot read the call (HeCBench's `talloc(int, k)`, segsort's swaps)
_TYPE_ARGUMENT = re.compile(
    rb"[(,]([ \t]*(?:(?:(?:const|volatile|signed|unsigned|short|long|int|char|float|double|bool|void)\b[ \t]*)+"
    rb"|(?:struct|union|enum)[ \t]+[A-Za-z_]\w*[ \t]*)(?:[*&][ \t]*)*)(?=[,)])")
# standard macros that take a type, from headers the analysis does not read
_TAKES_TYPES = frozenset({"va_arg"})
_CALLEE = re.compile(rb"([A-Za-z_]\w*)[ \t]*\Z")
_BRACKET = re.compile(rb"[(){};]")


def _callees(data: bytes, positions: list[int]) -> list[str]:
    """For each of the sorted `positions`, the name called with the argument list it lies in ("" where
    it lies in none): one pass over the brackets, so a list of any length costs its length."""
    found: list[str] = []
    open_at: list[int] = []  # the offsets of the open parentheses
    names: dict[int, str] = {}  # the name before each
    brackets = _BRACKET.finditer(data)
    bracket = next(brackets, None)
    for position in positions:
        while bracket is not None and bracket.start() < position:
            ch = bracket.group()
            if ch == b"(":
                open_at.append(bracket.start())
            elif ch == b")":
                if open_at:
                    open_at.pop()
            else:  # `;`, `{`, `}`: no argument list reaches past them
                open_at.clear()
            bracket = next(brackets, None)
        if not open_at:
            found.append("")
            continue
        if open_at[-1] not in names:  # the arguments of one list share its name
            name = _CALLEE.search(data, max(0, open_at[-1] - 128), open_at[-1])
            names[open_at[-1]] = name.group(1).decode() if name else ""
        found.append(names[open_at[-1]])
    return found


NVCC_DEFINES = ("__CUDACC__", "__NVCC__", "__CUDA_ARCH__", "__cplusplus")  # what nvcc defines for device code
# a conditional directive: its kind, and the rest of its line (continued lines too)
_CONDITIONAL = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b((?:[^\n]*\\\r?\n)*[^\n]*)",
                          re.MULTILINE)
_CONDITION_COMMENT = re.compile(r"//.*|/\*.*?\*/")
SPLIT_CHAIN_LINES = 40  # longer #if chains (include guards, `extern "C"` wrappers of a whole header) stay


def compiled_arm(kind: str, condition: str, macros: dict[str, Macro], line: int | None = None) -> bool:
    """Whether the arm a directive opens is the one the analysis reads: `#ifdef X` with X defined (by
    the file, its headers, -D, or nvcc), `#ifndef X` with X undefined, `#if`/`#elif` unless its
    condition is `0` (nothing else decides one), `#else` when no arm before it was.  With the
    directive's `line`, only what is defined above it counts (not an include guard's own `#define`)."""
    if kind == "else":
        return True
    condition = _CONDITION_COMMENT.sub(" ", _CONTINUATION.sub(" ", condition)).strip()
    if kind in ("ifdef", "ifndef"):
        name = condition.split()[0] if condition else ""
        macro = macros.get(name)
        defined = name in NVCC_DEFINES or (macro is not None and (line is None or macro.line <= line))
        return defined != (kind == "ifndef")
    return condition != "0"


_CONTINUATION = re.compile(r"\\\r?\n")
_TOKEN_RUN = re.compile(rb"\S+")


def _code(data: bytes) -> tuple[bytes, _Spans]:
    """`data` at the same length with comments and directives blanked and each literal a `0`: the
    code whose brackets and last characters tell where a construct is open; and the block comments."""
    comments: list[tuple[int, int]] = []

    def masked(m: re.Match) -> bytes:
        found = m.group()
        if found[:2] == b"/*":
            comments.append(m.span())
        kept = bytes(b if b in b"\r\n" else 32 for b in found)
        return b"0" + kept[1:] if found[:1] in b"\"'" else kept
    return _UNTOUCHED.sub(masked, data), _Spans(comments)


def _splits(code: bytes, chain: list[tuple[str, str, int, int]], before: bytes) -> bool:
    """Does an `#if` chain split a construct (`code` is `_code` of the file): an arm opens a bracket it
    does not close (`extern "C" {`, `for (...) {`), ends inside one (`, int* worklist`, `if (...)`: its
    last character is none of `;{}`), or the chain starts inside a list (`before`, the last character
    of code before it, ends a name or a literal, or is `,` or `(`: after `int* flags` of a parameter
    list; not a `)`, which ends a statement macro's call as often as a statement's head)?"""
    for (_, _, _, end), following in itertools.pairwise(chain):
        arm = code[end:following[2]].strip()
        if arm.count(b"{") != arm.count(b"}") or arm.count(b"(") != arm.count(b")") or \
                (arm and arm[-1:] not in b";{}"):
            return True
    return bool(before) and (before.isalnum() or before in b"_,(")


def mend_split_conditionals(source: SourceFile) -> bool:
    """An `#if` chain that splits a construct (`_splits`: a parameter or argument list, a string, a
    statement's head, as in `int* flags` / `#ifdef DYNAMIC_PARTITION` / `, int* worklist` / `#endif` /
    `) {`, or a brace, as in `#ifdef __cplusplus` / `extern "C" {`), which the grammar cannot read:
    the arm the analysis reads (`compiled_arm`, the lowering's rule, with what is defined above the
    chain) is kept, the directives and the other arms blanked.  Chains longer than SPLIT_CHAIN_LINES
    stay as written.  Asked only of text that did not parse; whether anything changed."""
    data = source.data
    if b"#" not in data:
        return False
    code, comments = _code(data)
    chains, open_chains = [], []
    for m in _CONDITIONAL.finditer(data):
        if m.start() in comments:
            continue
        directive = (m.group(1).decode(), m.group(2).decode(errors="replace"), m.start(), m.end())
        if directive[0] in ("if", "ifdef", "ifndef"):
            open_chains.append([directive])
        elif open_chains:
            open_chains[-1].append(directive)
            if directive[0] == "endif":
                chains.append(open_chains.pop())
    if not chains:
        return False
    run_ends = [m.end() for m in _TOKEN_RUN.finditer(code)]  # where code before each chain ends
    buf, line, counted = bytearray(data), 1, 0
    for chain in sorted(chains, key=lambda c: c[0][2]):
        first, last = chain[0][2], chain[-1][3]
        previous = bisect.bisect_right(run_ends, first) - 1
        before = code[run_ends[previous] - 1:run_ends[previous]] if previous >= 0 else b""
        if data.count(b"\n", first, last) > SPLIT_CHAIN_LINES or not _splits(code, chain, before):
            continue
        line, counted = line + data.count(b"\n", counted, first), first
        kept = next((i for i, (kind, condition, _, _) in enumerate(chain[:-1])
                     if compiled_arm(kind, condition, source.macros, line)), None)
        for i, (_, _, start, end) in enumerate(chain):
            _blank(buf, start, end)  # the directive
            if i < len(chain) - 1 and i != kept:
                _blank(buf, end, chain[i + 1][2])  # an arm not read
    if buf == data:
        return False
    for start, written in list(source.type_arguments.items()):  # a type in an arm blanked is gone
        if not bytes(buf[start:start + len(written)]).strip():
            del source.type_arguments[start]
    source.data = bytes(buf)
    return True


def mend_type_arguments(source: SourceFile) -> bool:
    """Read a type given to a function-like macro (`talloc(int, k)`, `va_arg(list, char*)`) as `0`, at
    the same length: the call is read instead of a syntax error, and its expansion with `0` is no more
    an expression the lowering follows than the error was (a macro that generates kernels is expanded
    with the type as written: `SourceFile.as_written`).  Asked only of files whose parse found an
    error (the scan costs more than the rest of the mending), where every such type is read so;
    whether anything changed."""
    data = source.data
    functions = {name for name, macro in source.macros.items() if macro.params is not None} | _TAKES_TYPES
    candidates = list(_TYPE_ARGUMENT.finditer(data))
    found = [m for m, name in zip(candidates, _callees(data, [m.start(1) for m in candidates])) if name in functions]
    if not found:
        return False
    buf, untouched = bytearray(data), _untouched(data)
    for m in found:
        start, end = m.span(1)
        if start not in untouched:
            source.type_arguments[start] = m.group(1)
            _blank(buf, start, end)
            buf[start + len(m.group(1)) - len(m.group(1).lstrip())] = ord("0")
    source.data = bytes(buf)
    return source.data != data


def mend_macro_uses(source: SourceFile) -> None:
    """Rewrite, at the same length, what macros make the grammar misread in code the preprocessor
    would hand over intact.  Qualifier macros are blanked as the preprocessor removes them: the
    grammar reads `DEV static int f(...)` and `const real* RESTRICT T` as syntax errors (the
    parameter then named `RESTRICT`, its accesses lost), and so are the toolkit's calling conventions
    the file does not define (`_CALLING_CONVENTIONS`); where one declared device code its offset
    is kept in `source.device_qualifiers` (scope.py makes the function a device function, the
    variable a device array).  A statement macro called with no `;` (`CHECK(cudaMalloc(&p, n))` at
    the end of a line: its body ends the statement) gets one in the blank after the call, so that
    the next statement is not read as part of it.  Comments, literals and directives stay as written."""
    qualifiers, statements = _qualifier_macros(source), statement_macros(source.macros)
    qualifiers.update((name, False) for name in _CALLING_CONVENTIONS
                      if name not in source.macros and name.encode() in source.data)
    if not qualifiers and not statements:
        return
    data, buf = source.data, bytearray(source.data)
    untouched = _untouched(data)
    if qualifiers:
        names = re.compile(rb"\b(?:" + b"|".join(re.escape(n.encode()) for n in qualifiers) + rb")\b")
        for m in names.finditer(data):
            if m.start() not in untouched:
                _blank(buf, m.start(), m.end())
                if qualifiers[m.group().decode()]:
                    source.device_qualifiers.append(m.start())
    if statements:
        calls = re.compile(rb"^[ \t]*(?:(?:else[ \t]+)?if[ \t]*\([^\n;{}]*\)[ \t]*|else[ \t]+)?(" +  # `if (v) M(x)`
                           b"|".join(re.escape(n.encode()) for n in statements) + rb")[ \t]*\(", re.MULTILINE)
        found = list(calls.finditer(data))
        for m, following in zip(found, [*found[1:], None]):  # a call ends before the next one starts
            limit = following.start() if following is not None else len(data)
            end = _call_end(data, m.end() - 1, limit) if m.start(1) not in untouched else None
            if end is None:
                continue
            gap = _GAP.match(data, end).end()
            blank = next((i for i in range(end, gap) if data[i] in (32, 9)), None)
            if blank is not None and (gap == len(data) or _NEXT_STATEMENT.match(data, gap)):
                buf[blank] = ord(";")
    source.data = bytes(buf)


def _macros(data: bytes, defines: dict[str, str]) -> dict[str, Macro]:
    """The first definition of every macro (of alternatives in #if arms, the first arm's)."""
    return {name: definitions[0] for name, definitions in _definitions(data, defines).items()}


def _definitions(data: bytes, defines: dict[str, str]) -> dict[str, list[Macro]]:
    """Every macro's definitions in the order they take effect: a later `#define` of a name replaces
    the earlier one from its line on (nvcc warns, the last one counts), unless the two sit in
    different arms of one `#if` chain, where they are alternatives and the first arm's is kept.
    -D replaces them all, as with a compiler."""
    table: dict[str, list[Macro]] = {}
    arms: dict[str, tuple[tuple[int, int], ...]] = {}  # name -> #if arms around its latest definition
    conditionals = list(_CONDITIONAL.finditer(data))
    stack: list[tuple[int, int]] = []  # the #if arms open at the current definition: (chain start, arm number)
    passed = 0
    line, counted = 1, 0
    for m in _DEFINE.finditer(data):
        while passed < len(conditionals) and conditionals[passed].start() < m.start():
            _step(stack, conditionals[passed])
            passed += 1
        line += data.count(b"\n", counted, m.start())
        counted = m.start()
        body = m.group(3).replace(b"\\\r\n", b" ").replace(b"\\\n", b" ")
        body = _COMMENT.sub(b" ", body).strip().decode(errors="replace")
        params = None
        if m.group(2) is not None:
            params = tuple(p.strip() for p in m.group(2)[1:-1].decode(errors="replace").split(",") if p.strip())
        name = m.group(1).decode()
        where = tuple(stack)
        if name not in table or not _alternatives(arms[name], where):
            table.setdefault(name, []).append(Macro(name, params, body, line))
            arms[name] = where
        else:  # another arm's: the first arm's stays the definition, and knows of this one
            first = table[name][-1]
            table[name][-1] = replace(first, alternatives=(*first.alternatives, body))
    for name, value in defines.items():
        table[name] = [Macro(name, None, value, 0)]
    return table


def _step(stack: list[tuple[int, int]], directive: re.Match) -> None:
    """Follow one conditional directive: open a chain, move to its next arm, or close it."""
    kind = directive.group(1)
    if kind.startswith(b"if"):
        stack.append((directive.start(), 0))
    elif kind == b"endif":
        if stack:
            stack.pop()
    elif stack:
        stack[-1] = (stack[-1][0], stack[-1][1] + 1)


def _alternatives(first: tuple[tuple[int, int], ...], second: tuple[tuple[int, int], ...]) -> bool:
    """Are two definitions in different arms of one `#if` chain (only one of them is compiled)?"""
    for a, b in zip(first, second):
        if a != b:
            return a[0] == b[0]
    return False


_PY_STRING = re.compile(rb'[rRuU]?("""|\'\'\')(.*?)\1', re.DOTALL)
_CUDA_HINT = re.compile(rb"__global__|<<<|torch::|#include")


def embedded_cuda(data: bytes) -> tuple[bytes, list[bytes]]:
    """A Python file's CUDA (KernelBench's `cuda_source = \"\"\"...\"\"\"` for load_inline): the
    triple-quoted strings that hold C++, in place, with everything else blanked (newlines kept),
    so reported lines are the .py file's.  Also returns the strings, for the compiler."""
    out = bytearray(b if b in b"\r\n" else 32 for b in data)
    kept = []
    for m in _PY_STRING.finditer(data):
        body = m.group(2)
        if _CUDA_HINT.search(body):
            out[m.start(2):m.end(2)] = body
            kept.append(body)
    return bytes(out), kept


def load(raw: bytes, path: str, defines: dict[str, str] | None = None) -> SourceFile:
    """Prepare bytes for parsing; raises SourceError only when nothing can be analysed.  A `.py`
    path is read for the CUDA it embeds (see embedded_cuda)."""
    if len(raw) > MAX_FILE_BYTES:
        raise SourceError(f"{path}: file too large ({len(raw) // (1024 * 1024)} MiB > "
                          f"{MAX_FILE_BYTES // (1024 * 1024)} MiB limit)")
    if path.endswith(".py"):
        blanked, strings = embedded_cuda(raw)
        if not strings:
            raise SourceError(f"{path}: no CUDA source strings found")
        raw = blanked
    data, diagnostics = decode(raw, path)
    cleaned, attributes = clean(data)
    definitions = _definitions(cleaned, defines or {})
    source = SourceFile(path, cleaned, raw, {name: found[0] for name, found in definitions.items()}, diagnostics,
                        attributes, {name: found for name, found in definitions.items() if len(found) > 1})
    unterminated = _unterminated_comment(cleaned)
    if unterminated is not None:
        source.diagnostics.append(Diagnostic(source.line_of(unterminated), 1, "warning", "unterminated comment",
                                             "syntax"))
    return source


def _unterminated_comment(data: bytes) -> int | None:
    """Where a block comment opens that nothing closes.  Not a count of `/*` against `*/`: a line
    comment of stars (`//*****`) holds a `/*`, and so may a string."""
    if data.count(b"/*") <= data.count(b"*/"):  # then every comment closes (the scan costs 30 ms a MB)
        return None
    for m in _COMMENT_OR_LITERAL.finditer(data):
        found = m.group()
        if found.startswith(b"/*") and (len(found) < 4 or not found.endswith(b"*/")):
            return m.start()
    return None


_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.MULTILINE)
INCLUDE_DEPTH = 6  # nested local headers followed for their macros
_header_macros: dict[Path, dict[str, Macro]] = {}


@lru_cache(maxsize=8192)
def _resolve(name: str, directory: Path, include_dirs: tuple[Path, ...]) -> Path | None:
    """A quoted include: next to the including file, in a directory above it (projects include
    paths relative to their root), or in an include directory given with -I (looked up once per
    process: every file of a project includes the same headers, and each lookup asks the file
    system up to eight times)."""
    candidates = [directory, *list(directory.parents)[:INCLUDE_DEPTH], *include_dirs]
    for base in candidates:
        path = base / name
        if path.is_file():
            return path.resolve()
    return None


def _included_macros(data: bytes, directory: Path, include_dirs: tuple[Path, ...],
                     depth: int = 0, seen: frozenset[Path] = frozenset()) -> dict[str, Macro]:
    """Macros of the local headers a file includes (recursively), for qualifier and generator
    macros defined once in a project header.  Headers are read, never parsed."""
    table: dict[str, Macro] = {}
    if depth >= INCLUDE_DEPTH:
        return table
    for m in _INCLUDE.finditer(data):
        path = _resolve(m.group(1).decode(errors="replace"), directory, include_dirs)
        if path is None or path in seen:
            continue
        if path not in _header_macros:
            try:
                raw = path.read_bytes()[:MAX_FILE_BYTES]
            except OSError:
                continue
            own = _macros(raw, {})
            nested = _included_macros(raw, path.parent, include_dirs, depth + 1, seen | {path})
            _header_macros[path] = {**nested, **own}
        for name, macro in _header_macros[path].items():
            table.setdefault(name, macro)
    return table


def macros_above(unit: Path, header: Path) -> dict[str, Macro] | None:
    """Macros `unit` has defined where it includes `header` directly: its own definitions above
    that `#include` and those of the local headers it includes above it.  None when it does not
    include `header` directly."""
    offset = next((at for at, path in _include_sites(unit) if path == header), None)
    if offset is None:
        return None
    above = unit.read_bytes()[:offset]
    return {**_included_macros(above, unit.parent, ()), **_macros(above, {})}


@cache
def _include_sites(unit: Path) -> tuple[tuple[int, Path], ...]:
    """The local headers a file includes directly, with the offset of each `#include` (read once
    per process: every file of a directory asks every other which includes it)."""
    try:
        data = unit.read_bytes()[:MAX_FILE_BYTES]
    except OSError:
        return ()
    sites = ((m.start(), _resolve(m.group(1).decode(errors="replace"), unit.parent, ()))
             for m in _INCLUDE.finditer(data))
    return tuple((at, path) for at, path in sites if path is not None)


def resolved(path: Path) -> Path:
    """`path.resolve()`, asked of the file system once per process (a file's analysis, its headers'
    scopes and its neighbours' project searches each resolve it, a system call per component); a
    relative path is taken from the current directory first, which may change."""
    return _resolved(path if path.is_absolute() else Path.cwd() / path)


@lru_cache(maxsize=4096)
def _resolved(path: Path) -> Path:
    return path.resolve()


def local_includes(path: Path, include_dirs: tuple[Path, ...] = ()) -> list[Path]:
    """The local headers a file includes, directly or through other local headers (nearest first)."""
    return list(_local_includes(path, include_dirs))


@lru_cache(maxsize=1024)
def _local_includes(path: Path, include_dirs: tuple[Path, ...]) -> tuple[Path, ...]:
    """local_includes, read once per process (the file's own analysis, its neighbours' project
    searches and the header scopes all ask)."""
    found: list[Path] = []
    here = resolved(path)
    queue, depth = [here], 0
    while queue and depth < INCLUDE_DEPTH:
        following = []
        for current in queue:
            try:
                data = current.read_bytes()[:MAX_FILE_BYTES]
            except OSError:
                continue
            for m in _INCLUDE.finditer(data):
                header = _resolve(m.group(1).decode(errors="replace"), current.parent, include_dirs)
                if header is not None and header not in found and header != here:
                    found.append(header)
                    following.append(header)
        queue, depth = following, depth + 1
    return tuple(found)


def read(path: str | Path, defines: dict[str, str] | None = None,
         include_dirs: tuple[Path, ...] = ()) -> SourceFile:
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise SourceError(f"{p}: file too large ({size // (1024 * 1024)} MiB > "
                              f"{MAX_FILE_BYTES // (1024 * 1024)} MiB limit)")
        raw = p.read_bytes()
    except OSError as exc:
        raise SourceError(f"{p}: cannot read ({exc.strerror or exc})") from None
    source = load(raw, str(p), defines)
    for name, macro in _included_macros(source.data, resolved(p).parent, include_dirs).items():
        if name not in source.macros:  # the file's own definitions and -D come first
            source.macros[name] = replace(macro, line=0)
    return source
