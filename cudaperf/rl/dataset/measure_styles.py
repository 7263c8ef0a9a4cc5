"""Verify and time the model-style candidates (`styles`) on one GPU, each as its own Python module
calling its own `load_inline` extension:

    python -m cudaperf.rl.dataset.measure_styles --out DIR [--deadline S] [--bundles N]
    python -m cudaperf.rl.dataset.measure_styles --compile-check DIR     # nvcc on this machine, no GPU

Building one extension per candidate costs a torch-header compile each (30 s); so the candidates'
`load_inline` arguments are read from their syntax trees (`torch_ext.extract_builds`, nothing
executed) and merged into a few bundles, each candidate's CUDA text in a namespace of its own,
built in parallel.  Each candidate module is then executed with `load_inline` answering its own
functions from the bundle, so the Python around the extension (torch tails, several calls) runs as
written.  Per (task, configuration): the reference on the GPU (TF32 off) and per candidate one call
compared with it, one warm-up, and timed calls (CUDA events around `model(*inputs)`, the L2 flushed
before each), the median reported; one profiled call lists the kernels that ran.  A worker that dies
(a CUDA fault) is restarted without the candidate at fault."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

from .measure import seed_for, trials_for
from .styles import StyleTask, all_tasks, configured

BASE_SEED = 20261201
RTOL, ATOL = 1e-3, 1e-2
_INCLUDE = re.compile(r"^\s*#\s*include\s*[<\"]([^>\"]+)[>\"].*$", re.M)
_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)", re.M)
_TORCH_HEADERS = {"torch/extension.h", "torch/types.h"}


def candidates() -> list[tuple[StyleTask, object]]:
    return [(t, c) for t in all_tasks() for c in t.candidates]


def prefix(index: int) -> str:
    return f"cand{index:03d}"


def bundle_sources(members: list[tuple[int, dict]]) -> tuple[str, str]:
    """(cpp, cuda) text of one extension holding every member's wrappers, each candidate's CUDA in
    namespace candNNN (its macros undefined after it), bound as candNNN__function."""
    includes, bodies, decls, binds = ["torch/types.h"], [], [], []
    for index, build in members:
        ns = prefix(index)
        cuda = "\n".join(build["cuda_sources"]) if isinstance(build["cuda_sources"], list) else build["cuda_sources"]
        cpp = "\n".join(build["cpp_sources"]) if isinstance(build["cpp_sources"], list) else build["cpp_sources"]
        includes += [h for h in _INCLUDE.findall(cuda) if h not in _TORCH_HEADERS and h not in includes]
        body = _INCLUDE.sub("", cuda)
        undefs = "".join(f"#undef {name}\n" for name in dict.fromkeys(_DEFINE.findall(body)))
        bodies.append(f"namespace {ns} {{\n{body}\n}}  // namespace {ns}\n{undefs}")
        decls.append(f"namespace {ns} {{\n{_INCLUDE.sub('', cpp)}\n}}")
        binds += [f'    m.def("{ns}__{fn}", &{ns}::{fn});' for fn in build["functions"]]
    cuda_text = "".join(f"#include <{h}>\n" for h in includes) + "\n" + "\n".join(bodies)
    cpp_text = "\n".join(decls) + "\n\nPYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {\n" + "\n".join(binds) + "\n}\n"
    return cpp_text, cuda_text


def bundles(count: int, families: tuple[str, ...] = ()) -> list[list[tuple[int, dict]]]:
    """Candidates (by index into `candidates()`; of `families` only, when given) with their
    load_inline arguments, in `count` groups."""
    from ...rewards.execution.torch_ext import extract_builds

    groups: list[list[tuple[int, dict]]] = [[] for _ in range(count)]
    chosen = [(i, c) for i, (t, c) in enumerate(candidates()) if not families or t.family in families]
    for n, (i, cand) in enumerate(chosen):
        builds = extract_builds(cand.source)
        if not builds or len(builds) != 1:
            raise ValueError(f"{cand.cand_id}: expected one readable load_inline call")
        groups[n % count].append((i, builds[0]))
    return [g for g in groups if g]


def compile_check(out: Path, count: int) -> int:
    """nvcc -c every bundle's CUDA text against this machine's torch headers (no GPU, no extension)."""
    import sysconfig

    import torch.utils.cpp_extension as ext

    out.mkdir(parents=True, exist_ok=True)
    flags = [f"-I{p}" for p in ext.include_paths()] + [f"-I{sysconfig.get_paths()['include']}"]
    failed = 0
    procs = []
    for k, members in enumerate(bundles(count)):
        _, cuda = bundle_sources(members)
        path = out / f"bundle{k}.cu"
        path.write_text(cuda)
        procs.append((path, subprocess.Popen(["nvcc", "-c", "-std=c++17", "-arch=sm_90", *flags, str(path), "-o",
                                              str(path.with_suffix(".o"))], stdout=subprocess.PIPE,
                                             stderr=subprocess.STDOUT, text=True)))
    for path, proc in procs:
        log = proc.communicate()[0]
        print(f"{path.name}: {'ok' if proc.returncode == 0 else 'FAILED'}")
        if proc.returncode:
            failed += 1
            print(log[-3000:])
    return 1 if failed else 0


def _build(job: tuple[int, str, str, str]) -> tuple[int, str | None, float]:
    """Build one bundle (in a pool process); returns (bundle, error or None, seconds)."""
    k, cpp, cuda, root = job
    from torch.utils.cpp_extension import load_inline

    started = time.perf_counter()
    try:
        directory = Path(root) / f"bundle{k}"
        directory.mkdir(parents=True, exist_ok=True)
        load_inline(name=f"cudaperf_styles_bundle{k}", cpp_sources=cpp, cuda_sources=cuda,
                    build_directory=str(directory), verbose=False)
        return k, None, time.perf_counter() - started
    except Exception as exc:
        return k, f"{type(exc).__name__}: {exc}"[-3000:], time.perf_counter() - started


# ---------------------------------------------------------------- the GPU worker

class _Worker:
    def __init__(self, root: str, count: int, families: tuple[str, ...]):
        import torch
        from torch.utils import cpp_extension

        self.torch, self.cpp_extension = torch, cpp_extension
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        self.modules = {}
        self.where = {}
        for k, members in enumerate(bundles(count, families)):
            cpp, cuda = bundle_sources(members)
            try:
                mod = cpp_extension.load_inline(name=f"cudaperf_styles_bundle{k}", cpp_sources=cpp, cuda_sources=cuda,
                                                build_directory=str(Path(root) / f"bundle{k}"), verbose=False)
            except Exception:
                continue
            for index, build in members:
                self.where[index] = SimpleNamespace(**{fn: getattr(mod, f"{prefix(index)}__{fn}")
                                                       for fn in build["functions"]})
        l2 = int(getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 50 << 20))
        self.flush = torch.empty(2 * l2, dtype=torch.uint8, device="cuda")

    def timed(self, call, trials: int) -> list[float]:
        torch = self.torch
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(trials)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(trials)]
        for s, e in zip(starts, ends):
            self.flush.zero_()
            s.record()
            call()
            e.record()
        ends[-1].synchronize()
        return sorted(s.elapsed_time(e) for s, e in zip(starts, ends))

    def kernels(self, call) -> list[list]:
        """(kernel name, device microseconds) of one profiled call."""
        from torch.profiler import ProfilerActivity, profile

        try:
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                call()
                self.torch.cuda.synchronize()
            return [[e.name[:160], round(float(getattr(e, "device_time_total", 0.0)), 3)] for e in prof.events()
                    if str(getattr(e, "device_type", "")).endswith("CUDA")]
        except Exception as exc:   # the listing is a bonus: never lose the timing for it
            return [["profiler failed", str(exc)[:200]]]

    def measure(self, task: StyleTask, config: dict, indices: list[int], skip: set[int]) -> None:
        torch = self.torch
        seed = seed_for(task.task_id, config["config_id"], BASE_SEED)
        ref_ns: dict = {}
        exec(compile(configured(task.reference, config["sizes"]), f"{task.task_id}/reference", "exec"), ref_ns)
        torch.manual_seed(seed)
        inputs = [x.cuda() if hasattr(x, "cuda") else x for x in ref_ns["get_inputs"]()]
        init = ref_ns["get_init_inputs"]()
        torch.manual_seed(seed + 1)
        reference = ref_ns["Model"](*init).cuda()
        with torch.no_grad():
            expected = reference(*inputs)
            first = self.timed(lambda: reference(*inputs), 1)[0]
            ref_times = self.timed(lambda: reference(*inputs), trials_for(first))
        base = {"task_id": task.task_id, "family": task.family, "config_id": config["config_id"], "seed": seed,
                "sizes": config["sizes"], "reference_ms": round(ref_times[len(ref_times) // 2], 5)}
        for index in indices:
            cand = candidates()[index][1]
            record = {**base, "cand_id": cand.cand_id, "verified": False}
            if index in skip:
                _emit({"record": {**record, "status": "runtime_error", "error": "CUDA fault (worker restarted)"}})
                continue
            if index not in self.where:
                _emit({"record": {**record, "status": "compile_error", "error": "its bundle did not build"}})
                continue
            _emit({"progress": index})
            record.update(self.run(cand, index, init, inputs, expected, seed))
            _emit({"record": record})

    def run(self, cand, index: int, init: list, inputs: list, expected, seed: int) -> dict:
        torch = self.torch
        real = self.cpp_extension.load_inline
        self.cpp_extension.load_inline = lambda *a, **k: self.where[index]
        try:
            ns: dict = {}
            exec(compile(cand.source, f"{cand.cand_id}.py", "exec"), ns)
            torch.manual_seed(seed + 1)
            model = ns["ModelNew"](*init).cuda()
            with torch.no_grad():
                out = model(*inputs)
                torch.cuda.synchronize()
                if out.shape != expected.shape:
                    return {"status": "incorrect", "error": f"shape {tuple(out.shape)} != {tuple(expected.shape)}"}
                err = float((out - expected).abs().max())
                if not torch.allclose(out, expected, rtol=RTOL, atol=ATOL):
                    return {"status": "incorrect", "max_abs_error": err}
                first = self.timed(lambda: model(*inputs), 1)[0]
                trials = trials_for(first)
                times = self.timed(lambda: model(*inputs), trials)
                kernels = self.kernels(lambda: model(*inputs))
        except Exception as exc:
            try:
                torch.cuda.synchronize()
                healthy = torch.zeros(1, device="cuda").item() == 0
            except Exception:
                healthy = False
            if not healthy:
                _emit({"fault": f"{type(exc).__name__}: {exc}"[:300]})
                os._exit(3)
            return {"status": "runtime_error", "error": f"{type(exc).__name__}: {exc}"[:500]}
        finally:
            self.cpp_extension.load_inline = real
        return {"status": "correct", "verified": True, "max_abs_error": err,
                "time_ms": round(times[len(times) // 2], 5),
                "time_min_ms": round(times[0], 5), "time_max_ms": round(times[-1], 5), "trials": trials,
                "kernels": kernels}


def _emit(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def worker(root: str, count: int, families: tuple[str, ...], plan: list[dict]) -> int:
    w = _Worker(root, count, families)
    by_id = {t.task_id: t for t in all_tasks()}
    for item in plan:
        task = by_id[item["task"]]
        w.measure(task, task.configs[item["config"]], item["indices"], set(item["skip"]))
        _emit({"done": [item["task"], item["config"]]})
    return 0


def supervise(out: Path, count: int, deadline: float, families: tuple[str, ...] = ()) -> int:
    import multiprocessing

    started = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    root = tempfile.mkdtemp(prefix="styles-build-")
    os.environ.setdefault("TORCH_CUDA_ARCH_LIST", "9.0")
    os.environ.setdefault("MAX_JOBS", "2")
    jobs = [(k, *bundle_sources(m), root) for k, m in enumerate(bundles(count, families))]
    with multiprocessing.get_context("spawn").Pool(len(jobs)) as pool:
        built = pool.map(_build, jobs)
    log = {"bundles": [{"bundle": k, "error": e, "seconds": round(s, 1)} for k, e, s in built],
           "build_seconds": round(time.perf_counter() - started, 1)}
    print(json.dumps(log)[:4000], flush=True)
    index_of = {id(c): i for i, (_, c) in enumerate(candidates())}
    plan = [{"task": t.task_id, "config": c["config_id"], "indices": [index_of[id(x)] for x in t.candidates],
             "skip": []} for t in all_tasks() for c in t.configs if not families or t.family in families]
    records = []
    while plan and time.perf_counter() - started < deadline:
        proc = subprocess.Popen([sys.executable, "-m", "cudaperf.rl.dataset.measure_styles", "--worker", root,
                                 "--bundles", str(count), "--families", ",".join(families)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        proc.stdin.write(json.dumps(plan))
        proc.stdin.close()
        current = None
        for line in proc.stdout:
            msg = json.loads(line)
            if "record" in msg:
                records.append(msg["record"])
                with (out / "records.partial.jsonl").open("a") as partial:   # in case the run is cut short
                    partial.write(json.dumps(msg["record"]) + "\n")
            elif "progress" in msg:
                current = msg["progress"]
            elif "done" in msg:
                plan.pop(0)
            elif "fault" in msg:
                print(f"fault at candidate {current}: {msg['fault']}", flush=True)
            if time.perf_counter() - started > deadline:
                proc.kill()
                break
        proc.wait()
        if plan and current is not None:   # the worker died inside plan[0]: redo it without the faulting candidate
            plan[0]["skip"].append(current)
            records = [r for r in records if (r["task_id"], r["config_id"]) != (plan[0]["task"], plan[0]["config"])]
        elif plan:
            break
    (out / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    log["seconds"] = round(time.perf_counter() - started, 1)
    log["records"] = len(records)
    log["correct"] = sum(r["status"] == "correct" for r in records)
    (out / "summary.json").write_text(json.dumps(log, indent=1) + "\n")
    print(json.dumps({k: v for k, v in log.items() if k != "bundles"}), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m cudaperf.rl.dataset.measure_styles",
                                description=__doc__.splitlines()[0])
    p.add_argument("--out", help="directory for records.jsonl and summary.json")
    p.add_argument("--deadline", type=float, default=240.0, help="stop after this many seconds")
    p.add_argument("--bundles", type=int, default=8, help="extensions the candidates are merged into")
    p.add_argument("--compile-check", metavar="DIR", help="nvcc -c each bundle here (no GPU)")
    p.add_argument("--families", default="", help="comma-separated task families (default: all)")
    p.add_argument("--worker", metavar="BUILD_ROOT", help=argparse.SUPPRESS)
    ns = p.parse_args(argv)
    families = tuple(f for f in ns.families.split(",") if f)
    if ns.worker:
        return worker(ns.worker, ns.bundles, families, json.loads(sys.stdin.read()))
    if ns.compile_check:
        return compile_check(Path(ns.compile_check), ns.bundles)
    if not ns.out:
        p.error("--out is required")
    return supervise(Path(ns.out), ns.bundles, ns.deadline, families)


if __name__ == "__main__":
    sys.exit(main())
