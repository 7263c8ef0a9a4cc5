"""What a KernelBench candidate runs, at the task's input shapes, with no GPU and no kernel run:
the reference's `get_inputs()` evaluated on torch's meta device (shapes only), the candidate's
module executed with `load_inline` answered by a recorder, its `ModelNew` built and called on
meta tensors.  Each call of an extension function is recorded with its arguments' shapes and
values (its result gets the shape the C++ wrapper returns, `wrapper.bind`); each torch operator
it runs outside the extension is recorded with its FLOPs and bytes.

The candidate is untrusted code: this runs in a child process (`run`), as

    python -m cudaperf.rl.trace REQUEST.json RESULT.json

REQUEST: {"reference": text, "sizes": {GLOBAL: value} | null, "candidates": [text, ...]};
RESULT: {"inputs": [...], "candidates": [{"error", "extensions": [{cuda, functions}], "calls":
[{"extension", "function", "args"}], "ops": [{"op", "flops", "bytes", "strided"}]}]}."""

from __future__ import annotations

import json
import math
import os
import sys
import tempfile
from pathlib import Path

from ..analysis.process import run_bounded

# operators that launch no kernel (views, metadata, allocation)
_FREE = {"view", "_unsafe_view", "t", "transpose", "permute", "expand", "as_strided", "detach", "alias",
         "unsqueeze", "squeeze", "reshape", "slice", "select", "lift_fresh", "empty", "empty_like", "empty_strided",
         "new_empty", "new_empty_strided", "_reshape_alias", "split", "unbind", "chunk", "narrow", "view_as",
         "expand_as", "contiguous", "is_contiguous", "size", "stride", "sym_size", "sym_stride", "numel", "dim",
         "_to_copy_meta", "unflatten", "flatten", "resolve_conj", "resolve_neg", "_local_scalar_dense"}
_GEMM = {"mm", "addmm", "bmm", "baddbmm", "matmul", "linear", "addmv", "mv", "dot"}
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

    tensors = [a for a in _flat(args) if isinstance(a, torch.Tensor)]
    outs = [o for o in _flat(out) if isinstance(o, torch.Tensor)]
    nbytes = sum(t.numel() * t.element_size() for t in tensors + outs)
    flops = 0.0
    if name in _GEMM and outs:
        k = tensors[-1].shape[-2] if name in ("mm", "bmm", "matmul") and tensors[-1].dim() >= 2 else (
            tensors[1].shape[-1] if len(tensors) > 1 else 1)
        if name in ("addmm", "baddbmm") and len(tensors) >= 3:
            k = tensors[1].shape[-1]
        flops = 2.0 * outs[0].numel() * float(k)
    elif name in _CONV and outs and len(tensors) >= 2:
        weight = tensors[1]
        flops = 2.0 * outs[0].numel() * math.prod(weight.shape[1:])
    strided = any(not t.is_contiguous() for t in tensors)
    return {"op": name, "flops": flops, "bytes": float(nbytes), "strided": strided}


def _flat(x):
    if isinstance(x, (list, tuple)):
        for v in x:
            yield from _flat(v)
    elif isinstance(x, dict):
        for v in x.values():
            yield from _flat(v)
    else:
        yield x


def _trace_one(source: str, reference_inputs, init) -> dict:
    import torch
    from torch.utils import cpp_extension
    from torch.utils._python_dispatch import TorchDispatchMode

    from .wrapper import bind, wrappers

    record: dict = {"error": None, "extensions": [], "calls": [], "ops": []}
    state = {"inside": False}

    class Recorder(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            name = func.overloadpacket.__name__.rstrip("_")
            if name == "_local_scalar_dense":     # .item(): a host synchronisation; meta has no value
                record["ops"].append({"op": "item", "flops": 0.0, "bytes": 0.0, "strided": False, "sync": True})
                return 1.0
            out = func(*args, **(kwargs or {}))
            if not state["inside"] and name not in _FREE:
                record["ops"].append(_op_cost(name, (args, kwargs), out))
            return out

    class Extension:
        def __init__(self, index: int, cuda: str, functions):
            self._index, self._cuda, self._wrappers = index, cuda, wrappers(cuda)
            self._functions = list(functions or self._wrappers)

        def __getattr__(self, fn: str):
            if fn.startswith("_") or (fn not in self._functions and fn not in self._wrappers):
                raise AttributeError(fn)

            def call(*args):
                described = [_describe(a) for a in args]
                record["calls"].append({"extension": self._index, "function": fn, "args": described})
                wrapper = self._wrappers.get(fn)
                plain = [d.get("shape", d.get("value")) for d in described]
                shape = bind(self._cuda, wrapper, plain).output if wrapper is not None else None
                if shape is None:
                    first = next((a for a in args if isinstance(a, torch.Tensor)), None)
                    shape = list(first.shape) if first is not None else [1]
                state["inside"] = True
                try:
                    return torch.empty(shape, device="meta")
                finally:
                    state["inside"] = False
            return call

    def load_inline(*args, **kwargs):
        from ..rewards.execution.torch_ext import normalise

        spec = normalise(args, kwargs)
        cuda = spec.get("cuda_sources") or ""
        cuda = "\n".join(cuda) if isinstance(cuda, list) else cuda
        functions = spec.get("functions")
        functions = list(functions) if isinstance(functions, (list, tuple, dict)) else (
            [functions] if isinstance(functions, str) else None)
        record["extensions"].append({"cuda": cuda, "functions": functions})
        return Extension(len(record["extensions"]) - 1, cuda, functions)

    def refuse(*args, **kwargs):
        raise RuntimeError("only load_inline extensions can be read statically")

    saved = (cpp_extension.load_inline, cpp_extension.load)
    cpp_extension.load_inline, cpp_extension.load = load_inline, refuse
    try:
        ns: dict = {"__name__": "candidate"}
        exec(compile(source, "candidate.py", "exec"), ns)
        if "ModelNew" not in ns:
            raise RuntimeError("no class ModelNew")
        with torch.device("meta"):
            model = ns["ModelNew"](*init)
            inputs = [x.to("meta") if isinstance(x, torch.Tensor) else x for x in reference_inputs]
            with torch.no_grad(), Recorder():
                model(*inputs)
    except SyntaxError as exc:
        record["error"] = f"python does not parse: line {exc.lineno}: {exc.msg}"
    except Exception as exc:
        record["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
    finally:
        cpp_extension.load_inline, cpp_extension.load = saved
    if record["error"] is None and not record["extensions"]:
        record["error"] = "no CUDA: the candidate builds no load_inline extension"
    return record


def trace_request(request: dict) -> dict:
    """Run in the child: the reference's input shapes, then every candidate traced."""
    import torch

    ref: dict = {"__name__": "reference"}
    exec(compile(configured(request["reference"], request.get("sizes")), "reference.py", "exec"), ref)
    with torch.device("meta"):
        inputs = ref["get_inputs"]()
    init = ref["get_init_inputs"]() if "get_init_inputs" in ref else []
    return {"inputs": [_describe(x) for x in inputs], "init": [_describe(x) for x in init],
            "candidates": [_trace_one(src, inputs, init) for src in request["candidates"]]}


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
        proc = run_bounded([*prefix, sys.executable, "-m", "cudaperf.rl.trace", str(req), str(res)], timeout,
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
    """Before torch starts a thread: writes only beside the result, no processes, sockets or signals."""
    try:
        from ..rewards.execution import sandbox

        sandbox.enforce(sandbox.Policy(private=private))
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
