"""Building blocks of the task families: dtypes, a task's signature, and the three sources a task
needs (C reference with its harness, KernelBench reference module, CUDA implementations with their
launch specs), all produced from one description so the two kinds cannot drift apart.

Family code writes kernels as `string.Template` text (`$NAME` placeholders, CUDA braces untouched)
in terms of the signature's size names; `build` turns a size name into a harness argument for
`c2cuda` tasks and into a shape expression (`x.shape[1]`) for `torch2cuda` tasks."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from string import Template

SCHEMA = "cudaperf.dataset/1"
KINDS = ("c2cuda", "torch2cuda")
C_FLOATS = ("float32", "float64")             # what a C reference can take (no half types in C)
TORCH_FLOATS = ("float32", "float16", "bfloat16")


@dataclass(frozen=True)
class DType:
    name: str
    short: str
    c: str | None          # type in the C reference (None: not expressible in C)
    cuda: str              # type in kernels
    acc: str               # compute type in kernels
    include: str
    to_acc: str            # expression template converting a T value `v` to ACC
    from_acc: str          # and back
    size: int


DTYPES = {d.name: d for d in (
    DType("float32", "f32", "float", "float", "float", "", "v", "v", 4),
    DType("float64", "f64", "double", "double", "double", "", "v", "v", 8),
    DType("float16", "f16", None, "__half", "float", "#include <cuda_fp16.h>", "__half2float(v)",
          "__float2half(v)", 2),
    DType("bfloat16", "bf16", None, "__nv_bfloat16", "float", "#include <cuda_bf16.h>", "__bfloat162float(v)",
          "__float2bfloat16(v)", 2),
    DType("int32", "i32", "int", "int", "int", "", "v", "v", 4),
    DType("uint8", "u8", "unsigned char", "unsigned char", "int", "", "(int)v", "(unsigned char)v", 1),
)}
LOWEST = {"float": "-3.402823466e+38f", "double": "-1.7976931348623157e+308", "int": "(-2147483647 - 1)"}
HIGHEST = {"float": "3.402823466e+38f", "double": "1.7976931348623157e+308", "int": "2147483647"}


@dataclass(frozen=True)
class Tensor:
    """An input or output array; `dtype` "T" is the task's dtype.  `init` is a harness generator
    (normal(m, s), uniform(lo, hi), randint(lo, hi), zeros, ones) or, for outputs, poison/zeros."""

    name: str
    shape: tuple[str, ...]
    dtype: str = "T"
    init: str = "normal(0, 1)"


@dataclass(frozen=True)
class Signature:
    sizes: tuple[str, ...]
    inputs: tuple[Tensor, ...]
    outputs: tuple[Tensor, ...]


@dataclass(frozen=True)
class Impl:
    """One implementation as family code writes it: `body` holds the kernel `$KERNEL` (and any
    helpers) after the dtype preamble; grid, block and args are launch-spec expressions over the
    signature's names."""

    impl_id: str
    tags: tuple[str, ...]
    note: str
    body: str
    grid: str | Sequence[str]
    block: str | Sequence[str]
    args: Sequence[str]


@dataclass(frozen=True)
class Implementation:
    impl_id: str
    tags: tuple[str, ...]
    note: str
    kernel: str
    source: str            # CUDA text with its /* cudaperf:launch */ spec


@dataclass(frozen=True)
class Task:
    task_id: str
    family: str
    variant: str
    kind: str
    dtype: str
    description: str
    reference: str                       # C source (with harness block) or KernelBench module
    harness: dict | None                 # c2cuda: the harness spec (also embedded in `reference`)
    configs: tuple[dict, ...]            # {"config_id", "name", "sizes"}
    implementations: tuple[Implementation, ...]
    signature: Signature = field(repr=False)
    atol: float | None = None            # None: the engine's per-dtype default
    rtol: float | None = None
    check_sizes: dict = field(default_factory=dict, repr=False)   # a small configuration for CPU checks


def resolve(dtype: str, task_dtype: str) -> DType:
    return DTYPES[task_dtype if dtype == "T" else dtype]


def preamble(dt: DType) -> str:
    """typedefs T (storage) and ACC (compute), the ld/st conversions every kernel uses, CA(x) (a
    constant in ACC), VEC (elements of T in 16 bytes) and the extreme ACC values."""
    lines = [dt.include] if dt.include else []
    lines += [f"typedef {dt.cuda} T;", f"typedef {dt.acc} ACC;",
              f"#define ACC_LOWEST {LOWEST[dt.acc]}", f"#define ACC_HIGHEST {HIGHEST[dt.acc]}",
              "#define CA(x) ((ACC)(x))", f"#define VEC {16 // dt.size}",
              f"__device__ __forceinline__ ACC ld(T v) {{ return {dt.to_acc}; }}",
              f"__device__ __forceinline__ T st(ACC v) {{ return {dt.from_acc}; }}"]
    return "\n".join(lines) + "\n"


_IDENT = re.compile(r"[A-Za-z_]\w*")


def _shape_exprs(sig: Signature) -> dict[str, str]:
    """size name -> `tensor.shape[d]` of the first input carrying it (torch2cuda specs); a size no
    input carries stays a name, bound by get_init_inputs (see `init_sizes`)."""
    found: dict[str, str] = {}
    for t in sig.inputs:
        for d, s in enumerate(t.shape):
            if s in sig.sizes:
                found.setdefault(s, f"{t.name}.shape[{d}]")
    return found


def init_sizes(sig: Signature) -> list[str]:
    """Sizes that no input's shape carries: a torch2cuda task passes them as init inputs."""
    carried = {s for t in sig.inputs for s in t.shape}
    return [s for s in sig.sizes if s not in carried]


def _substitute(expr: str, names: dict[str, str]) -> str:
    return _IDENT.sub(lambda m: names.get(m.group(0), m.group(0)), expr)


def launch_spec(impl: Impl, sig: Signature, kind: str, dt: DType, kernel: str) -> dict:
    args = list(impl.args)
    grid = [impl.grid] if isinstance(impl.grid, str) else list(impl.grid)
    block = [impl.block] if isinstance(impl.block, str) else list(impl.block)
    if kind == "c2cuda":
        return {"launches": [{"kernel": kernel, "grid": grid, "block": block, "args": args}]}
    names = _shape_exprs(sig)

    def sub(expr: str) -> str:
        return _substitute(str(expr), names)

    outputs = []
    for t in sig.outputs:
        entry = {"name": t.name, "shape": "[" + ", ".join(sub(s) for s in t.shape) + "]",
                 "dtype": resolve(t.dtype, dt.name).name}
        if t.init == "zeros":
            entry["init"] = "zeros"
        outputs.append(entry)
    spec = {"inputs": [t.name for t in sig.inputs], "outputs": outputs,
            "launches": [{"kernel": kernel, "grid": [sub(g) for g in grid], "block": [sub(b) for b in block],
                          "args": [sub(a) for a in args]}]}
    if init_sizes(sig):
        spec["init"] = init_sizes(sig)
    return spec


def cuda_source(task_id: str, impl: Impl, sig: Signature, kind: str, dt: DType, kernel: str,
                values: dict[str, str]) -> str:
    spec = launch_spec(impl, sig, kind, dt, kernel)
    head = (f"// cudaperf dataset {task_id}: {impl.impl_id} [{', '.join(impl.tags)}] {impl.note}\n"
            f"/* cudaperf:launch\n{json.dumps(spec)}\n*/\n")
    return head + preamble(dt) + Template(impl.body).substitute(KERNEL=kernel, **values)


def harness(sig: Signature, function: str, dt: DType, configs: list[dict], atol: float | None,
            rtol: float | None) -> dict:
    args: list[dict] = [{"name": s, "type": "int"} for s in sig.sizes]
    for t, output in [(t, False) for t in sig.inputs] + [(t, True) for t in sig.outputs]:
        ctype = resolve(t.dtype, dt.name).c
        entry = {"name": t.name, "type": ("" if output else "const ") + f"{ctype}*",
                 "shape": t.shape[0] if len(t.shape) == 1 else list(t.shape)}
        if output:
            entry["output"] = True
            if t.init == "zeros":
                entry["init"] = "zeros"
        else:
            entry["init"] = t.init
        args.append(entry)
    data = {"function": function, "args": args,
            "configs": [dict(c["sizes"]) for c in configs]}
    if atol is not None:
        data["atol"] = atol
    if rtol is not None:
        data["rtol"] = rtol
    return data


def c_reference(description: str, spec: dict, sig: Signature, dt: DType, body: str, helpers: str = "") -> str:
    """`body` is the C function body over the harness names; T is the storage type, ACC double."""
    params = [f"{a['type']} {a['name']}" for a in spec["args"]]
    return (f"/* {description} */\n/* cudaperf:harness\n{json.dumps(spec)}\n*/\n"
            "#include <math.h>\n#include <stddef.h>\n"
            f"typedef {dt.c} T;\ntypedef double ACC;\n#define CA(x) ((ACC)(x))\n{helpers}"
            f"void {spec['function']}({', '.join(params)}) {{\n{body.rstrip()}\n}}\n")


_TORCH_DTYPES = {"float32": "torch.float32", "float64": "torch.float64", "float16": "torch.float16",
                 "bfloat16": "torch.bfloat16", "int32": "torch.int32", "uint8": "torch.uint8"}


def _torch_init(t: Tensor, dtype: str) -> str:
    shape = ", ".join(s.upper() for s in t.shape)
    kind, _, rest = t.init.partition("(")
    params = [p.strip() for p in rest.rstrip(")").split(",") if p.strip()]
    torch_dtype = _TORCH_DTYPES[dtype]
    if kind == "normal":
        mean, std = params
        tail = (f" * {std}" if float(std) != 1 else "") + (f" + {mean}" if float(mean) != 0 else "")
        return f"torch.randn({shape}, dtype={torch_dtype}){tail}"
    if kind == "uniform":
        lo, hi = params
        return f"torch.rand({shape}, dtype={torch_dtype}) * {float(hi) - float(lo)!r} + {lo}"
    if kind == "randint":
        lo, hi = params
        return f"torch.randint({int(float(lo))}, {int(float(hi))}, ({shape},), dtype={torch_dtype})"
    raise ValueError(f"no torch generator for {t.init!r}")


def torch_reference(description: str, sig: Signature, dt: DType, sizes: dict[str, int], forward: str) -> str:
    """A KernelBench module: sizes are upper-case module globals (what a configuration sets); sizes
    no input carries come from get_init_inputs; `forward` is the body of Model.forward."""
    init = init_sizes(sig)
    init_values = [s.upper() for s in init]
    params = "".join(f", {name}" for name in init)
    assigns = "".join(f"\n        self.{name} = {name}" for name in init)
    inputs = ", ".join(t.name for t in sig.inputs)
    gens = "".join(f"\n    {t.name} = {_torch_init(t, resolve(t.dtype, dt.name).name)}" for t in sig.inputs)
    body = "\n".join("        " + line if line.strip() else "" for line in forward.strip("\n").splitlines())
    return (f'"""{description}"""\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n'
            + "".join(f"{s.upper()} = {v}\n" for s, v in sizes.items())
            + f"\n\nclass Model(nn.Module):\n    def __init__(self{params}):\n        super().__init__(){assigns}\n"
            + f"\n    def forward(self, {inputs}):\n{body}\n\n\ndef get_inputs():{gens}\n    return [{inputs}]\n\n\n"
            + f"def get_init_inputs():\n    return [{', '.join(init_values)}]\n")


def kernel_name(family: str, variant: str, impl_id: str) -> str:
    return re.sub(r"\W", "_", f"{family}_{variant}_{impl_id}")


def build(*, family: str, variant: str, kind: str, dtype: str, description: str, sig: Signature,
          configs: Sequence[dict[str, int]], check: dict[str, int], impls: Sequence[Impl], c_body: str,
          torch_forward: str,
          values: dict[str, str] | None = None, c_helpers: str = "",
          atol: float | None = None, rtol: float | None = None) -> Task:
    """One task of one kind.  `configs` are size dicts (small to large), `check` a small one that
    keeps the configurations' alignment (for the CPU emulator); `values` fill the kernels' other
    $PLACEHOLDERS (the operation's expression, constants)."""
    dt = DTYPES[dtype]
    task_id = f"{family}/{variant}/{dt.short}/{'c' if kind == 'c2cuda' else 'torch'}"
    named = tuple({"config_id": i, "name": name, "sizes": dict(c)}
                  for i, (name, c) in enumerate(zip(_config_names(len(configs)), configs)))
    implementations = []
    for impl in impls:
        kernel = kernel_name(family, variant, impl.impl_id)
        source = cuda_source(task_id, impl, sig, kind, dt, kernel, dict(values or {}))
        implementations.append(Implementation(impl.impl_id, impl.tags, impl.note, kernel, source))
    if kind == "c2cuda":
        spec = harness(sig, re.sub(r"\W", "_", f"ref_{variant}"), dt, list(named), atol, rtol)
        reference = c_reference(description, spec, sig, dt, c_body, c_helpers)
    else:
        spec = None
        reference = torch_reference(description, sig, dt, named[0]["sizes"], torch_forward)
    return Task(task_id, family, variant, kind, dtype, description, reference, spec, named,
                tuple(implementations), sig, atol, rtol, dict(check))


def _config_names(n: int) -> list[str]:
    return ["small", "medium", "large"] if n == 3 else [f"c{i}" for i in range(n)]


def both_kinds(dtypes_c: Sequence[str] = C_FLOATS, dtypes_torch: Sequence[str] = TORCH_FLOATS
               ) -> list[tuple[str, str]]:
    """(kind, dtype) pairs a family usually covers."""
    return [("c2cuda", d) for d in dtypes_c] + [("torch2cuda", d) for d in dtypes_torch]
