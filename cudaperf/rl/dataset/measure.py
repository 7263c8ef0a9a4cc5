"""Verify and time every implementation of every task on one GPU:

    python -m cudaperf.rl.dataset.measure --out DIR [--deadline S] [--families a,b] [--jobs N]

The supervisor (this module's `main`) regenerates the tasks and prepares them on a pool of CPU
processes: NVRTC cubins, and for C tasks the reference run on fresh random inputs (saved as .npz).
It feeds them one at a time to a GPU worker subprocess (`--worker`) and writes what comes back to
DIR/records.jsonl.  A worker that dies (a CUDA fault poisons its context) or stalls is killed and
restarted; the implementation at fault is recorded as a runtime error and skipped.

The worker, per task and configuration: the reference outputs (the C function's, or the KernelBench
module run on the GPU with TF32 off), then per implementation one launch compared with them
(`rewards.execution.correctness.compare`), one warm-up, and timed launches, each after an L2
flush, bracketed by CUDA events on the launch's stream; the median is reported.

`--dry-run` runs the same pipeline without a GPU: each task's small check configuration, kernels
under the CPU emulator (`emulate.py`) instead of NVRTC and the driver, CPU tensors, wall-clock times."""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections import Counter
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from ...analysis.process import kill_group
from .generate import all_tasks
from .kit import Task

TRIAL_BUDGET_MS = 20.0     # timed launches per measurement: about this much kernel time, 3 to 15 launches
STALL_S = 60.0


def trials_for(first_ms: float) -> int:
    return max(3, min(15, int(TRIAL_BUDGET_MS / max(first_ms, 1e-3))))


def seed_for(task_id: str, config_id: int, base: int) -> int:
    return (zlib.crc32(task_id.encode()) * 31 + config_id + base) % (1 << 31)


# ---------------------------------------------------------------- CPU side (pool processes)

@cache
def _tasks(families: tuple[str, ...] | None, dry_run: bool = False) -> dict[str, Task]:
    """The recipe's tasks; for a dry run with the check configuration as their only one."""
    tasks = {t.task_id: t for t in all_tasks(list(families) if families else None)}
    return {k: _checked(t) for k, t in tasks.items()} if dry_run else tasks


def _checked(task: Task) -> Task:
    configs = ({"config_id": 0, "name": "check", "sizes": dict(task.check_sizes)},)
    harness = {**task.harness, "configs": [dict(task.check_sizes)]} if task.harness else None
    return replace(task, configs=configs, harness=harness)


def prepare(job: tuple[str, tuple[str, ...] | None, str, int, str, bool]) -> dict:
    """Compile a task's implementations (NVRTC cubins, or one emulator library for a dry run) and,
    for C tasks, run the reference per configuration."""
    import numpy as np

    from ...rewards.execution import harness, nvrtc
    from ...rewards.execution.compile import NVRTC_OPTIONS, compile_c
    from . import emulate

    task_id, families, workdir, base_seed, arch, dry_run = job
    task = _tasks(families, dry_run)[task_id]
    stem = Path(workdir) / f"{zlib.crc32(task_id.encode()):08x}"
    out: dict[str, Any] = {"task": task_id, "cubins": {}, "errors": {}, "inputs": None,
                           "seeds": [seed_for(task_id, c["config_id"], base_seed) for c in task.configs]}
    if dry_run:
        library = emulate.build(task, Path(workdir))
        out["cubins"] = {impl.impl_id: f"{library}#{i}" for i, impl in enumerate(task.implementations)}
    for impl in task.implementations if not dry_run else ():
        try:
            cubin, log = nvrtc.compile_cubin(impl.source, arch, NVRTC_OPTIONS)
        except RuntimeError as exc:
            cubin, log = None, f"NVRTC failed: {exc}"
        if cubin is None:
            out["errors"][impl.impl_id] = log[-2000:]
        else:
            path = f"{stem}_{impl.impl_id}.cubin"
            Path(path).write_bytes(cubin)
            out["cubins"][impl.impl_id] = path
    if task.kind == "c2cuda":
        library = compile_c(task.reference)
        if not library.ok:
            out["reference_error"] = library.first_error
            return out
        h = harness.parse_harness(task.harness)
        out["inputs"] = []
        for config, seed in zip(task.configs, out["seeds"]):
            values = harness.make_inputs(h, h.configs[config["config_id"]], seed)
            after = harness.call_reference(library.path, h, values)
            path = f"{stem}_c{config['config_id']}.npz"
            np.savez(path, **{f"in_{a.name}": values[a.name] for a in h.args if a.pointer},
                     **{f"out_{a.name}": after[a.name] for a in h.outputs})
            out["inputs"].append(path)
    return out


# ---------------------------------------------------------------- GPU worker

def _emit(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


class _Emulated:
    """A dry run's stand-in for a loaded cubin: launch `index` of an emulator library."""

    def __init__(self, path: str, index: int):
        import ctypes

        self.fn = getattr(ctypes.CDLL(path), f"launch{index}")
        self.fn.argtypes = [ctypes.c_uint] * 6 + [ctypes.c_void_p]

    def parameter_sizes(self, kernel: str) -> None:
        return None

    def launch(self, kernel: str, grid: tuple, block: tuple, smem: int, stream: int, args: list) -> None:
        import ctypes

        types = {"p": ctypes.c_void_p, "i": ctypes.c_int32, "I": ctypes.c_uint32, "q": ctypes.c_int64,
                 "Q": ctypes.c_uint64, "f": ctypes.c_float, "d": ctypes.c_double}
        values = [types[code](value) for code, value in args]
        pointers = (ctypes.c_void_p * len(values))(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in values])
        if self.fn(*grid, *block, pointers):
            raise RuntimeError(f"{kernel}: deadlock at a barrier (emulator)")


class _Worker:
    def __init__(self, families: tuple[str, ...] | None, dry_run: bool):
        import torch

        from ...rewards.execution import hacks

        self.torch, self.dry_run = torch, dry_run
        self.device = "cpu" if dry_run else "cuda"
        self.tasks = _tasks(families, dry_run)
        hacks.pin_precision(False)
        if dry_run:
            _emit({"device": {"name": "cpu (dry run)", "torch": torch.__version__}})
            return
        from ...analysis.dynamic import device

        torch.cuda.init()
        torch.zeros(1, device="cuda")
        torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
        torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
        props = torch.cuda.get_device_properties(0)
        l2 = int(getattr(props, "L2_cache_size", 50 << 20))
        identity = device.identify(0, {"name": props.name, "major": props.major, "minor": props.minor,
                                       "multiProcessorCount": props.multi_processor_count,
                                       "totalGlobalMem": props.total_memory, "l2CacheSize": l2})
        identity.update(torch=torch.__version__, cuda=torch.version.cuda)
        _emit({"device": identity})
        self.flush = torch.empty(2 * l2, dtype=torch.uint8, device="cuda")

    def healthy(self) -> bool:
        try:
            if not self.dry_run:
                self.torch.cuda.synchronize()
            return self.torch.zeros(1, device=self.device).item() == 0
        except Exception:
            return False

    def module(self, where: str):
        from ...rewards.execution import driver

        if self.dry_run:
            path, index = where.rsplit("#", 1)
            return _Emulated(path, int(index))
        return driver.Module(Path(where).read_bytes())

    def task(self, msg: dict) -> None:
        from ...rewards.execution import spec

        task = self.tasks[msg["task"]]
        skip, errors = set(msg.get("skip", [])), dict(msg["errors"])
        modules, specs = {}, {}
        for impl in task.implementations:
            specs[impl.impl_id] = spec.parse_spec(spec.embedded_spec(impl.source))
            if impl.impl_id in msg["cubins"] and impl.impl_id not in skip:
                try:
                    modules[impl.impl_id] = self.module(msg["cubins"][impl.impl_id])
                except Exception as exc:
                    errors[impl.impl_id] = f"loading the cubin: {exc}"
        problem = msg.get("reference_error")
        try:
            reference = (_CReference(task, msg, self.device) if task.kind == "c2cuda"
                         else _TorchReference(task, self.torch, self.device))
        except Exception as exc:
            problem = f"{type(exc).__name__}: {exc}"
        for config, seed in zip(task.configs, msg["seeds"]):
            base = {"task_id": task.task_id, "config_id": config["config_id"], "seed": seed, "verified": False}
            if not problem:
                try:
                    env, expected = reference.side(config, seed)
                except Exception as exc:
                    problem = f"{type(exc).__name__}: {exc}"
            for impl in task.implementations:
                record = {**base, "impl_id": impl.impl_id}
                if problem:
                    record.update(status="reference_error", error=problem[-500:])
                elif impl.impl_id in errors:
                    record.update(status="compile_error", error=errors[impl.impl_id][-500:])
                elif impl.impl_id in skip:
                    record.update(status="runtime_error", error="CUDA fault (the worker was restarted without it)")
                else:
                    _emit({"progress": [task.task_id, impl.impl_id, config["config_id"]]})
                    record.update(self.run(task, reference, specs[impl.impl_id], modules[impl.impl_id], env, expected))
                _emit({"record": record})
        _emit({"task_done": task.task_id})

    def run(self, task: Task, reference, launch_spec, module, env: dict, expected: list) -> dict:
        from ...rewards.execution.correctness import Mismatch, compare
        from ...rewards.execution.spec import SpecError

        try:
            env, outputs = reference.outputs(launch_spec, dict(env))
            launch = launch_spec.launches[0]
            grid = tuple([int(e(env)) for e in launch.grid] + [1] * (3 - len(launch.grid)))
            block = tuple([int(e(env)) for e in launch.block] + [1] * (3 - len(launch.block)))
            args = [_arg(e(env)) for e in launch.args]
            sizes = module.parameter_sizes(launch.kernel)
            if sizes is not None and sizes != [8 if c == "p" else _SIZES[c] for c, _ in args]:
                raise SpecError(f"kernel takes parameters of {sizes} bytes")
            smem = int(launch.smem(env))
            stream = 0 if self.dry_run else self.torch.cuda.current_stream().cuda_stream

            def go() -> None:
                module.launch(launch.kernel, grid, block, smem, stream, args)

            first = self.time(go, 1)[0]
            max_abs, _ = compare(outputs[0] if len(outputs) == 1 else tuple(outputs),
                                 expected[0] if len(expected) == 1 else tuple(expected), task.atol, task.rtol)
        except Mismatch as exc:
            return {"status": "incorrect", "error": str(exc)[:500]}
        except SpecError as exc:
            return {"status": "launch_error", "error": str(exc)[:500]}
        except Exception as exc:
            if not self.healthy():
                _emit({"fault": f"{type(exc).__name__}: {exc}"[:500]})
                os._exit(3)
            return {"status": "runtime_error", "error": f"{type(exc).__name__}: {exc}"[:500]}
        trials = 1 if self.dry_run else trials_for(first)
        go()
        times = sorted(self.time(go, trials))
        return {"status": "correct", "verified": True, "max_abs_error": max_abs, "time_ms": times[len(times) // 2],
                "time_min_ms": times[0], "time_max_ms": times[-1], "trials": trials}

    def time(self, go, trials: int) -> list[float]:
        """Milliseconds per launch: CUDA events around each launch, the L2 flushed before it (the
        flush runs on the same stream, outside the events); wall clock in a dry run."""
        if self.dry_run:
            times = []
            for _ in range(trials):
                start = time.perf_counter()
                go()
                times.append((time.perf_counter() - start) * 1e3)
            return times
        torch = self.torch
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(trials)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(trials)]
        for s, e in zip(starts, ends):
            self.flush.zero_()
            s.record()
            go()
            e.record()
        ends[-1].synchronize()
        return [s.elapsed_time(e) for s, e in zip(starts, ends)]


_SIZES = {"i": 4, "I": 4, "f": 4, "q": 8, "Q": 8, "d": 8}


def _arg(value: Any) -> tuple[str, int | float]:
    """A launch-spec value as the driver wrapper takes it: a device pointer or a typed scalar."""
    from ...rewards.execution.spec import Scalar, SpecError

    if hasattr(value, "data_ptr"):
        return "p", value.data_ptr()
    if isinstance(value, Scalar):
        return value.code, value.value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SpecError(f"kernel argument {value!r} is neither a tensor nor a number")
    return ("i", value) if isinstance(value, int) else ("f", value)


class _TorchReference:
    """The KernelBench module; a configuration sets its upper-case globals before anything runs."""

    def __init__(self, task: Task, torch, device: str):
        import types

        self.torch, self.device = torch, device
        self.module = types.ModuleType("cudaperf_dataset_reference")
        exec(compile(task.reference, task.task_id, "exec"), self.module.__dict__)

    def side(self, config: dict, seed: int) -> tuple[dict, list]:
        torch = self.torch
        for name, value in config["sizes"].items():
            setattr(self.module, name.upper(), value)
        torch.manual_seed(seed)
        init = list(self.module.get_init_inputs())
        model = self.module.Model(*init).to(self.device)
        torch.manual_seed(seed + 1)
        with torch.device(self.device):
            inputs = list(self.module.get_inputs())
        with torch.no_grad():
            out = model(*inputs)
        return {"inputs": inputs, "init": init}, list(out) if isinstance(out, tuple | list) else [out]

    def outputs(self, launch_spec, side: dict) -> tuple[dict, list]:
        from ...rewards.execution.cases import poison

        torch = self.torch
        env = dict(zip(launch_spec.inputs, side["inputs"]))
        env.update(zip(launch_spec.init, side["init"]))
        outputs = []
        for b in launch_spec.outputs:
            shape = b.shape(env)
            t = torch.empty([int(s) for s in (shape if isinstance(shape, list | tuple) else [shape])],
                            dtype=getattr(torch, b.dtype), device=self.device)
            env[b.name] = poison(t) if b.init == "poison" else t.zero_()
            outputs.append(env[b.name])
        return env, outputs


class _CReference:
    """Inputs and the C reference's outputs as the pool computed them, moved to the device."""

    def __init__(self, task: Task, msg: dict, device: str):
        import torch

        from ...rewards.execution import harness

        self.torch, self.msg, self.device = torch, msg, device
        self.harness = harness.parse_harness(task.harness)

    def side(self, config: dict, seed: int) -> tuple[dict, list]:
        import numpy as np

        torch = self.torch
        cid = config["config_id"]
        env: dict[str, Any] = dict(self.harness.configs[cid])
        with np.load(self.msg["inputs"][cid]) as data:
            for a in self.harness.args:
                if a.pointer:
                    env[a.name] = torch.from_numpy(data[f"in_{a.name}"]).to(self.device)
            expected = [torch.from_numpy(data[f"out_{a.name}"]).to(self.device) for a in self.harness.outputs]
        return env, expected

    def outputs(self, launch_spec, env: dict) -> tuple[dict, list]:
        from ...rewards.execution.cases import poison

        outputs = []
        for a in self.harness.outputs:
            t = env[a.name].clone()
            env[a.name] = poison(t) if a.init[0] == "poison" else t
            outputs.append(env[a.name])
        return env, outputs


def worker(families: tuple[str, ...] | None, dry_run: bool) -> int:
    w = _Worker(families, dry_run)
    for line in sys.stdin:
        if line.strip():
            w.task(json.loads(line))
    return 0


# ---------------------------------------------------------------- supervisor

class _Process:
    """The worker subprocess with a reader thread, so the supervisor can wait with a timeout."""

    def __init__(self, families: tuple[str, ...] | None, dry_run: bool, log):
        command = [sys.executable, "-m", "cudaperf.rl.dataset.measure", "--worker"]
        command += ["--families", ",".join(families)] if families else []
        command += ["--dry-run"] if dry_run else []
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True,
                                     start_new_session=True)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, msg: dict) -> bool:
        try:
            self.proc.stdin.write(json.dumps(msg) + "\n")
            self.proc.stdin.flush()
            return True
        except OSError:
            return False

    def kill(self) -> None:
        kill_group(self.proc.pid)
        self.proc.wait()


class _Run:
    """The supervisor's state: the worker, the implementations to skip per task, the counts."""

    def __init__(self, ns: argparse.Namespace, families: tuple[str, ...] | None, out: Path):
        self.ns, self.families, self.out = ns, families, out
        self.log = (out / "measure.log").open("a")
        self.summary: Counter = Counter()
        self.device: dict | None = None
        self.skips: dict[str, set[str]] = {}
        self.proc = _Process(families, ns.dry_run, self.log)

    def note(self, text: str) -> None:
        print(text, file=self.log, flush=True)

    def measure(self, msg: dict) -> list[dict] | None:
        """The task's records, or None when the worker had to be restarted (then retry the task)."""
        msg["skip"] = sorted(self.skips.get(msg["task"], ()))
        buffered: list[dict] = []
        progress = None
        if not self.proc.send(msg):
            return self._restart(msg, progress)
        while True:
            try:
                line = self.proc.lines.get(timeout=STALL_S)
            except queue.Empty:
                self.note(f"stalled at {progress}")
                line = None
            if line is None:
                return self._restart(msg, progress)
            try:
                event = json.loads(line)
            except ValueError:
                self.note(f"worker said: {line.rstrip()}")
                continue
            if "device" in event:
                self.device = event["device"]
            elif "progress" in event:
                progress = event["progress"]
            elif "record" in event:
                buffered.append(event["record"])
            elif "fault" in event:
                self.note(f"CUDA fault at {progress}: {event['fault']}")
            elif event.get("task_done") == msg["task"]:
                return buffered

    def _restart(self, msg: dict, progress: list | None) -> list[dict] | None:
        self.proc.kill()
        self.proc = _Process(self.families, self.ns.dry_run, self.log)
        culprit = progress[1] if progress and progress[0] == msg["task"] else None
        if culprit is None or culprit in self.skips.get(msg["task"], set()):
            self.note(f"lost task {msg['task']} (worker died outside an implementation)")
            self.summary["tasks_lost"] += 1
            return []
        self.skips.setdefault(msg["task"], set()).add(culprit)
        self.summary["worker_restarts"] += 1
        self.note(f"worker died in {progress}: restarted without {culprit}")
        return None


def supervise(ns: argparse.Namespace, families: tuple[str, ...] | None) -> int:
    import multiprocessing

    started = time.perf_counter()
    out = Path(ns.out)
    out.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="cudaperf-measure-"))
    os.environ.setdefault("CUDAPERF_CACHE_DIR", str(workdir / "cache"))
    base_seed = ns.seed if ns.seed is not None else random.SystemRandom().randrange(1 << 30)
    order = list(_tasks(families, ns.dry_run))
    random.Random(0).shuffle(order)       # spread families over the run, in case the deadline cuts it
    order = order[:ns.limit] if ns.limit else order
    pool = multiprocessing.get_context("fork").Pool(ns.jobs)
    pending = [pool.apply_async(prepare, ((t, families, str(workdir), base_seed, ns.arch, ns.dry_run),))
               for t in order]
    run = _Run(ns, families, out)
    with (out / "records.jsonl").open("a") as records:
        for i, task_id in enumerate(order):
            if time.perf_counter() - started > ns.deadline:
                run.summary["tasks_not_reached"] = len(order) - i
                break
            try:
                msg = pending[i].get(timeout=600)
            except Exception as exc:   # a reference that crashed its pool process, or took too long
                run.note(f"could not prepare {task_id}: {type(exc).__name__}: {exc}")
                run.summary["tasks_unprepared"] += 1
                continue
            result = None
            while result is None:
                result = run.measure(msg)
            for record in result:
                records.write(json.dumps(record) + "\n")
                run.summary[record["status"]] += 1
            records.flush()
            run.summary["tasks"] += bool(result)
            for path in [*msg["cubins"].values(), *(msg["inputs"] or [])]:
                Path(path.split("#")[0]).unlink(missing_ok=True)
    run.proc.kill()
    pool.terminate()
    shutil.rmtree(workdir, ignore_errors=True)
    run.summary["seconds"] = round(time.perf_counter() - started, 1)
    run.summary["base_seed"] = base_seed
    (out / "device.json").write_text(json.dumps(run.device, indent=1) + "\n")
    (out / "summary.json").write_text(json.dumps(dict(run.summary), indent=1) + "\n")
    print(json.dumps(dict(run.summary)))
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m cudaperf.rl.dataset.measure", description=__doc__.splitlines()[0])
    p.add_argument("--out", default=".", help="directory for records.jsonl, device.json, summary.json, measure.log")
    p.add_argument("--families", help="comma-separated families (default all)")
    p.add_argument("--deadline", type=float, default=200.0, help="stop feeding tasks after this many seconds")
    p.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) - 1), help="CPU preparation processes")
    p.add_argument("--arch", default="sm_90", help="NVRTC target (the GPU's)")
    p.add_argument("--seed", type=int, help="base seed of the random inputs (default: fresh)")
    p.add_argument("--limit", type=int, help="only the first N tasks of the (shuffled) order")
    p.add_argument("--dry-run", action="store_true", help="no GPU: check sizes, CPU emulator, wall-clock times")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ns = p.parse_args(argv)
    families = tuple(ns.families.split(",")) if ns.families else None
    if ns.worker:
        return worker(families, ns.dry_run)
    return supervise(ns, families)


if __name__ == "__main__":
    sys.exit(main())
