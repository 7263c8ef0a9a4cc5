"""The candidate inside a model's completion.  Models answer with prose around fenced code, in plain
text or as chat messages; a reward must find the code the way a reader would, and refuse (None)
rather than guess when there is none."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_FENCE = re.compile(r"```[ \t]*([\w+#.-]*)[^\n]*\n(.*?)(?:```|\Z)", re.S)  # an unclosed fence runs to the end
_PYTHON = {"python", "py", "python3"}
_SPEC = {"json", "yaml", "yml"}


@dataclass(frozen=True)
class Code:
    """`language` is python (a KernelBench `ModelNew` module) or cuda (kernels, with a launch spec
    embedded or given in a ```json block beside them)."""

    source: str
    language: str
    spec: dict | None = None


def completion_text(completion: Any) -> str:
    """The text of a completion: a string, a chat message, or a list of messages (the last
    assistant message; content may be a list of typed parts)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):
        content = completion.get("content", "")
        if isinstance(content, str):
            return content
        return "".join(part.get("text", "") for part in content if isinstance(part, Mapping))
    if isinstance(completion, Sequence):
        messages = [m for m in completion if isinstance(m, Mapping)]
        replies = [m for m in messages if m.get("role", "assistant") == "assistant"] or messages
        return completion_text(replies[-1]) if replies else ""
    return ""


def _launch_spec(text: str) -> dict | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) and "launches" in data else None


def extract(completion: Any) -> Code | None:
    """A `ModelNew` module wins over CUDA blocks (its kernels live in strings); otherwise every
    block holding a `__global__` kernel, in order.  Unfenced text counts as one block."""
    text = completion_text(completion)
    blocks = [(m.group(1).lower(), m.group(2)) for m in _FENCE.finditer(text)] or [("", text)]
    python = [body for lang, body in blocks if "class ModelNew" in body and lang not in _SPEC]
    if python:
        return Code(python[-1], "python")
    cuda = [body for lang, body in blocks if lang not in _PYTHON | _SPEC and "__global__" in body]
    if not cuda:
        return None
    specs = [s for lang, body in blocks if lang in _SPEC or not lang for s in [_launch_spec(body)] if s]
    return Code("\n".join(cuda), "cuda", specs[-1] if specs else None)
