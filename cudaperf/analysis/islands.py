"""Recovering kernels the main parse lost.

A syntax error (an unknown macro, an unsupported construct) can swallow the definitions after
it into an ERROR node, and a macro such as ``#define KERNEL __global__ void`` hides the
qualifier from the grammar.  Each ``__global__`` (or qualifier macro) the main tree does not
account for starts an *island*: the text from there to the end of the definition's body,
re-parsed on its own with everything before it blanked out, so line and column numbers stay
those of the file.
"""

from __future__ import annotations

import re

from . import parse
from .parse import Node, Tree
from .source import SourceFile

_IN_TOKENS = ("comment", "string_literal", "raw_string_literal", "char_literal", "preproc_def",
              "preproc_function_def")


def _qualifier_macros(source: SourceFile) -> dict[str, str]:
    return {name: m.body for name, m in source.macros.items()
            if m.params is None and re.search(r"\b__global__\b", m.body)}


def hidden_kernel_starts(source: SourceFile, root: Node, covered: list[tuple[int, int]]) -> list[int]:
    macros = _qualifier_macros(source)
    names = ["__global__", *macros]
    pattern = re.compile(rb"\b(" + b"|".join(re.escape(n.encode()) for n in names) + rb")\b")
    starts = []
    for m in pattern.finditer(source.data):
        offset = m.start()
        if any(a <= offset < b for a, b in covered):
            continue
        node = root.descendant_for_byte_range(offset, m.end())
        inside_token = False
        while node is not None:
            if node.type in _IN_TOKENS:
                inside_token = True
                break
            node = node.parent
        if not inside_token:
            starts.append(offset)
    return starts


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


def reparse(source: SourceFile, start: int) -> Tree | None:
    data = source.data
    line_start = data.rfind(b"\n", 0, start) + 1
    prefix = data[line_start:start]
    if re.fullmatch(rb"[ \t]*(template\s*<[^>]*>\s*)?", prefix) is None and prefix.strip():
        line_start = start
    found = _definition_end(data, start)
    if found is None:
        return None
    end, unclosed = found
    head = bytes(b if b == 10 else 32 for b in data[:line_start])
    body = data[line_start:end] + b"}" * unclosed
    for name, expansion in _qualifier_macros(source).items():
        body = re.sub(rb"\b" + re.escape(name.encode()) + rb"\b", expansion.encode(), body)
    return parse.parse(head + body)
