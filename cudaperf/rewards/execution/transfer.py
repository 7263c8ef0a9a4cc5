"""Values crossing between the checker and the candidate's worker: inputs one way, outputs the other.

Both processes hold their own copies: the checker writes a value into a directory of the worker's
private tree (one raw file per tensor plus `value.json` describing the nesting), the worker reads it
into its own memory, and its outputs come back the same way.  No pickle: what a candidate writes is
read as raw bytes of a dtype from a fixed list, with the total size capped by the reader, so a
hostile output can be wrong but never code, and never larger than the checker allows.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import torch

DTYPES = {str(d).removeprefix("torch."): d for d in (
    torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64, torch.complex128,
    torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool)}
_MAX_DEPTH = 4
_MAX_ITEMS = 4096   # a model's state dict has one item per parameter
_MAX_TEXT = 256


class TransferError(Exception):
    """What came back is not a value the checker accepts (shape, dtype, size or form)."""


def write(value: Any, directory: Path) -> None:
    """`value` (tensors, numbers, short strings, None, lists and tuples of them) as files under `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    files: list[int] = [0]

    def describe(v: Any, depth: int) -> Any:
        if depth > _MAX_DEPTH:
            raise TransferError(f"values nested deeper than {_MAX_DEPTH}")
        if isinstance(v, torch.Tensor):
            dtype = str(v.dtype).removeprefix("torch.")
            if dtype not in DTYPES:
                raise TransferError(f"tensor of dtype {dtype}")
            name = f"t{files[0]}.bin"
            files[0] += 1
            data = v.detach().contiguous().cpu()
            data.reshape(-1).view(torch.uint8).numpy().tofile(directory / name) if data.numel() else \
                (directory / name).write_bytes(b"")
            return {"tensor": name, "dtype": dtype, "shape": list(v.shape), "device": v.device.type,
                    "subclass": type(v) is not torch.Tensor}
        if isinstance(v, list | tuple):
            if len(v) > _MAX_ITEMS:
                raise TransferError(f"more than {_MAX_ITEMS} values")
            return {"list" if isinstance(v, list) else "tuple": [describe(x, depth + 1) for x in v]}
        if v is None or isinstance(v, bool | int | float):
            return {"scalar": v}
        if isinstance(v, str) and len(v) <= _MAX_TEXT:
            return {"text": v}
        raise TransferError(f"a value of type {type(v).__name__}")

    text = json.dumps(describe(value, 0))
    temporary = directory / f".value.{os.getpid()}"
    temporary.write_text(text)
    temporary.replace(directory / "value.json")


def read(directory: Path, device: str, max_bytes: int) -> Any:
    """The value written by `write`, its tensors on `device`; TransferError when it breaks a rule."""
    try:
        text = (directory / "value.json").read_text()[:1 << 20]
        tree = json.loads(text)
    except (OSError, ValueError) as exc:
        raise TransferError(f"no readable value ({type(exc).__name__})") from None
    budget = [max_bytes]

    def build(node: Any, depth: int) -> Any:
        if depth > _MAX_DEPTH or not isinstance(node, dict) or len(node) == 0:
            raise TransferError("malformed value")
        if "tensor" in node:
            return _tensor(directory, node, device, budget)
        for kind in ("list", "tuple"):
            if kind in node:
                items = node[kind]
                if not isinstance(items, list) or len(items) > _MAX_ITEMS:
                    raise TransferError("malformed value")
                values = [build(x, depth + 1) for x in items]
                return values if kind == "list" else tuple(values)
        if "scalar" in node and (node["scalar"] is None or isinstance(node["scalar"], bool | int | float)):
            return node["scalar"]
        if isinstance(node.get("text"), str) and len(node["text"]) <= _MAX_TEXT:
            return node["text"]
        raise TransferError("malformed value")

    return build(tree, 0)


def _tensor(directory: Path, node: dict, device: str, budget: list[int]) -> torch.Tensor:
    name, dtype, shape = node.get("tensor"), node.get("dtype"), node.get("shape")
    if not (isinstance(name, str) and name.startswith("t") and name.endswith(".bin") and "/" not in name
            and dtype in DTYPES and isinstance(shape, list) and len(shape) <= 8
            and all(isinstance(s, int) and s >= 0 for s in shape)):
        raise TransferError("malformed tensor description")
    numel = 1
    for s in shape:
        numel *= s
    nbytes = numel * DTYPES[dtype].itemsize
    budget[0] -= nbytes
    if budget[0] < 0:
        raise TransferError(f"outputs larger than the {budget[0] + nbytes} bytes the reference's allow")
    path = directory / name
    if path.is_symlink() or not path.is_file() or path.stat().st_size != nbytes:
        raise TransferError(f"tensor data of the wrong size for shape {tuple(shape)} {dtype}")
    raw = torch.empty(nbytes, dtype=torch.uint8)
    if _read_into(path, memoryview(raw.numpy())) != nbytes:
        raise TransferError(f"tensor data of the wrong size for shape {tuple(shape)} {dtype}")
    tensor = raw.view(DTYPES[dtype]).reshape(shape)
    return tensor.to(device) if device != "cpu" else tensor


def _read_into(path: Path, buffer: memoryview) -> int:
    """Bytes read into `buffer` with read(2), not a mapping: a writer truncating its file meanwhile gives
    a short read here, never a SIGBUS."""
    done = 0
    with open(path, "rb", buffering=0) as f:
        while done < len(buffer):
            got = f.readinto(buffer[done:])
            if not got:
                break
            done += got
    return done


def described_device(directory: Path) -> list[tuple[str, bool]]:
    """(device, subclass) of every tensor the writer described: the worker's own account of what its
    outputs were before they were copied (a subclass or a CPU output is an `output-structure` error)."""
    try:
        tree = json.loads((directory / "value.json").read_text()[:1 << 20])
    except (OSError, ValueError):
        return []
    found: list[tuple[str, bool]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "tensor" in node:
                found.append((str(node.get("device")), bool(node.get("subclass"))))
            for kind in ("list", "tuple"):
                for x in node.get(kind, []) if isinstance(node.get(kind), list) else []:
                    walk(x)

    walk(tree)
    return found
