"""Recovering kernel definitions the main parse cannot see.

A syntax error (an unknown macro, an unsupported construct) can swallow the definitions after
it into an ERROR node; a macro can hide the qualifier (``#define KERNEL __global__ void``) or
generate the whole kernel (``DEFINE_ACT(relu, ...)``, X-macro lists); ``#ifdef`` can split a
signature.  Each ``__global__`` (or macro producing one) that no found kernel accounts for starts
an *island*: the region re-parsed on its own, with everything before it blanked out so line and
column numbers stay those of the file.  A qualifier island is the definition with its signature
preprocessed; a generator island is the macro invocation expanded in place (its kernels all
report the invocation's line).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import parse
from .macros import expand, first_branches
from .parse import Node, Tree
from .source import SourceFile

_IN_TOKENS = ("comment", "string_literal", "raw_string_literal", "char_literal", "preproc_def",
              "preproc_function_def", "system_lib_string")
_GLOBAL = re.compile(r"\b__global__\b")
_WORD = re.compile(r"[A-Za-z_]\w*")
_TEMPLATE_ABOVE = re.compile(r"(?<![\w:])template[ \t]*<[^;{}]*>[ \t]*\r?\n\s*\Z")
_UNKNOWN_ATTRIBUTE = re.compile(r"\b[A-Z][A-Z0-9_]{2,}\b")
# what nvcc defines while compiling device code: decides `#ifdef` chains inside islands
COMPILER_DEFINES = {"__CUDACC__", "__NVCC__", "__CUDA_ARCH__", "__CUDACC_VER_MAJOR__"}


@dataclass
class Island:
    start: int  # region of the file the island stands for
    end: int
    text: str  # what is parsed in its place
    closed: bool = True  # False where the file never closes the definition's braces (the text closes them)

    def parse(self, data: bytes) -> Tree:
        head = bytes(b if b == 10 else 32 for b in data[:self.start])
        return parse.parse(head + self.text.encode(errors="replace"))

    def without_body(self) -> Island:
        """The same definition with its body emptied (lines kept): a body the grammar cannot read
        at all still leaves the kernel reported."""
        brace = _body_start(self.text)
        body = self.text[brace:]
        return Island(self.start, self.end, self.text[:brace] + "{" + "\n" * body.count("\n") + "}", self.closed)


def _kernel_macros(source: SourceFile) -> set[str]:
    """Macros whose expansion can contain `__global__`, directly or through other macros."""
    found = {name for name, m in source.macros.items() if _GLOBAL.search(m.body)}
    uses = {name: set(_WORD.findall(m.body)) for name, m in source.macros.items() if name not in found}
    while True:
        more = {name for name, words in uses.items() if name not in found and words & found}
        if not more:
            return found
        found |= more


def _in_token(root: Node, start: int, end: int) -> bool:
    node = root.descendant_for_byte_range(start, end)
    while node is not None:
        if node.type in _IN_TOKENS:
            return True
        node = node.parent
    return False


def _definition_end(data: bytes, start: int) -> tuple[int, int] | None:
    """Byte after the closing brace of the first body after `start`, and how many braces the file
    never closed (None for a declaration without a body)."""
    i, n = start, len(data)
    paren = 0
    while i < n:
        c = data[i]
        if c == ord("("):
            paren += 1
        elif c == ord(")"):
            paren -= 1
        elif c == ord(";") and paren == 0:
            return None
        elif c == ord("{") and paren == 0:
            break
        i += 1
    if i >= n:
        return None
    depth = 0
    while i < n:
        c = data[i]
        if c == ord("{"):
            depth += 1
        elif c == ord("}"):
            depth -= 1
            if depth == 0:
                return i + 1, 0
        i += 1
    return n, depth


def _enclosing_invocation(text: str, offset: int) -> tuple[int, str] | None:
    """For a macro name used as an argument (`LIST(DEFINE_KERNEL)`), the start and name of the call."""
    depth = 0
    for i in range(offset - 1, -1, -1):
        ch = text[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            if depth == 0:
                m = re.search(r"([A-Za-z_]\w*)\s*$", text[:i])
                return (m.start(1), m.group(1)) if m else None
            depth -= 1
        elif ch in ";{}" and depth == 0:
            return None
    return None


def _invocation_end(text: str, start: int, name: str) -> int:
    i = start + len(name)
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    if i < len(text) and text[i] == "(":
        depth = 0
        for j in range(i, len(text)):
            depth += text[j] == "("
            depth -= text[j] == ")"
            if depth == 0:
                return j + 1
    return start + len(name)


def find(source: SourceFile, root: Node, covered: list[tuple[int, int]]) -> list[Island]:
    """Islands for every kernel-producing token no found kernel covers, in file order."""
    data = source.as_written()  # `DEFINE_FILL(float, f32)` expands with its type, not the `0` the parse read
    text = data.decode(errors="replace")
    if len(text) != len(data):  # keep byte offsets valid for the tree
        text = data.decode("latin-1")
    names = ["__global__", *sorted(_kernel_macros(source))]
    pattern = re.compile(r"\b(" + "|".join(re.escape(n) for n in names) + r")\b")
    defined = set(source.macros) | COMPILER_DEFINES
    covered = list(covered)
    islands: list[Island] = []
    for m in pattern.finditer(text):
        start, name = m.start(), m.group(1)
        if any(a <= start < b for a, b in covered) or _in_token(root, start, m.end()):
            continue
        macro = source.macros.get(name)
        if macro is not None and macro.params is not None and \
                not re.match(r"\s*\(", text[m.end():m.end() + 200]):
            outer = _enclosing_invocation(text, start)  # an X-macro list applied to this macro
            if outer is None or outer[1] not in source.macros:
                continue
            start, name = outer
            if any(a <= start < b for a, b in covered):
                continue
        island = _island(source, text, start, name, defined)
        if island is not None:
            islands.append(island)
            covered.append((island.start, island.end))
    return islands


def _island(source: SourceFile, text: str, start: int, name: str, defined: set[str]) -> Island | None:
    macro = source.macros.get(name)
    if macro is not None:
        end = _invocation_end(text, start, name)
        expansion = expand(text[start:end], source.macros)
        if "{" in expansion:  # the macro generates whole definitions
            return Island(start, end, " ".join(expansion.split()))
    line_start = text.rfind("\n", 0, start) + 1
    prefix = text[line_start:start]
    if not re.fullmatch(r"[ \t]*(template\s*<[^>]*>\s*)?", prefix):
        line_start = start
    elif not prefix.strip():  # `template <class T>` on the line above: the definition's, so its parameters bind
        above = _TEMPLATE_ABOVE.search(text[max(line_start - 400, 0):line_start])
        if above is not None:
            line_start = max(line_start - 400, 0) + above.start()
    found = _definition_end(source.data, start)
    if found is None:
        return None
    end, unclosed = found
    region = text[line_start:end]
    brace = _body_start(region)
    signature = _drop_unknown_attributes(expand(first_branches(region[:brace], defined), source.macros))
    signature = signature.replace("\n", " ") if "\n" not in region[:brace] else \
        _keep_lines(region[:brace], signature)
    return Island(line_start, end, signature + region[brace:] + "}" * unclosed, closed=not unclosed)


def _drop_unknown_attributes(signature: str) -> str:
    """Blank bare ALL_CAPS identifiers outside the parameter list that no macro defines (attribute
    macros from headers the project did not ship: `__global__ void LAUNCH_BOUNDS_DEFAULT k(...)`)."""
    out, depth = [], 0
    last = 0
    for i, ch in enumerate(signature):
        if ch in "(<":
            depth += 1
        elif ch in ")>":
            depth -= 1
        elif depth == 0 and ch.isupper() and (i == 0 or not (signature[i - 1].isalnum() or signature[i - 1] == "_")):
            m = _UNKNOWN_ATTRIBUTE.match(signature, i)
            if m and not signature[m.end():].lstrip().startswith("("):
                out.append(signature[last:i] + " " * (m.end() - i))
                last = m.end()
    out.append(signature[last:])
    return "".join(out)


def _body_start(region: str) -> int:
    depth = 0
    for i, ch in enumerate(region):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "{" and depth == 0:
            return i
    return len(region)


def _keep_lines(original: str, expanded: str) -> str:
    """Pad the expanded signature with newlines so the body starts on its original line."""
    missing = original.count("\n") - expanded.count("\n")
    return expanded + "\n" * max(0, missing)
