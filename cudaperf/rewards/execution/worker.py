"""The candidate's worker: the only process that runs candidate code, sandboxed before it sees any.

    python -m cudaperf.rewards.execution.worker JOBS_FD MESSAGES_FD

It imports torch, creates its CUDA context and starts the profiler once, then locks itself in
(`sandbox.enforce`: writes only under its private directory, no new processes, no sockets, no
signals or ptrace outside itself, a scrubbed environment) and says hello.  From then on it answers
requests, one JSON line each, relayed by the engine from the checker: load the candidate, call it on
an input set, time one call, record the kernels a call launches.  Input sets are made here from the
checker's seeds with the task's own generator (the checker compares a probe set's digest first, and
copies the values into this directory when they differ).  It never sees the reference model, its
outputs or the tolerance: it hands back outputs and timings, and the verdict is made in the checker,
a process that never loads candidate code.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from .options import WORKERS_GPU_MEMORY
from .protocol import send

_MAX_TEXT = 400   # candidate-controlled text (exception messages) is cut to this many characters


def _short(text: str) -> str:
    lines = [ln for ln in str(text).splitlines() if ln.strip()]
    return (lines[0] if lines else "")[:_MAX_TEXT]


class Worker:
    """Device state (the timer, the guard) and the loaded candidate, answering one request at a time."""

    def __init__(self, device: str, started: float):
        import torch
        from torch.utils import cpp_extension

        from . import hacks, timing

        self.device = device
        self.info: dict[str, Any] = {"torch": torch.__version__, "device": "cpu", "gpu": False}
        laps = self.info["startup_s"] = {"import": round(time.perf_counter() - started, 2)}
        l2 = 0
        if device == "cuda":
            torch.cuda.init()
            torch.zeros(1, device="cuda")
            props = torch.cuda.get_device_properties(0)
            l2 = int(getattr(props, "L2_cache_size", 50 << 20))
            torch.cuda.set_per_process_memory_fraction(float(os.environ.get("CUDAPERF_GPU_MEMORY_FRACTION")
                                                             or WORKERS_GPU_MEMORY))
            self.info.update(device=props.name, gpu=True, capability=[props.major, props.minor], l2_bytes=l2,
                             memory_bytes=int(props.total_memory))
            laps["context"] = round(time.perf_counter() - started - sum(laps.values()), 2)
        self.timer = timing.Timer(device, l2)
        root = os.environ.get("CUDAPERF_EXT_ROOT")
        if root:   # extensions built outside: ahead by the engine, or on request (see `_built`)
            cpp_extension.load_inline = self._built(Path(root))
        if device == "cuda":
            # Modules the harness uses on the GPU (dispatch recorder, profiler) and what they pull in:
            # torch._dynamo rebinds torch.manual_seed on import, which must not read as a candidate's patch.
            import torch._dynamo
            import torch.profiler
            import torch.utils._python_dispatch

            hacks.launched_kernels(lambda: torch.ones(1, device="cuda").add_(1))  # CUPTI's first start
            laps["harness_modules_and_profiler"] = round(time.perf_counter() - started - sum(laps.values()), 2)
        from . import cases, correctness, spec, transfer  # noqa: F401 -- what requests use, loaded while idle
        self.guard = hacks.Guard()
        self.channel: tuple[Any, Any] | None = None   # (send a message, the request stream): build requests
        self.candidate: Any = None
        self.format = ""
        self.keep: list[Any] = []         # earlier calls' buffers stay alive: no address is recycled (hacks 8, 10)
        self.maker: Any = None            # the task's input generator (cases.TorchInputs or cases.CInputs)
        self.fast: list[dict] = []        # extensions the engine prepared for the fast path (fastpath.device)
        self.last: tuple[list[Any], Any] | None = None   # (inputs, outputs) of the last call

    def _built(self, root: Path):
        """load_inline for this worker: the fast path's module when the engine prepared this call (its
        cubin, the wrapper translated again from the arguments really passed), else the build the engine
        made ahead; for a call whose arguments it could not read ahead, the worker asks the engine to
        build them (a sandboxed builder, the gate's flag allowlist) and waits, since nothing can be
        compiled in here."""
        from .torch_ext import BuildError, load_built, normalise

        def load_inline(*args, **kwargs):
            spec = normalise(args, kwargs)
            if self.fast:
                from .fastpath import device

                record = next((r for r in self.fast if r.get("key") == device.spec_key(spec)), None)
                if record is not None:
                    return device.load_prepared(spec, record, self.device)
            try:
                return load_built(spec, root)
            except BuildError as exc:
                if not str(exc).startswith("not built ahead") or self.channel is None:
                    raise
            send, requests = self.channel
            send({"event": "build", "spec": spec})
            answer = json.loads(requests.readline() or "{}")
            if not answer.get("built"):
                raise BuildError(str(answer.get("output") or "the engine did not build the extension"))
            return load_built(spec, root)

        return load_inline

    # -- requests --
    def handle(self, request: dict) -> dict:
        from .cases import CandidateRejected
        from .correctness import Mismatch
        from .driver import CudaError
        from .spec import SpecError
        from .torch_ext import BuildError
        from .transfer import TransferError

        op = request.get("op")
        handler = getattr(self, f"op_{op}", None)
        if handler is None:
            return {"error": "harness", "message": f"unknown request {op!r}"}
        try:
            reply = handler(request)
        except CandidateRejected as exc:
            return {"error": "rejected", "rule": exc.rule, "message": _short(exc)}
        except Mismatch as exc:
            return {"error": "mismatch", "rule": exc.rule, "message": _short(exc)}
        except BuildError as exc:
            return {"error": "build", "message": _first_error(str(exc)),
                    "log": [ln[:_MAX_TEXT] for ln in str(exc).splitlines()[-30:]]}
        except SpecError as exc:
            return {"error": "rejected", "rule": "launch-spec", "message": _short(exc)}
        except TransferError as exc:
            return {"error": "output-structure", "message": _short(exc)}
        except CudaError as exc:
            return {"error": "runtime", "message": _short(exc), "recycle": True}
        except Exception as exc:  # the candidate's own exceptions, CUDA errors raised by torch
            beyond = _beyond_fast_path(exc)
            if beyond is not None:
                return {"error": "fast-path", "message": _short(beyond)}
            return {"error": "runtime", "message": _short(f"{type(exc).__name__}: {exc}"), "recycle": True,
                    "log": [ln[:_MAX_TEXT] for ln in traceback.format_exc().splitlines()[-20:]]}
        reply["guard"] = self.guard.violations()
        return reply

    def _sync(self) -> None:
        import torch

        if self.device == "cuda":
            torch.cuda.synchronize()

    def _read(self, directory: str) -> Any:
        from .transfer import read

        return read(Path(directory), self.device, 1 << 40)

    def _inputs(self, request: dict) -> Any:
        """The request's input set: made here from the checker's seed, or read from the copy it wrote."""
        if "seed" in request:
            return self.maker.inputs(int(request["seed"]), *request.get("config", []))
        return self._read(request["inputs"])

    def op_load(self, request: dict) -> dict:
        """The task's input generator (its digest of the probe set goes back), then the candidate."""
        from . import cases
        from .harness import parse_harness
        from .spec import parse_spec

        fmt, cand, ref = request["format"], request["candidate"], request["reference"]
        harness = parse_harness(ref["harness"]) if fmt == "c" else None
        try:   # a generator that cannot run in here (no digest) means copies from the checker
            self.maker = cases.CInputs(harness, self.device) if harness else \
                cases.TorchInputs(cases.load_module(ref["source"], "cudaperf_task_inputs", ref.get("path")),
                                  self.device)
            probe = cases.fingerprint(self.maker.inputs(int(request["probe"])))
        except Exception as exc:
            probe = f"none: {type(exc).__name__}"
        self.guard.resnapshot()   # the task's module ran, no candidate code yet
        self.guard.pin_precision(bool(request.get("allow_tf32")))
        values = self._read(request["values"])   # [init, state dict items as [name, tensor] pairs]
        init, state = values[0], dict(values[1])
        self.format = fmt
        self.fast = list(cand.get("fast") or [])
        if fmt == "kernelbench":
            self.candidate = cases.kernelbench_candidate(cand["source"], cand.get("path"), init, state,
                                                         int(request["seed"]), self.device)
        else:
            spec = parse_spec(cand["spec"])
            if fmt == "c":
                self.candidate = cases.c_candidate(spec, cand["cubin"], harness, self.device)
            else:
                self.candidate = cases.native_candidate(spec, cand["cubin"], init, state, int(request["inputs"]),
                                                        self.device)
        return {"ok": True, "probe": probe}

    def _call(self, inputs: list[Any]) -> Any:
        out = self.candidate(*inputs)
        self._sync()
        return out

    def _write(self, value: Any, directory: str) -> None:
        from .transfer import write

        write(value, Path(directory))

    def op_call(self, request: dict) -> dict:
        """One call on an input set: whether an input was edited; its outputs written back when `out` is
        given, else kept for `save` (the checker then draws the positions it wants, after the call)."""
        import torch

        from . import cases, hacks

        base = self._inputs(request)
        if request.get("poison"):
            held = [cases.poison(torch.empty(n, dtype=getattr(torch, d), device=self.device))
                    for n, d in request["poison"] for _ in range(2)]
            del held
        given = cases.clone(base)
        reply: dict[str, Any] = {"ok": True}
        if request.get("record_ops") and self.device == "cuda":
            recorder = hacks.aten_recorder()
            with recorder:
                out = self._call(given)
            reply["compute_ops"] = recorder.compute_ops
        else:
            out = self._call(given)
        in_place = set(request.get("in_place", []))   # C outputs: pointer arguments written in place
        reply["edited"] = [i for i, (a, b) in enumerate(zip(given, base))
                           if i not in in_place and isinstance(b, torch.Tensor) and not _same(a, b)]
        if request.get("out"):
            self._write(out, request["out"])
        self.last = (base, out)
        if request.get("keep", True):
            self.keep.append((base, given, out))
        return reply

    def op_again(self, request: dict) -> dict:
        """The last call's inputs once more (the determinism re-run); its outputs kept for `save`."""
        from . import cases

        base, _ = self.last
        self.last = (base, self._call(cases.clone(base)))
        return {"ok": True}

    def op_kernels(self, request: dict) -> dict:
        """The kernels one call launches on the last call's inputs: (name, GPU microseconds) from the
        profiler for Python candidates, the spec's launches for native ones."""
        from . import cases, hacks

        base = self.last[0]
        if self.format != "kernelbench":
            self.candidate.launches.clear()
            self._call(cases.clone(base))
            return {"ok": True, "launched": list(self.candidate.launches)}
        if self.device != "cuda":
            return {"ok": True, "timed": None}
        timed = hacks.launched_kernels(lambda: [self.candidate(*cases.clone(base)) for _ in range(3)])
        return {"ok": True, "timed": timed}

    def op_calibrate(self, request: dict) -> dict:
        self._sync()
        self.timer.calibrate()
        return {"ok": True, "gap_ms": self.timer.gap_ms}

    def op_time(self, request: dict) -> dict:
        """One timed call on an input set made for it (never seen before, made outside the timed window);
        its outputs stay until the next call, in case the checker asks for them, which it decides after
        this call returned."""
        if hasattr(self.candidate, "poison_outputs"):
            self.candidate.poison_outputs = False   # checked already; poisoning is not the candidate's time
        base = self._inputs(request)
        box: list[Any] = []
        ms = self.timer(lambda *a: box.append(self.candidate(*a)), base)
        self.last = (base, box[0] if box else None)
        return {"ok": True, "ms": ms}

    def op_save(self, request: dict) -> dict:
        """The last call's outputs, written for the checker: whole, or (`sample`) each tensor's elements
        at the positions the checker drew, with its shape."""
        from .correctness import sampled

        out = self.last[1]
        if request.get("sample"):
            out = sampled(out, self._read(request["sample"]))
        self._write(out, request["out"])
        return {"ok": True}

    def op_release(self, request: dict) -> dict:
        self.keep.clear()
        return {"ok": True}


def _beyond_fast_path(exc: BaseException | None) -> BaseException | None:
    """The fast path's Unsupported that `exc` is, or was raised while handling (a candidate may wrap
    what its extension raised): the engine then runs the candidate on the full build instead."""
    from .fastpath.interp import Unsupported

    for _ in range(16):
        if exc is None or isinstance(exc, Unsupported):
            return exc
        exc = exc.__cause__ or exc.__context__
    return None


def _first_error(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return next((ln for ln in lines if "error" in ln.lower() and "Error building" not in ln),
                lines[0] if lines else "build failed")[:_MAX_TEXT]


def _same(a: Any, b: Any) -> bool:
    import torch

    return torch.equal(a, b) or (b.is_floating_point() and torch.equal(torch.nan_to_num(a), torch.nan_to_num(b)))


def preload() -> None:
    """What a worker imports before its first request, without initialising CUDA: the zygote
    (zygote.py) imports it once and forks workers that start with it loaded.  Not
    torch.utils.cpp_extension: importing it initialises CUDA (seen on the H200), after which no forked
    child can create a context; each worker imports it itself.  Without torch, nothing: such a
    worker only says so."""
    try:
        import torch
    except ImportError:
        return
    import torch._dynamo
    import torch.profiler
    import torch.utils._python_dispatch  # noqa: F401

    from . import cases, correctness, driver, hacks, nvrtc, spec, timing, torch_ext, transfer  # noqa: F401
    from .fastpath import device, interp, module, replay  # noqa: F401


def _lock_in(private: Path, ext_root: str | None, running_threads: bool) -> dict:
    """The sandbox, applied to this process for good (see sandbox.py); raises SandboxUnavailable, also
    outside a PID namespace of its own (the engine's /proc/PID/environ would be readable)."""
    from . import sandbox

    if os.getpid() != 1:
        raise sandbox.SandboxUnavailable("not started in a PID namespace of its own (util-linux unshare)")
    readable = (Path(ext_root).parent,) if ext_root else ()   # the exec cache: cubins and built extensions
    return sandbox.enforce(sandbox.Policy(private=private, readable=readable, processes=False), running_threads)


def main(argv: list[str]) -> int:
    jobs_fd, messages_fd = int(argv[0]), int(argv[1])
    device = os.environ.get("CUDAPERF_DEVICE", "cuda")
    private = Path(os.environ.get("CUDAPERF_PRIVATE") or os.getcwd())
    worker, started = None, time.perf_counter()
    hello: dict[str, Any] = {"event": "hello", "pid": os.getpid()}
    if device == "cuda":   # CUDA's initialisation fails inside the sandbox: context first, then lock in
        try:
            import torch

            if torch.cuda.is_available():
                worker = Worker(device, started)
                hello.update(worker.info)
            else:
                device = "none"
        except ImportError:
            device = "none"
    try:   # elsewhere first thing, while this is the only thread
        hello["sandbox"] = _lock_in(private, os.environ.get("CUDAPERF_EXT_ROOT"), "torch" in sys.modules)
    except Exception as exc:   # SandboxUnavailable, or the libraries missing: the engine refuses to score
        hello["sandbox_error"] = f"{type(exc).__name__}: {_short(exc)}"
        send(messages_fd, hello)
        return 0
    if worker is None:
        try:
            import torch

            if device not in ("none", "cuda"):
                worker = Worker(device, started)
            hello.update(worker.info if worker else {"torch": torch.__version__, "gpu": False})
        except ImportError:
            hello.update(torch=None, gpu=False)
    send(messages_fd, hello)
    with os.fdopen(jobs_fd) as requests:
        if worker is not None:
            worker.channel = (lambda m: send(messages_fd, m), requests)
        for line in iter(requests.readline, ""):   # without a device it waits all the same, as a spare does
            reply = worker.handle(json.loads(line)) if worker else {"error": "harness", "message": "no device"}
            send(messages_fd, {"event": "reply", **reply})
            if reply.get("recycle"):
                break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
