"""The engine's entry points: `evaluate` one candidate, `Evaluator.evaluate_many` a batch.

Pipeline per candidate: static gate (CPU) -> compile (CPU, cached, parallel across a batch) -> worker
on a GPU (load, correctness trials, timing) -> ExecResult with the roofline and speedup flags.  The
caller's process imports no torch and runs no candidate code."""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from . import gate, torch_ext
from .compile import compile_c, compile_cuda, exec_cache
from .formats import Candidate, FormatError, Task, load_candidate, load_task, task_format
from .options import DEFAULT_PER_GPU, Options
from .pysource import parse as parse_python
from .result import BEYOND_FAST_PATH, ExecResult

IMPLAUSIBLE_SPEEDUP = 10.0   # KernelBench's flag threshold
RELAY_SWITCH_INTERVAL_S = 0.0005   # the interpreter's thread switch interval while a batch runs (evaluate_many)


def _arch_from(capability: Sequence[int] | None, fallback: str | None) -> str:
    if fallback:
        return fallback
    return f"sm_{capability[0]}{capability[1]}" if capability else "sm_90"


def _roofline_flags(result: ExecResult, nbytes: int | None, capability: Sequence[int] | None) -> None:
    """Flag times below what DRAM bandwidth allows (each input read once, each output written once)
    and speedups beyond KernelBench's 10x (not for C tasks, whose reference runs on one CPU core):
    both usually mean the work was not really done."""
    cand = result.time_ms.get("candidate")
    if result.speedup is not None and result.speedup > IMPLAUSIBLE_SPEEDUP and result.format != "c":
        result.flags.append(f"implausible-speedup: {result.speedup:.1f}x > {IMPLAUSIBLE_SPEEDUP:.0f}x")
    if not cand or not nbytes or not capability:
        return
    from ...analysis import arch as arch_table

    try:
        bandwidth = arch_table.get(f"sm_{capability[0]}{capability[1]}").dram_bandwidth_gbs
    except arch_table.UnknownArch:
        return
    floor = nbytes / (bandwidth * 1e9) * 1e3
    if cand < floor:
        result.flags.append(f"below-memory-roofline: {cand:.4f} ms < {floor:.4f} ms to move {nbytes} bytes "
                            f"at {bandwidth:.0f} GB/s")


class Evaluator:
    """Holds the worker pool; evaluate candidates one by one or as a batch.  Use as a context manager
    (or call close()) so every worker is gone when you are done.  `backend="ray"` returns the same
    interface on a Ray cluster at `address` (cluster.RayEvaluator, which also takes its keywords)."""

    def __new__(cls, options: Options | None = None, backend: str = "local", address: str | None = None,
                **cluster: object):
        if backend == "ray":
            from .cluster import RayEvaluator

            return RayEvaluator(options, address, engine=Evaluator, **cluster)
        if backend != "local":
            raise ValueError(f"backend must be local or ray, got {backend!r}")
        if address is not None or cluster:
            raise ValueError("address and the cluster keywords need backend='ray'")
        return super().__new__(cls)

    def __init__(self, options: Options | None = None, backend: str = "local", address: str | None = None):
        from . import driver
        from .pool import Pool

        self.options = options or Options()
        o = self.options
        gpus = [] if o.device != "cuda" else (o.gpus if o.gpus is not None else list(range(driver.device_count())))
        self.ext_root = exec_cache() / "torch_ext"
        self.capability = driver.capability(gpus[0]) if gpus else None
        arch = _arch_from(self.capability, None if self.capability else o.arch)[3:]   # the GPU's; else --arch
        # one arch list for builders and workers: a worker finds a build by a key that includes it
        env = {"CUDAPERF_EXT_ROOT": str(self.ext_root), "TORCH_CUDA_ARCH_LIST": f"{arch[:-1]}.{arch[-1]}"}
        per_gpu = o.candidates_per_gpu or (DEFAULT_PER_GPU if gpus else 1)
        self.pool = Pool(gpus, device=o.device, spare=o.spare_workers,
                         memory_limit=int(o.memory_limit_gb * (1 << 30)), env=env, fork_workers=o.fork_workers,
                         per_gpu=per_gpu)
        self.gpus = gpus
        self._hello: dict | None = None
        self._hello_lock = threading.Lock()
        self.builders: torch_ext.Builders | None = None
        if gpus:
            self.pool.warm()   # torch import and CUDA context overlap the first candidate's compile
        if gpus or o.device == "cpu" or (o.build_without_gpu and o.device == "cuda"):
            self.builders = torch_ext.Builders(self.ext_root, env["TORCH_CUDA_ARCH_LIST"],
                                               jobs=max(2, (os.cpu_count() or 2) // 8))
            if o.device != "cpu":   # the CPU test mode builds rarely: its builders start on demand
                self.builders.warm()
            self.pool.build = self._build_requested

    def _build_requested(self, spec: dict, seconds: float) -> tuple[bool, str]:
        """A worker's load_inline whose arguments the gate could not read ahead: the same flag allowlist,
        then a sandboxed builder, within what is left of the compile deadline."""
        from . import gate_flags

        problems = gate_flags.check_spec(spec)
        if problems:
            return False, f"build-flags: {problems[0]}"
        if seconds <= 1 or self.builders is None:
            return False, "no time or no builder left for a build the worker asked for"
        ok, output, _ = self.builders.build(spec, min(seconds, self.options.compile_timeout))
        return ok, output

    @property
    def hello(self) -> dict:
        """What a worker reported at start: device name, capability, torch version, whether a GPU is usable."""
        with self._hello_lock:
            if self._hello is None:
                self._hello = self.pool.hello() or {"gpu": False, "torch": None}
        return self._hello

    @property
    def has_gpu(self) -> bool:
        return bool(self.gpus) and bool(self.hello.get("gpu"))

    @property
    def runs(self) -> bool:
        """Whether candidates are executed (a GPU, or the CPU test mode)."""
        return self.has_gpu or (self.options.device == "cpu" and self.hello.get("torch") is not None)

    # -- stages --
    def prepare(self, task: Task, candidate: Candidate) -> tuple[ExecResult | None, dict | None]:
        """CPU stage: gate and compile.  Returns (final result, None) when the candidate is settled
        here, else (None, job) for a worker."""
        fmt = task_format(task, candidate)
        base = {"format": fmt, "candidate": candidate.label}
        if candidate.kind == "python":
            try:
                parse_python(candidate.source)
            except SyntaxError as exc:
                where = f"line {exc.lineno}: " if exc.lineno else ""
                return ExecResult("compile_error", f"{where}{exc.msg}", compiled=False, **base), None
        flags: list[str] = []
        if self.options.gate:
            violations = gate.check(candidate, task)
            rejecting = [v for v in violations if v.severity == "reject"]
            if rejecting:
                v = rejecting[0]
                return ExecResult("rejected", str(v), rule=v.rule,
                                  log=[f"{x.rule}: {x} (fix: {gate.RULES[x.rule].fix})" for x in rejecting[:20]],
                                  **base), None
            flags = [f"gate:{v.rule}: {v}" for v in violations]
        job: dict = {"format": fmt, "options": self.options.job_options(),
                     "reference": {"source": task.source, "path": task.path},
                     "candidate": {"source": candidate.source, "path": candidate.path}}
        log: list[str] = []
        if fmt == "c":
            lib = compile_c(task.source)
            if not lib.ok:
                raise FormatError(f"{task.path or 'C reference'} does not compile: {lib.first_error}")
            job["reference"].update(harness=task.harness_data, library=lib.path)
        if fmt in ("native", "c"):
            arch = _arch_from(self.capability, self.options.arch)
            cubin = compile_cuda(candidate.source, arch)
            log.append(f"{cubin.backend} for {arch}: {'ok' if cubin.ok else 'failed'} in {cubin.seconds:.2f} s"
                       + (" (cached)" if cubin.cached else ""))
            if not cubin.ok:
                return ExecResult("compile_error", cubin.first_error, compiled=False, flags=flags,
                                  log=log + cubin.log.splitlines()[-30:], **base), None
            job["candidate"].update(spec=candidate.spec.raw, cubin=cubin.path)
        else:
            job["candidate"]["kernels"] = _kernel_names(candidate.source)
            if self.builders:   # not has_gpu: waiting for the worker's hello would serialise it with the build
                failure, job["candidate"]["built"] = self._prebuild(candidate, log, job, flags)
                if failure is not None:
                    return ExecResult(**failure, flags=flags, log=log, **base), None
        job["flags"], job["log"] = flags, log
        if not self.runs:
            return self._without_gpu(job, base, fmt, flags, log), None
        return None, job

    def _prebuild(self, candidate: Candidate, log: list[str], job: dict, flags: list[str]) -> tuple[dict | None, bool]:
        """Build the candidate's load_inline extensions ahead, off the GPU: on the fast path (NVRTC and a
        translated wrapper, `fastpath/`) where it applies, else the full build.  (the final result's fields
        when a build failed, whether every extension was built)."""
        builds = torch_ext.extract_builds(candidate.source)
        if builds == []:
            return None, False
        if builds is None or self.builders is None:
            log.append("load_inline arguments are not literals: built when the worker asks for it")
            return None, False
        full = self._fast_path(builds, log, job, flags)
        for spec in full:
            ok, output, seconds = self.builders.build(spec, self.options.compile_timeout)
            variant = re.search(r"cudaperf: (built|compiled) the (\w+) variant", output)
            how = "" if not variant else f" ({variant.group(2)} headers)" if variant.group(1) == "built" else \
                f" ({variant.group(2)} headers, compiled, not linked)"
            log.append(f"prebuilt extension {spec.get('name')!r} in {seconds:.1f} s: "
                       + (f"ok{how}" if ok else "failed"))
            if not ok:
                timeout = output.startswith("build took longer")
                lines = [ln for ln in output.splitlines() if ln.strip()]
                first = next((ln.strip() for ln in lines if "error" in ln.lower() and "Error building" not in ln),
                             lines[-1] if lines else "build failed")
                first = re.sub(r"\S*/(cuda\.cu|main\.cpp)", r"\1", first)
                line = candidate_line(candidate.source, first)
                first = f"line {line}: {first}" if line else first
                log.extend(lines[-30:])
                return {"status": "timeout" if timeout else "compile_error", "reason": first[:500],
                        "compiled": False}, False
        return None, True

    def _fast_path(self, builds: list[dict], log: list[str], job: dict, flags: list[str]) -> list[dict]:
        """Prepare every extension for the fast path (job["candidate"]["fast"]: the records the worker's
        load_inline uses); the specs the full build must still make (all in "check" mode, where the job
        runs both ways).  One fallback sends the whole candidate to the full build, so that a
        candidate's verdict comes from one path."""
        if self.options.fast_path == "off" or not self.gpus:
            return builds
        from .fastpath import device

        arch = _arch_from(self.capability, self.options.arch)
        records = []
        for spec in builds:
            record, line = device.prepare(spec, arch, min(60.0, self.options.compile_timeout))
            log.append(f"extension {spec.get('name')!r}: {line}")
            if record is None:
                flags.append(f"fast-path: {line}")
                return builds
            records.append(record)
        job["candidate"]["fast"] = records
        flags.append("fast-path: fast")
        return builds if self.options.fast_path == "check" else []

    def _without_gpu(self, job: dict, base: dict, fmt: str, flags: list[str], log: list[str]) -> ExecResult:
        if fmt == "kernelbench":
            built = job["candidate"].get("built", False)
            reason = "no CUDA device: gate and extension build only" if built else \
                "no CUDA device: gate only (build_without_gpu / --build-without-gpu also compiles the extension)"
            return ExecResult("no_gpu", reason, compiled=True if built else None, flags=flags, log=log, **base)
        compiled = True
        if fmt == "c":
            out = self.pool.run(job, self.options.compile_timeout, self.options.run_timeout)
            if out.get("status") != "no_gpu":
                raise FormatError(f"the C reference failed on the CPU: {out.get('reason')}")
            return ExecResult("no_gpu", out["reason"], compiled=compiled, flags=flags, log=log, **base)
        return ExecResult("no_gpu", "no CUDA device: gate and compile stage only", compiled=compiled, flags=flags,
                          log=log, **base)

    def execute(self, job: dict, label: str) -> ExecResult:
        out = self.pool.run(job, self.options.compile_timeout, self.options.run_timeout)
        full = {**job, "candidate": {k: v for k, v in job["candidate"].items() if k != "fast"}}
        if out.get("status") == BEYOND_FAST_PATH:   # the worker asks the engine to build each extension
            why = str(out.get("reason", ""))[:160]
            out = self.pool.run(full, self.options.compile_timeout, self.options.run_timeout)
            out.setdefault("flags", []).append(f"fast-path: fell back to the full build at run time: {why}")
        elif self.options.fast_path == "check" and job["candidate"].get("fast"):
            fast, out = out, self.pool.run(full, self.options.compile_timeout, self.options.run_timeout)
            same = (fast.get("status"), fast.get("rule")) == (out.get("status"), out.get("rule"))
            speeds = f", speedup {fast['speedup']:.2f} fast, {out['speedup']:.2f} full" \
                if fast.get("speedup") and out.get("speedup") else ""
            why = (fast.get("reason") or "")[:120]
            out.setdefault("flags", []).append(f"fast-path: check: same status{speeds}" if same else
                                               f"fast-path: check: differs: fast {fast.get('status')} ({why}), "
                                               f"full {out.get('status')}")
        device = out.get("device") or {}
        time_ms = {"candidate": None, "reference": None, **(out.get("time_ms") or {})}
        result = ExecResult(
            out["status"], out.get("reason", ""), rule=out.get("rule"), compiled=out.get("compiled"),
            max_abs_error=out.get("max_abs_error"), max_rel_error=out.get("max_rel_error"),
            trials=out.get("trials", 0), time_ms=time_ms, speedup=out.get("speedup"),
            speedup_compile=out.get("speedup_compile"), kernels_launched=out.get("kernels_launched"),
            own_kernel_share=out.get("own_kernel_share"),
            flags=job["flags"] + out.get("flags", []), format=job["format"], candidate=label,
            log=job["log"] + out.get("log", []))
        if result.status == "correct":
            _roofline_flags(result, out.get("bytes"), device.get("capability"))
        return result

    def evaluate(self, task: Task, candidate: Candidate) -> ExecResult:
        start = time.perf_counter()
        result, job = self.prepare(task, candidate)
        if result is None:
            result = self.execute(job, candidate.label)
        result.seconds = time.perf_counter() - start
        return result

    def evaluate_many(self, task: Task | Sequence[Task], candidates: Sequence[Candidate],
                      progress: Callable[[int, int, ExecResult], None] | None = None,
                      cpu_workers: int | None = None, untimed: Collection[int] = ()) -> list[ExecResult]:
        """A batch: compile stages run in parallel on the CPU while earlier candidates run on the GPUs;
        results come back in the input order.  `task` is one task for all, or one per candidate (a
        batch over several tasks keeps every core compiling).  Candidates whose indices are in
        `untimed` are checked for correctness only (a GRPO group's triage, `rewards/triage.py`)."""
        tasks = [task] * len(candidates) if isinstance(task, Task) else list(task)
        if len(tasks) != len(candidates):
            raise ValueError(f"{len(tasks)} tasks for {len(candidates)} candidates")
        results: list[ExecResult | None] = [None] * len(candidates)
        done = [0]
        if self.gpus:   # every KernelBench candidate uses up its worker: have spares warm while they build
            self.pool.expect(sum(c.kind == "python" for c in candidates))

        def finish(i: int, result: ExecResult, started: float) -> ExecResult:
            result.seconds = time.perf_counter() - started
            results[i] = result
            done[0] += 1
            if progress:
                progress(done[0], len(candidates), result)
            return result

        untimed = set(untimed)
        # The slots' threads relay every request between a checker and its worker, a few hundred per
        # candidate, while the compile stages' threads run Python; at the default 5 ms switch interval
        # each relay could wait that long for the interpreter lock, and the GPU with it.
        switch = sys.getswitchinterval()
        sys.setswitchinterval(min(switch, RELAY_SWITCH_INTERVAL_S))
        try:
            with ThreadPoolExecutor(max_workers=cpu_workers or max(1, (os.cpu_count() or 2) // 2)) as cpu, \
                    ThreadPoolExecutor(max_workers=max(1, len(self.pool.slots))) as gpu:
                pending: list[Future] = []
                for i, cand in enumerate(candidates):
                    started = time.perf_counter()
                    pending.append(cpu.submit(self._stage, i, tasks[i], cand, started, gpu, finish, i in untimed))
                for f in pending:
                    inner = f.result()
                    if inner is not None:
                        inner.result()
        finally:
            sys.setswitchinterval(switch)
        return [r for r in results if r is not None]

    def _stage(self, i: int, task: Task, cand: Candidate, started: float, gpu: ThreadPoolExecutor,
               finish, untimed: bool = False) -> Future | None:
        """One candidate's CPU stage, then its GPU stage queued: whatever one candidate does, the batch goes on
        (an engine failure is that candidate's `infra_error`; a bad task still stops the batch)."""
        try:
            result, job = self.prepare(task, cand)
        except FormatError:
            raise
        except Exception as exc:
            result, job = _engine_failure(exc, cand), None
        if result is not None:
            finish(i, result, started)
            return None
        if untimed:
            job["options"] = {**job["options"], "time": False}

        def run() -> ExecResult:
            try:
                return finish(i, self.execute(job, cand.label), started)
            except Exception as exc:
                return finish(i, _engine_failure(exc, cand), started)

        return gpu.submit(run)

    def close(self) -> None:
        if self.builders is not None:
            self.builders.close()
        self.pool.close()

    def __enter__(self) -> Evaluator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _engine_failure(exc: Exception, cand: Candidate) -> ExecResult:
    return ExecResult("infra_error", f"the engine failed on this candidate: {type(exc).__name__}: {exc}",
                      candidate=cand.label)


def candidate_line(source: str, error: str) -> int | None:
    """The candidate file's line of a compiler error in `cuda.cu`, which load_inline writes as three
    include lines and then the CUDA source: known when the candidate has one CUDA source string."""
    from . import gate_python

    m = re.match(r"cuda\.cu[(:](\d+)", error)
    try:
        texts = [(t, n) for t, n in gate_python.cuda_strings(parse_python(source)) if "__global__" in t]
    except SyntaxError:
        return None
    if m is None or len(texts) != 1 or int(m.group(1)) <= 3:
        return None
    return texts[0][1] + int(m.group(1)) - 3 - 1


def _kernel_names(source: str) -> list[str]:
    from . import gate_cuda, gate_python

    try:
        texts = gate_python.cuda_strings(parse_python(source))
    except SyntaxError:
        return []
    return sorted({name for text, _ in texts for name in gate_cuda.kernels(gate_cuda.blank(text))})


def evaluate(reference: str | Path | Task, candidate: str | Path | Candidate, *, launch: str | Path | None = None,
             harness: str | Path | None = None, options: Options | None = None) -> ExecResult:
    """Evaluate one candidate against one reference (paths or loaded objects).  Starts and stops its
    own workers; for many candidates use Evaluator.evaluate_many, which keeps them warm."""
    task = reference if isinstance(reference, Task) else load_task(reference, harness)
    cand = candidate if isinstance(candidate, Candidate) else load_candidate(candidate, launch)
    with Evaluator(options) as evaluator:
        return evaluator.evaluate(task, cand)
