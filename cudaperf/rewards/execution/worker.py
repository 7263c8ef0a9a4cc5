"""The worker: a child process (its own interpreter, session and CUDA context) that runs candidates.

    python -m cudaperf.rewards.execution.worker JOBS_FD MESSAGES_FD

It imports torch and creates its context once, says hello, then takes one JSON job per line and
answers with JSON messages (`phase` as it moves from compiling to running, then `result`).  Its
stdout/stderr go to a log file the pool reads, so candidate prints cannot corrupt the protocol.
After a CUDA error, or after any Python (KernelBench) candidate, whose code may have left state
behind, the result says `recycle` and the worker exits; the pool starts a fresh one.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import time
import traceback
from typing import Any


def _send(fd: int, message: dict) -> None:
    data = (json.dumps(message) + "\n").encode()
    while data:
        data = data[os.write(fd, data):]


def _result(status: str, reason: str = "", **fields: Any) -> dict:
    return {"status": status, "reason": reason, **fields}


def _reference_only(job: dict) -> dict:
    """No GPU: a C reference still runs on the CPU (validating the harness); nothing else can."""
    if job["format"] != "c":
        return _result("no_gpu", "no CUDA device: compiled and checked statically only")
    from .harness import call_reference, make_inputs, parse_harness

    harness = parse_harness(job["reference"]["harness"])
    for i, config in enumerate(harness.configs):
        call_reference(job["reference"]["library"], harness, make_inputs(harness, config, i))
    return _result("no_gpu", f"no CUDA device: the C reference ran on the CPU for {len(harness.configs)} "
                             f"configuration(s)")


class Session:
    """State that lives as long as the worker: device facts, the timer, the guard."""

    def __init__(self, device: str, started: float):
        import torch
        from torch.utils import cpp_extension

        from . import hacks, timing, torch_ext

        self.device = device
        self.info: dict[str, Any] = {"torch": torch.__version__, "device": "cpu", "gpu": False}
        laps = self.info["startup_s"] = {"import": round(time.perf_counter() - started, 2)}
        l2 = 0
        if device == "cuda":
            torch.cuda.init()
            torch.zeros(1, device="cuda")
            props = torch.cuda.get_device_properties(0)
            l2 = int(getattr(props, "L2_cache_size", 50 << 20))
            fraction = float(os.environ.get("CUDAPERF_GPU_MEMORY_FRACTION", "0.85"))
            torch.cuda.set_per_process_memory_fraction(fraction)
            self.info.update(device=props.name, gpu=True, capability=[props.major, props.minor], l2_bytes=l2,
                             memory_bytes=int(props.total_memory))
            laps["context"] = round(time.perf_counter() - started - sum(laps.values()), 2)
        self.timer = timing.Timer(device, l2)
        root = os.environ.get("CUDAPERF_EXT_ROOT")
        if root:
            from pathlib import Path

            cpp_extension.load_inline = torch_ext.cached_load_inline(Path(root), cpp_extension.load_inline)
        if device == "cuda":
            # Modules the harness uses on the GPU (dispatch recorder, profiler) and what they pull in:
            # torch._dynamo rebinds torch.manual_seed on import, which must not read as a candidate's patch.
            import torch._dynamo
            import torch.profiler
            import torch.utils._python_dispatch

            hacks.launched_kernels(lambda: torch.ones(1, device="cuda").add_(1))  # CUPTI's first start takes
            # about a second: pay it while the worker is a spare, not inside a candidate's run
            laps["harness_modules_and_profiler"] = round(time.perf_counter() - started - sum(laps.values()), 2)

        self.guard = hacks.Guard()
        self._inputs: dict[tuple, Any] = {}
        self._input_bytes = 0

    def inputs(self, key: tuple, make) -> Any:
        """Input sets by (task, seed[, config]): a task's seeded inputs are the same for every candidate,
        so a warm worker generates them once (callers always clone before use)."""
        if key in self._inputs:
            return self._inputs[key]
        value = make()
        size = _bytes(value)
        if self._input_bytes + size <= int(os.environ.get("CUDAPERF_INPUT_CACHE_BYTES", 8 << 30)):
            self._inputs[key] = value
            self._input_bytes += size
        return value

    def run(self, job: dict, send) -> dict:
        from .cases import CandidateRejected
        from .correctness import Mismatch
        from .driver import CudaError
        from .spec import SpecError
        from .torch_ext import BuildError

        log: list[str] = []
        python = job["format"] == "kernelbench"
        self.guard.pin_precision(bool(job["options"].get("allow_tf32")))
        run = _Run(self, job, send, log)
        try:
            result = run.execute()
        except CandidateRejected as exc:
            result = _result("rejected", str(exc), rule=exc.rule, own_kernel_share=run.share)
        except BuildError as exc:
            result = _result("compile_error", _first_error(str(exc)), compiled=False)
            log.extend(str(exc).splitlines()[-40:])
        except Mismatch as exc:
            result = _result("incorrect", str(exc), compiled=True, rule=exc.rule)
        except SpecError as exc:
            result = _result("rejected", str(exc), rule="launch-spec", compiled=True)
        except CudaError as exc:
            result = _result("runtime_error", str(exc), compiled=True, recycle=True)
        except Exception as exc:  # the candidate's own exceptions, CUDA errors raised by torch
            text = f"{type(exc).__name__}: {exc}".strip()
            result = _result("runtime_error", text.splitlines()[0][:500], compiled=True, recycle=True)
            log.extend(traceback.format_exc().splitlines()[-30:])
        result.setdefault("log", []).extend(log)
        if python or result["status"] == "runtime_error" or not self._healthy():
            result["recycle"] = True
        return result

    def _healthy(self) -> bool:
        """False after a sticky CUDA error (the context is unusable) or a tampered process."""
        import torch

        if self.device == "cuda":
            try:
                torch.cuda.synchronize()
            except RuntimeError:
                return False
        return not self.guard.violations()


def _first_error(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return next((ln for ln in lines if "error" in ln.lower() and "Error building" not in ln),
                lines[0] if lines else "build failed")[:500]


class _Run:
    """One job: load both sides, check trials, time, recheck."""

    def __init__(self, session: Session, job: dict, send, log: list[str]):
        self.s, self.job, self.send, self.log = session, job, send, log
        self._since = time.perf_counter()
        self.opts = job["options"]
        self.tolerance = {"atol": self.opts.get("atol"), "rtol": self.opts.get("rtol"),
                          "tf32": bool(self.opts.get("allow_tf32"))}   # correctness.compare's settings
        self.flags: list[str] = []
        self.share: float | None = None   # own kernels' part of the GPU time (KernelBench on a GPU)
        self.in_place: set[int] = set()   # C outputs are pointer arguments written in place

    def _lap(self, what: str) -> None:
        """Log a stage with its seconds, so a slow evaluation says where the time went."""
        now = time.perf_counter()
        self.log.append(f"{what} in {now - self._since:.2f} s")
        self._since = now

    def _sync(self) -> None:
        import torch

        if self.s.device == "cuda":
            torch.cuda.synchronize()

    def _guard(self, when: str) -> None:
        from .cases import CandidateRejected

        found = self.s.guard.violations()
        if found:
            rule, message = found[0]
            raise CandidateRejected(rule, f"{message} ({when})")

    def execute(self) -> dict:
        from . import cases

        fmt, ref, cand = self.job["format"], self.job["reference"], self.job["candidate"]
        seed = int(self.opts.get("seed", 0))
        if fmt == "c":
            from .harness import parse_harness

            self.reference = cases.CReference(parse_harness(ref["harness"]), ref["library"], self.s.device)
            self.in_place = {i for i, a in enumerate(self.reference.harness.args) if a.output}
        else:
            try:
                self.reference = cases.TorchReference(ref["source"], ref.get("path"), self.s.device, seed)
            except Exception as exc:
                raise RuntimeError(f"the reference failed to load: {type(exc).__name__}: {exc}") from exc
        digest = hashlib.sha256(json.dumps(ref, sort_keys=True).encode()).hexdigest()

        def inputs(seed: int, *config: int) -> list[Any]:
            return self.s.inputs((digest, seed, *config), lambda: self.reference.inputs(seed, *config))

        self.inputs = inputs
        self.send({"event": "phase", "phase": "compile"})
        probe = self.inputs(seed - 1)
        self._lap("reference loaded")
        if fmt == "kernelbench":
            self.candidate = cases.kernelbench_candidate(cand["source"], cand.get("path"), self.reference)
            self._lap("candidate loaded (extension build included)")
        else:
            from .spec import parse_spec

            spec = parse_spec(cand["spec"])
            self.candidate = cases.c_candidate(spec, cand["cubin"], self.reference) if fmt == "c" else \
                cases.native_candidate(spec, cand["cubin"], self.reference, len(probe))
        self._guard("after loading the candidate")
        self.send({"event": "phase", "phase": "run"})
        return self._check_and_time(seed, probe)

    def _call(self, inputs: list[Any]) -> Any:
        out = self.candidate(*inputs)
        self._sync()
        return out

    def _check_and_time(self, seed: int, probe: list[Any]) -> dict:
        import torch

        from . import cases, correctness, hacks

        fmt = self.job["format"]
        probe_out = self.reference(*cases.clone(probe))
        self._sync()
        out_blocks = [(t.numel(), t.dtype) for t in correctness.flatten(probe_out) if isinstance(t, torch.Tensor)]
        trials = int(self.opts.get("trials", 5))
        worst_abs = worst_rel = 0.0
        keep: list[Any] = []   # earlier trials' buffers stay alive: no address is recycled (hack 8, 10)
        ref_outs = []
        for t in range(trials):
            base = self.inputs(seed + t)
            cin, rin = cases.clone(base), cases.clone(base)
            if fmt == "kernelbench":
                self._poison_allocator(out_blocks)
            if t == 0 and fmt == "kernelbench" and self.s.device == "cuda":
                recorder = hacks.aten_recorder()
                with recorder:
                    cout = self._call(cin)
                if recorder.compute_ops:   # the work share decides whether torch did too much
                    self.flags.append("torch-ops: forward dispatches " + ", ".join(recorder.compute_ops[:8]))
            else:
                cout = self._call(cin)
            rout = self.reference(*rin)
            self._sync()
            try:
                a, r = correctness.compare(cout, rout, **self.tolerance, oracle=self._oracle(base),
                                           notes=self.flags)
                correctness.same_inputs(cin, rin, self.in_place)
            except correctness.Mismatch as exc:
                raise exc.within(f"trial {t}") from None
            worst_abs, worst_rel = max(worst_abs, a), max(worst_rel, r)
            if t == 0:
                self._determinism(base, cout)
            if len(ref_outs) < 2:
                ref_outs.append(rout)
            if _bytes(keep) + 3 * _bytes(base) < int(self.opts.get("keep_bytes", 2 << 30)):
                keep.append((base, cin, rin, cout))
            self.log.append(f"trial {t}: max abs error {a:.3g}")
        self.flags.extend(correctness.degenerate(ref_outs, self.tolerance["atol"]))
        self._guard("after the correctness trials")
        self._lap(f"{trials} correctness trials and the determinism re-run")
        kernels = self._kernels(probe)
        self._lap("kernels launched recorded")
        result = _result("correct", compiled=True, max_abs_error=worst_abs, max_rel_error=worst_rel,
                         trials=trials, kernels_launched=kernels, device=self.s.info, own_kernel_share=self.share)
        del keep
        if self.opts.get("time", True):
            result.update(self._time(seed))
            self._lap("timing")
            self._guard("after timing")
            recheck = self.inputs(seed + trials)
            try:
                correctness.compare(self._call(cases.clone(recheck)), self.reference(*cases.clone(recheck)),
                                    **self.tolerance, oracle=self._oracle(recheck))
            except correctness.Mismatch as exc:
                raise exc.within("re-check after timing") from None
            result["trials"] = trials + 1
        result["flags"] = list(dict.fromkeys(self.flags))
        return result

    def _oracle(self, inputs: list[Any]):
        """The float64 reference on `inputs`, computed only if the fixed tolerance fails (None for C)."""
        exact = getattr(self.reference, "oracle", None)
        return None if exact is None else (lambda: exact(inputs))

    def _poison_allocator(self, blocks: list[tuple[int, Any]]) -> None:
        """Hand the caching allocator blocks of the outputs' sizes full of NaN/max, so an output the
        candidate allocates but never writes reads as poison, not as an earlier result (hack 10)."""
        import torch

        from .cases import poison

        held = [poison(torch.empty(n, dtype=dtype, device=self.s.device)) for n, dtype in blocks for _ in range(2)]
        del held

    def _determinism(self, base: list[Any], first: Any) -> None:
        import torch

        from . import cases, correctness

        again = self._call(cases.clone(base))
        pairs = list(zip(correctness.flatten(first), correctness.flatten(again)))
        if all(not isinstance(a, torch.Tensor) or torch.equal(a, b) for a, b in pairs):
            return
        try:   # two summation orders (atomicAdd) may differ as much as two fp32 results can
            correctness.compare(again, first, **self.tolerance, oracle=self._oracle(base))
        except correctness.Mismatch as exc:
            raise correctness.Mismatch(f"nondeterministic: a second run on the same inputs differs ({exc})",
                                       "nondeterministic") from None
        self.flags.append("nondeterministic-within-tolerance")

    def _kernels(self, probe: list[Any]) -> list[str] | None:
        from . import cases, hacks

        if self.job["format"] != "kernelbench":
            self.candidate.launches.clear()
            self._call(cases.clone(probe))
            return list(self.candidate.launches)
        if self.s.device != "cuda":
            return None
        timed = hacks.launched_kernels(lambda: [self.candidate(*cases.clone(probe)) for _ in range(3)])
        if timed is None:
            self.log.append("profiler unavailable: kernels launched and work share not checked")
            return None
        launched = list(dict.fromkeys(name for name, _ in timed))
        own = self.job["candidate"].get("kernels", [])
        if not any(hacks.is_own(k, own) for k in launched):
            raise cases.CandidateRejected("decoy-kernel", "none of the candidate's kernels ran during forward "
                                                          f"(launched: {', '.join(launched[:5]) or 'nothing'})")
        share, others = hacks.own_share(timed, own)
        self.share = share
        if share is not None and share < hacks.OWN_SHARE_MIN:
            lines = sorted({m.group(1) for f in self.job.get("flags", [])
                            if f.startswith("gate:torch-tail") and (m := re.search(r"line (\d+)", f))}, key=int)
            where = f"; torch called at line(s) {', '.join(lines)}" if lines else ""
            top = ", ".join(f"{name.split('(')[0][:60]} {part:.0%}" for name, part in others[:3])
            raise cases.CandidateRejected("torch-fallback", f"the candidate's own kernels did {share:.0%} of the GPU "
                                                            f"time, below {hacks.OWN_SHARE_MIN:.0%} (torch: {top})"
                                                            f"{where}")
        return launched

    def _time(self, seed: int) -> dict:
        import torch

        from . import cases, timing

        trials, warmup = max(30, int(self.opts.get("timing_trials", 30))), int(self.opts.get("warmup", 3))
        first = self.inputs(seed + 1000, 0) if self.job["format"] == "c" else self.inputs(seed + 1000)
        size = max(1, _bytes(first))
        pool = [first]
        budget, started = int(self.opts.get("timing_bytes", 1 << 30)), time.perf_counter()
        while len(pool) < min(trials, max(2, budget // size)) and time.perf_counter() - started < 5:
            pool.append(self.inputs(seed + 1000 + len(pool), 0) if self.job["format"] == "c"
                        else self.inputs(seed + 1000 + len(pool)))
        self.log.append(f"timing: {trials} trials over {len(pool)} input sets, {warmup} warm-up calls")

        def fresh(i: int) -> list[Any]:
            return cases.clone(pool[i % len(pool)])

        sides = {"reference": (self.reference, fresh), "candidate": (self.candidate, fresh)}
        cpu_sides: tuple[str, ...] = ()
        if self.job["format"] == "c":
            host = [self.reference.host_values(p) for p in pool]
            sides["reference"] = (self.reference.run_host, lambda i: host[i % len(host)])
            cpu_sides = ("reference",)
        compiling = bool(self.opts.get("compare_compile")) and self.job["format"] != "c"
        if compiling:
            self._guard("before torch.compile")
            compiled = torch.compile(self.reference.model)
            compiled(*fresh(0))   # compiles now: dynamo rebinds functions (nn.Module.__init__) and
            self._sync()          # inductor starts workers, which are the harness's doing
            self.s.guard.resnapshot()
            sides["compile"] = (compiled, fresh)
        if hasattr(self.candidate, "poison_outputs"):
            self.candidate.poison_outputs = False  # checked already; poisoning is not the candidate's time
        times = timing.interleaved(self.s.timer, sides, trials, warmup, cpu_sides)
        self.log.append(f"timing: {self.s.timer.gap_ms * 1e3:.1f} us of synchronise round trip taken off")
        out = {"time_ms": {k: times[k] for k in ("candidate", "reference")},
               "speedup": times["reference"] / times["candidate"] if times["candidate"] > 0 else None}
        if "compile" in times:
            out["time_ms"]["compile"] = times["compile"]
            out["speedup_compile"] = times["compile"] / times["candidate"] if times["candidate"] > 0 else None
        outputs = 0 if self.job["format"] == "c" else _bytes(self.reference(*cases.clone(first)))
        out["bytes"] = _bytes(first) + outputs   # each input read once, each output written once
        return out


def _bytes(value: Any) -> int:
    import torch

    if isinstance(value, torch.Tensor):
        return value.numel() * value.element_size()
    if isinstance(value, list | tuple):
        return sum(_bytes(v) for v in value)
    return 0


def main(argv: list[str]) -> int:
    jobs_fd, messages_fd = int(argv[0]), int(argv[1])
    device = os.environ.get("CUDAPERF_DEVICE", "cuda")
    session, started = None, time.perf_counter()
    try:
        import torch

        if device == "cuda" and not torch.cuda.is_available():
            device = "none"
        if device != "none":
            session = Session(device, started)
        hello = {"event": "hello", "pid": os.getpid(), **(session.info if session else
                                                           {"torch": torch.__version__, "gpu": False})}
    except ImportError:
        hello = {"event": "hello", "pid": os.getpid(), "torch": None, "gpu": False}
    _send(messages_fd, hello)
    with os.fdopen(jobs_fd) as jobs:
        for line in jobs:
            job = json.loads(line)
            started = time.perf_counter()
            try:
                result = session.run(job, lambda m: _send(messages_fd, m)) if session else _reference_only(job)
            except Exception as exc:  # the harness itself failed: report, never hang the caller
                result = _result("runtime_error", f"harness error: {type(exc).__name__}: {exc}", recycle=True,
                                 log=traceback.format_exc().splitlines()[-20:])
            result["worker_seconds"] = time.perf_counter() - started
            _send(messages_fd, {"event": "result", **result})
            if result.get("recycle"):
                break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
