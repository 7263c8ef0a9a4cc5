"""Run a call plan with torch: what the C++ wrapper would do, in the worker, without a C++ build.

Values carry their C type, and arithmetic follows C's rules (usual arithmetic conversions, integer
division truncating, results wrapped to the type's width, float arithmetic rounded to float), so a
grid computed as `(n + 255) / 256` in `int` is the grid the C++ launches.  Kernel launches go to a
launcher callback with arguments typed from the kernel's parameter list (the driver needs exact
sizes); a launch the CUDA runtime would refuse (shared memory above 48 KB without the attribute,
an invalid configuration) launches nothing and sets the last error, as `cudaGetLastError` sees it.
The only torch calls reachable are the allocation and shape functions listed in `plan`.
"""

from __future__ import annotations

import math
import operator
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from . import plan as P

if TYPE_CHECKING:
    from .replay import Recording

MAX_STEPS = 1_000_000           # statements and loop iterations per call
# torch's CUDA caching allocator starts every block at a multiple of 512 bytes, so an address's remainder
# modulo a power of two up to 512 follows from the call's signature (storage offsets): an alignment test
# that reads no more of the address than that can be replayed under a guard that always holds
MAX_GUARDED_ALIGNMENT = 512
_DEFAULT_SMEM = 48 * 1024
_WIDTH = {"int": (32, True), "unsigned": (32, False), "long": (64, True), "unsigned long": (64, False),
          "bool": (1, False)}
_RANK = {"bool": 0, "int": 1, "unsigned": 1, "long": 2, "unsigned long": 2}
ERROR_NAMES = {0: "no error", 1: "invalid argument", 9: "invalid configuration argument",
               701: "too many resources requested for launch"}


_TENSOR_ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}


class PlanError(RuntimeError):
    """What the C++ would raise (TORCH_CHECK, a dtype mismatch, a bad size): surfaces like its exception."""


class Unsupported(Exception):
    """The wrapper did something at run time that the interpreter does not follow (a construct, a type or
    a value outside its subset): not the candidate's error, so the engine runs the candidate again on the
    full build, whose behaviour is the truth."""


class ArgumentError(TypeError):
    """pybind11's refusal of a call's arguments (a keyword, a count, a type it does not convert): the
    candidate's error, raised as the compiled extension raises it.  Any other TypeError out of a call is
    the interpreter's (module.FastModule)."""


class LaunchFailure(Exception):
    """Raised by a launcher when the driver refuses a launch configuration (not a sticky fault)."""

    def __init__(self, code: int):
        self.code = code
        super().__init__(ERROR_NAMES.get(code, f"CUDA error {code}"))


class Launcher(Protocol):
    def launch(self, kernel: str, grid: tuple[int, int, int], block: tuple[int, int, int], smem: int,
               stream: str, args: list[tuple[str, int | float]]) -> None: ...

    def occupancy(self, kernel: str, threads: int, smem: int) -> int:
        """Blocks of `threads` threads and `smem` dynamic shared bytes one SM holds at once."""
        ...

    def synchronize(self) -> None: ...

    def copy_to_symbol(self, source: Any, start: int, count: int, symbol: str, offset: int, stream: str) -> Any:
        """`count` bytes of tensor `source` from byte `start` into device variable `symbol` at `offset`, on
        `stream` ("default" or "current"); returns `source` (the step replays as a torch call does)."""
        ...

    def symbol_size(self, symbol: str) -> int | None:
        """Bytes of device variable `symbol` (None where the launcher cannot say)."""
        ...


@dataclass
class V:
    ctype: str
    value: Any


@dataclass(frozen=True)
class Ptr:
    tensor: Any          # torch.Tensor or None (nullptr)
    offset: int          # bytes

    def address(self) -> int:
        return 0 if self.tensor is None else int(self.tensor.data_ptr()) + self.offset

    def extent(self) -> int | None:
        """Bytes from here to the end of the tensor's storage; None for nullptr."""
        if self.tensor is None:
            return None
        storage = self.tensor.untyped_storage().nbytes()
        return max(0, storage - self.tensor.storage_offset() * self.tensor.element_size() - self.offset)


# plan.DEVICE_ATTRIBUTES' cudaDeviceProp fields as torch.cuda.get_device_properties names them
_TORCH_PROPERTIES = {"multiProcessorCount": lambda p: p.multi_processor_count,
                     "maxThreadsPerBlock": lambda p: p.max_threads_per_block,
                     "maxThreadsPerMultiProcessor": lambda p: p.max_threads_per_multi_processor,
                     "sharedMemPerBlock": lambda p: p.shared_memory_per_block,
                     "sharedMemPerBlockOptin": lambda p: p.shared_memory_per_block_optin,
                     "sharedMemPerMultiprocessor": lambda p: p.shared_memory_per_multiprocessor,
                     "warpSize": lambda p: p.warp_size}


class _Return(Exception):
    def __init__(self, value: V | None):
        self.value = value


def _wrap(value: int, ctype: str) -> int:
    bits, signed = _WIDTH[ctype]
    if ctype == "bool":
        return int(bool(value))
    value &= (1 << bits) - 1
    return value - (1 << bits) if signed and value >> (bits - 1) else value


def _c_math(fn: str, x: list[float]) -> float:
    """pow, exp or log as C computes them: infinities and NaN where Python's math raises."""
    try:
        return {"pow": math.pow, "exp": math.exp, "log": math.log}[fn](*x)
    except OverflowError:
        return math.inf
    except ValueError:          # log of zero or less; pow of zero to a negative or a negative to a fraction
        if fn == "log":
            return -math.inf if x[0] == 0 else math.nan
        return math.inf if x[0] == 0 else math.nan


def convert(v: V, ctype: str) -> V:
    """C conversion of a scalar to `ctype`."""
    if ctype == v.ctype or ctype == "auto":
        return v
    if ctype in _WIDTH:
        if v.ctype in ("float", "double"):
            if math.isnan(v.value) or math.isinf(v.value):
                raise Unsupported(f"conversion of {v.value} to {ctype}")
            return V(ctype, _wrap(int(v.value), ctype) if ctype != "bool" else int(v.value != 0))
        if v.ctype in _WIDTH or v.ctype == "error":
            return V(ctype, _wrap(int(v.value), ctype))
        if v.ctype.startswith("pointer") and ctype == "bool":
            return V("bool", int(v.value.tensor is not None))
        if v.ctype.startswith("pointer"):       # (uintptr_t)p: an alignment test reads the address
            return V(ctype, _wrap(v.value.address(), ctype))
    if ctype in ("float", "double") and (v.ctype in _WIDTH or v.ctype in ("float", "double")):
        value = float(v.value)
        return V(ctype, P.float32(value) if ctype == "float" else value)
    if ctype.startswith("pointer:") and v.ctype.startswith("pointer"):
        return V(ctype, v.value)
    if ctype in ("error",) and v.ctype in _WIDTH:
        return V("error", int(v.value))
    if ctype == "sizes" and v.ctype in ("sizes", "list_init"):
        return V("sizes", [int(convert(x, "long").value) for x in v.value] if v.ctype == "list_init" else v.value)
    if ctype in ("list", "tuple") and v.ctype == "list_init":
        return V(ctype, [x.value for x in v.value])
    if ctype == "options" and v.ctype == "dtype":
        return V("options", {"dtype": v.value})
    if ctype == "stream" and v.ctype in _WIDTH and v.value == 0:
        return V("stream", "default")
    if ctype == "pointer" and v.ctype in _WIDTH and v.value == 0:
        return V(ctype, Ptr(None, 0))
    raise Unsupported(f"cannot convert {v.ctype} to {ctype}")


# integer types whose value of an address keeps its remainder modulo a power of two: a signed 32-bit cast
# may come out negative, and C's `%` of a negative value depends on the address's upper bits
_ADDRESS_INTEGERS = ("unsigned", "long", "unsigned long")


def _fill_bytes(t: Any, start: int, count: int, byte: int) -> Any:
    """cudaMemset's effect on a contiguous tensor: `count` of its bytes from `start` set to `byte`."""
    import torch

    return t.reshape(-1).view(torch.uint8)[start:start + count].fill_(byte)


def _stream(v: V) -> str:
    """The stream a launch or copy names: "default", "current", or what a cast handle converts to."""
    return v.value if v.ctype == "stream" else convert(v, "stream").value


def _may_read_an_address(e: object) -> bool:
    """An integer cast (of what may be a pointer), or `|` over one: the left side of an alignment test."""
    if isinstance(e, P.Cast):
        return e.ctype in _ADDRESS_INTEGERS
    return isinstance(e, P.Binary) and e.op == "|" and (_may_read_an_address(e.left) or _may_read_an_address(e.right))


def _common(a: str, b: str) -> str:
    if "double" in (a, b):
        return "double"
    if "float" in (a, b):
        return "float"
    a, b = ("int" if a == "bool" else a), ("int" if b == "bool" else b)
    if a == b:
        return a
    sa, sb = _WIDTH[a][1], _WIDTH[b][1]
    if sa == sb:
        return a if _RANK[a] >= _RANK[b] else b
    signed, unsigned = (a, b) if sa else (b, a)
    if _RANK[unsigned] >= _RANK[signed]:
        return unsigned
    return signed if _WIDTH[signed][0] > _WIDTH[unsigned][0] else "unsigned long"


class Interpreter:
    """One translated extension's functions, callable with Python arguments."""

    def __init__(self, translation: P.Translation, launcher: Launcher, cuda_device: str = "cuda",
                 extents: bool = False):
        import torch

        self.torch = torch
        self.tr, self.launcher, self.cuda_device = translation, launcher, cuda_device
        self.extents = extents   # give each launch the bytes its pointer arguments reach (`extents=`: the cost model's)
        self.dtypes = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
                       "bfloat16": torch.bfloat16, "int32": torch.int32, "int64": torch.int64, "int8": torch.int8,
                       "uint8": torch.uint8, "int16": torch.int16, "bool": torch.bool}
        self.attributes: dict[str, int] = {}
        self.last_error = 0
        self.steps = 0
        self.tape: Recording | None = None    # set by replay.Calls while it records a call's effects

    # -- entry --
    def call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        fn, values = self.arguments(name, args, kwargs)
        return self.run(fn, values)

    def arguments(self, name: str, args: tuple, kwargs: dict) -> tuple[P.Function, list[V]]:
        """The exported function and its arguments converted as pybind11 would (TypeError otherwise)."""
        if kwargs:
            raise ArgumentError(f"{name}(): incompatible function arguments (keywords are not accepted)")
        fn = self.tr.functions[name]
        if len(args) != len(fn.params):
            raise ArgumentError(f"{name}(): incompatible function arguments: {len(args)} given, "
                            f"{len(fn.params)} expected")
        return fn, [self._from_python(a, ctype, name) for a, (_, ctype) in zip(args, fn.params)]

    def run(self, fn: P.Function, values: list[V]) -> Any:
        self.steps = 0
        result = self._invoke(fn, values)
        return self._to_python(result, fn.returns)

    def _torch(self, fn: Any, *args: Any, catch: tuple = (), **kw: Any) -> V:
        """A tensor-producing torch call (recorded for replay); an error in `catch` surfaces as the C++'s."""
        try:
            out = fn(*args, **kw)
        except catch as exc:
            raise PlanError(str(exc).splitlines()[0]) from None
        if self.tape is not None:
            self.tape.op(fn, args, kw, catch, out)
        return V("tensor", out)

    def _device_property(self, field: str) -> int:
        """A cudaDeviceProp field (plan.DEVICE_ATTRIBUTES) of the GPU the call runs on, as torch reports it
        (while a candidate is traced on meta tensors, costmodel.cudashim's stated device)."""
        try:
            props = self.torch.cuda.get_device_properties(self.torch.cuda.current_device())
            return int(_TORCH_PROPERTIES[field](props))
        except (AssertionError, RuntimeError, AttributeError) as exc:     # no GPU, or a torch without the field
            raise PlanError(f"{field} of the device: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") \
                from None

    def _memory_format(self, args: list[V]) -> dict:
        """`memory_format=` of a `.contiguous(fmt)` or `.is_contiguous(fmt)` (c10::MemoryFormat); none given: {}."""
        if not args:
            return {}
        if args[0].ctype != "memory_format":
            raise Unsupported(f"a memory format that is a {args[0].ctype}")
        torch = self.torch
        formats = {"contiguous_format": torch.contiguous_format, "channels_last": torch.channels_last,
                   "channels_last_3d": torch.channels_last_3d, "preserve_format": torch.preserve_format}
        return {"memory_format": formats[args[0].value]}

    def _from_python(self, value: Any, ctype: str, name: str) -> V:
        torch = self.torch
        bad = ArgumentError(f"{name}(): incompatible function arguments: {type(value).__name__} for {ctype}")
        if ctype == "tensor":
            if not isinstance(value, torch.Tensor):
                raise bad
            return V("tensor", value)
        if ctype in ("int", "unsigned", "long", "unsigned long"):
            if isinstance(value, float) or (isinstance(value, torch.Tensor) and value.is_floating_point()):
                raise bad
            try:
                value = operator.index(value)   # pybind11 takes ints and objects with __index__
            except TypeError:
                raise bad from None
            bits, signed = _WIDTH[ctype]
            lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
            if not lo <= value <= hi:
                raise bad
            return V(ctype, int(value))
        if ctype in ("float", "double"):
            if isinstance(value, str | bytes) or not hasattr(type(value), "__float__"):
                raise bad
            try:
                number = float(value)   # pybind11 converts anything with __float__ (a 1-element tensor too)
            except (TypeError, ValueError, RuntimeError):
                raise bad from None
            return convert(V("double", number), ctype)
        if ctype == "bool":
            if not isinstance(value, bool):
                raise bad
            return V("bool", int(value))
        if ctype == "sizes":
            if not isinstance(value, list | tuple) or not all(isinstance(v, int) for v in value):
                raise bad
            return V("sizes", [int(v) for v in value])
        if ctype == "list":
            if not isinstance(value, list | tuple) or not all(isinstance(v, torch.Tensor) for v in value):
                raise bad
            return V("list", list(value))
        raise bad

    def _to_python(self, v: V | None, returns: str) -> Any:
        if returns == "void" or v is None:
            return None
        v = convert(v, returns) if returns not in ("tensor",) else v
        if returns == "tensor":
            if v.ctype != "tensor":
                raise Unsupported(f"returns a {v.ctype} for a tensor")
            return v.value
        if returns in ("list", "tuple"):
            items = list(v.value)
            return items if returns == "list" else tuple(items)
        if returns in _WIDTH or returns in ("float", "double"):
            return float(v.value) if returns in ("float", "double") else int(v.value)
        if returns == "sizes":
            return list(v.value)
        raise Unsupported(f"cannot return a {returns} to Python")

    def _invoke(self, fn: P.Function, values: list[V]) -> V | None:
        env = [{pname: self._assign_type(v, ctype) if ctype.startswith("struct:") else
                convert(v, ctype) if ctype not in ("tensor", "list", "sizes") else v
                for (pname, ctype), v in zip(fn.params, values)}]
        try:
            self._run(fn.body, env)
        except _Return as r:
            if r.value is None or fn.returns in ("tensor", "list", "tuple", "void"):
                return r.value
            return convert(r.value, fn.returns)
        return None

    # -- statements --
    def _tick(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise Unsupported(f"the wrapper ran more than {MAX_STEPS} steps")

    def _run(self, stmts: tuple, env: list[dict]) -> None:
        for s in stmts:
            self._tick()
            self._stmt(s, env)

    def _set(self, env: list[dict], name: str, v: V) -> None:
        for scope in reversed(env):
            if name in scope:
                scope[name] = v
                return
        raise Unsupported(f"assignment to undeclared {name}")

    def _get(self, env: list[dict], name: str) -> V:
        for scope in reversed(env):
            if name in scope:
                if scope[name] is None:
                    raise Unsupported(f"{name} used before it was given a value")
                return scope[name]
        raise Unsupported(f"unknown name {name}")

    def _declared(self, env: list[dict], name: str) -> str:
        for scope in reversed(env):
            if name in scope and scope[name] is not None:
                return scope[name].ctype
        return "auto"

    def _stmt(self, s: object, env: list[dict]) -> None:
        if isinstance(s, P.Decl):
            env[-1][s.name] = self._declare(s, env)
        elif isinstance(s, P.Assign):
            current = self._get(env, s.name)
            value = self._eval(s.value, env)
            if s.op != "=":
                if current.ctype == "tensor":   # `out /= n` changes the tensor in place, for every holder
                    raise Unsupported(f"line {s.line}: {s.op} on a tensor")
                value = self._binary(s.op[:-1], current, value, s.line)
            self._set(env, s.name, self._assign_type(value, current.ctype))
        elif isinstance(s, P.SetField):
            local = self._get(env, s.name)
            value = self._eval(s.value, env)
            if s.op != "=":
                value = self._binary(s.op[:-1], self._field(local.value, s.field, s.line), value, s.line)
            written = dict(self.tr.structs[local.ctype[7:]])[s.field]
            local.value[s.field] = convert(value, P.STRUCT_FIELDS[written][0])
        elif isinstance(s, P.SetItem):
            sizes = self._get(env, s.name)
            i = self._size_index(sizes, self._eval(s.index, env), s.line)
            value = self._eval(s.value, env)
            if s.op != "=":
                value = self._binary(s.op[:-1], V("long", sizes.value[i]), value, s.line)
            sizes.value[i] = int(convert(value, "long").value)
        elif isinstance(s, P.Eval):
            self._eval(s.expr, env)
        elif isinstance(s, P.If):
            branch = s.then if self._truth(self._eval(s.cond, env)) else s.other
            env.append({})
            try:
                self._run(branch, env)
            finally:
                env.pop()
        elif isinstance(s, P.For):
            env.append({})
            try:
                self._run(s.init, env)
                while s.cond is None or self._truth(self._eval(s.cond, env)):
                    self._tick()
                    env.append({})
                    try:
                        self._run(s.body, env)
                    finally:
                        env.pop()
                    self._run(s.update, env)
            finally:
                env.pop()
        elif isinstance(s, P.Return):
            raise _Return(None if s.value is None else self._eval(s.value, env))
        elif isinstance(s, P.Check):
            if not self._truth(self._eval(s.cond, env)):
                raise PlanError(self._message(s.message, env) or "Expected condition to hold")
        elif isinstance(s, P.Throw):
            message = self._message(s.message, env)
            raise (ValueError(message) if s.kind == "invalid_argument" else
                   IndexError(message) if s.kind == "out_of_range" else PlanError(message))
        elif isinstance(s, P.Launch):
            self._launch(s, env)
        elif isinstance(s, P.SetAttribute):
            self.attributes[s.kernel] = int(convert(self._eval(s.value, env), "long").value)
        elif isinstance(s, P.Dispatch):
            selector = self._eval(s.selector, env)
            dtype = selector.value if selector.ctype == "dtype" else None
            for name, body in s.cases:
                if name == dtype:
                    env.append({})
                    try:
                        self._run(body, env)
                    finally:
                        env.pop()
                    return
            raise PlanError(f'"{s.name}" not implemented for \'{dtype}\'')
        else:
            raise Unsupported(f"unknown plan statement {type(s).__name__}")

    def _assign_type(self, value: V, ctype: str) -> V:
        if ctype.startswith("struct:") or value.ctype.startswith("struct:"):   # copied by value, field for field
            if value.ctype != ctype:
                raise Unsupported(f"a {value.ctype} given for a {ctype}")
            return V(ctype, dict(value.value))
        if value.ctype == "sizes":   # a vector assigned is copied: editing one must not edit the other
            return V("sizes", list(value.value)) if ctype in ("sizes", "auto") else convert(value, ctype)
        if ctype in ("tensor", "list", "tuple") or value.ctype == ctype:
            return value
        return convert(value, ctype)

    def _declare(self, s: P.Decl, env: list[dict]) -> V | None:
        if s.ctor is not None:
            args = [self._eval(a, env) for a in s.ctor]
            if s.ctype == "dim3":
                return self._dim3(args)
            if len(args) == 1:
                return self._assign_type(args[0], s.ctype) if s.ctype != "auto" else args[0]
            raise Unsupported(f"constructor of {s.ctype} with {len(args)} arguments")
        if s.ctype.startswith("struct:"):
            return self._struct(s.ctype, self._eval(s.init, env) if s.init is not None else None)
        if s.init is None:  # what C++ default-constructs; a scalar has no value until assigned
            defaults = {"dim3": V("dim3", (1, 1, 1)), "tensor": V("tensor", None), "sizes": V("sizes", []),
                        "list": V("list", [])}
            return defaults.get(s.ctype)
        value = self._eval(s.init, env)
        if s.ctype == "dim3":
            return self._dim3(value.value if value.ctype == "list_init" else [value])
        if s.ctype == "auto" and value.ctype == "list_init":
            return V("list", [x.value for x in value.value])
        value = value if s.ctype == "auto" else self._assign_type(value, s.ctype)
        return V(value.ctype, list(value.value)) if value.ctype in ("sizes", "list") else value  # C++ copies

    def _struct(self, ctype: str, init: V | None) -> V:
        """A struct local: its fields unset (`P p;`), from a brace list in order with the rest zero
        (`P p = {a, b};`, `P p{};`), or a copy of another."""
        layout = self.tr.structs[ctype[7:]]
        if init is None:
            return V(ctype, {name: None for name, _ in layout})
        if init.ctype != "list_init":
            return self._assign_type(init, ctype)
        if len(init.value) > len(layout):
            raise Unsupported(f"{len(init.value)} values for the {len(layout)} fields of {ctype[7:]}")
        items = list(init.value) + [V("int", 0)] * (len(layout) - len(init.value))
        return V(ctype, {name: convert(v, P.STRUCT_FIELDS[t][0]) for (name, t), v in zip(layout, items)})

    @staticmethod
    def _field(fields: dict, name: str, line: int) -> V:
        value = fields[name]
        if value is None:
            raise Unsupported(f"line {line}: field {name} read before it was given a value")
        return value

    def _packed(self, v: V, name: str, line: int) -> bytes:
        """A struct argument's bytes as the kernel reads them (C layout; a field never set packs as 0, where
        the C++ would pass whatever its stack held)."""
        if v.ctype != f"struct:{name}":
            raise Unsupported(f"line {line}: a {v.ctype} passed for a {name} parameter")
        layout = self.tr.structs[name]
        letters = [P.STRUCT_FIELDS[t][1] for _, t in layout]
        widest = max(letters, key=struct.calcsize)
        values = [0 if v.value[f] is None else v.value[f].value for f, _ in layout]
        return struct.pack("@" + "".join(letters) + "0" + widest, *values)

    def _size_index(self, sizes: V, index: V, line: int) -> int:
        """`sizes[index]`'s position (read or written); one outside the list is left to the full build
        (operator[] reads past the end in C++, where `.at` would raise)."""
        i = int(convert(index, "long").value)
        if sizes.ctype != "sizes":
            raise Unsupported(f"line {line}: indexing a {sizes.ctype}")
        if not 0 <= i < len(sizes.value):
            raise Unsupported(f"line {line}: index {i} out of range for {len(sizes.value)} sizes")
        return i

    def _dim3(self, args: list[V]) -> V:
        if len(args) == 1 and args[0].ctype == "dim3":
            return args[0]
        if not 1 <= len(args) <= 3:
            raise Unsupported("dim3 takes 1 to 3 values")
        dims = [int(convert(a, "unsigned").value) for a in args] + [1] * (3 - len(args))
        return V("dim3", tuple(dims))

    def _message(self, parts: tuple, env: list[dict]) -> str:
        out = []
        for p in parts:
            v = self._eval(p, env)
            out.append(str(v.value) if v.ctype in ("str",) or v.ctype in _WIDTH or v.ctype in ("float", "double")
                       else self._describe(v))
        return "".join(out)

    def _describe(self, v: V) -> str:
        if v.ctype == "sizes":
            return "[" + ", ".join(map(str, v.value)) + "]"
        if v.ctype == "dtype":
            return {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16",
                    "int32": "Int", "int64": "Long"}.get(v.value, str(v.value))
        return str(v.value) if not hasattr(v.value, "shape") else "Tensor"

    # -- launches --
    def _launch(self, s: P.Launch, env: list[dict]) -> None:
        grid, block = (self._dim3([self._eval(e, env)]) for e in (s.grid, s.block))
        smem = int(convert(self._eval(s.smem, env), "unsigned long").value) if s.smem is not None else 0
        stream = _stream(self._eval(s.stream, env)) if s.stream is not None else "default"
        args: list[tuple[str, Any]] = []     # pointers as Ptr until launched
        for expr, code in zip(s.args, s.codes):
            v = self._eval(expr, env)
            if code.startswith("s:"):
                args.append(("s", self._packed(v, code[2:], s.line)))
            elif code == "p":
                if not v.ctype.startswith("pointer"):
                    if v.ctype in _WIDTH and v.value == 0:
                        args.append(("p", 0))
                        continue
                    raise Unsupported(f"line {s.line}: a {v.ctype} passed for a pointer parameter")
                args.append(("p", v.value))
            else:
                ctype = {"i": "int", "I": "unsigned", "q": "long", "Q": "unsigned long", "f": "float", "d": "double",
                         "b": "bool"}[code]
                if v.ctype not in _WIDTH and v.ctype not in ("float", "double"):
                    raise Unsupported(f"line {s.line}: a {v.ctype} passed for a {ctype} parameter")
                args.append((code, convert(v, ctype).value))
        (gx, gy, gz), (bx, by, bz) = grid.value, block.value
        invalid = (min(gx, gy, gz, bx, by, bz) == 0 or bx * by * bz > 1024 or bx > 1024 or by > 1024 or bz > 64
                   or gx >= 1 << 31 or gy > 65535 or gz > 65535)
        if invalid:
            self.last_error = 9
            return
        if smem > _DEFAULT_SMEM and self.attributes.get(s.kernel, 0) < smem:
            self.last_error = 1
            return
        addresses = [(c, v.address() if isinstance(v, Ptr) else v) for c, v in args]
        reach = {"extents": [v.extent() if isinstance(v, Ptr) else None for _, v in args]} if self.extents else {}
        try:
            self.launcher.launch(s.kernel, grid.value, block.value, smem, stream, addresses, **reach)
        except LaunchFailure as exc:
            self.last_error = exc.code
            if self.tape is not None:
                self.tape.refuse("the driver refused a launch")
            return
        except BaseException:
            if self.tape is not None:
                self.tape.refuse("the launcher raised")
            raise
        if self.tape is not None:
            self.tape.launch(self.launcher, s.kernel, grid.value, block.value, smem, stream, args)

    # -- expressions --
    def _truth(self, v: V) -> bool:
        if v.ctype.startswith("pointer"):
            return v.value.tensor is not None
        if v.ctype in _WIDTH or v.ctype in ("float", "double", "error"):
            return v.value != 0
        raise Unsupported(f"a {v.ctype} used as a condition")

    def _eval(self, e: object, env: list[dict]) -> V:
        if isinstance(e, P.Lit):
            return V(e.ctype, e.value)
        if isinstance(e, P.Name):
            return self._get(env, e.name)
        if isinstance(e, P.Binary):
            if e.op in ("%", "&") and self.tape is not None and _may_read_an_address(e.left):
                return self._alignment_test(e, env)
            if e.op in ("&&", "||"):
                left = self._truth(self._eval(e.left, env))
                if (e.op == "&&") != left:
                    return V("bool", int(left))
                return V("bool", int(self._truth(self._eval(e.right, env))))
            return self._binary(e.op, self._eval(e.left, env), self._eval(e.right, env), 0)
        if isinstance(e, P.Unary):
            v = self._eval(e.operand, env)
            if e.op == "!":
                return V("bool", int(not self._truth(v)))
            if v.ctype not in _WIDTH and v.ctype not in ("float", "double"):
                raise Unsupported(f"unary {e.op} on a {v.ctype}")
            t = _common(v.ctype, "int")
            v = convert(v, t)
            if e.op == "-":
                return V(t, -v.value if t in ("float", "double") else _wrap(-v.value, t))
            if e.op == "~":
                if t in ("float", "double"):
                    raise Unsupported("~ on a floating value")
                return V(t, _wrap(~v.value, t))
            return v
        if isinstance(e, P.Ternary):
            return self._eval(e.then if self._truth(self._eval(e.cond, env)) else e.other, env)
        if isinstance(e, P.Cast):
            v = self._eval(e.operand, env)
            if e.ctype.startswith("pointer:") and v.ctype.startswith("pointer"):
                return V(e.ctype, v.value)
            if v.ctype.startswith("pointer") and e.ctype != "bool" and self.tape is not None:
                self.tape.refuse("a pointer read as an integer (the answer depends on where the tensor lies)")
            return convert(v, e.ctype)
        if isinstance(e, P.InitList):
            items = [self._eval(x, env) for x in e.items]
            if e.ctype in ("list", "tuple"):
                return V(e.ctype, [x.value for x in items])
            if e.ctype == "sizes":
                return V("sizes", [int(convert(x, "long").value) for x in items])
            return V("list_init", items)
        if isinstance(e, P.Index):
            obj = self._eval(e.obj, env)
            return V("long", obj.value[self._size_index(obj, self._eval(e.index, env), e.line)])
        if isinstance(e, P.Field):
            obj = self._eval(e.obj, env)
            if obj.ctype.startswith("struct:"):
                return self._field(obj.value, e.name, 0)
            if obj.ctype != "dim3":
                raise Unsupported(f".{e.name} of a {obj.ctype}")
            return V("unsigned", obj.value["xyz".index(e.name)])
        if isinstance(e, P.Helper):
            fn = self.tr.helpers[e.name]
            values = [self._eval(a, env) for a in e.args]
            result = self._invoke(fn, values)
            return result if result is not None else V("void", None)
        if isinstance(e, P.Call):
            return self._call(e, [self._eval(a, env) for a in e.args])
        if isinstance(e, P.Method):
            return self._method(e, self._eval(e.obj, env), [self._eval(a, env) for a in e.args])
        raise Unsupported(f"unknown plan expression {type(e).__name__}")

    def _alignment_test(self, e: P.Binary, env: list[dict]) -> V:
        """`(uintptr_t)p % 16`, `reinterpret_cast<uintptr_t>(p) & 15`, `((uintptr_t)a | (uintptr_t)b) % 16`
        while a call is recorded: the value reads only the addresses' low bits, so the recording keeps a
        guard on them (replay.Recording.guard) instead of interpreting every later call; the
        vectorised kernels models write test their pointers this way before each launch.  Any other
        reading of an address still refuses the replay."""
        read: list[Ptr] = []
        left = self._address_bits(e.left, env, read)
        right = self._eval(e.right, env)
        if read:
            modulus = int(right.value) + (e.op == "&") if right.ctype in _WIDTH and right.ctype != "bool" else 0
            if 0 < modulus <= MAX_GUARDED_ALIGNMENT and not modulus & (modulus - 1):
                for pointer in read:
                    self.tape.guard(pointer, modulus)
            else:
                self.tape.refuse("a pointer read as an integer (the answer depends on where the tensor lies)")
        return self._binary(e.op, left, right, 0)

    def _address_bits(self, e: object, env: list[dict], read: list[Ptr]) -> V:
        """The value of an operand of `_alignment_test`, each pointer it casts to an integer in `read`."""
        if isinstance(e, P.Cast) and e.ctype in _ADDRESS_INTEGERS:
            v = self._eval(e.operand, env)
            if v.ctype.startswith("pointer"):
                read.append(v.value)
            return convert(v, e.ctype)
        if isinstance(e, P.Binary) and e.op == "|":
            return self._binary("|", self._address_bits(e.left, env, read), self._address_bits(e.right, env, read), 0)
        return self._eval(e, env)

    def _binary(self, op: str, a: V, b: V, line: int) -> V:
        if a.ctype.startswith("pointer") or b.ctype.startswith("pointer"):
            return self._pointer_arith(op, a, b)
        if op in ("==", "!=") and a.ctype in ("dtype", "device", "error", "sizes") and b.ctype == a.ctype:
            return V("bool", int((list(a.value) == list(b.value) if a.ctype == "sizes" else a.value == b.value)
                                 == (op == "==")))
        if (a.ctype == "tensor" or b.ctype == "tensor") and op in _TENSOR_ARITHMETIC:
            return self._tensor_arithmetic(op, a, b)
        for v in (a, b):
            if v.ctype not in _WIDTH and v.ctype not in ("float", "double", "error"):
                raise Unsupported(f"operator {op} on a {v.ctype}")
        if a.ctype == "error":
            a = V("int", a.value)
        if b.ctype == "error":
            b = V("int", b.value)
        if op in ("<<", ">>"):
            t = _common(a.ctype, "int")
            if t in ("float", "double") or b.ctype in ("float", "double"):
                raise Unsupported("shift of a floating value")
            x, n = convert(a, t).value, int(b.value)
            if n < 0 or n >= _WIDTH[t][0]:
                raise Unsupported(f"shift by {n}")
            return V(t, _wrap(x << n if op == "<<" else x >> n, t))
        t = _common(a.ctype, b.ctype)
        x, y = convert(a, t).value, convert(b, t).value
        if op in ("==", "!=", "<", ">", "<=", ">="):
            result = {"==": x == y, "!=": x != y, "<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y}[op]
            return V("bool", int(result))
        if t in ("float", "double"):
            if op == "%" or op in ("&", "|", "^"):
                raise Unsupported(f"operator {op} on floating values")
            if op == "/":
                r = (x / y if y != 0 else (math.copysign(math.inf, x) * math.copysign(1, y) if x != 0 and not
                     math.isnan(x) else math.nan))
            else:
                r = {"+": x + y, "-": x - y, "*": x * y}[op]
            return V(t, P.float32(r) if t == "float" else r)
        if op in ("/", "%"):
            if y == 0:
                raise PlanError("integer division by zero")
            q = abs(x) // abs(y) * (1 if (x >= 0) == (y >= 0) else -1)
            return V(t, _wrap(q if op == "/" else x - q * y, t))
        r = {"+": x + y, "-": x - y, "*": x * y, "&": x & y, "|": x | y, "^": x ^ y}[op]
        return V(t, _wrap(r, t))

    def _tensor_arithmetic(self, op: str, a: V, b: V) -> V:
        """`partials.sum() / (double)n`, `x * 2`, `a + b`: at::add/sub/mul/div with a tensor or a C number
        on either side, as torch's operators compute them (a number does not promote a tensor's dtype)."""
        values = []
        for v in (a, b):
            if v.ctype == "tensor" and v.value is not None:
                values.append(v.value)
            elif v.ctype in _WIDTH or v.ctype in ("float", "double"):
                values.append(float(v.value) if v.ctype in ("float", "double") else int(v.value))
            else:
                raise Unsupported(f"operator {op} on a {v.ctype}")
        return self._torch(_TENSOR_ARITHMETIC[op], *values, catch=(RuntimeError,))

    def _pointer_arith(self, op: str, a: V, b: V) -> V:
        if op in ("==", "!="):
            if self.tape is not None:
                self.tape.refuse("pointers compared (the answer depends on which tensors were passed)")
            both = a.ctype.startswith("pointer") and b.ctype.startswith("pointer")
            same = both and a.value.address() == b.value.address()     # addresses, as the C++ compares
            return V("bool", int(same == (op == "==")))
        pointer, other = (a, b) if a.ctype.startswith("pointer") else (b, a)
        if op not in ("+", "-") or other.ctype not in _WIDTH or (op == "-" and pointer is b):
            raise Unsupported(f"pointer arithmetic {op}")
        size = P.ELEMENT_SIZES.get(pointer.ctype.partition(":")[2], 0)
        if size == 0:
            raise Unsupported(f"arithmetic on a {pointer.ctype}")
        step = int(other.value) * size * (1 if op == "+" else -1)
        return V(pointer.ctype, Ptr(pointer.value.tensor, pointer.value.offset + step))

    # -- builtins --
    def _sizes(self, v: V) -> list[int]:
        if v.ctype == "sizes":
            return list(v.value)
        if v.ctype == "list_init":
            return [int(convert(x, "long").value) for x in v.value]
        if v.ctype in _WIDTH:
            return [int(v.value)]
        raise Unsupported(f"a {v.ctype} used as sizes")

    def _options(self, v: V | None) -> dict:
        if v is None:
            return {}
        if v.ctype == "options":
            return dict(v.value)
        if v.ctype == "dtype":
            return {"dtype": v.value}
        if v.ctype == "device":
            return {"device": v.value}
        raise Unsupported(f"a {v.ctype} used as tensor options")

    def _factory(self, options: dict, like: Any = None) -> dict:
        dtype = options.get("dtype")
        device = options.get("device")
        kw: dict[str, Any] = {}
        if dtype is not None:
            kw["dtype"] = self.dtypes[dtype]
        elif like is not None:
            kw["dtype"] = like.dtype
        if device is not None:
            kw["device"] = self.cuda_device if device == "cuda" else device
        elif like is not None:
            kw["device"] = like.device
        return kw

    def _call(self, e: P.Call, args: list[V]) -> V:
        torch = self.torch
        fn = e.fn
        if fn in ("empty", "zeros", "ones", "full"):
            if not args:
                raise Unsupported(f"torch::{fn} without sizes")
            sizes = self._sizes(args[0])
            if any(s < 0 for s in sizes):
                raise PlanError(f"Trying to create tensor with negative dimension {min(sizes)}: {sizes}")
            rest = args[1:]
            fill = None
            if fn == "full":
                if not rest:
                    raise Unsupported("torch::full without a value")
                fill, rest = rest[0], rest[1:]
            kw = self._factory(self._options(rest[0]) if rest else {})
            if fn == "full":
                kw.setdefault("dtype", torch.float32 if fill.ctype in ("float", "double") else torch.int64)
                return self._torch(torch.full, sizes, fill.value, **kw)
            factory = {"empty": torch.empty, "zeros": torch.zeros, "ones": torch.ones}[fn]
            return self._torch(factory, sizes, **kw)
        if fn in ("empty_like", "zeros_like", "ones_like", "full_like"):
            if not args or args[0].ctype != "tensor":
                raise Unsupported(f"torch::{fn} of a non-tensor")
            like = args[0].value
            rest = args[1:]
            if fn == "full_like":
                fill, rest = rest[0], rest[1:]
            kw = self._factory(self._options(rest[0]) if rest else {}, like)
            if fn == "full_like":
                return self._torch(torch.full_like, like, fill.value, **kw)
            factory = {"empty_like": torch.empty_like, "zeros_like": torch.zeros_like, "ones_like": torch.ones_like}[fn]
            return self._torch(factory, like, **kw)
        if fn == "dim3":
            return self._dim3(args)
        if fn == "TensorOptions":
            return V("options", self._options(args[0]) if args else {})
        if fn == "dtype":
            return V("options", {"dtype": args[0].value})
        if fn == "device":
            return V("options", {"device": args[0].value})
        if fn == "Device":
            return V("device", args[0].value)
        if fn in ("min", "max"):
            if len(args) != 2:
                raise Unsupported(f"std::{fn} of {len(args)} values")
            if fn == "min":
                return args[1] if self._truth(self._binary("<", args[1], args[0], e.line)) else args[0]
            return args[1] if self._truth(self._binary("<", args[0], args[1], e.line)) else args[0]
        if fn in ("ceil", "floor", "sqrt", "abs"):
            v = args[0]
            if v.ctype in _WIDTH and fn in ("ceil", "floor", "sqrt"):
                v = convert(v, "double")
            if fn == "abs":
                return V(v.ctype, abs(v.value) if v.ctype in ("float", "double") else _wrap(abs(v.value), v.ctype))
            r = {"ceil": math.ceil, "floor": math.floor, "sqrt": math.sqrt}[fn](v.value) if not (
                fn == "sqrt" and v.value < 0) else math.nan
            return V(v.ctype, P.float32(float(r)) if v.ctype == "float" else float(r))
        if fn in ("pow", "exp", "log"):          # float in, float out; anything else (ints too) double
            real = _c_math(fn, [float(convert(a, "double").value) for a in args])
            return V("float", P.float32(real)) if all(a.ctype == "float" for a in args) else V("double", real)
        if fn == "ceil_div":
            a, b = args
            return self._binary("/", self._binary("-", self._binary("+", a, b, e.line), V("int", 1), e.line), b,
                                 e.line)
        if fn == "current_stream":
            return V("stream", "current")
        if fn == "device_property":
            return V("int", self._device_property(args[0].value))
        if fn in ("cudaGetLastError", "cudaPeekAtLastError"):
            code = self.last_error
            if fn == "cudaGetLastError":
                self.last_error = 0
            return V("error", code)
        if fn == "cudaGetErrorString":
            return V("str", ERROR_NAMES.get(int(args[0].value), f"CUDA error {args[0].value}"))
        if fn == "cudaDeviceSynchronize":
            self.launcher.synchronize()
            if self.tape is not None:
                self.tape.sync(self.launcher)
            return V("error", 0)
        if fn == "launch_check":
            code = self.last_error
            self.last_error = 0
            if args and args[0].ctype == "error":
                code = code or int(args[0].value)
            if code:
                raise PlanError(f"CUDA error: {ERROR_NAMES.get(code, code)}")
            return V("void", None)
        if fn in ("printf", "fprintf"):
            return V("int", 0)
        if fn == "memset":
            return self._memset(*args, line=e.line)
        if fn == "copy_to_symbol":
            return self._copy_to_symbol(*args, line=e.line)
        if fn == "occupancy":    # cudaOccupancyMaxActiveBlocksPerMultiprocessor: the launcher's device answers
            threads, smem = (int(convert(a, "unsigned long").value) for a in args[1:])
            return V("int", self.launcher.occupancy(args[0].value, threads, smem))
        raise Unsupported(f"unknown builtin {fn}")

    def _memset(self, pointer: V, value: V, count: V, line: int) -> V:
        """cudaMemset(Async)(p, value, bytes) into a contiguous tensor's own bytes, as a recorded torch call
        (zeroing an atomic accumulator before its kernel); anything else is left to the full build."""
        t = pointer.value.tensor if pointer.ctype.startswith("pointer") else None
        n = int(convert(count, "unsigned long").value)
        if t is None or not t.is_contiguous() or not 0 <= pointer.value.offset <= t.numel() * t.element_size() - n:
            raise Unsupported(f"line {line}: cudaMemset outside a contiguous tensor's bytes")
        self._torch(_fill_bytes, t, pointer.value.offset, n, int(convert(value, "int").value) & 0xFF)
        return V("error", 0)

    def _copy_to_symbol(self, symbol: V, source: V, count: V, offset: V, kind: V, stream: V, line: int) -> V:
        """cudaMemcpyToSymbol(Async) from a contiguous GPU tensor's own bytes (weights copied into
        `__constant__` memory), recorded like a torch call; a copy past the variable's end is the runtime's
        cudaErrorInvalidValue.  A host source, or any other kind than device to device or default, is left
        to the full build."""
        t = source.value.tensor if source.ctype.startswith("pointer") else None
        n, at = (int(convert(v, "unsigned long").value) for v in (count, offset))
        if int(convert(kind, "int").value) not in (3, 4) or t is None or not self._on_gpu(t) or \
                not t.is_contiguous() or not 0 <= source.value.offset <= t.numel() * t.element_size() - n:
            raise Unsupported(f"line {line}: cudaMemcpyToSymbol from outside a GPU tensor's bytes")
        size = self.launcher.symbol_size(symbol.value)     # the module's answer where there is one: NVRTC's truth
        size = self.tr.symbols.get(symbol.value) if size is None else size
        if size is None:
            raise Unsupported(f"line {line}: the size of {symbol.value} is not known")
        if at + n > size:
            self.last_error = 1
            return V("error", 1)
        if n:
            self._torch(self.launcher.copy_to_symbol, t, source.value.offset, n, symbol.value, at, _stream(stream))
        return V("error", 0)

    def _on_gpu(self, t: Any) -> bool:
        """Whether tensor `t` is on the device the C++ calls CUDA (the meta device while traced)."""
        return t.is_cuda or (self.cuda_device != "cuda" and t.device.type == self.cuda_device)

    def _method(self, e: P.Method, obj: V, args: list[V]) -> V:
        name, torch = e.name, self.torch
        if obj.ctype == "sizes":
            if name in ("size",):
                return V("unsigned long", len(obj.value))
            if name == "vec":          # a copy, as IntArrayRef::vec() makes: pop_back must not edit the tensor's
                return V("sizes", list(obj.value))
            if name == "push_back":
                obj.value.append(int(convert(args[0], "long").value))
                return V("void", None)
            if name == "pop_back":
                if not obj.value:
                    raise Unsupported(f"line {e.line}: .pop_back() of an empty vector (undefined behaviour)")
                obj.value.pop()
                return V("void", None)
            raise Unsupported(f"line {e.line}: .{name}() of sizes")
        if obj.ctype == "options":
            if name in ("dtype", "device", "layout", "requires_grad"):
                opts = dict(obj.value)
                if name in ("dtype", "device"):
                    opts[name] = args[0].value if args else opts.get(name)
                    if not args:
                        return V(name, opts.get(name))
                return V("options", opts)
            raise Unsupported(f"line {e.line}: .{name}() of options")
        if obj.ctype == "device" and name in ("is_cuda", "is_cpu", "index"):
            device = str(obj.value)
            if name == "index":
                return V("long", int(device.partition(":")[2] or 0) if ":" in device else -1)
            cuda = device.startswith("cuda") or (self.cuda_device != "cuda" and device.startswith(self.cuda_device))
            return V("bool", int(cuda if name == "is_cuda" else device.startswith("cpu") and not cuda))
        if obj.ctype == "stream" and name == "stream":
            return obj
        if obj.ctype == "list" and name == "push_back":
            obj.value.append(args[0].value)
            return V("void", None)
        if obj.ctype != "tensor" or obj.value is None:
            raise Unsupported(f"line {e.line}: .{name}() of a {obj.ctype}")
        t = obj.value

        def dim_index(v: V) -> int:
            i = int(convert(v, "long").value)
            n = t.dim()
            if not -n <= i < n:
                raise PlanError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {i})")
            return i % n if n else i

        if name == "size":
            return V("long", int(t.shape[dim_index(args[0])]))
        if name == "stride":
            return V("long", int(t.stride()[dim_index(args[0])]))
        if name == "sizes":
            return V("sizes", [int(s) for s in t.shape])
        if name == "strides":
            return V("sizes", [int(s) for s in t.stride()])
        if name == "numel":
            return V("long", int(t.numel()))
        if name == "dim":
            return V("long", int(t.dim()))
        if name == "element_size":
            return V("long", int(t.element_size()))
        if name == "contiguous":
            return self._torch(torch.Tensor.contiguous, t, **self._memory_format(args))
        if name in ("dtype", "scalar_type"):
            return V("dtype", str(t.dtype).removeprefix("torch."))
        if name == "options":
            return V("options", {"dtype": str(t.dtype).removeprefix("torch."), "device": str(t.device)})
        if name == "device":
            return V("device", str(t.device))
        if name == "is_cuda":
            return V("bool", int(self._on_gpu(t)))
        if name == "is_contiguous":
            return V("bool", int(t.is_contiguous(**self._memory_format(args))))
        if name == "is_floating_point":
            return V("bool", int(t.is_floating_point()))
        if name == "get_device":
            return V("long", int(t.get_device()))
        if name in ("view", "reshape"):
            sizes = self._sizes(args[0]) if len(args) == 1 else [int(convert(a, "long").value) for a in args]
            return self._torch(torch.Tensor.view if name == "view" else torch.Tensor.reshape, t, sizes,
                               catch=(RuntimeError,))
        if name in ("transpose", "t", "permute", "unsqueeze", "squeeze"):
            ints = [int(convert(a, "long").value) for a in args] if name != "permute" or len(args) != 1 \
                else self._sizes(args[0])
            view = {"transpose": torch.Tensor.transpose, "t": torch.Tensor.t, "permute": torch.Tensor.permute,
                    "unsqueeze": torch.Tensor.unsqueeze, "squeeze": torch.Tensor.squeeze}[name]
            return self._torch(view, t, *ints, catch=(RuntimeError, IndexError, TypeError)) if name != "permute" \
                else self._torch(view, t, ints, catch=(RuntimeError, IndexError, TypeError))
        if name == "is_cpu":
            return V("bool", int(t.device.type == "cpu" and self.cuda_device != "cpu"))
        if name == "clone":
            return self._torch(torch.Tensor.clone, t)
        if name == "to":
            return self._torch(torch.Tensor.to, t, self.dtypes[args[0].value])
        if name == "zero_":
            return self._torch(torch.Tensor.zero_, t)
        if name == "fill_":      # a number: what an empty reduction's wrapper writes (`out.fill_(NAN)`)
            if len(args) != 1 or (args[0].ctype not in _WIDTH and args[0].ctype not in ("float", "double")):
                raise Unsupported(f"line {e.line}: .fill_() of other than one number")
            return self._torch(torch.Tensor.fill_, t, args[0].value)
        if name in ("sum", "mean"):   # a torch tail over every element (the C++'s at::sum, at::mean)
            return self._torch(torch.Tensor.sum if name == "sum" else torch.Tensor.mean, t, catch=(RuntimeError,))
        if name == "data_ptr":
            if e.ctype != "void":
                want = P.DATA_TYPES[e.ctype]
                have = str(t.dtype).removeprefix("torch.")
                if want != have:
                    raise PlanError(f"expected scalar type {want} but found {have}")
            return V(f"pointer:{e.ctype}", Ptr(t, 0))   # data_ptr() includes the storage offset
        raise Unsupported(f"line {e.line}: .{name}()")
