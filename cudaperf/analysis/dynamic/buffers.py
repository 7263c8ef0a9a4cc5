"""Kernel arguments for a measured run: buffer sizes, element types, initial values, scalars.

A pointer parameter gets a device buffer.  Its element type comes from the pointee (``float4`` ->
float32 x 4, a struct of mixed fields -> its bytes); its size from ``--buffer NAME=COUNT[:DTYPE[:INIT]]``
where COUNT is an integer or an expression over the scalar arguments (``n*32``, ``rows*pitch+1``),
counted in elements of the pointee (in scalars of DTYPE when DTYPE is given); without one, one
element per launched thread.  Initial values follow the calibration manifests (tests/corpus/README.md):
``random`` (floats uniform in [-1, 1], integers in [0, 16)), ``zeros``, ``arange``,
``random_index:MAX``; the generator is seeded from the buffer's name, so reruns see the same data.
"""

from __future__ import annotations

import ast
import operator
import zlib
from dataclasses import dataclass

from ..ctype import CType

DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
          "uint8", "uint16", "uint32", "uint64", "bool")
_BFLOAT = ("__nv_bfloat16", "nv_bfloat16")
_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
              ast.Div: operator.floordiv}


class BufferError(ValueError):
    """A buffer or argument the run cannot be given (bad spec, unknown name, unsupported type)."""


@dataclass(frozen=True)
class BufferRequest:
    """``--buffer NAME=COUNT[:DTYPE[:INIT]]`` as given."""

    name: str
    count: str
    dtype: str | None = None
    init: str | None = None


@dataclass(frozen=True)
class BufferSpec:
    name: str
    dtype: str
    count: int  # scalars of dtype
    init: str

    def to_json(self) -> dict:
        return {"dtype": self.dtype, "count": self.count, "init": self.init}


def parse_request(text: str) -> BufferRequest:
    name, sep, rest = text.partition("=")
    parts = rest.split(":")
    if not sep or not name.strip().isidentifier() or not parts[0].strip():
        raise BufferError(f"expected NAME=COUNT[:DTYPE[:INIT]], got {text!r}")
    dtype = parts[1].strip() if len(parts) > 1 and parts[1].strip() else None
    init = ":".join(parts[2:]).strip() or None
    if dtype is not None and dtype not in DTYPES:
        raise BufferError(f"buffer {name}: dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
    if init is not None:
        _check_init(name, init)
    return BufferRequest(name.strip(), parts[0].strip(), dtype, init)


def _check_init(name: str, init: str) -> None:
    kind, _, bound = init.partition(":")
    if kind in ("random", "zeros", "arange") and not bound:
        return
    if kind == "random_index" and bound.isdigit() and int(bound) > 0:
        return
    raise BufferError(f"buffer {name}: init must be random, zeros, arange or random_index:MAX, got {init!r}")


def evaluate_count(expr: str, args: dict[str, float]) -> int:
    """An element count: integers, scalar argument names, + - * / (integer division) and parentheses."""
    def value(node: ast.AST) -> int:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in args:
                raise BufferError(f"count {expr!r}: no scalar argument {node.id} (give it with --arg)")
            return int(args[node.id])
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](value(node.left), value(node.right))
        raise BufferError(f"count {expr!r}: only integers, argument names and + - * / are allowed")

    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        raise BufferError(f"count {expr!r} is not an expression") from None
    count = value(tree.body)
    if count < 0:
        raise BufferError(f"count {expr!r} is negative ({count})")
    return count


def scalar_dtype(t: CType) -> str | None:
    """The numpy dtype of a scalar C type; None for structs, vectors and unknown types."""
    if t.fields or t.is_array or t.name == "?":
        return None
    if t.name in _BFLOAT:
        return "bfloat16"
    if t.name == "bool":
        return "bool"
    if t.is_float:
        return {2: "float16", 4: "float32", 8: "float64"}.get(t.size)
    unsigned = t.name.startswith(("unsigned", "u")) or t.name == "size_t"
    return f"{'u' if unsigned else ''}int{8 * t.size}" if t.size in (1, 2, 4, 8) else None


def element(t: CType) -> tuple[str, int, str]:
    """(dtype, scalars per element, default init) of a pointee type."""
    own = scalar_dtype(t)
    if own is not None:
        return own, 1, "random"
    kinds = {scalar_dtype(f) for _, _, f in t.fields}
    if t.fields and len(kinds) == 1 and None not in kinds and sum(f.size for _, _, f in t.fields) == t.size:
        return kinds.pop(), len(t.fields), "random"  # vector types and structs of one scalar type
    return "uint8", max(t.size, 1), "zeros"


def specs(pointers: dict[str, CType], requests: dict[str, BufferRequest], args: dict[str, float],
          threads: int) -> list[BufferSpec]:
    """One spec per pointer parameter, in parameter order."""
    unknown = sorted(set(requests) - set(pointers))
    if unknown:
        raise BufferError(f"--buffer names no pointer parameter: {', '.join(unknown)} "
                          f"(pointers: {', '.join(pointers) or 'none'})")
    out = []
    for name, pointee in pointers.items():
        dtype, per_element, init = element(pointee)
        request = requests.get(name)
        if request is None:
            out.append(BufferSpec(name, dtype, threads * per_element, init))
            continue
        count = evaluate_count(request.count, args)
        if request.dtype is None:
            count *= per_element
        out.append(BufferSpec(name, request.dtype or dtype, count, request.init or init))
    return out


def host_array(spec: BufferSpec, seed: int | None = None):
    """The buffer's initial contents on the host (numpy), seeded by its name unless a seed is given."""
    import numpy as np

    rng = np.random.default_rng(zlib.crc32(spec.name.encode()) if seed is None else seed)
    storage = "uint16" if spec.dtype == "bfloat16" else spec.dtype
    kind, _, bound = spec.init.partition(":")
    if kind == "zeros":
        return np.zeros(spec.count, dtype=storage)
    if kind == "arange":
        dtype = np.dtype(storage)
        if dtype.kind in "iu":
            return (np.arange(spec.count, dtype=np.int64) % (int(np.iinfo(dtype).max) + 1)).astype(dtype)
        return np.arange(spec.count, dtype=dtype)
    if kind == "random_index":
        return rng.integers(0, int(bound), size=spec.count, dtype=np.int64).astype(storage)
    if spec.dtype == "bfloat16":  # the top half of a float32 is its bfloat16
        return (rng.uniform(-1.0, 1.0, size=spec.count).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    if np.dtype(storage).kind == "f":
        return rng.uniform(-1.0, 1.0, size=spec.count).astype(storage)
    return rng.integers(0, 16 if storage != "bool" else 2, size=spec.count, dtype=np.int64).astype(storage)
