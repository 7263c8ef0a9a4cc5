"""Worker processes, one slot per GPU: start, feed, time-limit, watch, recycle, and always clean up.

Each worker is `python -m cudaperf.rewards.execution.worker` in its own session (so a kill takes its
children, e.g. ninja and nvcc, too), pinned to one GPU through CUDA_VISIBLE_DEVICES, talking JSON
lines over two private pipes.  A slot keeps spare workers warming up (importing torch, creating
its context) so a recycled worker is replaced without waiting.  The caller's process never runs
candidate code, so it survives crashes, hangs and sticky CUDA errors; `close()` (also at exit) kills
every worker it started.

Limits: a compile deadline while the worker builds the candidate, a run deadline from then on (a hung
kernel is killed with its process group), and the worker's resident memory, polled twice a second.
RLIMIT_AS is not used: CUDA reserves far more virtual address space than any limit that would
matter, so it breaks context creation; GPU memory is capped inside the worker through torch's
per-process memory fraction.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from pathlib import Path
from queue import Queue

from ...analysis.process import kill_group


class WorkerDied(Exception):
    pass


def _rss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class Worker:
    def __init__(self, env: dict[str, str], log_dir: Path):
        jobs_r, jobs_w = os.pipe()
        msgs_r, msgs_w = os.pipe()
        self.log_path = Path(tempfile.mkstemp(prefix="worker-", suffix=".log", dir=log_dir)[1])
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "cudaperf.rewards.execution.worker", str(jobs_r), str(msgs_w)],
                pass_fds=(jobs_r, msgs_w), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                env=env, start_new_session=True)
        os.close(jobs_r)
        os.close(msgs_w)
        self._jobs = os.fdopen(jobs_w, "w")
        self._messages = msgs_r
        self._buffer = b""
        self.hello: dict | None = None

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def _read(self, until: float, memory_limit: int | None) -> dict | None:
        """Next message, None at the deadline; WorkerDied on EOF; MemoryError over the limit."""
        while b"\n" not in self._buffer:
            remaining = until - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([self._messages], [], [], min(remaining, 0.5))
            if memory_limit and _rss_bytes(self.proc.pid) > memory_limit:
                raise MemoryError
            if not ready:
                continue
            chunk = os.read(self._messages, 1 << 16)
            if not chunk:
                self.proc.wait()
                raise WorkerDied
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return json.loads(line)

    def wait_hello(self, timeout: float) -> dict | None:
        if self.hello is None:
            try:
                self.hello = self._read(time.monotonic() + timeout, None)
            except (WorkerDied, MemoryError, json.JSONDecodeError):
                self.hello = None
        return self.hello

    def log_tail(self, since: int, lines: int = 30) -> list[str]:
        try:
            with open(self.log_path, "rb") as f:
                f.seek(since)
                text = f.read().decode(errors="replace")
        except OSError:
            return []
        return [ln for ln in text.splitlines() if ln.strip()][-lines:]

    def request(self, job: dict, compile_timeout: float, run_timeout: float, memory_limit: int | None) -> dict:
        """Send one job and wait for its result; on a deadline, a crash or the memory limit the worker is
        killed and the result says so."""
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        phase, deadline = "load", time.monotonic() + compile_timeout
        try:
            self._jobs.write(json.dumps(job) + "\n")
            self._jobs.flush()
            while True:
                message = self._read(deadline, memory_limit)
                if message is None:
                    tail = self.log_tail(offset)
                    self.close()
                    if phase == "load":  # the candidate was not touched yet
                        return {"status": "infra_error", "reason": f"the worker did not load the reference within "
                                f"{compile_timeout:.0f} s (worker killed; the candidate was not run)",
                                "log": tail, "recycle": True}
                    limit = compile_timeout if phase in ("load", "compile") else run_timeout
                    return {"status": "timeout", "reason": f"{'compile' if phase != 'run' else 'run'} took longer "
                                                            f"than {limit:.0f} s (worker killed)",
                            "compiled": phase == "run" or None, "log": tail, "recycle": True}
                if message.get("event") == "phase":
                    phase = message["phase"]
                    deadline = time.monotonic() + (compile_timeout if phase == "compile" else run_timeout)
                elif message.get("event") == "result":
                    if message.get("status") != "correct":
                        message.setdefault("log", []).extend(self.log_tail(offset))
                    return message
        except MemoryError:
            tail = self.log_tail(offset)
            self.close()
            return {"status": "runtime_error", "reason": f"host memory above {memory_limit >> 20} MiB (worker killed)",
                    "log": tail, "recycle": True}
        except (WorkerDied, BrokenPipeError, json.JSONDecodeError):
            code = self.proc.wait()
            how = f"signal {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"
            tail = self.log_tail(offset)
            self.close()
            return {"status": "runtime_error", "reason": f"the worker died ({how})",
                    "compiled": phase == "run" or None, "log": tail, "recycle": True}

    def close(self, wait: bool = True) -> None:
        """Kill the worker (and its children); `wait=False` leaves reaping to `Pool.reap`: a process
        that held a CUDA context can take a second to go, and nobody needs to watch it go."""
        kill_group(self.proc.pid)
        if wait:
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        for closer in (self._jobs.close, lambda: os.close(self._messages)):
            try:
                closer()
            except OSError:
                pass
        self.log_path.unlink(missing_ok=True)


class Slot:
    """One device (a GPU, or none): the worker in use and spares warming up.  One spare at first;
    once workers get recycled (every KernelBench candidate recycles its worker), up to `pool.spare`
    warm in parallel, since a fresh worker takes seconds to import torch and create its context while
    a candidate's checks and timing take well under one."""

    def __init__(self, pool: Pool, env: dict[str, str]):
        self.pool, self.env = pool, env
        self.current: Worker | None = None
        self.spares: list[Worker] = []
        self.wanted = min(1, pool.spare)

    def _spawn(self) -> Worker:
        worker = Worker(self.env, self.pool.log_dir)
        self.pool.started.add(worker)
        return worker

    def warm(self) -> None:
        """Start a worker now, without waiting for it: it imports torch while the caller compiles."""
        if self.current is None and not self.spares:
            self.spares.append(self._spawn())

    def expect(self, recycling: int) -> None:
        """`recycling` candidates that each use up a worker are coming: warm spares for them now."""
        self.wanted = max(self.wanted, min(self.pool.spare, recycling))
        self._top_up()

    def _top_up(self) -> None:
        while len(self.spares) < self.wanted:
            self.spares.append(self._spawn())

    def worker(self) -> Worker | None:
        if self.current is not None and self.current.alive:
            return self.current
        self.current = self.spares.pop(0) if self.spares else self._spawn()
        self._top_up()
        if self.current.wait_hello(self.pool.start_timeout) is None:
            self.current.close()
            self.current = None
            return None
        return self.current

    def hello(self) -> dict | None:
        worker = self.worker()
        return worker.hello if worker else None

    def run(self, job: dict, compile_timeout: float, run_timeout: float) -> dict:
        worker = self.worker()
        if worker is None:
            limit = self.pool.start_timeout
            return {"status": "infra_error", "recycle": True,
                    "reason": f"the worker did not start within {limit:.0f} s (the candidate was not run)"}
        result = worker.request(job, compile_timeout, run_timeout, self.pool.memory_limit)
        if result.get("recycle") or not worker.alive:
            worker.close(wait=False)
            self.pool.reap(worker)
            self.current = None
            self.wanted = self.pool.spare
        return result

    def close(self) -> None:
        for worker in (self.current, *self.spares):
            if worker is not None:
                worker.close()
        self.current, self.spares = None, []


def _visible(index: int) -> str:
    parent = os.environ.get("CUDA_VISIBLE_DEVICES")
    entries = [e for e in (parent or "").split(",") if e.strip()]
    return entries[index] if parent and index < len(entries) else str(index)


class Pool:
    """Slots for `gpus` (indices into the visible devices); with none, one slot without a GPU (its
    worker can still run C references on the CPU).  `device="cpu"` runs PyTorch candidates on CPU
    tensors: only for testing the harness itself, its timings mean nothing."""

    def __init__(self, gpus: list[int], device: str = "cuda", spare: int = 4, memory_limit: int | None = None,
                 start_timeout: float = 180.0, env: dict[str, str] | None = None):
        self.spare, self.memory_limit, self.start_timeout = spare, memory_limit, start_timeout
        self.log_dir = Path(tempfile.mkdtemp(prefix="cudaperf-workers-"))
        self.started: weakref.WeakSet[Worker] = weakref.WeakSet()
        self.dying: list[Worker] = []
        base = {**os.environ, **(env or {}), "PYTHONUNBUFFERED": "1"}
        if gpus and device == "cuda":
            envs = [{**base, "CUDA_VISIBLE_DEVICES": _visible(g), "CUDAPERF_DEVICE": "cuda"} for g in gpus]
        else:
            envs = [{**base, "CUDA_VISIBLE_DEVICES": "", "CUDAPERF_DEVICE": "cpu" if device == "cpu" else "none"}]
        self.slots = [Slot(self, e) for e in envs]
        self._free: Queue[Slot] = Queue()
        for slot in self.slots:
            self._free.put(slot)
        self._lock = threading.Lock()
        self._expecting = threading.Lock()
        self._closed = False
        atexit.register(self.close)

    def warm(self) -> None:
        """Start every slot's worker in the background (call before the first job)."""
        for slot in self.slots:
            slot.warm()

    def expect(self, recycling: int) -> None:
        """Warm spares on every slot for a batch in which `recycling` candidates use up their worker
        (each slot taken once, waiting for any that is busy)."""
        with self._expecting:   # two callers each holding some slots would wait for each other
            taken = [self._free.get() for _ in self.slots]
        try:
            for slot in taken:
                slot.expect(-(-recycling // len(self.slots)))
        finally:
            for slot in taken:
                self._free.put(slot)

    def hello(self) -> dict | None:
        """The first slot's worker's hello (device, capability, torch version), starting it if needed."""
        slot = self._free.get()
        try:
            return slot.hello()
        finally:
            self._free.put(slot)

    def run(self, job: dict, compile_timeout: float, run_timeout: float) -> dict:
        slot = self._free.get()
        try:
            return slot.run(job, compile_timeout, run_timeout)
        finally:
            self._free.put(slot)

    def reap(self, killed: Worker | None = None) -> None:
        """Keep `killed` (closed without waiting) until it has exited; collect those that have."""
        with self._lock:
            if killed is not None:
                self.dying.append(killed)
            self.dying = [w for w in self.dying if w.alive]

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        for slot in self.slots:
            slot.close()
        for worker in list(self.started):
            worker.close()
        try:
            for leftover in self.log_dir.iterdir():
                leftover.unlink()
            self.log_dir.rmdir()
        except OSError:
            pass
        atexit.unregister(self.close)

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
