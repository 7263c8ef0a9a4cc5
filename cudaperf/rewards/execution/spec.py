"""Launch specs: which tensors and scalars go to which kernel, with grid and block as expressions of
the input shapes.  Parsed and validated here, without torch, so a malformed spec is rejected on the
CPU before any worker starts; evaluated in the worker against real tensors.

Expressions are a small arithmetic language checked node by node (never `eval`): integers and
floats, names, `+ - * / // % ** << >> & |`, `x.shape[i]`, `x.numel`, `x.ndim`, `x.itemsize`,
lists, and the functions in FUNCTIONS.  `int32(e)`, `int64(e)`, `uint32(e)`, `uint64(e)`,
`float32(e)`, `float64(e)` give a kernel argument its C type; a bare integer is `int`, a bare float
`float`, a bare tensor name its device pointer.
"""

from __future__ import annotations

import ast
import json
import math
import re
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .pysource import parse as parse_python

DTYPES = ("float32", "float16", "bfloat16", "float64", "int8", "uint8", "int16", "int32", "int64", "bool")
SCALAR_TYPES = {"int32": "i", "int64": "q", "uint32": "I", "uint64": "Q", "float32": "f", "float64": "d"}
_INT_LIMIT = 1 << 64
_EMBEDDED = re.compile(r"/\*\s*cudaperf:launch\s*(\{.*?\})\s*\*/", re.S)


class SpecError(ValueError):
    """The spec is malformed or names something that does not exist (the candidate's fault)."""


@dataclass(frozen=True)
class Scalar:
    """A kernel argument passed by value, with its C type code (struct module letters)."""

    code: str
    value: int | float


def _cdiv(a: int, b: int) -> int:
    return -(-int(a) // int(b))


FUNCTIONS = {"cdiv": _cdiv, "min": min, "max": max, "int": int, "abs": abs,
             **{name: partial(Scalar, code) for name, code in SCALAR_TYPES.items()}}
_BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
           ast.Pow: lambda a, b: a ** b, ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b,
           ast.BitAnd: lambda a, b: a & b, ast.BitOr: lambda a, b: a | b}
_ATTRS = ("shape", "numel", "ndim", "itemsize")


def _shape(value: Any) -> tuple[int, ...]:
    return tuple(int(s) for s in value.shape)


def _attribute(value: Any, name: str) -> Any:
    if not hasattr(value, "shape"):
        raise SpecError(f".{name} of a value that is not a tensor")
    if name == "shape":
        return _shape(value)
    if name == "numel":
        return math.prod(_shape(value))
    if name == "ndim":
        return len(_shape(value))
    return int(value.element_size()) if hasattr(value, "element_size") else int(value.itemsize)


class Expr:
    """One parsed expression; `names` are the free names it uses (checked against the binding)."""

    def __init__(self, text: str | int | float):
        self.text = str(text)
        try:
            self.tree = parse_python(self.text.strip(), mode="eval").body
        except SyntaxError as exc:
            raise SpecError(f"cannot parse expression {self.text!r}: {exc.msg}") from None
        self.names: set[str] = set()
        self._check(self.tree)

    def _check(self, node: ast.AST) -> None:
        if isinstance(node, ast.Constant):
            if not isinstance(node.value, int | float) or isinstance(node.value, bool):
                raise SpecError(f"only numbers are allowed as constants in {self.text!r}")
        elif isinstance(node, ast.Name):
            self.names.add(node.id)
        elif isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            self._check(node.left)
            self._check(node.right)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            self._check(node.operand)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS \
                and not node.keywords:
            for arg in node.args:
                self._check(arg)
        elif isinstance(node, ast.Attribute) and node.attr in _ATTRS:
            self._check(node.value)
        elif isinstance(node, ast.Subscript):
            self._check(node.value)
            self._check(node.slice)
        elif isinstance(node, ast.List | ast.Tuple):
            for element in node.elts:
                self._check(element)
        else:
            raise SpecError(f"{type(node).__name__} is not allowed in launch expressions ({self.text!r})")

    def __call__(self, env: dict[str, Any]) -> Any:
        return self._eval(self.tree, env)

    def _eval(self, node: ast.AST, env: dict[str, Any]) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in env:
                raise SpecError(f"unknown name {node.id!r} in {self.text!r}")
            return env[node.id]
        if isinstance(node, ast.BinOp):
            left, right = self._eval(node.left, env), self._eval(node.right, env)
            if isinstance(node.op, ast.Pow) and (abs(right) > 64 or abs(left) > _INT_LIMIT):
                raise SpecError(f"exponent too large in {self.text!r}")
            try:
                value = _BINOPS[type(node.op)](left, right)
            except (TypeError, ZeroDivisionError, ValueError) as exc:
                raise SpecError(f"{exc} in {self.text!r}") from None
            if isinstance(value, int) and abs(value) >= _INT_LIMIT:
                raise SpecError(f"integer overflow in {self.text!r}")
            return value
        if isinstance(node, ast.UnaryOp):
            value = self._eval(node.operand, env)
            return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.Call):
            try:
                return FUNCTIONS[node.func.id](*(self._eval(a, env) for a in node.args))
            except (TypeError, ValueError, ZeroDivisionError) as exc:
                raise SpecError(f"{exc} in {self.text!r}") from None
        if isinstance(node, ast.Attribute):
            return _attribute(self._eval(node.value, env), node.attr)
        if isinstance(node, ast.Subscript):
            container, index = self._eval(node.value, env), self._eval(node.slice, env)
            try:
                return container[index]
            except (IndexError, TypeError) as exc:
                raise SpecError(f"{exc} in {self.text!r}") from None
        return [self._eval(e, env) for e in node.elts]  # List / Tuple: _check allowed nothing else


def _dims(value: Any, what: str) -> list[Expr]:
    items = value if isinstance(value, list) else [value]
    if not 1 <= len(items) <= 3:
        raise SpecError(f"{what} needs 1 to 3 dimensions, got {value!r}")
    return [Expr(v) for v in items]


@dataclass(frozen=True)
class Launch:
    kernel: str
    grid: list[Expr]
    block: list[Expr]
    smem: Expr
    args: list[Expr]


@dataclass(frozen=True)
class Buffer:
    """An output or scratch tensor the harness allocates: outputs are poisoned before every call,
    scratch buffers zeroed (`init: zeros`) or poisoned."""

    name: str
    shape: Expr | None
    dtype: str | None
    like: str | None
    init: str


@dataclass(frozen=True)
class LaunchSpec:
    inputs: list[str] = field(default_factory=list)
    init: list[str] = field(default_factory=list)
    params: dict[str, str] = field(default_factory=dict)
    outputs: list[Buffer] = field(default_factory=list)
    buffers: list[Buffer] = field(default_factory=list)
    launches: list[Launch] = field(default_factory=list)
    raw: dict = field(default_factory=dict)

    @property
    def kernels(self) -> list[str]:
        return list(dict.fromkeys(launch.kernel for launch in self.launches))

    def check_names(self, known: set[str]) -> None:
        """Every name used in an expression is bound (inputs, init values, params, buffers, `known`)."""
        bound = set(known) | set(self.inputs) | set(self.init) | set(self.params)
        for buffer in [*self.outputs, *self.buffers]:
            used = (buffer.shape.names if buffer.shape else set()) | ({buffer.like} if buffer.like else set())
            if used - bound:
                raise SpecError(f"buffer {buffer.name!r} uses unknown name(s) {', '.join(sorted(used - bound))}")
            bound.add(buffer.name)
        for launch in self.launches:
            for expr in [*launch.grid, *launch.block, launch.smem, *launch.args]:
                if expr.names - bound - set(FUNCTIONS):
                    raise SpecError(f"launch of {launch.kernel!r}: unknown name(s) "
                                    f"{', '.join(sorted(expr.names - bound))} in {expr.text!r}")


def _buffer(entry: Any, kind: str) -> Buffer:
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"].isidentifier():
        raise SpecError(f"each {kind} needs an identifier 'name', got {entry!r}")
    dtype, like = entry.get("dtype"), entry.get("like")
    if dtype is not None and dtype not in DTYPES:
        raise SpecError(f"{kind} {entry['name']!r}: dtype must be one of {', '.join(DTYPES)}")
    if like is None and (dtype is None or entry.get("shape") is None):
        raise SpecError(f"{kind} {entry['name']!r} needs 'like' or both 'shape' and 'dtype'")
    init = entry.get("init", "poison" if kind == "output" else "zeros")
    if init not in ("poison", "zeros"):
        raise SpecError(f"{kind} {entry['name']!r}: init must be poison or zeros")
    shape = entry.get("shape")
    return Buffer(entry["name"], Expr(json.dumps(shape) if isinstance(shape, list) else shape)
                  if shape is not None else None, dtype, like, init)


def parse_spec(data: Any) -> LaunchSpec:
    """A dict (from JSON or YAML) -> LaunchSpec; SpecError says what is wrong."""
    if not isinstance(data, dict):
        raise SpecError("a launch spec is a mapping with 'launches'")
    unknown = set(data) - {"inputs", "init", "params", "outputs", "buffers", "launches"}
    if unknown:
        raise SpecError(f"unknown key(s) {', '.join(sorted(unknown))}")
    names = {k: data.get(k, []) for k in ("inputs", "init")}
    for key, value in names.items():
        if not isinstance(value, list) or not all(isinstance(v, str) and v.isidentifier() for v in value):
            raise SpecError(f"'{key}' is a list of identifiers")
    params = data.get("params", {})
    if not isinstance(params, dict) or not all(isinstance(k, str) and k.isidentifier() and isinstance(v, str)
                                               for k, v in params.items()):
        raise SpecError("'params' maps identifiers to state_dict keys of the reference model")
    launches = data.get("launches")
    if not isinstance(launches, list) or not launches:
        raise SpecError("'launches' is a non-empty list: a candidate must launch at least one kernel")
    parsed = []
    for entry in launches:
        if not isinstance(entry, dict) or not isinstance(entry.get("kernel"), str) or "grid" not in entry \
                or "block" not in entry:
            raise SpecError(f"each launch needs 'kernel', 'grid' and 'block', got {entry!r}")
        args = entry.get("args", [])
        if not isinstance(args, list):
            raise SpecError(f"launch of {entry['kernel']!r}: 'args' is a list")
        parsed.append(Launch(entry["kernel"], _dims(entry["grid"], "grid"), _dims(entry["block"], "block"),
                             Expr(entry.get("smem", 0)), [Expr(a) for a in args]))
    outputs = [_buffer(b, "output") for b in data.get("outputs", [])]
    buffers = [_buffer(b, "buffer") for b in data.get("buffers", [])]
    all_names = [*names["inputs"], *names["init"], *params, *(b.name for b in [*outputs, *buffers])]
    duplicated = {n for n in all_names if all_names.count(n) > 1}
    if duplicated:
        raise SpecError(f"name(s) bound twice: {', '.join(sorted(duplicated))}")
    return LaunchSpec(names["inputs"], names["init"], dict(params), outputs, buffers, parsed, data)


def load_spec_text(text: str, suffix: str = ".json") -> Any:
    """JSON, or YAML when the file says so (PyYAML needed only then)."""
    if suffix in (".yaml", ".yml"):
        try:
            import yaml
        except ImportError:
            raise SpecError("YAML launch specs need PyYAML (pip install pyyaml)") from None
        try:
            return yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise SpecError(f"bad YAML: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SpecError(f"bad JSON: {exc}") from None


def embedded_spec(cuda_source: str) -> Any | None:
    """The `/* cudaperf:launch {...} */` block of a single-file candidate, if any."""
    m = _EMBEDDED.search(cuda_source)
    return None if m is None else load_spec_text(m.group(1))
