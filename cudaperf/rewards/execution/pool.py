"""The engine's processes, slots per GPU (three by default): a checker and the candidates' sandboxed
workers.  Slots on one GPU share its `GpuLock`: their candidates load and run trials side by side, and
each takes the GPU alone for its kernel record and timing.

A slot holds two kinds of child, each in its own session, pinned to the slot's GPU, and talking JSON
lines over private pipes:

- the checker (`checker.py`): the reference, the inputs and the verdict; it never loads candidate
  code, so it lives as long as the slot;
- candidate workers (`worker.py`): forked by the zygote (zygote.py; `python -m` where it cannot run),
  each sandboxes itself before its first request, runs one candidate's code and is replaced after any
  Python candidate or failure; spares warm up (create a context) while earlier candidates run.

The slot relays the checker's requests to the worker, and holds the deadlines: a compile deadline
while the worker loads the candidate, a run deadline from then on, the worker's resident memory
polled twice a second.  A worker that hangs, crashes or runs out of memory is killed with its
process group and the checker is told to abort; the caller's process never runs candidate code, so
it survives all of it.  A candidate whose result says the engine failed before it was touched
(`infra_error`: a worker that did not start, a checker that died) is retried once on fresh processes.
RLIMIT_AS is not used: CUDA reserves far more virtual address space than any limit that would
matter; GPU memory is capped inside the worker through torch's per-process memory fraction.
"""

from __future__ import annotations

import atexit
import itertools
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections import Counter, deque
from pathlib import Path
from queue import Queue

from ...analysis.process import kill_group
from .options import WORKERS_GPU_MEMORY
from .zygote import CUDA_INITIALISED, Forked, Zygote, ZygoteGone

_SHM_MIN_FREE = 8 << 30   # transfers go through /dev/shm when it has this much room, else the temp dir


class WorkerDied(Exception):
    pass


class Deadline(Exception):
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


def _scratch_root() -> Path:
    try:
        stat = os.statvfs("/dev/shm")
        if stat.f_bavail * stat.f_frsize >= _SHM_MIN_FREE and os.access("/dev/shm", os.W_OK):
            return Path(tempfile.mkdtemp(prefix="cudaperf-", dir="/dev/shm"))
    except OSError:
        pass
    return Path(tempfile.mkdtemp(prefix="cudaperf-"))


class Child:
    """`python -m MODULE JOBS_FD MESSAGES_FD` in its own session, its output in a log file."""

    def __init__(self, module: str, env: dict[str, str], log_dir: Path, private: Path | None = None,
                 prefix: list[str] = (), zygote: Zygote | None = None):
        jobs_r, jobs_w = os.pipe()
        msgs_r, msgs_w = os.pipe()
        self.private = private
        self.log_path = Path(tempfile.mkstemp(prefix=module.rsplit(".", 1)[-1] + "-", suffix=".log",
                                              dir=log_dir)[1])
        self.proc: subprocess.Popen | Forked | None = None
        if zygote is not None and private is not None:   # a worker: forked, its namespaces made by the zygote
            log_fd = os.open(self.log_path, os.O_WRONLY | os.O_APPEND)
            try:
                self.proc = zygote.spawn(env, private, (jobs_r, msgs_w, log_fd))
            except ZygoteGone:
                pass
            finally:
                os.close(log_fd)
        if self.proc is None:
            with open(self.log_path, "wb") as log:
                self.proc = subprocess.Popen(
                    [*prefix, sys.executable, "-m", module, str(jobs_r), str(msgs_w)],
                    pass_fds=(jobs_r, msgs_w), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                    env=env, start_new_session=True, cwd=str(private) if private else None)
        os.close(jobs_r)
        os.close(msgs_w)
        self._jobs = os.fdopen(jobs_w, "w")
        self._messages = msgs_r
        self._buffer = b""
        self.hello: dict | None = None

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    @property
    def pid(self) -> int:
        """The Python process itself: under a namespace prefix, the launcher's child."""
        try:
            with open(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children") as f:
                children = f.read().split()
        except OSError:
            children = []
        return int(children[0]) if children else self.proc.pid

    def send(self, message: dict) -> None:
        self._jobs.write(json.dumps(message) + "\n")
        self._jobs.flush()

    def read(self, until: float, memory_limit: int | None = None) -> dict:
        """Next message; Deadline at `until`, WorkerDied on EOF, MemoryError over the limit."""
        while b"\n" not in self._buffer:
            remaining = until - time.monotonic()
            if remaining <= 0:
                raise Deadline
            ready, _, _ = select.select([self._messages], [], [], min(remaining, 0.5))
            if memory_limit and _rss_bytes(self.pid) > memory_limit:
                raise MemoryError
            if not ready:
                continue
            chunk = os.read(self._messages, 1 << 16)
            if not chunk:
                self.proc.wait()
                raise WorkerDied
            self._buffer += chunk
            if len(self._buffer) > 16 << 20:   # no honest message is this long
                raise WorkerDied
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            return json.loads(line)
        except ValueError:
            raise WorkerDied from None

    def wait_hello(self, timeout: float) -> dict | None:
        if self.hello is None:
            try:
                self.hello = self.read(time.monotonic() + timeout)
            except (WorkerDied, MemoryError, Deadline):
                self.hello = None
        return self.hello

    def how_it_died(self) -> str:
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return "stopped answering"
        return f"signal {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"

    def log_tail(self, since: int, lines: int = 30) -> list[str]:
        """The last lines the process printed since `since`, each cut short (the candidate controls them)."""
        try:
            with open(self.log_path, "rb") as f:
                f.seek(max(since, f.seek(0, 2) - (64 << 10)))
                text = f.read().decode(errors="replace")
        except OSError:
            return []
        return [ln[:300] for ln in text.splitlines() if ln.strip()][-lines:]

    def log_size(self) -> int:
        try:
            return self.log_path.stat().st_size
        except OSError:
            return 0

    def close(self, wait: bool = True) -> None:
        """Kill the process (and its group); `wait=False` leaves reaping to `Pool.reap`: a process that
        held a CUDA context can take a second to go."""
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
        if self.private is not None:
            shutil.rmtree(self.private, ignore_errors=True)


class GpuLock:
    """Candidates on one GPU share it while they load and run their trials; timing and the kernel record
    take it alone, so no other candidate's kernels (or its checker's reference calls) run beside them.
    A slot holds it shared from the start of a job, except while a build it asked for runs, and trades
    that for the lock alone when its checker asks (`alone`, then `shared`).  Whoever waits for it alone
    goes first, in turn: new jobs wait, jobs already running carry on to their own timing or their end."""

    def __init__(self):
        self._cond = threading.Condition()
        self._sharing = 0
        self._alone = False
        self._queue: deque[object] = deque()   # those waiting for it alone, served in turn

    def share(self) -> None:
        with self._cond:
            while self._alone or self._queue:
                self._cond.wait()
            self._sharing += 1

    def unshare(self) -> None:
        with self._cond:
            self._sharing -= 1
            self._cond.notify_all()

    def take(self) -> None:
        turn = object()
        with self._cond:
            self._queue.append(turn)
            while self._alone or self._sharing or self._queue[0] is not turn:
                self._cond.wait()
            self._queue.popleft()
            self._alone = True

    def give(self) -> None:
        with self._cond:
            self._alone = False
            self._cond.notify_all()


class Held:
    """What one job holds of its GPU's lock: nothing, a share, or the GPU alone; `drop` lets go of either."""

    def __init__(self, lock: GpuLock):
        self.lock, self.state = lock, ""
        self.whole = False   # the GPU alone for the whole run: shares, asks and lending change nothing

    def whole_run(self) -> float:
        """Hold the GPU alone until `drop` (a retry after the checker ran out of memory); seconds waited."""
        waited = self.alone()
        self.whole = True
        return waited

    def lend(self) -> None:
        """Let go while the job compiles, so others' timing need not wait for a compiler (not in a whole run)."""
        if not self.whole:
            self.drop()

    def shared(self) -> float:
        """Hold a share (giving up the GPU alone first); returns the seconds waited."""
        if self.whole:
            return 0.0
        start = time.monotonic()
        self.drop()
        self.lock.share()
        self.state = "shared"
        return time.monotonic() - start

    def alone(self) -> float:
        if self.whole:
            return 0.0
        start = time.monotonic()
        self.drop()
        self.lock.take()
        self.state = "alone"
        return time.monotonic() - start

    def drop(self) -> None:
        if self.state == "shared":
            self.lock.unshare()
        elif self.state == "alone":
            self.lock.give()
        self.state = ""


def _failure(status: str, reason: str, **fields) -> dict:
    return {"status": status, "reason": reason, **fields}


class Slot:
    """One device (a GPU, or none): its checker, the worker in use, and spares warming up.  One spare at
    first; once workers get recycled (every KernelBench candidate recycles its worker), up to
    `spare` (its share of the GPU's spares) warm in parallel."""

    def __init__(self, pool: Pool, env: dict[str, str], worker_env: dict[str, str], gpu: GpuLock, spare: int):
        self.pool, self.env, self.worker_env, self.gpu, self.spare = pool, env, worker_env, gpu, spare
        self.checker: Child | None = None
        self.current: Child | None = None
        self.spares: list[Child] = []
        self.wanted = min(1, spare)

    def _spawn(self) -> Child:
        private = self.pool.scratch / f"worker-{next(self.pool.serial)}"
        private.mkdir(mode=0o700)
        env = dict(self.worker_env)
        env.update(HOME=str(private), TMPDIR=str(private), CUDAPERF_PRIVATE=str(private))
        worker = Child("cudaperf.rewards.execution.worker", env, self.pool.log_dir, private,
                       self.pool.namespace, self.pool.zygote(self.worker_env))
        self.pool.started.add(worker)
        return worker

    def _spawn_checker(self) -> None:
        self.checker = Child("cudaperf.rewards.execution.checker", self.env, self.pool.log_dir)
        self.pool.started.add(self.checker)

    def warm(self) -> None:
        """Start the checker and a worker now, without waiting: they import torch while the caller compiles."""
        if self.checker is None:
            self._spawn_checker()
        if self.current is None and not self.spares:
            self.spares.append(self._spawn())

    def expect(self, recycling: int) -> None:
        """`recycling` candidates that each use up a worker are coming: warm spares for them now."""
        self.wanted = max(self.wanted, min(self.spare, recycling))
        self._top_up()

    def _top_up(self) -> None:
        while len(self.spares) < self.wanted:
            self.spares.append(self._spawn())

    def _checker(self) -> Child | None:
        if self.checker is not None and not self.checker.alive:
            self.checker.close()
            self.checker = None
        if self.checker is None:
            self._spawn_checker()
        if self.checker.wait_hello(self.pool.start_timeout) is None:
            self.checker.close()
            self.checker = None
        return self.checker

    def worker(self) -> Child | None:
        """The worker in use, else the first spare that started (a spare that died while warming, e.g.
        of another candidate's memory use, is dropped and the next one tried)."""
        if self.current is not None and self.current.alive:
            return self.current
        for _ in range(2):
            self.current = self.spares.pop(0) if self.spares else self._spawn()
            self._top_up()
            if self.current.wait_hello(self.pool.start_timeout) is not None:
                return self.current
            self.current.close()
            self.current = None
        return None

    def hello(self) -> dict | None:
        checker, worker = self._checker(), self.worker()
        if checker is None or worker is None:
            return None
        return worker.hello

    def _drop_worker(self) -> None:
        if self.current is not None:
            self.current.close(wait=False)
            self.pool.reap(self.current)
        self.current = None
        self.wanted = self.spare

    def run(self, job: dict, compile_timeout: float, run_timeout: float) -> dict:
        checker = self._checker()
        if checker is None:
            return _failure("infra_error", f"the checker did not start within {self.pool.start_timeout:.0f} s "
                                           "(the candidate was not run)", recycle=True)
        start = time.monotonic()
        worker = self.worker()
        if worker is None:
            return _failure("infra_error", f"the worker did not start within {self.pool.start_timeout:.0f} s "
                                           "(the candidate was not run)", recycle=True)
        waits = [f"waited for a started worker in {time.monotonic() - start:.2f} s"]
        if worker.hello.get("sandbox_error"):
            self._drop_worker()
            return _failure("infra_error", "refusing to score: the sandbox cannot be enforced here "
                                           f"({worker.hello['sandbox_error']})", sandbox=False)
        held = Held(self.gpu)
        if job.get("alone"):   # a retry after the checker ran out of memory: no other candidate beside it
            waits.append(f"waited for the GPU alone (the whole run) in {held.whole_run():.2f} s")
        else:
            waits.append(f"waited for the GPU shared in {held.shared():.2f} s")
        try:
            result = self._run(checker, worker, held, job, compile_timeout, run_timeout)
        finally:
            held.drop()
        result["log"] = waits + list(result.get("log") or [])
        return result

    def _run(self, checker: Child, worker: Child, held: Held, job: dict, compile_timeout: float,
             run_timeout: float) -> dict:
        offset = worker.log_size()
        job = {**job, "worker_dir": str(worker.private)}
        phase, deadline = "load", time.monotonic() + compile_timeout
        failure: dict | None = None
        recycle = False   # the worker goes after this job (a CUDA error, a crash, the checker failing)
        checker.send({"job": job})
        while True:
            try:
                message = checker.read(deadline + 5)
            except (Deadline, WorkerDied, MemoryError):
                self._drop_worker()
                how = "stopped answering" if checker.alive else f"died ({checker.how_it_died()})"
                checker.close()
                self.checker = None
                return failure or _failure("infra_error" if phase == "load" else "timeout",
                                           f"the checker {how} (the engine's own process)" if phase == "load"
                                           else f"run took longer than {run_timeout:.0f} s", recycle=True)
            event = message.get("event")
            if event == "phase":
                phase = message["phase"]
                deadline = time.monotonic() + (compile_timeout if phase == "compile" else run_timeout)
            elif event == "ask":
                if failure is not None:
                    checker.send({"abort": failure["reason"]})
                    continue
                op = message["request"].get("op")
                if op in ("alone", "shared"):   # the checker's timing and kernel record: the GPU to itself
                    deadline += held.alone() if op == "alone" else held.shared()
                    checker.send({"reply": {}})
                    continue
                try:
                    worker.send(message["request"])
                    reply = worker.read(deadline, self.pool.memory_limit)
                    while reply.get("event") == "build":   # a load_inline the engine could not build ahead
                        held.lend()
                        ok, output = self.pool.build(reply.get("spec") or {}, deadline - time.monotonic())
                        deadline += held.shared()
                        worker.send({"built": ok, "output": output[-16000:]})
                        reply = worker.read(deadline, self.pool.memory_limit)
                    checker.send({"reply": reply})   # a recycle reply's error is the checker's to report
                    recycle = recycle or bool(reply.get("recycle"))
                    continue
                except Deadline:
                    limit = compile_timeout if phase in ("load", "compile") else run_timeout
                    failure = _failure("timeout", f"{'compile' if phase != 'run' else 'run'} took longer than "
                                                  f"{limit:.0f} s (worker killed)", compiled=phase == "run" or None)
                except MemoryError:
                    failure = _failure("runtime_error", f"host memory above {self.pool.memory_limit >> 20} MiB "
                                                        "(worker killed)", compiled=phase == "run" or None)
                except (WorkerDied, BrokenPipeError, OSError):
                    failure = _failure("runtime_error", f"the worker died ({worker.how_it_died()})",
                                       compiled=phase == "run" or None)
                failure["log"] = worker.log_tail(offset)
                self._drop_worker()
                checker.send({"abort": failure["reason"]})
            elif event == "result":
                result = failure or message
                break
        if failure is None and result.get("status") != "correct":
            result.setdefault("log", []).extend(worker.log_tail(offset))
        result["device"] = {k: worker.hello.get(k) for k in ("device", "gpu", "capability", "torch")}
        if message.get("recycle") and failure is None:   # the checker itself failed: both go
            checker.close()
            self.checker = None
            recycle = True
        if failure is not None or recycle or job["format"] == "kernelbench" or \
                result.get("status") == "runtime_error" or not worker.alive:
            self._drop_worker()
        return result

    def close(self) -> None:
        for child in (self.checker, self.current, *self.spares):
            if child is not None:
                child.close()
        self.checker, self.current, self.spares = None, None, []


def _visible(index: int) -> str:
    parent = os.environ.get("CUDA_VISIBLE_DEVICES")
    entries = [e for e in (parent or "").split(",") if e.strip()]
    return entries[index] if parent and index < len(entries) else str(index)


def _namespace() -> list[str]:
    """The worker's PID namespace prefix; none where it cannot be had (the worker then finds it is not
    pid 1 of a namespace and reports the sandbox unavailable, so the engine refuses to score)."""
    from . import sandbox

    try:
        return sandbox.own_pid_namespace()
    except sandbox.SandboxUnavailable:
        return []


def _worker_env(private_root: Path, settings: dict[str, str]) -> dict[str, str]:
    """The worker's environment: nothing of the caller's beyond what Python, torch and CUDA need."""
    from . import sandbox

    return sandbox.scrubbed_env(private_root, settings)


class Pool:
    """Slots for `gpus` (indices into the visible devices); with none, one slot without a GPU (its
    checker can still run C references on the CPU).  `device="cpu"` runs PyTorch candidates on CPU
    tensors: only for testing the harness itself, its timings mean nothing."""

    def __init__(self, gpus: list[int], device: str = "cuda", spare: int = 4, memory_limit: int | None = None,
                 start_timeout: float = 180.0, env: dict[str, str] | None = None, fork_workers: bool = True,
                 per_gpu: int = 1):
        self.memory_limit, self.start_timeout = memory_limit, start_timeout
        self.fork_workers = fork_workers
        self._zygote: Zygote | None = None
        self.log_dir = Path(tempfile.mkdtemp(prefix="cudaperf-workers-"))
        self.scratch = _scratch_root()
        self.serial = itertools.count()
        # builds a worker asks for: (spec, seconds left) -> (ok, compiler output); set by the engine
        self.build = lambda spec, seconds: (False, "no builder in this engine")
        self.namespace = _namespace()
        self.started: weakref.WeakSet[Child] = weakref.WeakSet()
        self.dying: list[Child] = []
        base = {**os.environ, **(env or {}), "PYTHONUNBUFFERED": "1"}
        # a GPU named more than once (gpus=[0, 0], or two indices the parent's CUDA_VISIBLE_DEVICES maps
        # to one device) is one GPU with more slots: one lock, so that timing has it alone, and its
        # memory divided among all of them
        on_gpu = bool(gpus) and device == "cuda"
        devices = Counter(_visible(g) for g in gpus) if on_gpu else Counter([""])
        kind = "cuda" if on_gpu else "cpu" if device == "cpu" else "none"
        self.slots = []
        for d, mentions in devices.items():
            slots = mentions * per_gpu
            s = {"CUDA_VISIBLE_DEVICES": d, "CUDAPERF_DEVICE": kind}
            if slots > 1:   # each worker's share of the GPU's memory, unless the caller set it
                s["CUDAPERF_GPU_MEMORY_FRACTION"] = (os.environ.get("CUDAPERF_GPU_MEMORY_FRACTION")
                                                     or f"{WORKERS_GPU_MEMORY / slots:.3f}")
            lock = GpuLock()
            spares = -(-spare // slots) if spare else 0   # `spare` per GPU shared by its slots
            self.slots += [Slot(self, {**base, **s}, _worker_env(self.scratch, {**(env or {}), **s}), lock, spares)
                           for _ in range(slots)]
        self._free: Queue[Slot] = Queue()
        for slot in self.slots:
            self._free.put(slot)
        self._lock = threading.Lock()
        self._expecting = threading.Lock()
        self._closed = False
        atexit.register(self.close)

    def zygote(self, worker_env: dict[str, str]) -> Zygote | None:
        """The process workers are forked from (zygote.py), started on first use; None when workers
        start as fresh interpreters (`fork_workers=False`, or no PID namespace to be had here: they then
        report the sandbox unavailable as before)."""
        if not (self.fork_workers and self.namespace):
            return None
        with self._lock:
            if self._zygote is not None and self._zygote.proc.poll() == CUDA_INITIALISED:
                self.fork_workers = False
                return None
            if self._zygote is None or not self._zygote.alive:
                private = self.scratch / "zygote"
                private.mkdir(mode=0o700, exist_ok=True)
                env = {**worker_env, "HOME": str(private), "TMPDIR": str(private)}
                log = Path(tempfile.mkstemp(prefix="zygote-", suffix=".log", dir=self.log_dir)[1])
                self._zygote = Zygote(env, log, private)
            return self._zygote

    def warm(self) -> None:
        """Start every slot's checker and worker in the background (call before the first job)."""
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
        """The first slot's worker's hello (device, capability, torch version, sandbox), starting it if needed."""
        slot = self._free.get()
        try:
            return slot.hello()
        finally:
            self._free.put(slot)

    def run(self, job: dict, compile_timeout: float, run_timeout: float) -> dict:
        """One job, retried once on fresh processes when it may have failed for another's doing: the engine
        failed before the candidate was touched (`infra_error`), the checker ran out of GPU memory after the
        candidate's calls (retried once every killed worker has exited, with the GPU alone for the whole
        run, so that only the candidate's own worker can hold the memory then), or the GPU ran out of
        memory while an earlier candidate's killed worker still held it (a worker's GPU memory is freed
        only when it exits)."""
        note = None
        for attempt in range(2):
            self.reap()
            crowded = bool(self.dying)
            slot = self._free.get()
            try:
                result = slot.run(job, compile_timeout, run_timeout)
            finally:
                self._free.put(slot)
            if note:
                result.setdefault("log", []).insert(0, note)
            reason = str(result.get("reason", ""))
            if attempt == 0 and result.get("status") == "infra_error" and result.get("sandbox") is not False:
                note = f"retried once on fresh processes after: {reason[:200]}"
            elif attempt == 0 and result.get("checker_out_of_memory"):   # a field the checker sets, not text
                self.settle(20.0)
                job = {**job, "alone": True}
                note = f"retried once with the GPU alone after: {reason[:200]}"
            elif attempt == 0 and crowded and result.get("status") == "runtime_error" and \
                    "out of memory" in reason.lower():
                self.settle(20.0)
                note = f"retried once after an earlier candidate's worker released the GPU: {reason[:200]}"
            else:
                return result
        return result

    def settle(self, timeout: float) -> None:
        """Wait (up to `timeout` seconds) until every killed worker has exited."""
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            self.reap()
            if not self.dying:
                return
            time.sleep(0.1)

    def reap(self, killed: Child | None = None) -> None:
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
        for child in list(self.started):
            child.close()
        if self._zygote is not None:
            self._zygote.close()
        shutil.rmtree(self.log_dir, ignore_errors=True)
        shutil.rmtree(self.scratch, ignore_errors=True)
        atexit.unregister(self.close)

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
