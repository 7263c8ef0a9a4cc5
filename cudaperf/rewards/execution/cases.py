"""What runs for each format: the reference and its fresh inputs for any seed (in the checker), and the
candidate (in the sandboxed worker), two callables over the same inputs.  Imports torch; only those
two processes import this module."""

from __future__ import annotations

import copy
import random
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import torch

from . import driver
from .correctness import Mismatch, flatten
from .harness import Harness, call_reference, make_inputs
from .spec import LaunchSpec, Scalar, SpecError

_INT32 = (-(1 << 31), (1 << 31) - 1)


class CandidateRejected(Exception):
    def __init__(self, rule: str, message: str):
        self.rule = rule
        super().__init__(message)


def load_module(source: str, name: str, path: str | None) -> types.ModuleType:
    """Execute a source as a fresh module registered under `name` (its classes must be importable by
    name for torch's pickling and dataclasses)."""
    module = types.ModuleType(name)
    module.__file__ = path or f"<{name}>"
    sys.modules[name] = module
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module


def to_device(value: Any, device: str) -> Any:
    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, list | tuple):
        return type(value)(to_device(v, device) for v in value)
    return value


def clone(value: Any) -> Any:
    """A new allocation for every tensor (new address, same values)."""
    if isinstance(value, torch.Tensor):
        return value.clone()
    if isinstance(value, list | tuple):
        return type(value)(clone(v) for v in value)
    return value


def to_float64(value: Any) -> Any:
    """Floating tensors as float64 copies (the oracle's inputs); everything else as it is."""
    if isinstance(value, torch.Tensor):
        return value.to(torch.float64) if value.is_floating_point() else value
    if isinstance(value, list | tuple):
        return type(value)(to_float64(v) for v in value)
    return value


def poison(t: torch.Tensor) -> torch.Tensor:
    """Fill with a value a correct kernel overwrites: NaN for floats, the maximum for integers."""
    if t.is_floating_point() or t.is_complex():
        return t.fill_(float("nan"))
    return t.fill_(True if t.dtype == torch.bool else torch.iinfo(t.dtype).max)


def fingerprint(values: Any) -> str:
    """A short digest of an input set, computed where the values live: the worker makes its own input
    sets from seeds (nothing to copy) only when its digest of a probe set equals the checker's."""
    parts = []
    for v in flatten(values):
        if isinstance(v, torch.Tensor):
            flat = v.detach().reshape(-1)
            flat = torch.view_as_real(flat).reshape(-1) if flat.is_complex() else flat
            flat = flat.to(torch.float64)
            parts.append((str(v.dtype), tuple(v.shape), float(torch.nansum(flat)),
                          float(torch.nansum(flat[::97] * 1.5)), int(torch.isnan(flat).sum())))
        else:
            parts.append(repr(v)[:200])
    return repr(parts)


class TorchInputs:
    """get_inputs() of a KernelBench module for any seed, the same values in every process on the same
    device: the checker's copies and the worker's own."""

    def __init__(self, module: types.ModuleType, device: str):
        self.module, self.device = module, device

    def inputs(self, seed: int) -> list[Any]:
        """get_inputs() with factory calls placed on the device: random numbers for a 16M-element input
        cost milliseconds there and a fraction of a second on the CPU, for every input set of every
        fresh worker.  A get_inputs that only works on the CPU is run there."""
        np.random.seed(seed & 0xFFFFFFFF)
        random.seed(seed)
        torch.manual_seed(seed)
        if self.device == "cuda":
            torch.cuda.manual_seed_all(seed)
            try:
                with torch.device(self.device):
                    return list(to_device(list(self.module.get_inputs()), self.device))
            except (RuntimeError, TypeError):
                torch.manual_seed(seed)
        return list(to_device(list(self.module.get_inputs()), self.device))


class TorchReference(TorchInputs):
    """A KernelBench reference module: Model(*get_init_inputs()) and get_inputs()."""

    def __init__(self, source: str, path: str | None, device: str, seed: int):
        super().__init__(load_module(source, "cudaperf_reference", path), device)
        self.seed = seed
        self.init = list(self.module.get_init_inputs())
        torch.manual_seed(seed)
        self.model = self.module.Model(*self.init).to(device)
        self._oracle: torch.nn.Module | None = None

    def __call__(self, *inputs: Any) -> Any:
        return self.model(*inputs)

    def oracle(self, inputs: list[Any]) -> Any:
        """The reference computed in float64 on float64 copies of `inputs` (the precision-aware test
        of correctness.py), from a float64 copy of the model made on first use; None when the model
        does not run in float64."""
        try:
            if self._oracle is None:
                self._oracle = copy.deepcopy(self.model).to(torch.float64)
            with torch.no_grad():
                return self._oracle(*to_float64(clone(inputs)))
        except Exception:   # a reference that insists on its own dtypes has no oracle
            return None


def kernelbench_candidate(source: str, path: str | None, init: list[Any], state: dict[str, torch.Tensor],
                          seed: int, device: str) -> torch.nn.Module:
    """ModelNew(*init) built under the reference's seed, with the reference's parameters (`state`, copies
    the checker sent) copied in where names and shapes agree (hack 14: same weights, same hyperparameters)."""
    module = load_module(source, "cudaperf_candidate", path)
    cls = getattr(module, "ModelNew", None)
    if not isinstance(cls, type) or not issubclass(cls, torch.nn.Module):
        raise CandidateRejected("missing-modelnew", "the candidate defines no ModelNew(nn.Module)")
    torch.manual_seed(seed)
    model = cls(*init).to(device)
    own = model.state_dict()
    with torch.no_grad():
        for key, value in own.items():
            if key in state:
                if state[key].shape != value.shape:
                    raise Mismatch(f"parameter {key} has shape {tuple(value.shape)}, the reference "
                                   f"{tuple(state[key].shape)}", "output-structure")
                value.copy_(state[key])
    return model


def _scalar(value: Any) -> tuple[str, int | float]:
    if isinstance(value, Scalar):
        return value.code, value.value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SpecError(f"kernel argument {value!r} is neither a tensor nor a number")
    if isinstance(value, int):
        if not _INT32[0] <= value <= _INT32[1]:
            raise SpecError(f"{value} does not fit an int; wrap it in int64(...)")
        return "i", value
    return "f", value


_SIZES = {"p": 8, "i": 4, "I": 4, "f": 4, "q": 8, "Q": 8, "d": 8}


class NativeCandidate:
    """Kernels from a cubin launched as a launch spec says, on torch's current stream."""

    def __init__(self, spec: LaunchSpec, cubin: str, device: str, static: dict[str, Any], input_names: list[str],
                 returns: list[str] | None = None, poisoned: list[str] = ()):
        self.spec, self.device, self.static = spec, device, static
        self.input_names, self.returns, self.poisoned = input_names, returns, list(poisoned)
        self.module = driver.Module(Path(cubin).read_bytes())
        self.launches: list[str] = []
        self.poison_outputs = True
        self._plans: dict[tuple, list] = {}
        for kernel in spec.kernels:
            try:
                self.module.function(kernel)
            except KeyError as exc:
                raise SpecError(str(exc)) from None
        self._checked: set[str] = set()

    def _buffer(self, b, env: dict[str, Any]) -> torch.Tensor:
        dtype = getattr(torch, b.dtype) if b.dtype else None
        if b.shape is None:
            t = torch.empty_like(env[b.like], dtype=dtype or env[b.like].dtype, memory_format=torch.contiguous_format)
        else:
            shape = b.shape(env)
            shape = [int(s) for s in (shape if isinstance(shape, list | tuple) else [shape])]
            t = torch.empty(shape, dtype=dtype or env[b.like].dtype, device=self.device)
        return poison(t) if b.init == "poison" else t.zero_()

    def __call__(self, *inputs: Any) -> Any:
        if len(inputs) != len(self.input_names):
            raise SpecError(f"the spec names {len(self.input_names)} inputs, the task gives {len(inputs)}")
        env = dict(self.static)
        for name, value in zip(self.input_names, inputs):
            env[name] = value.contiguous() if isinstance(value, torch.Tensor) else value
        key = tuple((tuple(v.shape), v.dtype) if isinstance(v, torch.Tensor) else v for v in inputs)
        if key not in self._plans:
            self._plans[key] = self._plan(env)
        shapes, launches = self._plans[key]
        if self.poison_outputs:
            for name in self.poisoned:
                poison(env[name])
        outputs = []
        for b in [*self.spec.outputs, *self.spec.buffers]:
            t = torch.empty(shapes[b.name][0], dtype=shapes[b.name][1], device=self.device)
            env[b.name] = poison(t) if b.init == "poison" and self.poison_outputs else (
                t.zero_() if b.init == "zeros" else t)
            if b in self.spec.outputs:
                outputs.append(env[b.name])
        stream = torch.cuda.current_stream().cuda_stream
        for kernel, grid, block, smem, recipe in launches:
            args = [("p", env[value].data_ptr()) if code == "tensor" else (code, value) for code, value in recipe]
            self.module.launch(kernel, grid, block, smem, stream, args)
            self.launches.append(kernel)
        if self.returns is not None:
            outputs = [env[name] for name in self.returns]
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def _plan(self, env: dict[str, Any]) -> tuple[dict, list]:
        """Buffer shapes and launch configurations depend only on the inputs' shapes and scalars:
        evaluated once per shape, so a timed call costs allocations and launches, not expressions."""
        shapes = {}
        for b in [*self.spec.outputs, *self.spec.buffers]:
            env[b.name] = self._buffer(b, env)
            shapes[b.name] = (tuple(env[b.name].shape), env[b.name].dtype)
        launches = []
        for launch in self.spec.launches:
            grid = [int(e(env)) for e in launch.grid] + [1] * (3 - len(launch.grid))
            block = [int(e(env)) for e in launch.block] + [1] * (3 - len(launch.block))
            recipe = []
            for expr in launch.args:
                value = expr(env)
                if isinstance(value, torch.Tensor):
                    if expr.text.strip() not in env:
                        raise SpecError(f"tensor arguments are plain names, got {expr.text!r}")
                    recipe.append(("tensor", expr.text.strip()))
                else:
                    recipe.append(_scalar(value))
            self._check_arity(launch.kernel, [("p", 0) if c == "tensor" else (c, v) for c, v in recipe])
            launches.append((launch.kernel, tuple(grid), tuple(block), int(launch.smem(env)), recipe))
        return shapes, launches

    def _check_arity(self, kernel: str, args: list[tuple[str, Any]]) -> None:
        """A wrong argument count or size would make the kernel read garbage: refuse before launching."""
        if kernel in self._checked:
            return
        sizes = self.module.parameter_sizes(kernel)
        if sizes is not None:
            given = [_SIZES[code] for code, _ in args]
            if sizes != given:
                raise SpecError(f"kernel {kernel} takes parameters of {sizes} bytes, the spec passes {given}")
        self._checked.add(kernel)


def native_candidate(spec: LaunchSpec, cubin: str, init: list[Any], state: dict[str, torch.Tensor], n_inputs: int,
                     device: str) -> NativeCandidate:
    """Bind spec names: inputs to get_inputs() values (`x0`, `x1`, ... when the spec names none), init
    to get_init_inputs(), params to the reference model's tensors (copies the checker sent)."""
    static: dict[str, Any] = dict(zip(spec.init, init))
    for name, key in spec.params.items():
        if key not in state:
            raise SpecError(f"param {name!r}: the reference model has no {key!r} (has {', '.join(state) or 'none'})")
        static[name] = state[key].detach().clone().contiguous()
    names = spec.inputs or [f"x{i}" for i in range(n_inputs)]
    spec.check_names(set(static) | set(names))
    return NativeCandidate(spec, cubin, device, static, names)


class CInputs:
    """A C task's input sets for any seed and configuration, on the device (the checker's and the worker's)."""

    def __init__(self, harness: Harness, device: str):
        self.harness, self.device = harness, device

    def inputs(self, seed: int, config: int | None = None) -> list[Any]:
        index = seed % len(self.harness.configs) if config is None else config
        values = make_inputs(self.harness, self.harness.configs[index], seed)
        return [torch.from_numpy(values[a.name]).to(self.device) if a.pointer else values[a.name]
                for a in self.harness.args]


class CReference(CInputs):
    """A C function run on the CPU through ctypes; inputs live on the device for the candidate."""

    def __init__(self, harness: Harness, library: str, device: str):
        super().__init__(harness, device)
        self.library = library

    def host_values(self, inputs: list[Any]) -> list[Any]:
        """The inputs as the C function takes them (NumPy arrays, Python scalars)."""
        return [v.cpu().numpy() if a.pointer else v for a, v in zip(self.harness.args, inputs)]

    def run_host(self, *values: Any) -> dict[str, np.ndarray]:
        return call_reference(self.library, self.harness, dict(zip((a.name for a in self.harness.args), values)))

    def __call__(self, *inputs: Any) -> Any:
        arrays = self.run_host(*self.host_values(list(inputs)))
        outputs = [torch.from_numpy(np.ascontiguousarray(arrays[a.name])).to(self.device)
                   for a in self.harness.outputs]
        return outputs[0] if len(outputs) == 1 else tuple(outputs)


def c_candidate(spec: LaunchSpec, cubin: str, harness: Harness, device: str) -> NativeCandidate:
    names = [a.name for a in harness.args]
    spec.check_names(set(names))
    return NativeCandidate(spec, cubin, device, {}, names, [a.name for a in harness.outputs],
                           [a.name for a in harness.outputs if a.init[0] == "poison"])
