"""C reference tasks: a C function plus a harness spec (signature, input generators, configurations).
The reference is compiled with the system C compiler and called through ctypes on NumPy arrays, on
the CPU, to produce the expected outputs; this module needs neither torch nor a GPU."""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from .spec import Expr, SpecError, load_spec_text

_EMBEDDED = re.compile(r"/\*\s*cudaperf:harness\s*(\{.*?\})\s*\*/", re.S)
SCALARS = {"int": ("int32", ctypes.c_int32), "int32_t": ("int32", ctypes.c_int32),
           "unsigned": ("uint32", ctypes.c_uint32), "unsigned int": ("uint32", ctypes.c_uint32),
           "uint32_t": ("uint32", ctypes.c_uint32), "long": ("int64", ctypes.c_int64),
           "long long": ("int64", ctypes.c_int64), "int64_t": ("int64", ctypes.c_int64),
           "size_t": ("uint64", ctypes.c_uint64), "uint64_t": ("uint64", ctypes.c_uint64),
           "float": ("float32", ctypes.c_float), "double": ("float64", ctypes.c_double)}
POINTERS = {"float": "float32", "double": "float64", "int": "int32", "int32_t": "int32", "long": "int64",
            "long long": "int64", "int64_t": "int64", "unsigned char": "uint8", "uint8_t": "uint8",
            "char": "int8", "signed char": "int8", "int8_t": "int8", "unsigned": "uint32",
            "unsigned int": "uint32", "uint32_t": "uint32", "short": "int16", "int16_t": "int16"}
_GENERATOR = re.compile(r"^\s*(uniform|normal|randint|zeros|ones)\s*(?:\(([^)]*)\))?\s*$")


@dataclass(frozen=True)
class Arg:
    name: str
    ctype: str              # normalised C type without const, e.g. "float*" or "int"
    dtype: str              # NumPy dtype name of the scalar or the pointee
    pointer: bool
    shape: Expr | None
    init: tuple[str, tuple[float, ...]]
    output: bool


@dataclass(frozen=True)
class Harness:
    function: str
    args: list[Arg]
    configs: list[dict[str, int | float]]
    atol: float | None
    rtol: float | None

    @property
    def outputs(self) -> list[Arg]:
        return [a for a in self.args if a.output]


def _generator(text: str | None, dtype: str, output: bool = False) -> tuple[str, tuple[float, ...]]:
    if text is None and output:
        return "poison", ()   # a pure output: zeros for the C reference, poisoned for the candidate
    if text is None:
        return ("normal", (0.0, 1.0)) if dtype.startswith("float") else ("randint", (0, 100))
    m = _GENERATOR.match(str(text))
    if m is None:
        raise SpecError(f"input generator must be uniform(lo, hi), normal(mean, std), randint(lo, hi), zeros or "
                        f"ones, got {text!r}")
    try:
        params = tuple(float(p) for p in m.group(2).split(",")) if m.group(2) and m.group(2).strip() else ()
    except ValueError:
        raise SpecError(f"generator parameters must be numbers: {text!r}") from None
    expected = {"uniform": 2, "normal": 2, "randint": 2, "zeros": 0, "ones": 0}[m.group(1)]
    if len(params) != expected:
        raise SpecError(f"{m.group(1)} takes {expected} parameters: {text!r}")
    return m.group(1), params


def _ctype(text: str) -> tuple[str, bool]:
    t = " ".join(str(text).replace("const", " ").replace("*", " * ").split())
    pointer = t.endswith("*")
    base = t.rstrip("* ").strip()
    if base not in (POINTERS if pointer else SCALARS):
        raise SpecError(f"unsupported C type {text!r}")
    return base, pointer


def parse_harness(data: Any) -> Harness:
    if not isinstance(data, dict) or not isinstance(data.get("function"), str):
        raise SpecError("a harness spec is a mapping with 'function', 'args' and 'configs'")
    args = []
    for entry in data.get("args", []):
        if not isinstance(entry, dict) or not str(entry.get("name", "")).isidentifier() or "type" not in entry:
            raise SpecError(f"each harness arg needs 'name' and 'type', got {entry!r}")
        base, pointer = _ctype(entry["type"])
        dtype = POINTERS[base] if pointer else SCALARS[base][0]
        if pointer and "shape" not in entry:
            raise SpecError(f"pointer argument {entry['name']!r} needs a 'shape'")
        shape = entry.get("shape")
        args.append(Arg(entry["name"], base + ("*" if pointer else ""), dtype, pointer,
                        Expr(str(shape) if not isinstance(shape, list) else "[" + ", ".join(map(str, shape)) + "]")
                        if pointer else None, _generator(entry.get("init"), dtype, bool(entry.get("output"))),
                        bool(entry.get("output"))))
    if not any(a.output for a in args):
        raise SpecError("a harness needs at least one output pointer ('output': true)")
    if any(a.output and not a.pointer for a in args):
        raise SpecError("outputs are pointer arguments")
    configs = data.get("configs") or [{}]
    scalars = {a.name for a in args if not a.pointer}
    for config in configs:
        if not isinstance(config, dict) or set(config) != scalars:
            raise SpecError(f"each config gives every scalar argument ({', '.join(sorted(scalars))}): {config!r}")
    return Harness(data["function"], args, configs, data.get("atol"), data.get("rtol"))


def embedded_harness(c_source: str) -> Any | None:
    m = _EMBEDDED.search(c_source)
    return None if m is None else load_spec_text(m.group(1))


def make_inputs(harness: Harness, config: dict, seed: int) -> dict[str, Any]:
    """Scalars from the config, arrays from the generators (fresh values for each seed)."""
    rng = np.random.default_rng(seed & 0xFFFFFFFF)
    values: dict[str, Any] = {}
    for arg in harness.args:
        if not arg.pointer:
            values[arg.name] = np.dtype(arg.dtype).type(config[arg.name]).item()
    for arg in harness.args:
        if not arg.pointer:
            continue
        shape = arg.shape(values)
        shape = tuple(int(s) for s in (shape if isinstance(shape, list | tuple) else [shape]))
        kind, p = arg.init
        if kind == "uniform":
            data = rng.uniform(p[0], p[1], shape)
        elif kind == "normal":
            data = rng.normal(p[0], p[1], shape)
        elif kind == "randint":
            data = rng.integers(int(p[0]), int(p[1]), shape)
        else:
            data = np.ones(shape) if kind == "ones" else np.zeros(shape)
        values[arg.name] = np.ascontiguousarray(data.astype(arg.dtype))
    return values


def call_reference(library: str, harness: Harness, values: dict[str, Any]) -> dict[str, np.ndarray]:
    """Run the C function on copies of the arrays; returns every pointer argument after the call."""
    fn = getattr(ctypes.CDLL(library), harness.function)
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p if a.pointer else SCALARS[a.ctype][1] for a in harness.args]
    arrays = {a.name: values[a.name].copy() for a in harness.args if a.pointer}
    fn(*[arrays[a.name].ctypes.data if a.pointer else values[a.name] for a in harness.args])
    return arrays
