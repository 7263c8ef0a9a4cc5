"""The checker: the trusted half of an evaluation, a process that never loads candidate code.

    python -m cudaperf.rewards.execution.checker JOBS_FD MESSAGES_FD

It loads the reference, makes every input set, computes the reference's outputs (and the float64
oracle), and drives the candidate's sandboxed worker through the engine: each request it sends as an
`ask` message, and the engine relays the worker's reply (or an `abort` when the worker died, hung or
ran out of memory).  The worker makes its own copy of each input set from the seed this process
names, with the task's generator, after its digest of a probe set matched this process's (otherwise
the values are copied into its directory); outputs come back as files (`transfer.py`).  The candidate
never holds the reference's memory, its outputs, the tolerance or this process's code: the comparison
and the verdict happen here.

Timing interleaves the reference (timed here, on a few input sets) with the candidate (timed in its
worker, one call per request), and every timed call of the candidate runs on an input set made for it
from a seed drawn from the operating system's randomness: no call repeats an input, so a replayed or
skipped result is wrong, and every call looks the same to the candidate until it has returned.  Then
this process decides, again at random, whether to check it, and fetches its outputs at positions drawn
at that moment (`correctness.sampled`): skipping work in more than a handful of timed calls fails.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
import statistics
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from .options import WORKERS_GPU_MEMORY
from .protocol import send
from .result import BEYOND_FAST_PATH

CHECKED_SHARE = 0.3    # timed calls whose outputs are fetched and compared: skipping half of 30 passes 0.7^15 = 0.5%
SAMPLE = 1 << 16       # output elements fetched from a checked timed call
REFERENCE_SETS = 4     # input sets the reference is timed on (it is trusted: a few suffice)


def _result(status: str, reason: str = "", **fields: Any) -> dict:
    return {"status": status, "reason": reason, **fields}


class Aborted(Exception):
    """The engine stopped the candidate's worker (deadline, crash, memory): it reports the status."""


class CandidateFailed(Exception):
    """The candidate raised, or its CUDA context broke: a runtime_error."""


class BeyondFastPath(Exception):
    """The fast path's interpreter could not follow the candidate's wrapper: the engine runs it again on
    the full build (api.Engine.execute)."""


class Channel:
    """Requests to the candidate's worker, relayed by the engine over this process's own pipes."""

    def __init__(self, jobs, messages_fd: int):
        self.jobs, self.messages_fd = jobs, messages_fd

    def ask(self, request: dict) -> dict:
        from .cases import CandidateRejected
        from .correctness import Mismatch
        from .torch_ext import BuildError

        send(self.messages_fd, {"event": "ask", "request": request})
        line = self.jobs.readline()
        if not line:
            raise SystemExit(0)
        message = json.loads(line)
        if "abort" in message:
            raise Aborted(message["abort"])
        reply = message["reply"]
        error = reply.get("error")
        if error == "rejected":
            raise CandidateRejected(reply.get("rule") or "rejected", reply.get("message", ""))
        if error == "mismatch":
            raise Mismatch(reply.get("message", ""), reply.get("rule") or "wrong-values")
        if error == "output-structure":
            raise Mismatch(f"the outputs could not be handed back: {reply.get('message', '')}", "output-structure")
        if error == "build":
            raise BuildError(reply.get("message", ""))
        if error == "fast-path":
            raise BeyondFastPath(reply.get("message", ""))
        if error:
            raise CandidateFailed(reply.get("message", "") or error)
        if reply.get("guard"):
            rule, text = reply["guard"][0]
            raise CandidateRejected(rule, f"{text} (during {request['op']})")
        return reply


class Checker:
    """Device state that lives as long as the process: the timer, the references and their inputs."""

    def __init__(self, device: str):
        import torch

        from . import timing

        self.device = device
        l2 = 0
        # input sets kept across candidates: at most 8 GiB, and the checkers of one GPU's slots together
        # a tenth of it (this slot's share of the workers' memory: CUDAPERF_GPU_MEMORY_FRACTION)
        self._input_cap = int(os.environ.get("CUDAPERF_INPUT_CACHE_BYTES") or 8 << 30)
        if device == "cuda":
            torch.zeros(1, device="cuda")
            l2 = int(getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 50 << 20))
            share = float(os.environ.get("CUDAPERF_GPU_MEMORY_FRACTION") or WORKERS_GPU_MEMORY) / WORKERS_GPU_MEMORY
            self._input_cap = min(self._input_cap, int(torch.cuda.mem_get_info()[1] * share / 10))
        self.timer = timing.Timer(device, l2)
        self._inputs: dict[tuple, Any] = {}
        self._input_bytes = 0
        self._references: dict[str, Any] = {}
        self.floor_us = _idle_kernel_us() if device == "cuda" else 0.0

    def inputs(self, key: tuple, make) -> Any:
        """Input sets by (task, seed[, config]): the same for every candidate of a task, generated once
        (callers always clone before use)."""
        if key in self._inputs:
            return self._inputs[key]
        value = make()
        size = _bytes(value)
        if self._input_bytes + size <= self._input_cap:
            self._inputs[key] = value
            self._input_bytes += size
        return value

    def reference(self, job: dict, digest: str) -> Any:
        from . import cases

        if digest not in self._references:
            ref, seed = job["reference"], int(job["options"].get("seed", 0))
            if job["format"] == "c":
                from .harness import parse_harness

                made = cases.CReference(parse_harness(ref["harness"]), ref["library"], self.device)
            else:
                try:
                    made = cases.TorchReference(ref["source"], ref.get("path"), self.device, seed)
                except Exception as exc:
                    raise RuntimeError(f"the reference failed to load: {type(exc).__name__}: {exc}") from exc
            self._references = {digest: made}   # one task at a time: a batch is usually one task
        return self._references[digest]

    def run(self, job: dict, channel: Channel, send) -> dict:
        from .cases import CandidateRejected
        from .correctness import Mismatch
        from .torch_ext import BuildError

        log: list[str] = []
        run = _Run(self, job, channel, send, log)
        try:
            result = run.execute()
        except CandidateRejected as exc:
            result = _result("rejected", str(exc), rule=exc.rule, own_kernel_share=run.share)
        except BuildError as exc:
            result = _result("compile_error", str(exc), compiled=False)
        except Mismatch as exc:
            result = _result("incorrect", str(exc), compiled=True, rule=exc.rule)
        except CandidateFailed as exc:
            result = _result("runtime_error", str(exc), compiled=True)
        except BeyondFastPath as exc:
            result = _result(BEYOND_FAST_PATH, str(exc), compiled=True)
        except Aborted as exc:
            result = _result("aborted", str(exc))
        except Exception as exc:
            blamed = self._out_of_memory(exc) if run.called else None
            if blamed is None:
                raise
            result = _result("runtime_error", blamed, compiled=True, recycle=True, checker_out_of_memory=True)
        result.setdefault("log", []).extend(log)
        run.cleanup()
        if self.device == "cuda":   # what this candidate's checks cached goes back to the workers' use
            import torch

            torch.cuda.empty_cache()
        return result

    def _out_of_memory(self, exc: Exception) -> str | None:
        """The runtime_error's reason when this process ran out of GPU memory after the candidate's calls
        while holding under half of it: a worker holds the rest, as a hostile candidate that cudaMallocs
        every free byte does.  The pool retries such a result once with the GPU alone (pool.Pool.run), so
        the verdict stands only when the candidate's own worker is the one left.  None for any other
        error, or when the checker itself holds the memory (the engine's failure, an infra_error)."""
        import torch

        if self.device != "cuda" or not (isinstance(exc, torch.cuda.OutOfMemoryError) or (
                isinstance(exc, RuntimeError) and "out of memory" in str(exc).lower())):   # cuBLAS' and CUDA's own
            return None
        free, total = torch.cuda.mem_get_info()
        held = torch.cuda.memory_reserved()
        if held >= total / 2:
            return None
        return (f"the GPU ran out of memory in the checker after the candidate's calls: {free / 2**30:.2f} of "
                f"{total / 2**30:.1f} GiB free, {held / 2**30:.1f} GiB held by the checker")


class _Run:
    """One job: load the candidate in its worker, check trials, time, recheck."""

    def __init__(self, checker: Checker, job: dict, channel: Channel, send, log: list[str]):
        self.c, self.job, self.ask, self.send, self.log = checker, job, channel.ask, send, log
        self._since = time.perf_counter()
        self.opts = job["options"]
        self.fmt = job["format"]
        self.tolerance = {"atol": self.opts.get("atol"), "rtol": self.opts.get("rtol"),
                          "tf32": bool(self.opts.get("allow_tf32"))}   # correctness.compare's settings
        self.flags: list[str] = []
        self.share: float | None = None
        self.in_place: set[int] = set()
        self.xfer = Path(job["worker_dir"]) / "xfer"
        self._n = 0
        self.generated = False   # the worker makes its own input sets (its probe digest matched)
        self.round_trips: list[float] = []   # ms from asking for a timed call to its answer, as seen here
        self.called = False   # a call of the candidate was asked for (out-of-memory blame needs one)

    def _lap(self, what: str) -> None:
        now = time.perf_counter()
        self.log.append(f"{what} in {now - self._since:.2f} s")
        self._since = now

    def _sync(self) -> None:
        import torch

        if self.c.device == "cuda":
            torch.cuda.synchronize()

    def _memory(self, when: str) -> None:
        """Free device memory and this process's share of it: what an out-of-memory verdict is read against."""
        import torch

        if self.c.device == "cuda":
            free, total = torch.cuda.mem_get_info()
            self.log.append(f"{when}: {free / 2**30:.1f} of {total / 2**30:.1f} GiB free, "
                            f"{torch.cuda.memory_reserved() / 2**30:.1f} GiB held by the checker")

    # -- moving values --
    def _ask_on(self, request: dict, key: tuple, values: Any) -> dict:
        """`request` on the input set `key` (seed[, config]), whose values here are `values`: the worker
        makes its own from the key, or gets a copy when its generator does not reproduce this one."""
        if self.generated:
            return self.ask({**request, "seed": key[0], "config": list(key[1:])})
        return self._ask_with(request, "inputs", values)

    def _ask_with(self, request: dict, key: str, value: Any) -> dict:
        """`request` with `value` copied into the worker's directory under `key`; the copy goes after."""
        from .transfer import write

        self._n += 1
        directory = self.xfer / f"in-{self._n}"
        write(value, directory)
        try:
            return self.ask({**request, key: str(directory)})
        finally:
            shutil.rmtree(directory, ignore_errors=True)

    def _out(self) -> str:
        self._n += 1
        return str(self.xfer / f"out-{self._n}")

    def _fetch(self, directory: str, like: Any) -> Any:
        """The worker's outputs, as plain tensors on this device, refused when larger than 4x `like` (what
        the reference returned) and 1 MB; its own account of their device and type first (a CPU tensor or
        a subclass is an output-structure error, as if it had been returned here)."""
        from .correctness import Mismatch
        from .transfer import described_device, read

        for i, (device, subclass) in enumerate(described_device(Path(directory))):
            if subclass:
                raise Mismatch(f"output {i} is a tensor subclass, not a plain torch.Tensor", "output-structure")
            if device != self.c.device.split(":")[0] and self.c.device != "none":
                raise Mismatch(f"output {i} is on {device}, the reference's on {self.c.device}", "output-structure")
        try:
            return read(Path(directory), self.c.device, 4 * _bytes(like) + (1 << 20))
        finally:
            shutil.rmtree(directory, ignore_errors=True)

    def cleanup(self) -> None:
        shutil.rmtree(self.xfer, ignore_errors=True)

    def _inputs_for(self, seed: int, *config: int) -> Any:
        return self.c.inputs((self.digest, seed, *config), lambda: self.reference.inputs(seed, *config))

    # -- the run --
    def execute(self) -> dict:
        from . import cases

        ref = self.job["reference"]
        self.digest = hashlib.sha256(json.dumps(ref, sort_keys=True).encode()).hexdigest()
        self.reference = self.c.reference(self.job, self.digest)
        self._memory("GPU memory before the candidate loads")
        seed = int(self.opts.get("seed", 0))
        if self.fmt == "c":
            self.in_place = {i for i, a in enumerate(self.reference.harness.args) if a.output}
        self.send({"event": "phase", "phase": "compile"})
        probe = self._inputs_for(seed - 1)
        self._lap("reference loaded")
        request = {"op": "load", "format": self.fmt, "candidate": self.job["candidate"], "seed": seed,
                   "allow_tf32": bool(self.opts.get("allow_tf32")), "inputs": len(probe), "probe": seed - 1,
                   "reference": {"harness": ref["harness"]} if self.fmt == "c" else
                   {"source": ref["source"], "path": ref.get("path")}}
        if self.fmt == "c":
            values = [[], []]
        else:
            state = self.reference.model.state_dict()
            values = [list(self.reference.init), [[k, v.detach()] for k, v in state.items()]]
        reply = self._ask_with(request, "values", values)
        self.generated = reply.get("probe") == cases.fingerprint(probe)
        if not self.generated:
            self.log.append("the worker's input sets differ from this process's (an unseeded generator): copied to it")
        self._lap("candidate loaded in its worker" + (" (extension built ahead)" if self.fmt == "kernelbench" else ""))
        self.send({"event": "phase", "phase": "run"})
        probe_out = self.reference(*cases.clone(probe))
        self._sync()
        return self._check_and_time(seed, probe_out)

    def _candidate(self, key: tuple, base: Any, like: Any | None = None, **extra: Any) -> tuple[Any, dict]:
        """One call of the candidate on the input set `key` (`base` here): its whole outputs when `like`
        (what the reference returned) is given, else None (they stay in the worker for `_sampled`), and
        the worker's reply."""
        from .correctness import Mismatch

        out = self._out() if like is not None else None
        self.called = True
        reply = self._ask_on({"op": "call", "out": out, "in_place": sorted(self.in_place), **extra}, key, base)
        if reply.get("edited"):
            if out:
                shutil.rmtree(out, ignore_errors=True)
            raise Mismatch(f"input {reply['edited'][0]} was modified differently from the reference (in-place edit)",
                           "input-mutation")
        return (self._fetch(out, like) if out else None), reply

    def _sampled(self, want: Any, base: Any, where: str, notes: list[str] | None = None) -> tuple[float, float]:
        """The worker's last outputs against `want` at 65,536 positions drawn now, after the call returned
        (`correctness.sampled`: each tensor's elements there and its shape); `base` gives the oracle."""
        import numpy as np
        import torch

        from . import correctness

        picks = torch.from_numpy(np.random.default_rng(secrets.randbits(64)).integers(0, 1 << 62, SAMPLE))
        expected = correctness.sampled(want, picks.to(self.c.device))
        out = self._out()
        self._ask_with({"op": "save", "out": out}, "sample", picks)
        got = self._fetch(out, expected)
        if not isinstance(got, list) or len(got) != 2 or got[1] != expected[1]:
            shapes = got[1] if isinstance(got, list) and len(got) == 2 else "?"
            raise correctness.Mismatch(f"{where}: outputs of shapes {shapes}, the reference's {expected[1]}",
                                       "output-structure")
        exact = self._oracle(base)
        oracle = None if exact is None else (
            lambda: None if (e := exact()) is None else correctness.sampled(e, picks.to(self.c.device))[0])
        try:
            return correctness.compare(got[0], expected[0], **self.tolerance, oracle=oracle, notes=notes)
        except correctness.Mismatch as exc:
            raise exc.within(where) from None

    def _compare(self, cout: Any, rout: Any, base: Any, notes: list[str] | None = None) -> tuple[float, float]:
        from . import correctness

        return correctness.compare(cout, rout, **self.tolerance, oracle=self._oracle(base), notes=notes)

    def _check_and_time(self, seed: int, probe_out: Any) -> dict:
        import torch

        from . import cases, correctness

        out_blocks = [(t.numel(), str(t.dtype).removeprefix("torch."))
                      for t in correctness.flatten(probe_out) if isinstance(t, torch.Tensor)]
        trials = int(self.opts.get("trials", 5))
        worst_abs = worst_rel = 0.0
        ref_outs = []
        for t in range(trials):
            base = self._inputs_for(seed + t)
            extra: dict[str, Any] = {}
            if self.fmt == "kernelbench":
                extra["poison"] = out_blocks
                extra["record_ops"] = t == 0
            rout = self.reference(*cases.clone(base))
            self._sync()
            # trial 0 (and the re-check after timing) compares whole outputs; the others, sampled
            cout, reply = self._candidate((seed + t,), base, rout if t == 0 else None, **extra)
            if reply.get("compute_ops"):   # the work share decides whether torch did too much
                self.flags.append("torch-ops: forward dispatches " + ", ".join(reply["compute_ops"][:8]))
            if t:
                a, r = self._sampled(rout, base, f"trial {t} (sampled)", self.flags)
            else:
                try:
                    a, r = self._compare(cout, rout, base, self.flags)
                except correctness.Mismatch as exc:
                    raise exc.within("trial 0") from None
                self._determinism(base, cout)
            worst_abs, worst_rel = max(worst_abs, a), max(worst_rel, r)
            if len(ref_outs) < 2:
                ref_outs.append(rout)
            self.log.append(f"trial {t}: max abs error {a:.3g}")
        self.flags.extend(correctness.degenerate(ref_outs, self.tolerance["atol"]))
        self._lap(f"{trials} correctness trials and the determinism re-run")
        self.ask({"op": "alone"})   # the kernel record and the timing: no other candidate on this GPU meanwhile
        self._lap("waited for the GPU alone")
        kernels = self._kernels()
        self._lap("kernels launched recorded")
        result = _result("correct", compiled=True, max_abs_error=worst_abs, max_rel_error=worst_rel,
                         trials=trials, kernels_launched=kernels, own_kernel_share=self.share)
        if self.opts.get("time", True):
            result.update(self._time(seed))
            self._lap("timing")
            self.ask({"op": "shared"})
            recheck = self._inputs_for(seed + trials)
            rout = self.reference(*cases.clone(recheck))
            cout, _ = self._candidate((seed + trials,), recheck, rout, keep=False)
            try:
                self._compare(cout, rout, recheck)
            except correctness.Mismatch as exc:
                raise exc.within("re-check after timing") from None
            result["trials"] = trials + 1
        result["flags"] = list(dict.fromkeys(self.flags))
        return result

    def _oracle(self, inputs: Any):
        exact = getattr(self.reference, "oracle", None)
        return None if exact is None else (lambda: exact(inputs))

    def _determinism(self, base: Any, first: Any) -> None:

        from . import correctness

        self.ask({"op": "again"})
        notes: list[str] = []
        try:   # two summation orders (atomicAdd) may differ as much as two fp32 results can
            worst, _ = self._sampled(first, base, "the determinism re-run (sampled)", notes)
        except correctness.Mismatch as exc:
            if exc.rule == "output-structure":
                raise
            raise correctness.Mismatch(f"nondeterministic: a second run on the same inputs differs ({exc})",
                                       "nondeterministic") from None
        if worst > 0 or notes:
            self.flags.append("nondeterministic-within-tolerance")

    def _kernels(self) -> list[str] | None:
        from . import cases, hacks

        reply = self.ask({"op": "kernels"})   # on the last trial's inputs, which the worker holds
        if self.fmt != "kernelbench":
            return reply.get("launched")
        if self.c.device != "cuda":
            return None
        timed = reply.get("timed")
        if timed is None:
            self.log.append("profiler unavailable: kernels launched and work share not checked")
            return None
        timed = [(str(n)[:300], float(t)) for n, t in timed[:10000]]
        launched = list(dict.fromkeys(name for name, _ in timed))
        own = self.job["candidate"].get("kernels", [])
        if not any(hacks.is_own(k, own) for k in launched):
            raise cases.CandidateRejected("decoy-kernel", "none of the candidate's kernels ran during forward "
                                                          f"(launched: {', '.join(launched[:5])[:300] or 'nothing'})")
        share, others = hacks.own_share(timed, own, self.c.floor_us)
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
        c_task = self.fmt == "c"
        config = (0,) if c_task else ()
        pool = [self._inputs_for(seed + 1000 + k, *config) for k in range(REFERENCE_SETS)]
        draw = secrets.SystemRandom()   # after the candidate loaded: it cannot be predicted
        if c_task:
            host = [self.reference.host_values(p) for p in pool]
            ref_call, ref_args = self.reference.run_host, (lambda i: host[i % len(host)])
        else:
            ref_call, ref_args = self.reference, (lambda i: cases.clone(pool[i % len(pool)]))
        sides = {"reference": (ref_call, ref_args)}
        if bool(self.opts.get("compare_compile")) and not c_task:
            compiled = torch.compile(self.reference.model)
            compiled(*cases.clone(pool[0]))   # compiles now, outside the timed calls
            self._sync()
            sides["compile"] = (compiled, lambda i: cases.clone(pool[i % len(pool)]))
        for fn, args in sides.values():
            for w in range(warmup):
                fn(*args(w))
        for _ in range(warmup):
            self._timed_call((draw.getrandbits(30), *config))
        self._sync()
        self.c.timer.calibrate()
        self.ask({"op": "calibrate"})
        samples: dict[str, list[float]] = {"candidate": [], **{n: [] for n in sides}}
        checked = 0
        spent = dict.fromkeys(("reference calls", "candidate calls", "checks of timed calls"), 0.0)
        clock = time.perf_counter
        for i in range(trials):
            start = clock()
            for name, (fn, args) in sides.items():
                samples[name].append(timing.cpu_time(fn, args(i)) if c_task and name == "reference"
                                     else self.c.timer(fn, args(i)))
            key = (draw.getrandbits(30), *config)
            middle = clock()
            ms, values = self._timed_call(key)
            samples["candidate"].append(ms)
            end = clock()
            if draw.random() < CHECKED_SHARE or (i == trials - 1 and not checked):   # drawn after the call
                checked += 1
                self._check_timed(i, key, values)
            spent["reference calls"] += middle - start
            spent["candidate calls"] += end - middle
            spent["checks of timed calls"] += clock() - end
        self.ask({"op": "release"})
        self._memory("GPU memory after timing")
        self.log.extend(f"timing's {what} in {s:.2f} s" for what, s in spent.items())
        self.log.append(f"timing: {trials} calls, each on an input set made for it, {checked} checked "
                        f"(drawn after each call), {warmup} warm-up calls")
        times = {k: statistics.median(v) for k, v in samples.items()}
        self.log.append(f"timing: {self.c.timer.gap_ms * 1e3:.1f} us of synchronise round trip taken off; a timed "
                        f"call's request took {statistics.median(self.round_trips):.2f} ms (median) from here")
        out = {"time_ms": {k: times[k] for k in ("candidate", "reference")},
               "speedup": times["reference"] / times["candidate"] if times["candidate"] > 0 else None}
        if "compile" in times:
            out["time_ms"]["compile"] = times["compile"]
            out["speedup_compile"] = times["compile"] / times["candidate"] if times["candidate"] > 0 else None
        outputs = 0 if c_task else _bytes(self.reference(*cases.clone(pool[0])))
        out["bytes"] = _bytes(pool[0]) + outputs   # each input read once, each output written once
        return out

    def _timed_call(self, key: tuple) -> tuple[float, Any]:
        """(ms, the values here or None) of one timed call on the fresh input set `key`: made by the
        worker, or (when it cannot reproduce this process's sets) made here, copied and dropped."""
        values = None if self.generated else self.reference.inputs(*key)
        start = time.perf_counter()
        ms = float(self._ask_on({"op": "time"}, key, values)["ms"])
        self.round_trips.append((time.perf_counter() - start) * 1e3)
        return ms, values

    def _check_timed(self, i: int, key: tuple, values: Any) -> None:
        """Timed call `i`'s outputs, sampled, against the reference's on the same input set."""
        from . import cases

        values = self.reference.inputs(*key) if values is None else values
        want = self.reference(*cases.clone(values))
        self._sync()
        self._sampled(want, values, f"timed call {i} (sampled)")


def _idle_kernel_us() -> float:
    """What a kernel that does nothing takes on this GPU, by the profiler (hacks.own_share's floor);
    measured where no candidate code runs, at the checker's start, which also pays the profiler's
    first start (about 3 s on the H200) there rather than in a candidate's kernel record."""
    import torch

    from . import hacks

    idle = hacks.launched_kernels(lambda: [torch.ones(1, device="cuda").add_(1) for _ in range(8)]) or []
    return statistics.median(t for _, t in idle) if idle else 0.0


def _bytes(value: Any) -> int:
    import torch

    if isinstance(value, torch.Tensor):
        return value.numel() * value.element_size()
    if isinstance(value, list | tuple):
        return sum(_bytes(v) for v in value)
    return 0


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


def main(argv: list[str]) -> int:
    jobs_fd, messages_fd = int(argv[0]), int(argv[1])
    device = os.environ.get("CUDAPERF_DEVICE", "cuda")
    checker = None
    try:
        import torch

        from . import hacks

        if device == "cuda" and not torch.cuda.is_available():
            device = "none"
        if device != "none":
            checker = Checker(device)
        hello = {"event": "hello", "pid": os.getpid(), "torch": torch.__version__, "gpu": device == "cuda"}
    except ImportError:
        hello = {"event": "hello", "pid": os.getpid(), "torch": None, "gpu": False}
    send(messages_fd, hello)
    with os.fdopen(jobs_fd) as jobs:
        channel = Channel(jobs, messages_fd)
        for line in jobs:
            job = json.loads(line)
            if "job" not in job:
                continue   # a stale reply after an abort
            job = job["job"]
            started = time.perf_counter()
            try:
                if checker is None:
                    result = _reference_only(job)
                else:
                    hacks.pin_precision(bool(job["options"].get("allow_tf32")))
                    result = checker.run(job, channel, lambda m: send(messages_fd, m))
            except Exception as exc:  # the harness or the reference failed: report, never hang the caller
                result = _result("infra_error", f"checker error: {type(exc).__name__}: {exc}"[:500], recycle=True,
                                 log=traceback.format_exc().splitlines()[-20:])
            result["checker_seconds"] = time.perf_counter() - started
            send(messages_fd, {"event": "result", **result})
            if result.get("recycle"):
                break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
