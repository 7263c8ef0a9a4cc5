"""CuPy on a machine without a GPU, for the tracing child (`trace`): what a model-written solution asks
of CuPy to launch a kernel of its own instead of building a `load_inline` extension, answered by
recording the launch.

- `cupy.RawKernel(code, name)` and `cupy.RawModule(code=...).get_function(name)` hand the source and
  the kernel's name to the tracer (`on_kernel`), which records each call
  `kernel(grid, block, args, shared_mem=0, stream=None)` as one launch of that kernel: the analyzer
  reads it under that grid and block with the scalar arguments by the kernel's parameter names
  (`scalars`).  Pointers (tensors passed through `cupy.asarray`, `data_ptr()` integers) carry no value.
- `cupy.asarray(tensor)` and `cupy.from_dlpack(tensor)` (and `torch.utils.dlpack.to_dlpack` before it)
  give the meta tensor back; each costs host time (`cupy_asarray`, `cupy_dlpack`: `torch_ops.HOST_ONLY`).
- dtypes are numpy's; `cupy.empty`/`zeros`/`ones` make meta tensors; `cupy.cuda.Stream`, `Device`,
  `get_current_stream` and `runtime.deviceSynchronize` are stand-ins that do nothing.

Anything else is missing (AttributeError), as on a CuPy without it: the solution's fallback runs.
Installed once per tracing child (`install`), which is a throwaway process."""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from functools import lru_cache
from typing import Any

# a kernel's source and name -> the function that records one launch of it (grid, block, args, smem)
KernelHook = Callable[[str, str], Callable[[list, list, tuple, int], None]]
_hooks: dict[str, Any] = {"kernel": None, "conversion": None}


def watch(kernel: KernelHook, conversion: Callable[[str], None]) -> None:
    """Where the tracer is told of each kernel a candidate makes and each tensor it hands to CuPy (set per
    candidate)."""
    _hooks["kernel"], _hooks["conversion"] = kernel, conversion


def _converted(kind: str) -> None:
    if _hooks["conversion"] is not None:
        _hooks["conversion"](kind)


def scalars(cuda: str, name: str, args: tuple) -> dict[str, int | float]:
    """The scalar arguments of one launch by the kernel's parameter names; {} when the kernel's
    signature cannot be read (the analyzer then assumes values and says so)."""
    params = _params(cuda, name)
    if params is None or len(params) != len(args):
        return {}
    return {p.name: plain(a) for p, a in zip(params, args) if not p.pointer and isinstance(plain(a), (int, float))}


@lru_cache(maxsize=64)
def _params(cuda: str, name: str) -> tuple | None:
    from ..rewards.execution.fastpath.split import split

    kernel = split(cuda, "").kernels.get(name)
    return kernel.params if kernel is not None else None


def plain(value: Any) -> Any:
    """numpy scalars (`np.int32(n)`) as Python numbers; anything else as it is."""
    import numpy as np

    return value.item() if isinstance(value, np.generic) else value


def _is_tensor(value: Any) -> bool:
    import torch

    return isinstance(value, torch.Tensor)


def _dim3(value: Any) -> list[int]:
    dims = [int(v) for v in (value if isinstance(value, (tuple, list)) else (value,))]
    return (dims + [1, 1, 1])[:3]


class RawKernel:
    def __init__(self, code: str, name: str, options: tuple = (), backend: str = "nvrtc", **kwargs: Any):
        self.code, self.name = code, name
        self._launch = _hooks["kernel"](code, name) if _hooks["kernel"] is not None else None

    def __call__(self, grid: Any, block: Any, args: tuple, *, shared_mem: int = 0, stream: Any = None,
                 enable_cooperative_groups: bool = False) -> None:
        if self._launch is not None:
            self._launch(_dim3(grid), _dim3(block), tuple(args), int(shared_mem))


class RawModule:
    def __init__(self, code: str | None = None, *, path: str | None = None, options: tuple = (), **kwargs: Any):
        if code is None:
            raise NotImplementedError("RawModule(path=...): a cubin is not read statically")
        self.code = code

    def get_function(self, name: str) -> RawKernel:
        return RawKernel(self.code, name)


class _Stream:
    ptr = 0
    null = None

    def __init__(self, *args: Any, **kwargs: Any):
        pass

    def __enter__(self) -> _Stream:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def synchronize(self) -> None:
        pass

    def use(self) -> _Stream:
        return self


class _Device(_Stream):
    id = 0


def asarray(value: Any, dtype: Any = None) -> Any:
    """A tensor handed to CuPy: the same meta tensor (a `data_ptr()` integer stays an integer)."""
    if _is_tensor(value):
        _converted("cupy_asarray")
    return value


def from_dlpack(value: Any) -> Any:
    """A tensor handed to CuPy through DLPack (`to_dlpack` gave the meta tensor itself): that tensor."""
    if _is_tensor(value):
        _converted("cupy_dlpack")
    return value


def _maker(fill: str) -> Callable[..., Any]:
    def make(shape: Any, dtype: Any = "float64", *args: Any, **kwargs: Any) -> Any:   # CuPy's default dtype
        import numpy as np
        import torch

        torch_dtype = torch.from_numpy(np.empty(0, dtype=np.dtype(dtype))).dtype
        return getattr(torch, fill)(shape, dtype=torch_dtype, device="meta")
    return make


class ndarray:
    """`cupy.ndarray`'s stand-in: no traced value is one (its arrays are meta tensors).  Libraries ask it of
    the module named cupy once one is imported (einops, on every `rearrange`: CUDA-L1's L3_048 reference)."""


def module() -> types.ModuleType:
    """The stand-in `cupy` module."""
    import numpy as np

    cupy = types.ModuleType("cupy")
    cupy.__version__ = "0+cudaperf"
    cupy.RawKernel, cupy.RawModule, cupy.asarray, cupy.from_dlpack = RawKernel, RawModule, asarray, from_dlpack
    cupy.fromDlpack, cupy.ndarray = from_dlpack, ndarray
    cupy.empty, cupy.zeros, cupy.ones = _maker("empty"), _maker("zeros"), _maker("ones")
    for name in ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "bool_", "intp", "uintp"):
        setattr(cupy, name, getattr(np, name))
    cuda = types.ModuleType("cupy.cuda")
    cuda.Stream, cuda.ExternalStream, cuda.Device = _Stream, _Stream, _Device
    cuda.get_current_stream = lambda *a, **k: _Stream()
    cuda.runtime = types.SimpleNamespace(deviceSynchronize=lambda: None, getDevice=lambda: 0,
                                         getDeviceCount=lambda: 1)
    cupy.cuda = cuda
    return cupy


def install() -> None:
    """`import cupy` in this process gets the stand-in; `torch.utils.dlpack.to_dlpack` of a meta tensor
    gives the tensor itself (`from_dlpack` takes it back)."""
    import torch.utils.dlpack

    stand_in = module()
    sys.modules["cupy"], sys.modules["cupy.cuda"] = stand_in, stand_in.cuda
    torch.utils.dlpack.to_dlpack = lambda tensor: tensor
