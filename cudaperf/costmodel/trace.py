"""What a KernelBench candidate runs, at the task's input shapes, with no GPU and no kernel run:
the reference's `get_inputs()` evaluated on torch's meta device (shapes only), the candidate's
module executed with `load_inline` answered by a recorder, its `ModelNew` built and called on
meta tensors.  Each call of an extension function is recorded with its arguments' shapes and
values (its result gets the shape the C++ wrapper returns, `wrapper.bind`); each torch operator
it runs outside the extension is recorded with its FLOPs and bytes.

The candidate is untrusted code: this runs in a child process (`run`), as

    python -m cudaperf.costmodel.trace REQUEST.json RESULT.json

REQUEST: {"reference": text, "sizes": {GLOBAL: value} | null, "candidates": [text, ...]};
RESULT: {"inputs": [...], "reference_ops": [{"op", "flops", "bytes", "strided"}] | null (the reference's
own operators), "reference_host": {"views", "modules"}, "candidates": [{"error", "torch_only",
"extensions": [{cuda, functions, build_error}], "calls": [{"extension", "function", "args"}],
"ops": [{"op", "flops", "bytes", "strided", "precision"}], "views", "modules"}]}
(`precision` of GEMMs and convolutions: half, tf32, fp32; a convolution's implicit GEMM `gemm`; `graph`
on what a CUDA graph's replay ran; `views`, `modules`, `functions`, the tensors handed to CuPy and the
context managers entered: the calls that launch nothing but cost host time, `_no_host_calls`).  A
kernel launched with CuPy (`cupyshim`) is an extension of its own (`cupy: true`), each launch a call of
it with the launch recorded.

An extension the translator finds could not build anywhere (`NO_BUILD`) makes `load_inline` raise, as the
build would on a GPU machine: what the candidate then does (its fallback, usually torch) is what is traced."""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
import tempfile
from pathlib import Path

from ..analysis.process import run_bounded
from .torch_ops import HOST_ONLY, native_conv_kernels

# operators that launch no kernel (views, metadata, allocation)
_FREE = {"view", "_unsafe_view", "t", "transpose", "permute", "expand", "as_strided", "detach", "alias",
         "unsqueeze", "squeeze", "reshape", "slice", "select", "lift_fresh", "empty", "empty_like", "empty_strided",
         "new_empty", "new_empty_strided", "_reshape_alias", "split", "unbind", "chunk", "narrow", "view_as",
         "expand_as", "contiguous", "is_contiguous", "size", "stride", "sym_size", "sym_stride", "numel", "dim",
         "_to_copy_meta", "unflatten", "flatten", "resolve_conj", "resolve_neg", "_local_scalar_dense"}
_GEMM = {"mm", "addmm", "bmm", "baddbmm", "matmul", "linear", "addmv", "mv", "dot"}
# the translator's reasons that are a failed build on any machine (two module definitions, a kernel or an
# undeclared name bound from Python, a module that defines none, kernels handed to the host compiler):
# load_inline raises, as nvcc, g++ and the linker would
NO_BUILD = ("PYBIND11_MODULE beside functions=", "functions= names ",
            "load_inline without functions= or PYBIND11_MODULE bindings", "kernel code in cpp_sources")
_CONV = {"convolution", "conv2d", "conv1d", "conv3d", "_convolution", "cudnn_convolution", "conv_transpose2d",
         "conv_transpose3d", "conv_transpose1d"}


def configured(reference: str, sizes: dict | None) -> str:
    """The reference with its size globals assigned (appended, so get_inputs reads them)."""
    return reference + "\n" + "".join(f"{k} = {v!r}\n" for k, v in (sizes or {}).items())


def _describe(value):
    import torch

    if isinstance(value, torch.Tensor):
        return {"shape": list(value.shape), "contiguous": bool(value.is_contiguous())}
    if isinstance(value, bool):
        return {"value": int(value)}
    if isinstance(value, (int, float)):
        return {"value": value}
    return {"other": type(value).__name__}


def _op_cost(name: str, args, out) -> dict:
    """FLOPs, bytes moved and whether a strided input is read, of one aten operator."""
    import torch

    positional, keywords = args
    tensors = [a for a in _flat(positional) if isinstance(a, torch.Tensor)]      # operands, not `out=`
    outs = [o for o in _flat(out) if isinstance(o, torch.Tensor)]
    extra = [a for a in _flat(keywords) if isinstance(a, torch.Tensor) and not any(a is o for o in outs)]
    nbytes = sum(t.numel() * t.element_size() for t in tensors + extra + outs)
    flops, transposed = 0.0, False
    if name in _GEMM and outs and tensors:
        # the reduction length: the first operand's last dimension (mm, bmm, matmul, linear, mv, dot), or
        # the second's where the first is the added term (addmm, baddbmm, addmv)
        lhs = tensors[1] if name in ("addmm", "baddbmm", "addmv") and len(tensors) >= 3 else tensors[0]
        k = lhs.shape[-1] if lhs.dim() >= 1 else 1
        flops = 2.0 * outs[0].numel() * float(k)
    elif name in _CONV and outs and len(tensors) >= 2:
        # each output element (each input element, transposed: the weight is (in, out / groups, k...))
        # takes a multiply-add per weight element of its group
        transposed = name.startswith("conv_transpose") or (
            len(positional) > 6 and isinstance(positional[6], bool) and positional[6])
        weight = tensors[1]
        flops = 2.0 * (tensors[0] if transposed else outs[0]).numel() * math.prod(weight.shape[1:])
        groups = positional[8] if len(positional) > 8 and isinstance(positional[8], int) else 1
    strided = any(not t.is_contiguous() for t in tensors)
    cost = {"op": name, "flops": flops, "bytes": float(nbytes), "strided": strided, **_rows(name, positional)}
    if flops:
        cost["precision"] = _precision(name, tensors)
    if flops and name in _CONV:
        cost["gemm"] = _implicit_gemm(flops, weight.shape, groups, transposed)
    if transposed:
        cost["transposed"] = True      # cuDNN runs it as a backward-data convolution: its own rate
    if name in _CONV and torch.backends.cudnn.benchmark:
        cost["autotuned"] = True       # torch.backends.cudnn.benchmark: cuDNN times its algorithms, keeps the best
    if flops and name in _CONV and not torch.backends.cudnn.enabled:
        # cuDNN off (`cudnn.flags(...)` without enabled=True): torch's own loop over the batch
        cost["native_kernels"] = native_conv_kernels(tensors[0].shape[0], weight.dim() - 2, transposed,
                                                     cost["gemm"][1] * groups)
        cost["precision"] = _precision("mm", tensors)      # its GEMMs are cuBLAS's, under the matmul flags
    return cost


def _implicit_gemm(flops: float, weight_shape, groups: int, transposed: bool) -> list:
    """The GEMM a convolution runs as (cuDNN's implicit GEMM, per group): output positions `m`, output
    channels `n`, reduction length `k` (input channels times the filter's volume), with `groups` of them;
    a transposed convolution's weight is (in, out / groups, filter...).  `m` is what makes the FLOPs add up."""
    volume = math.prod(weight_shape[2:])
    n, k = ((weight_shape[1], weight_shape[0] // groups * volume) if transposed else
            (weight_shape[0] // groups, weight_shape[1] * volume))
    return [flops / (2.0 * groups * n * k), n, k, groups]


def _rows(name: str, positional) -> dict:
    """How a normalisation's or a softmax's input splits into the rows torch's kernel gives a block each
    (`rows`, `row` elements per row; a softmax over a dimension other than the last: `spatial`).  The time
    model bounds such a kernel by its waves of row blocks, not by DRAM alone (`torch_ops.ROW_KERNELS`)."""
    import torch

    x = positional[0] if positional else None
    if not isinstance(x, torch.Tensor) or x.numel() == 0:
        return {}
    if name == "native_layer_norm" and len(positional) > 1:
        row = math.prod(positional[1])
    elif name == "native_group_norm" and len(positional) > 6:
        row = x.numel() // (positional[3] * positional[6])        # (input, weight, bias, N, C, HxW, group, eps)
    elif name in ("_softmax", "_log_softmax", "_safe_softmax") and len(positional) > 1 and x.dim():
        if positional[1] % x.dim() != x.dim() - 1:
            return {"spatial": True}
        row = x.shape[-1]
    else:
        return {}
    return {"rows": x.numel() // max(row, 1), "row": row}


# torch's recurrent layers as the `_VF` functions nn.LSTM / GRU / RNN call, and their gates per step
_RNN_GATES = {"lstm": 4, "gru": 3, "rnn_tanh": 1, "rnn_relu": 1}


def _fused_rnn(record):
    """A TorchFunctionMode answering torch's recurrent layers (`_VF.lstm`, `gru`, `rnn_tanh`, `rnn_relu`
    on a padded batch) as cuDNN runs them on a GPU: one call over every layer and step, handed to
    `record` as an operator with its FLOPs, bytes and serial `steps` (per layer and direction).  On
    meta tensors torch would decompose it into a dozen operators per step and layer: tens of thousands
    for a KernelBench LSTM, minutes of tracing, and a launch each in the estimate."""
    from torch.overrides import TorchFunctionMode

    class FusedRNN(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            gates = _RNN_GATES.get(getattr(func, "__name__", ""))
            padded = gates is not None and len(args) == 9 and not kwargs and isinstance(args[2], (list, tuple)) \
                and (isinstance(args[1], (list, tuple)) or getattr(args[1], "ndim", 0) == 3)
            if not padded:
                return func(*args, **(kwargs or {}))
            x, hx, params, _, layers, _, _, bidirectional, batch_first = args
            states = list(hx) if isinstance(hx, (list, tuple)) else [hx]
            steps, batch = (x.shape[1], x.shape[0]) if batch_first else (x.shape[0], x.shape[1])
            directions, hidden, cell = 2 if bidirectional else 1, states[0].shape[-1], states[-1].shape[-1]
            flops, width = 0.0, x.shape[-1]
            for _ in range(layers):
                flops += 2.0 * gates * cell * (width + hidden) * batch * steps * directions
                width = directions * hidden
            outputs = [x.new_empty((*x.shape[:2], directions * hidden)), *(h.new_empty(h.shape) for h in states)]
            moved = sum(t.numel() * t.element_size() for t in [*params, x, *states, *outputs])
            record({"op": "cudnn_rnn", "flops": flops, "bytes": float(moved), "strided": False,
                    "steps": steps * layers * directions, "precision": _precision("rnn", [x, params[0]])})
            return tuple(outputs)

    return FusedRNN()


class _Counted(contextlib.ContextDecorator):
    """A context manager that tells `entered` each time it is entered, then enters the one it wraps."""

    def __init__(self, inner, entered):
        self.inner, self.entered = inner, entered

    def __enter__(self):
        self.entered()
        return self.inner.__enter__()

    def __exit__(self, *exc):
        return self.inner.__exit__(*exc)


def _counting_class(cls, entered):
    """A subclass of a torch grad-mode class (`no_grad`, also as a decorator) that tells `entered` of each
    entry: a decorated forward enters a fresh instance (`clone`) on every call."""
    def __enter__(self):
        entered()
        return cls.__enter__(self)

    return type(cls.__name__, (cls,), {"__enter__": __enter__})


# where a solution enters a context manager that costs the host time on every call (measured on the H200:
# tests/data/h200/host_calls), by the `torch_ops.HOST_ONLY` kind it counts as
_CONTEXTS = (("backends.cudnn", "flags", "cudnn_flags"), ("", "autocast", "autocasts"),
             ("amp", "autocast", "autocasts"), ("cuda.amp", "autocast", "autocasts"), ("cuda", "stream", "streams"))
_GRAD_MODES = ("no_grad", "enable_grad", "inference_mode")


@contextlib.contextmanager
def _host_entries(count):
    """What costs the host on each call and launches nothing, told to `count(kind)` as it happens: an
    `autograd.Function` call (`functions`: a solution wrapping its extension in one pays about one more
    extension call, measured) and the context managers of `_CONTEXTS` and `_GRAD_MODES` entered."""
    import operator

    import torch

    original_apply = torch.autograd.Function.__dict__["apply"]

    def apply(cls, *args, **kwargs):
        count("functions")
        return original_apply.__func__(cls, *args, **kwargs)

    def counted(make, kind):
        return lambda *args, **kwargs: _Counted(make(*args, **kwargs), lambda: count(kind))

    contexts = [(operator.attrgetter(where)(torch) if where else torch, name, kind) for where, name, kind in _CONTEXTS]
    grad_modes = [(torch, name, "grad_modes") for name in _GRAD_MODES]
    saved = [(owner, name, getattr(owner, name)) for owner, name, _ in contexts + grad_modes]
    torch.autograd.Function.apply = classmethod(apply)
    for owner, name, kind in contexts:
        setattr(owner, name, counted(getattr(owner, name), kind))
    for owner, name, kind in grad_modes:
        setattr(owner, name, _counting_class(getattr(owner, name), lambda kind=kind: count(kind)))
    try:
        yield
    finally:
        torch.autograd.Function.apply = original_apply
        for owner, name, original in saved:
            setattr(owner, name, original)


def _precision_flags(restore: tuple | None = None) -> tuple:
    """torch's TF32, cuDNN autotuning and cuDNN-enabled settings (and CUDA autocast's stand-in stack), set
    back to `restore` when given."""
    import torch

    from . import cudashim

    if restore is not None:
        torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = restore[0], restore[1]
        torch.set_float32_matmul_precision(restore[2])
        torch.backends.cudnn.benchmark, torch.backends.cudnn.enabled = restore[3], restore[4]
        cudashim._autocast.clear()
    return (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32,
            torch.get_float32_matmul_precision(), torch.backends.cudnn.benchmark, torch.backends.cudnn.enabled)


def _precision(name: str, tensors: list) -> str:
    """What a GEMM's or a convolution's tensor cores run: `half` (fp16 / bf16 operands, or CUDA autocast),
    `tf32` (fp32 operands with TF32 allowed: torch.backends.cuda.matmul.allow_tf32 or a float32 matmul
    precision below "highest" for GEMMs, torch.backends.cudnn.allow_tf32, on by default, for
    convolutions) or `fp32`."""
    import torch

    from .cudashim import autocast_dtype

    if autocast_dtype() is not None or any(t.dtype in (torch.float16, torch.bfloat16) for t in tensors[:2]):
        return "half"
    if any(t.dtype == torch.float64 for t in tensors[:2]):
        return "fp64"
    if name in _CONV:
        return "tf32" if torch.backends.cudnn.allow_tf32 else "fp32"
    tf32 = torch.backends.cuda.matmul.allow_tf32 or torch.get_float32_matmul_precision() != "highest"
    return "tf32" if tf32 else "fp32"


def _flat(x):
    if isinstance(x, (list, tuple)):
        for v in x:
            yield from _flat(v)
    elif isinstance(x, dict):
        for v in x.values():
            yield from _flat(v)
    else:
        yield x


def _scalar(tensor, phase: str):
    """What `.item()` of a meta tensor answers (it has no value): 0 while the model is built (sanity
    checks of initial weights pass), 1 while it runs (a divisor stays non-zero); True for booleans."""
    import torch

    if tensor.dtype == torch.bool:
        return True
    value = 0 if phase == "build" else 1
    return float(value) if tensor.is_floating_point() or tensor.is_complex() else value


class _Launches:
    """The interpreter's launcher while tracing: each launch recorded (kernel name expression, grid,
    block, dynamic shared memory, the scalar arguments by parameter name and the bytes each pointer argument
    reaches, `extents`), identical ones counted."""

    def __init__(self, translation, cuda: str):
        self.translation, self.cuda = translation, cuda
        self.launches: list[dict] = []
        self._index: dict[str, dict] = {}

    def occupancy(self, kernel: str, threads: int, smem: int) -> int:
        """What `cudaOccupancyMaxActiveBlocksPerMultiprocessor` answers on the stated GPU: the analyzer's
        occupancy of the kernel, its registers estimated (the launches it sizes are priced the same way)."""
        from ..analysis.analyzer import Options, analyze_source
        from ..rewards.execution.fastpath.interp import Unsupported

        # the analyzer asked directly: candidates._launch_report, which prices the launches, imports this module
        options = Options(kernel=kernel, block=(threads, 1, 1), dynamic_smem=smem, resources="estimate")
        base = kernel.split("<", 1)[0].strip()
        found = [k.to_json() for k in analyze_source(self.cuda, options=options).kernels if k.kernel.name == base]
        blocks = found[0]["occupancy"]["active_blocks_per_sm"] if found and found[0].get("occupancy") else None
        if not blocks:
            raise Unsupported(f"occupancy of {kernel} with {threads} threads not estimated")
        return int(blocks)

    def launch(self, kernel, grid, block, smem, stream, args, extents=()) -> None:
        params = self.translation.kernels[kernel.split("<", 1)[0].strip()].params
        scalars = {p.name: value for p, (code, value) in zip(params, args) if code not in ("p", "s")}
        extents = {p.name: e for p, (code, _), e in zip(params, args, extents) if code == "p" and e}
        entry = {"kernel": kernel, "grid": list(grid), "block": list(block), "smem": int(smem), "args": scalars,
                 "extents": extents}
        key = json.dumps(entry, sort_keys=True)
        if key in self._index:
            self._index[key]["count"] += 1
        else:
            self._index[key] = {**entry, "count": 1}
            self.launches.append(self._index[key])

    def synchronize(self) -> None:
        pass

    def symbol_size(self, symbol: str) -> None:
        return None     # a size the translation could not work out is left to the GPU: the wrapper is not followed

    @staticmethod
    def copy_to_symbol(source, start: int, count: int, symbol: str, offset: int, stream: str):
        """A device-to-device copy of `count` bytes, priced as torch's copy of those bytes is."""
        import torch

        source.reshape(-1).view(torch.uint8)[start:start + count].clone()
        return source


def _guess_arguments(params, pool: list, scalars: list) -> list:
    """Arguments for a wrapper nobody called (the candidate could not be traced): its tensor parameters
    take the reference's inputs, then the model's parameters, in order; its integer parameters the
    reference's integer init inputs in order, else 1; its floating ones 0."""
    tensors, ints = iter(pool), iter(scalars)
    args = []
    for _, ctype in params:
        if ctype == "tensor":
            tensor = next(tensors, None)
            if tensor is None:
                raise ValueError("more tensor parameters than inputs and parameters to guess them from")
            args.append(tensor)
        elif ctype == "list":
            args.append(list(tensors))
        elif ctype in ("float", "double"):
            args.append(0.0)
        elif ctype == "bool":
            args.append(False)
        else:
            args.append(next(ints, 1))
    return args


def _trace_one(source: str, reference_inputs, init) -> dict:
    import torch
    from torch.utils import cpp_extension
    from torch.utils._python_dispatch import TorchDispatchMode

    from ..rewards.execution.fastpath.interp import Interpreter
    from ..rewards.execution.fastpath.plan import translate_or_reason
    from . import cudashim, cupyshim
    from .cudashim import on_meta_mode
    from .torch_ops import op_terms
    from .wrapper import bind, wrappers

    record: dict = {"error": None, "extensions": [], "calls": [], "ops": [], **_no_host_calls()}

    def add(kind: str, item: dict) -> None:
        record[kind].append(item)
        cudashim.captured(kind, item)

    def replayed(items: list) -> None:
        """A CUDA graph's replay: its captured work again, marked as launched by the graph (no host time per
        operator or call), and the replay itself."""
        record["ops"].append({"op": "graph_replay", "flops": 0.0, "bytes": 0.0, "strided": False})
        for kind, item in items:
            record[kind].append({**item, "graph": True})

    def rerun(items: list) -> None:
        """A `torch.jit.trace`d function called: what its traced call recorded, recorded again."""
        for kind, item in items:
            add(kind, dict(item))

    cudashim.on_replay(replayed, rerun)

    # phase: load (the module runs), build (ModelNew(...)), run (forward); inside: None, "interp" (the
    # wrapper run by the interpreter: its fills and copies are recorded as its own), "bind" (not recorded)
    state: dict = {"inside": None, "phase": "load"}
    loaded: list = []

    def least_seconds(values: list) -> float:
        """What a solution's own timings read for one of its calls: the least it can take, its tensors
        moved at DRAM rate."""
        moved = [x for x in _flat(values) if isinstance(x, torch.Tensor)]
        return op_terms({"op": "call", "flops": 0.0, "strided": False, "bytes": float(
            sum(x.numel() * x.element_size() for x in moved))})["total"]

    def cupy_kernel(cuda: str, name: str):
        """A kernel the candidate builds with CuPy: an extension of its own, each launch a call of it."""
        record["extensions"].append({"cuda": cuda, "functions": [name], "cupy": True})
        index = len(record["extensions"]) - 1

        def launch(grid: list, block: list, args: tuple, smem: int) -> None:
            add("calls", {"extension": index, "function": name, "args": [_describe(cupyshim.plain(a)) for a in args],
                          "launches": [{"kernel": name, "grid": grid, "block": block, "smem": smem, "count": 1,
                                        "args": cupyshim.scalars(cuda, name, args)}]})
            cudashim.advance(least_seconds(list(args)))
        return launch

    def host_call(kind: str) -> None:
        if state["phase"] == "run" and state["inside"] is None:
            record[kind] += 1

    cupyshim.watch(cupy_kernel, host_call)

    class Recorder(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            name = func.overloadpacket.__name__.rstrip("_")
            if name == "_local_scalar_dense" and args and args[0].is_meta:
                if state["phase"] == "run":      # .item(): a host synchronisation; meta has no value
                    add("ops", {"op": "item", "flops": 0.0, "bytes": 0.0, "strided": False, "sync": True})
                return _scalar(args[0], state["phase"])
            out = func(*args, **(kwargs or {}))
            if state["inside"] != "bind" and name not in _FREE:
                cost = _op_cost(name, (args, kwargs), out)
                cudashim.advance(op_terms(cost)["total"])       # what the solution's own timings read
                if state["phase"] == "run":
                    add("ops", {**cost, **({"wrapper": True} if state["inside"] else {})})
                else:       # not timed; a graph captured or a function jit-traced while the model is built keeps it
                    cudashim.captured("ops", cost)
            elif state["phase"] == "run" and state["inside"] is None:
                record["views"] += 1
            return out

    def module_called(module, args) -> None:
        if state["phase"] == "run" and state["inside"] is None:
            record["modules"] += 1

    def fused(op: dict) -> None:
        if state["inside"] == "bind":
            return
        if state["phase"] == "run":
            add("ops", op)
        else:
            cudashim.captured("ops", op)

    class Extension:
        def __init__(self, index: int, cuda: str, functions, translation):
            self._index, self._cuda, self._wrappers = index, cuda, wrappers(cuda)
            self._translation = translation
            exported = list(translation.functions) if translation is not None else list(self._wrappers)
            self._functions = list(functions or exported)

        def __getattr__(self, fn: str):
            if fn.startswith("_") or (fn not in self._functions and fn not in self._wrappers):
                raise AttributeError(fn)

            def call(*args, **kwargs):
                out = self._call(fn, args, kwargs, guessed=False)
                cudashim.advance(least_seconds(list(args) + [out]))
                return out
            return call

        def _call(self, fn: str, args, kwargs, guessed: bool):
            described = [_describe(a) for a in args]
            entry = {"extension": self._index, "function": fn, "args": described, **({"guessed": True} if guessed
                                                                                      else {})}
            add("calls", entry)
            translation = self._translation
            if translation is not None and fn in translation.functions:
                launcher = _Launches(translation, self._cuda)
                ops_before = len(record["ops"])
                state["inside"] = "interp"
                try:
                    out = Interpreter(translation, launcher, cuda_device="meta", extents=True).call(fn, *args, **kwargs)
                    entry["launches"] = launcher.launches
                    entry["outputs"] = [list(t.shape) for t in _flat(out) if isinstance(t, torch.Tensor)]
                    return out
                except Exception as exc:     # outside the interpreter's reach: the regex reading below
                    del record["ops"][ops_before:]
                    entry["interpreter"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160] if str(exc) else ''}"
                finally:
                    state["inside"] = None
            wrapper = self._wrappers.get(fn)
            plain = [d.get("shape", d.get("value")) for d in described]
            outputs = bind(self._cuda, wrapper, plain).outputs if wrapper is not None else None
            if outputs is None:
                first = next((a for a in args if isinstance(a, torch.Tensor)), None)
                outputs = [list(first.shape) if first is not None else [1]]
            state["inside"] = "bind"
            try:
                made = [torch.empty(shape, device="meta") for shape in outputs]
                return made[0] if len(made) == 1 else made
            finally:
                state["inside"] = None

    def load_inline(*args, **kwargs):
        from ..rewards.execution.torch_ext import normalise

        spec = normalise(args, kwargs)
        cuda = spec.get("cuda_sources") or ""
        cuda = "\n".join(cuda) if isinstance(cuda, list) else cuda
        functions = spec.get("functions")
        functions = list(functions) if isinstance(functions, (list, tuple, dict)) else (
            [functions] if isinstance(functions, str) else None)
        translation, why = translate_or_reason(spec)
        record["extensions"].append({"cuda": cuda, "functions": functions,
                                     **({"translation": why} if translation is None else {})})
        if why is not None and why.startswith(NO_BUILD):
            # what load_inline does with it on a GPU machine: the build fails, the candidate's fallback runs
            record["extensions"][-1]["build_error"] = why
            raise RuntimeError(f"Error building extension '{spec.get('name', 'extension')}': {why}")
        loaded.append(Extension(len(record["extensions"]) - 1, cuda, functions, translation))
        return loaded[-1]

    def refuse(*args, **kwargs):
        raise RuntimeError("only load_inline extensions can be read statically")

    saved = (cpp_extension.load_inline, cpp_extension.load)
    cpp_extension.load_inline, cpp_extension.load = load_inline, refuse
    flags = _precision_flags()
    hook = torch.nn.modules.module.register_module_forward_pre_hook(module_called)
    model = None
    try:
        with on_meta_mode(), Recorder(), _fused_rnn(fused), _host_entries(host_call):
            ns: dict = {"__name__": "candidate"}
            exec(compile(source, "candidate.py", "exec"), ns)
            if "ModelNew" not in ns:
                raise RuntimeError("no class ModelNew")
            with torch.device("meta"):
                state["phase"] = "build"
                model = ns["ModelNew"](*init)
                inputs = [x.to("meta") if isinstance(x, torch.Tensor) else x for x in reference_inputs]
                state["phase"] = "run"
                with torch.autograd.grad_mode.no_grad():        # as a timing runs; not the solution's own
                    model(*inputs)
                    record.update(_warm_call(model, inputs, record))
    except SyntaxError as exc:
        record["error"] = f"python does not parse: line {exc.lineno}: {exc.msg}"
    except Exception as exc:
        record["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
    finally:
        state["phase"], state["inside"] = "load", None
        hook.remove()
        cpp_extension.load_inline, cpp_extension.load = saved
        _precision_flags(flags)     # what one candidate sets is not the next one's
    if record["error"] is not None and record["calls"]:
        # it stopped after calling its extension: what ran up to there is kept, and said to be partial
        record["partial"], record["error"] = record["error"], None
    elif record["error"] is not None and loaded and not record["error"].startswith("python does not parse"):
        _guess(record, loaded, model, reference_inputs, init, Recorder, state, on_meta_mode)
    if record["error"] is None and not record["extensions"]:
        record["torch_only"] = "no CUDA: the candidate builds no load_inline extension"
    return record


def _guess(record: dict, loaded: list, model, reference_inputs, init, recorder, state: dict, on_meta_mode) -> None:
    """A candidate that could not be traced to its extension calls: each exported function called once
    with guessed arguments (`_guess_arguments`); what that launches is kept as a guess beside the error."""
    import torch

    pool = [x.to("meta") for x in reference_inputs if isinstance(x, torch.Tensor)]
    try:
        pool += [p for p in model.parameters()] if model is not None else []
    except Exception:
        pass
    ints = [v for v in init if isinstance(v, int) and not isinstance(v, bool)]
    record["ops"] = []        # the failed forward's torch operators: only the guessed calls' count
    state["phase"] = "run"
    try:
        with on_meta_mode(), recorder(), torch.no_grad():
            for ext in loaded:
                translation = ext._translation
                for fn in (ext._functions if translation is not None else []):
                    if fn not in translation.functions:
                        continue
                    try:
                        args = _guess_arguments(translation.functions[fn].params, pool, ints)
                    except ValueError:
                        continue
                    before = len(record["calls"])
                    try:
                        ext._call(fn, args, {}, guessed=True)
                    except Exception:
                        del record["calls"][before:]
    finally:
        state["phase"] = "load"
    record["calls"] = [c for c in record["calls"] if "launches" in c]
    if record["calls"]:
        record["guessed"] = record["error"]


def trace_request(request: dict) -> dict:
    """Run in the child: the reference's input shapes, then every candidate traced."""
    from . import cupyshim
    from .cudashim import install, on_meta_mode

    install()
    cupyshim.install()
    ref: dict = {"__name__": "reference"}
    with on_meta_mode():
        exec(compile(configured(request["reference"], request.get("sizes")), "reference.py", "exec"), ref)
    inputs = _inputs(ref["get_inputs"], on_meta_mode)
    with on_meta_mode():
        init = ref["get_init_inputs"]() if "get_init_inputs" in ref else []
    return {"inputs": [_describe(x) for x in inputs], "init": [_describe(x) for x in init],
            **_reference_ops(ref, inputs, init),
            "candidates": [_trace_one(src, inputs, init) for src in request["candidates"]]}


def _inputs(get_inputs, on_meta_mode) -> list:
    """`get_inputs()` on the meta device (shapes only, nothing allocated); where its shapes rest on its own
    values (`nnz = int(crow[-1])` after a cumsum: a meta tensor has none), made for real on the CPU, seeded so
    that an estimate is the same on every run (the child's address space stays capped), and kept as their
    shapes.  Any other error is the reference's own and is raised as it was."""
    import torch

    try:
        with on_meta_mode(), torch.device("meta"):
            return get_inputs()
    except RuntimeError as exc:
        if "meta tensor" not in str(exc):
            raise
        torch.manual_seed(0)
        try:
            return [x.to("meta") if isinstance(x, torch.Tensor) else x for x in get_inputs()]
        except Exception as again:
            raise RuntimeError(f"{str(exc).splitlines()[0]}; made on the CPU instead: "
                               f"{type(again).__name__}: {str(again).splitlines()[0] if str(again) else ''}") from exc


# calls of a candidate's forward, at most, before the one whose record is kept: the timing's median call is
# about the 14th (benchmarks/cuda_l1_plain.py: one checked, 3 warm-up, 20 timed)
WARM_CALLS = 14
SETTLED = 3  # calls in a row that record the same: the candidate has settled (a count of warm-up calls
             # before a graph capture, 3 in CUDA-L1's L3_009, leaves the first calls alike)


def _warm_call(model, inputs: list, record: dict) -> dict:
    """What the timing sees is a warm call: lazy builds, caches, a solution's own timing of its variants and
    graph captures (some after a count of warm-up calls) happen in the first calls.  The model is called
    again until SETTLED calls in a row record the same or WARM_CALLS have run; the last one that ran to
    the end and ran something is kept (the first, if none did)."""
    def one_call() -> dict:
        return {k: record[k] for k in ("calls", "ops", *_no_host_calls())}

    kept = one_call()
    alike = 1
    for _ in range(WARM_CALLS - 1):
        record.update(calls=[], ops=[], **_no_host_calls())
        try:
            model(*inputs)
        except Exception:
            break
        now = one_call()
        if not (now["calls"] or now["ops"]):
            break
        alike = alike + 1 if now == kept else 1
        kept = now
        if alike >= SETTLED:
            break
    return kept


def _no_host_calls() -> dict[str, int]:
    """Calls that launch nothing but cost the host time all the same: torch views and metadata operators
    run from Python (`views`), `nn.Module` calls (`modules`), `autograd.Function` calls (`functions`: their
    wrapping, not what they run), tensors handed to CuPy (`cupy_asarray`, `cupy_dlpack`) and context
    managers entered (`cudnn_flags`, `autocasts`, `streams`, `grad_modes`: `_host_entries`): the kinds
    `torch_ops.HOST_ONLY` prices.  At a small task's shapes the GPU waits on the host, and these are what
    separates a rewrite calling the reference's own kernels."""
    return dict.fromkeys(HOST_ONLY, 0)


def _reference_ops(ref: dict, inputs, init) -> dict:
    """The torch operators the reference's `Model` runs on the inputs (its warm, second call), each with
    its FLOPs and bytes: what the task's own time is estimated from (`reference_ops`, None when it cannot
    be run on meta tensors), and its host-only calls (`reference_host`, as `_no_host_calls`)."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    from .cudashim import on_meta_mode

    ops: list[dict] = []
    host = _no_host_calls()
    recording = [False]
    phase = ["build"]   # `.item()` answers as in `_trace_one` (a Swin reference's `[x.item() for x in
                        # torch.linspace(...)]` in its __init__ had no answer, and the task none)

    class Recorder(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            name = func.overloadpacket.__name__.rstrip("_")
            if name == "_local_scalar_dense" and args and args[0].is_meta:
                return _scalar(args[0], phase[0])
            out = func(*args, **(kwargs or {}))
            if not recording[0]:
                return out
            if name not in _FREE:
                ops.append(_op_cost(name, (args, kwargs), out))
            else:
                host["views"] += 1
            return out

    def module_called(module, args) -> None:
        host["modules"] += recording[0]

    if "Model" not in ref:
        return {"reference_ops": None, "reference_host": host}
    hook = torch.nn.modules.module.register_module_forward_pre_hook(module_called)
    try:
        with on_meta_mode(), torch.device("meta"), _fused_rnn(lambda op: recording[0] and ops.append(op)), \
                Recorder():
            model = ref["Model"](*init)
            phase[0] = "run"
            with torch.no_grad():
                model(*inputs)
                recording[0] = True
                model(*inputs)
    except Exception:
        return {"reference_ops": None, "reference_host": _no_host_calls()}
    finally:
        hook.remove()
    return {"reference_ops": ops, "reference_host": host}


# the tracing child's address-space cap: torch on the CPU with meta tensors needs a few GB of it
TRACE_ADDRESS_SPACE = 8 << 30


def run(reference: str, candidates: list[str], sizes: dict | None = None, timeout: float = 120.0) -> dict:
    """`trace_request` in a child process (the candidates are executed there, on meta tensors), in its
    own process group, killed with its children at the time limit, its address space capped."""
    import importlib.util

    if importlib.util.find_spec("torch") is None:
        raise RuntimeError("tracing a KernelBench reference needs torch (the CPU build will do: pip install torch "
                           "--index-url https://download.pytorch.org/whl/cpu)")
    with tempfile.TemporaryDirectory(prefix="cudaperf-trace-") as tmp:
        req, res = Path(tmp) / "request.json", Path(tmp) / "result.json"
        req.write_text(json.dumps({"reference": reference, "sizes": sizes, "candidates": candidates}))
        prefix, env = _confinement(Path(tmp))
        proc = run_bounded([*prefix, sys.executable, "-m", "cudaperf.costmodel.trace", str(req), str(res)], timeout,
                           env=env, address_space=TRACE_ADDRESS_SPACE, cwd=tmp)
        if proc.returncode is None:
            raise RuntimeError(f"tracing the candidates took more than {timeout:.0f} s")
        if proc.returncode != 0 or not res.exists():
            lines = (proc.stderr or proc.stdout or "no output").strip().splitlines()
            raise RuntimeError(f"the reference could not be traced: {lines[-1] if lines else 'no output'}")
        return json.loads(res.read_text())


def _confinement(private: Path) -> tuple[list[str], dict[str, str]]:
    """The tracing child runs candidate Python: started like an execution worker (its own PID namespace, a
    scrubbed environment) where the sandbox's libraries are installed (the `exec` extra), else as it is,
    with the whole environment, as before the sandbox existed (the child then says so on stderr)."""
    try:
        from ..rewards.execution import sandbox

        if sandbox.status()["landlock"] and sandbox.status()["seccomp"]:
            return sandbox.own_pid_namespace(), sandbox.scrubbed_env(private, {"CUDA_VISIBLE_DEVICES": ""})
    except (ImportError, RuntimeError):
        pass
    return [], {**os.environ, "CUDA_VISIBLE_DEVICES": ""}


def _lock_in(private: Path) -> None:
    """Before torch starts a thread: writes only beside the result, no processes, sockets or signals; reads
    where Python and torch read, and the analyzer's query files (an occupancy query is answered by it)."""
    try:
        from ..analysis.parse import grammar_dir
        from ..rewards.execution import sandbox

        sandbox.enforce(sandbox.Policy(private=private, readable=(grammar_dir(),)))
    except (ImportError, RuntimeError) as exc:   # SandboxUnavailable is a RuntimeError
        print(f"cudaperf: tracing unsandboxed: {exc}", file=sys.stderr)


def main(argv: list[str]) -> int:
    request = json.loads(Path(argv[0]).read_text())
    _lock_in(Path(argv[1]).parent)
    result = trace_request(request)
    Path(argv[1]).write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
