"""CUDA on a machine without a GPU, for the tracing child (`trace`): what a KernelBench candidate asks of
CUDA while its shapes are traced, answered without a driver.

- Devices: every tensor the candidate, the reference or torch's modules put on a device (`.cuda()`,
  `.to('cuda')`, `.to(0)`, `device='cuda'` in a factory, `.cpu()`, `.pin_memory()`) lands on the meta
  device, where tensors have shapes and no storage (`OnMeta`, a TorchFunctionMode).  `Tensor.is_cuda`
  is true of meta tensors, and their `.device` reads `cuda:0`: a candidate that tests
  `x.device.type == 'cuda'` takes the path it takes on the GPU (and a device it passes on lands on meta).
- `torch.cuda`: the queries models write answer as one device, index 0, an H200 (`DEVICE`:
  `is_available` True, `device_count` 1, `get_device_properties` with the H200's SM count, memory and
  compute capability 9.0); `synchronize`, `set_device`, `empty_cache`, seeding and memory statistics do
  nothing; `Stream`, `Event`, `current_stream`/`default_stream` (handle 0), `torch.cuda.stream(...)`,
  `torch.cuda.device(...)`, `torch.cuda.graph(...)` and `CUDAGraph` are stand-ins whose operations
  do nothing; a graph's captured work is recorded again at each `replay()`; `torch.Generator(device=
  'cuda')` is a CPU generator; `torch.cuda.FloatTensor(...)` and kin (and `.type()` to them) give meta
  tensors of that type.
- `torch.backends.*` flags are plain settings torch keeps on any build: left as they are (the tracer
  reads the TF32 and cuDNN autotuning ones; `cudnn.is_available()` is true, as on the stated device).
  CUDA events and the wall clocks read the GPU time the tracer estimates for the work traced so far
  (`advance`; the clocks a microsecond more a reading, `_Clock`): a solution timing its own variants
  keeps the one the time model prices fastest.  `torch.autocast("cuda")` (and `torch.cuda.amp.autocast`), which a
  CPU build disables, is a stand-in that notes its reduced precision (`autocast_dtype`) for the tracer
  to price GEMMs and convolutions by.  `torch.compile` returns what it is given (`_compile`);
  `torch.jit.trace` records the traced call, and its result records that again when called with the
  example's shapes, or runs the function again on others (`_jit_trace`).
- Scalars read from meta tensors (`.item()`, `float(t)`, `bool(t)`) have no value: `trace._scalar`
  says what the tracer gives back (0 while the model is built, so sanity checks on initial weights
  pass; 1 while it runs).  `torch.allclose` and `torch.equal` answer True: a solution comparing its
  fast path with its eager one passed that check where it was timed (it was correct there).

Installed once per tracing child (`install`), which is a throwaway process."""

from __future__ import annotations

import contextlib
from types import SimpleNamespace
from typing import Any

# the stated default: what torch.cuda answers about "the GPU" while a candidate is traced
DEVICE = {"name": "NVIDIA H200", "major": 9, "minor": 0, "multi_processor_count": 132,
          "total_memory": 150_754_820_096, "warp_size": 32, "max_threads_per_multi_processor": 2048,
          "max_threads_per_block": 1024, "regs_per_multiprocessor": 65536, "shared_memory_per_block": 49152,
          "shared_memory_per_block_optin": 232448, "shared_memory_per_multiprocessor": 233472,
          "L2_cache_size": 62_914_560, "is_integrated": 0, "is_multi_gpu_board": 0, "gcnArchName": "NVIDIA H200",
          "uuid": "00000000-0000-0000-0000-000000000000", "pci_bus_id": 0, "pci_device_id": 0, "pci_domain_id": 0}


class Stream:
    """torch.cuda.Stream's stand-in: handle 0, every operation a no-op."""

    cuda_stream = 0
    device_index = 0
    priority = 0

    def __init__(self, device: Any = None, priority: int = 0, **kwargs: Any):
        self.priority = priority

    @property
    def device(self) -> Any:
        import torch

        return torch.device("meta")

    def wait_stream(self, *args: Any) -> None:
        pass

    def wait_event(self, *args: Any) -> None:
        pass

    def record_event(self, event: Any = None) -> Event:
        return event or Event()

    def synchronize(self) -> None:
        pass

    def query(self) -> bool:
        return True

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc: Any) -> None:
        pass

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Stream)

    def __hash__(self) -> int:
        return 0


# the GPU time the work traced so far is estimated to take (the tracer `advance`s it by each operator's
# estimate as it runs): what a solution timing its own variants reads, from CUDA events and wall clocks
_gpu = {"seconds": 0.0}


def advance(seconds: float) -> None:
    _gpu["seconds"] += seconds


class Event:
    """torch.cuda.Event's stand-in: it records the estimated GPU clock (`advance`), so an elapsed time is
    the estimate of the work traced between two events."""

    def __init__(self, *args: Any, **kwargs: Any):
        self.at = 0.0

    def record(self, *args: Any) -> None:
        self.at = _gpu["seconds"]

    def wait(self, *args: Any) -> None:
        pass

    def synchronize(self) -> None:
        pass

    def query(self) -> bool:
        return True

    def elapsed_time(self, other: Any) -> float:
        return (other.at - self.at) * 1e3


# the graph being captured (or the call `torch.jit.trace` traces), what the tracer does with a replayed
# graph's work and with a traced function's (`trace` sets both)
_graphs: dict[str, Any] = {"capturing": None, "replay": None, "rerun": None}


def captured(kind: str, item: dict) -> None:
    """The tracer recorded `item` (an extension call or a torch operator): a graph being captured keeps it."""
    graph = _graphs["capturing"]
    if graph is not None:
        graph.captured.append((kind, item))


def on_replay(callback: Any, rerun: Any) -> None:
    _graphs["replay"], _graphs["rerun"] = callback, rerun


class CUDAGraph:
    """torch.cuda.CUDAGraph's stand-in: what the captured body records is kept, and each `replay()`
    records it again (on a GPU the capture runs nothing, every replay runs it all)."""

    def __init__(self, *args: Any, **kwargs: Any):
        self.captured: list[tuple[str, dict]] = []

    def capture_begin(self, *args: Any, **kwargs: Any) -> None:
        self.captured = []
        _graphs["capturing"] = self

    def capture_end(self) -> None:
        _graphs["capturing"] = None

    def replay(self) -> None:
        if _graphs["replay"] is not None:
            _graphs["replay"](self.captured)

    def reset(self) -> None:
        self.captured = []

    def pool(self) -> tuple:
        return (0, 0)


class graph(contextlib.AbstractContextManager):
    """torch.cuda.graph(g)'s stand-in: captures into `g`."""

    def __init__(self, cuda_graph: CUDAGraph, *args: Any, **kwargs: Any):
        self.cuda_graph = cuda_graph

    def __enter__(self) -> graph:
        self.cuda_graph.capture_begin()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.cuda_graph.capture_end()


class _Traced:
    """What `torch.jit.trace` gives back.  TorchScript runs the path the example took, on whatever shapes it is
    given: called with the example's shapes, it records again what the traced call recorded and returns
    what that returned (a model traced through its own `forward`, whose `forward` then calls the traced
    function, must not run its Python again); called with other shapes, the traced function runs again on
    them, and one that reaches itself again raises (its `try` falls back).  On meta tensors torch's own
    tracing fails (it checks its outputs against an eager run), and a candidate's `try` would fall back to
    a path the GPU never takes."""

    def __init__(self, func: Any, shapes: list, recorded: list[tuple[str, dict]], output: Any):
        self.func, self.shapes, self.captured, self.output = func, shapes, recorded, output
        self.running = False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if _shapes(args) == self.shapes:
            if _graphs["rerun"] is not None:
                _graphs["rerun"](self.captured)
            return self.output
        if self.running:
            raise RuntimeError("a traced function called itself")
        self.running = True
        try:
            return self.func(*args, **kwargs)
        finally:
            self.running = False

    forward = __call__

    def _same(self, *args: Any, **kwargs: Any) -> _Traced:
        return self

    eval = train = to = cuda = float = half = requires_grad_ = _same

    def parameters(self, *args: Any, **kwargs: Any) -> Any:
        return iter(())


def _shapes(args: tuple) -> list:
    return [tuple(a.shape) if hasattr(a, "shape") else None for a in args]


def _jit_trace(func: Any, example_inputs: Any = None, *args: Any, **kwargs: Any) -> _Traced:
    """`torch.jit.trace`'s stand-in: the call on the example inputs, recorded (as a graph captures)."""
    inputs = tuple(example_inputs) if isinstance(example_inputs, (tuple, list)) else (example_inputs,)
    outer, _graphs["capturing"] = _graphs["capturing"], CUDAGraph()
    try:
        output = func(*inputs)
        return _Traced(func, _shapes(inputs), _graphs["capturing"].captured, output)
    finally:
        _graphs["capturing"] = outer


def _jit_pass(original: Any) -> Any:
    """`torch.jit.freeze` and `optimize_for_inference`: a traced stand-in as it is, anything else to torch."""
    def apply(module: Any, *args: Any, **kwargs: Any) -> Any:
        return module if isinstance(module, _Traced) else original(module, *args, **kwargs)
    return apply


# the reduced precision `torch.autocast(device_type="cuda")` is in, innermost last (`autocast_dtype`)
_autocast: list[Any] = []


def autocast_dtype() -> Any:
    """The dtype CUDA autocast would run GEMMs and convolutions in here (None outside it): on a CPU build
    `torch.autocast("cuda")` disables itself, so the tracer prices what it would do (`trace._op_cost`)."""
    return _autocast[-1] if _autocast else None


class autocast(contextlib.ContextDecorator):
    """torch.autocast / torch.cuda.amp.autocast / torch.amp.autocast's stand-in (a context manager and a
    decorator): for the CUDA device, notes its dtype (float16 unless given) for `autocast_dtype`."""

    def __init__(self, device_type: str = "cuda", dtype: Any = None, enabled: bool = True, *args: Any,
                 **kwargs: Any):
        import torch

        cuda = str(device_type).startswith(("cuda", "meta"))
        self.dtype = (dtype or torch.float16) if enabled and cuda else None

    def __enter__(self) -> autocast:
        _autocast.append(self.dtype if self.dtype is not None else (_autocast[-1] if _autocast else None))
        return self

    def __exit__(self, *exc: Any) -> None:
        _autocast.pop()


def _cuda_autocast(dtype: Any = None, enabled: bool = True, *args: Any, **kwargs: Any) -> autocast:
    """torch.cuda.amp.autocast(...): the CUDA device is implied."""
    return autocast("cuda", dtype, enabled)


class _Nothing(contextlib.AbstractContextManager):
    """A context manager (and decorator target) that does nothing: torch.cuda.stream(s), device(i), graph(g)."""

    def __init__(self, *args: Any, **kwargs: Any):
        self.idx = 0

    def __exit__(self, *exc: Any) -> None:
        return None


def _legacy(dtype: Any) -> Any:
    """torch.cuda.FloatTensor(...) and its kin: a meta tensor of that type (sizes, or data for its shape)."""
    def make(*args: Any, **kwargs: Any) -> Any:
        import torch

        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            return torch.empty(torch.tensor(args[0]).shape, dtype=dtype, device="meta")
        return torch.empty(*args, dtype=dtype, device="meta")
    make.legacy_dtype = dtype
    return make


def _properties(*args: Any, **kwargs: Any) -> SimpleNamespace:
    return SimpleNamespace(**DEVICE)


def _on_meta(device: Any) -> bool:
    """Whether an argument of `.to(...)` is a device (a string, a torch.device or an index)."""
    import torch

    return isinstance(device, (str, torch.device)) or (isinstance(device, int) and not isinstance(device, bool))


def on_meta_mode():
    """A TorchFunctionMode putting every device request on the meta device (made lazily: torch is
    imported by the tracing child only)."""
    import torch
    from torch.overrides import TorchFunctionMode

    moves = {torch.Tensor.cuda, torch.Tensor.cpu, torch.Tensor.pin_memory}
    to, retype, device = torch.Tensor.to, torch.Tensor.type, torch.Tensor.device
    gpu = torch.device("cuda", 0)
    # a solution checking its fast path against its eager one (meta tensors have no values to compare):
    # a solution the timing measured was correct, so its own checks passed there
    agree = {torch.allclose, torch.equal, torch.Tensor.allclose, torch.Tensor.equal}

    class OnMeta(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            if getattr(func, "__self__", None) is device:    # `x.device`: where the candidate put it
                found = func(*args)
                return gpu if found.type == "meta" else found
            if func in agree:
                return True
            kwargs = dict(kwargs or {})
            if func in moves:
                return args[0].to("meta")
            if func is retype and len(args) > 1:     # x.type(torch.cuda.FloatTensor) or "torch.cuda.FloatTensor"
                target = args[1]
                if isinstance(target, str) and target.startswith("torch.cuda."):
                    target = getattr(torch.cuda, target.rsplit(".", 1)[1], target)
                if hasattr(target, "legacy_dtype"):
                    return args[0].to("meta", target.legacy_dtype)
            if kwargs.get("device") is not None:
                kwargs["device"] = "meta"
            if func is to:
                args = tuple("meta" if i > 0 and _on_meta(a) else a for i, a in enumerate(args))
            return func(*args, **kwargs)

    return OnMeta()


class _Clock:
    """The clocks a solution reads to time its own variants (`time.time`, `perf_counter`, `monotonic`):
    on meta tensors those timings would measure the CPU, so they read the estimated GPU clock (`advance`)
    plus a microsecond a reading.  A solution keeps the variant the time model prices fastest (as it
    would keep the one the GPU runs fastest, where the model is right), the same trace gives the same
    record every time, and a loop waiting for time to pass still ends."""

    def __init__(self, start: float):
        self.start, self.readings = start, 0

    def seconds(self) -> float:
        self.readings += 1
        return self.start + _gpu["seconds"] + self.readings * 1e-6

    def nanoseconds(self) -> int:
        return int(self.seconds() * 1e9)


def _compile(model: Any = None, *args: Any, **kwargs: Any) -> Any:
    """torch.compile's stand-in (no compiler runs on meta tensors): the model or function, run eagerly, so
    its operators are priced one by one, as if nothing were fused (an upper bound on a compiled graph)."""
    return model if model is not None else (lambda fn: fn)


_installed = False


def install() -> None:
    """Patch torch.cuda (and Tensor.is_cuda, cpp_extension.CUDA_HOME) in this process, for good."""
    global _installed
    if _installed:
        return
    import torch
    from torch.utils import cpp_extension

    cuda = torch.cuda
    answers = {
        "is_available": lambda: True, "device_count": lambda: 1, "current_device": lambda: 0,
        "is_initialized": lambda: True, "init": lambda: None, "set_device": lambda *a, **k: None,
        "synchronize": lambda *a, **k: None, "empty_cache": lambda: None, "ipc_collect": lambda: None,
        "manual_seed": lambda *a, **k: None, "manual_seed_all": lambda *a, **k: None, "seed": lambda: None,
        "seed_all": lambda: None, "get_device_name": lambda *a, **k: DEVICE["name"],
        "get_device_capability": lambda *a, **k: (DEVICE["major"], DEVICE["minor"]),
        "get_device_properties": _properties, "get_arch_list": lambda: ["sm_90"],
        "memory_allocated": lambda *a, **k: 0, "max_memory_allocated": lambda *a, **k: 0,
        "memory_reserved": lambda *a, **k: 0, "max_memory_reserved": lambda *a, **k: 0,
        "reset_peak_memory_stats": lambda *a, **k: None, "reset_max_memory_allocated": lambda *a, **k: None,
        "mem_get_info": lambda *a, **k: (DEVICE["total_memory"], DEVICE["total_memory"]),
        "Stream": Stream, "Event": Event, "CUDAGraph": CUDAGraph, "ExternalStream": Stream,
        "current_stream": lambda *a, **k: Stream(), "default_stream": lambda *a, **k: Stream(),
        "set_stream": lambda *a, **k: None, "stream": _Nothing, "device": _Nothing, "device_of": _Nothing,
        "graph": graph,
    }
    for name, value in answers.items():
        setattr(cuda, name, value)
    nvtx = getattr(cuda, "nvtx", None)
    if nvtx is not None:
        for name in ("range_push", "range_pop", "mark"):
            setattr(nvtx, name, lambda *a, **k: None)
        nvtx.range = _Nothing
    for name, dtype in (("FloatTensor", torch.float32), ("DoubleTensor", torch.float64), ("HalfTensor", torch.float16),
                        ("BFloat16Tensor", torch.bfloat16), ("LongTensor", torch.int64), ("IntTensor", torch.int32),
                        ("ShortTensor", torch.int16), ("ByteTensor", torch.uint8), ("BoolTensor", torch.bool)):
        setattr(cuda, name, _legacy(dtype))
    base = torch.Generator

    class Generator(base):     # torch.Generator(device="cuda"): a CPU one (nothing is drawn on meta tensors)
        def __new__(cls, device: Any = "cpu") -> Any:
            return base.__new__(cls, "cpu")

        def __init__(self, device: Any = "cpu"):
            pass
    torch.Generator = Generator
    import time

    clock = _Clock(time.time())
    for name in ("time", "perf_counter", "monotonic"):
        setattr(time, name, clock.seconds)
        setattr(time, f"{name}_ns", clock.nanoseconds)
    torch.compile = _compile
    torch.jit.trace = _jit_trace
    torch.jit.freeze, torch.jit.optimize_for_inference = (_jit_pass(torch.jit.freeze),
                                                          _jit_pass(torch.jit.optimize_for_inference))
    torch.backends.cudnn.is_available = lambda: True       # cuDNN answers as the stated device has it
    torch.backends.cudnn.version = lambda: 90100
    torch.autocast = autocast
    torch.amp.autocast = autocast
    torch.cuda.amp.autocast = _cuda_autocast
    torch.Tensor.is_cuda = property(lambda self: self.device.type in ("cuda", "meta"))
    torch.Tensor.record_stream = lambda self, *a, **k: None
    if not getattr(cpp_extension, "CUDA_HOME", None):
        cpp_extension.CUDA_HOME = "/usr/local/cuda"
    _installed = True
