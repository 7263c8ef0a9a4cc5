"""Check implementations on the CPU before spending GPU time: every kernel of a task is compiled
with g++ against emulate.h (blocks one at a time, threads as fibers), run on the task's small check
configuration in a forked child (a wild pointer kills the child, not the caller), and compared with
the task's own reference: the C function through ctypes, or the KernelBench module on CPU torch.

What it catches: wrong indexing, missed tails, broken reductions and scans, barriers some thread
never reaches.  What it cannot: timing, races the sequential schedule hides, GPU-only faults."""

from __future__ import annotations

import ctypes
import hashlib
import mmap
import os
import re
import subprocess
import tempfile
import types
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...rewards.execution import correctness, harness, spec
from ...rewards.execution.compile import compile_c
from .kit import Task

HEADER = Path(__file__).with_name("emulate.h")
_SIGNATURE = re.compile(r'extern "C" __global__ void (\w+)\(([^)]*)\)')
_INCLUDE = re.compile(r"^\s*#\s*include\s*<[^>]+>\s*$", re.M)
_CTYPES = {"i": ctypes.c_int32, "q": ctypes.c_int64, "I": ctypes.c_uint32, "Q": ctypes.c_uint64,
           "f": ctypes.c_float, "d": ctypes.c_double}


@dataclass(frozen=True)
class Check:
    impl_id: str
    ok: bool
    message: str


def parameters(source: str) -> tuple[str, list[tuple[str, str]]]:
    """(kernel name, [(C type, name)]) of a dataset implementation's single extern "C" kernel."""
    m = _SIGNATURE.search(source)
    if m is None:
        raise ValueError("no extern \"C\" __global__ kernel")
    params = []
    for p in m.group(2).split(","):
        words = p.replace("__restrict__", " ").replace("*", " * ").split()
        params.append((" ".join(words[:-1]).replace(" *", "*"), words[-1]))
    return m.group(1), params


def _unit(task: Task) -> str:
    parts = [f'#include "{HEADER.name}"\n']
    for i, impl in enumerate(task.implementations):
        name, params = parameters(impl.source)
        undef = "".join(f"#undef {d}\n" for d in sorted(set(re.findall(r"#define (\w+)", impl.source))))
        call = ", ".join(f"*({ctype}*)args[{k}]" for k, (ctype, _) in enumerate(params))
        parts.append(f"{undef}namespace unit{i} {{\n{_INCLUDE.sub('', impl.source)}\n"
                     f"extern \"C\" int launch{i}(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, "
                     f"unsigned bz, void** args) {{\n    return emu::run(dim3{{gx, gy, gz}}, dim3{{bx, by, bz}}, "
                     f"[args]() {{ {name}({call}); }});\n}}\n}}\n")
    return "".join(parts)


def build(task: Task, directory: Path) -> Path:
    """One shared library with a `launch<i>` per implementation."""
    text = _unit(task)
    out = directory / f"{hashlib.sha256(text.encode()).hexdigest()[:16]}.so"
    if not out.exists():
        unit = out.with_suffix(".cpp")
        unit.write_text(text)
        done = subprocess.run(["g++", "-std=c++20", "-O1", "-w", "-fPIC", "-shared", "-I", str(HEADER.parent),
                               "-o", str(out), str(unit)], capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise RuntimeError(f"g++ failed for {task.task_id}:\n{done.stderr[-3000:]}")
    return out


def _shared(array: np.ndarray) -> np.ndarray:
    """A copy in anonymous shared memory, so a forked child's writes are seen by the parent."""
    buf = mmap.mmap(-1, max(array.nbytes, 1))
    shared = np.frombuffer(buf, dtype=array.dtype, count=array.size).reshape(array.shape)
    shared[...] = array
    return shared


def _poisoned(shape: tuple[int, ...], dtype: np.dtype, init: str) -> np.ndarray:
    out = np.zeros(shape, dtype)
    if init != "zeros":
        out.view(np.uint8)[...] = 0xFF     # NaN for floats, -1 for integers
    return _shared(out)


class _Torch:
    """The KernelBench reference on CPU torch, bf16 kept as raw bits for the kernel."""

    def __init__(self, task: Task, sizes: dict[str, int], seed: int):
        import torch

        module = types.ModuleType(f"cudaperf_check_{abs(hash(task.task_id))}")
        exec(compile(task.reference, task.task_id, "exec"), module.__dict__)
        for name, value in sizes.items():
            setattr(module, name.upper(), value)
        torch.manual_seed(seed)
        self.init = list(module.get_init_inputs())
        model = module.Model(*self.init)
        self.inputs = list(module.get_inputs())
        with torch.no_grad():
            out = model(*self.inputs)
        self.expected = list(out) if isinstance(out, tuple | list) else [out]

    @staticmethod
    def array(t) -> np.ndarray:
        import torch

        if t.dtype == torch.bfloat16:
            return t.contiguous().view(torch.int16).numpy().view(np.uint16)
        return t.contiguous().numpy()


def _expected_float(t) -> np.ndarray:
    import torch

    if isinstance(t, np.ndarray):
        return t.astype(np.float64)
    return t.to(torch.float64).numpy() if t.is_floating_point() else t.numpy().astype(np.float64)


def _as_float(a: np.ndarray, dtype: str) -> np.ndarray:
    if dtype == "bfloat16":
        return (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return a.astype(np.float64)


def _compare(got: np.ndarray, want: np.ndarray, tol: correctness.Tolerance) -> str | None:
    if got.shape != want.shape:
        return f"shape {got.shape}, expected {want.shape}"
    if not np.all(np.isfinite(got)):
        return f"{int((~np.isfinite(got)).sum())} non-finite of {got.size} (unwritten outputs?)"
    err = np.abs(got - want)
    bad = err > tol.atol + tol.rtol * np.abs(want)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        return (f"{int(bad.sum())} of {got.size} outside tolerance "
                f"(first at {i}: {got.flat[i]:.6g} vs {want.flat[i]:.6g})")
    return None


def check_task(task: Task, directory: Path | None = None, seed: int = 1) -> list[Check]:
    """Every implementation of `task` on its check configuration."""
    directory = directory or Path(tempfile.gettempdir()) / "cudaperf-emulate"
    directory.mkdir(parents=True, exist_ok=True)
    lib = ctypes.CDLL(str(build(task, directory)))
    sizes = task.check_sizes
    if task.kind == "c2cuda":
        h = harness.parse_harness(task.harness)
        values = harness.make_inputs(h, dict(sizes), seed)
        reference = compile_c(task.reference)
        if not reference.ok:
            raise RuntimeError(f"{task.task_id}: the C reference does not compile: {reference.first_error}")
        after = harness.call_reference(reference.path, h, values)
        expected = [after[a.name] for a in h.outputs]
        out_types = [a.dtype for a in h.outputs]
    else:
        ref = _Torch(task, sizes, seed)
        expected = ref.expected
        out_types = [str(t.dtype).replace("torch.", "") for t in expected]
    results = []
    for i, impl in enumerate(task.implementations):
        launch_spec = spec.parse_spec(spec.embedded_spec(impl.source))
        if task.kind == "c2cuda":
            env = {a.name: (_poisoned(values[a.name].shape, values[a.name].dtype, a.init[0])
                            if a.output and a.init[0] == "poison" else _shared(values[a.name]) if a.pointer
                            else values[a.name]) for a in h.args}
            outputs = [env[a.name] for a in h.outputs]
        else:
            env = {n: _shared(_Torch.array(t)) for n, t in zip(launch_spec.inputs, ref.inputs)}
            env.update(zip(launch_spec.init, ref.init))
            outputs = []
            for b in launch_spec.outputs:
                shape = b.shape(env)
                dtype = np.uint16 if b.dtype == "bfloat16" else np.dtype(b.dtype)
                env[b.name] = _poisoned(tuple(shape if isinstance(shape, list) else [shape]), np.dtype(dtype), b.init)
                outputs.append(env[b.name])
        results.append(Check(impl.impl_id, *_run(lib, i, launch_spec, env, outputs, expected, out_types, task)))
    return results


def _run(lib: ctypes.CDLL, index: int, launch_spec: spec.LaunchSpec, env: dict, outputs: list[np.ndarray],
         expected: list, out_types: list[str], task: Task) -> tuple[bool, str]:
    launch = launch_spec.launches[0]
    grid = [int(e(env)) for e in launch.grid] + [1] * (3 - len(launch.grid))
    block = [int(e(env)) for e in launch.block] + [1] * (3 - len(launch.block))
    holders = []
    for expr in launch.args:
        value = expr(env)
        if isinstance(value, np.ndarray):
            holders.append(ctypes.c_void_p(value.ctypes.data))
        elif isinstance(value, spec.Scalar):
            holders.append(_CTYPES[value.code](value.value))
        else:
            holders.append(ctypes.c_int32(value) if isinstance(value, int) else ctypes.c_float(value))
    args = (ctypes.c_void_p * len(holders))(*[ctypes.cast(ctypes.byref(h), ctypes.c_void_p) for h in holders])
    fn = getattr(lib, f"launch{index}")
    fn.argtypes = [ctypes.c_uint] * 6 + [ctypes.c_void_p]
    pid = os.fork()
    if pid == 0:
        os._exit(fn(*grid, *block, args))
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return False, f"crashed (signal {os.WTERMSIG(status)})"
    if os.WEXITSTATUS(status) == 1:
        return False, "deadlock: a barrier some live thread never reached"
    for k, (got, want, dtype) in enumerate(zip(outputs, expected, out_types)):
        tol = correctness.tolerance(dtype, task.atol, task.rtol)
        problem = _compare(_as_float(got, dtype), _expected_float(want), tol)
        if problem:
            return False, f"output {k}: {problem}"
    return True, "ok"
