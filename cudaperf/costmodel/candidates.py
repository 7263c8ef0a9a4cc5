"""A KernelBench candidate's estimated time at the task's real input shapes, from static analysis.

`trace.run` says what the candidate runs on the reference's inputs (meta tensors, no GPU): each
extension call with its argument shapes, each torch operator left around it.  Per extension call,
`wrapper.bind` turns the C++ wrapper's size computations into numbers, the analyzer reads every
kernel that wrapper launches under the grid and block those numbers give, and `terms.time_terms`
prices each launch; torch operators are priced by `torch_ops`.  A candidate's terms are the sums
over everything it launches, times how often; `seconds` is the larger of the
GPU's total and the host's (a call to the extension or to torch costs host time that a short
kernel does not hide).  Candidates without a readable extension get `reason` and no terms."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .terms import describe, time_terms
from .torch_ops import TORCH, host_only, op_host, op_terms
from .wrapper import bind, wrappers


@dataclass
class KernelLaunch:
    """One kernel of one extension call at the task's shapes."""

    function: str
    kernel: str
    count: int
    grid: list[int]
    block: list[int]
    launch_source: str        # traced (the wrapper run at these shapes) | inferred (read by patterns) |
    #                           assumed (the wrapper's grid or block not known at these shapes) | default
    report: dict = field(repr=False)
    terms: dict[str, float] = field(repr=False)


@dataclass
class Estimate:
    label: str
    terms: dict[str, float] | None = None      # summed time terms (seconds); None: cannot be ranked
    seconds: float | None = None
    reason: str | None = None
    launches: list[KernelLaunch] = field(default_factory=list)
    torch_ops: list[dict] = field(default_factory=list)
    sizes: dict[str, dict[str, float]] = field(default_factory=dict)   # function -> wrapper values inferred
    unknown: list[str] = field(default_factory=list)
    note: str | None = None       # how the trace ended when not normally (partial, guessed calls), or nothing ran
    torch_only: str | None = None  # why none of its own kernels runs (no extension, one that cannot build):
    #                                the estimate is its torch operators', priced as the reference's
    reference_terms: dict[str, float] | None = None   # the reference's own summed terms (`reference_terms`)

    @property
    def rankable(self) -> bool:
        return self.terms is not None

    @property
    def reference_seconds(self) -> float | None:
        """The reference's estimated time."""
        return self.reference_terms["total"] if self.reference_terms else None

    @property
    def guess(self) -> bool:
        """The estimate rests on something not known: a size, a call's arguments, a kernel not analysed."""
        return bool(self.unknown) or self.note is not None

    def launch_count(self) -> int:
        return sum(k.count for k in self.launches) + len(self.torch_ops)

    def to_json(self) -> dict:
        return {"label": self.label, "seconds": self.seconds, "reference_seconds": self.reference_seconds,
                "reason": self.reason, "guess": self.guess,
                "note": self.note, "torch_only": self.torch_only,
                "launches": [{"function": k.function, "kernel": k.kernel, "count": k.count, "grid": k.grid,
                              "block": k.block, "launch": k.launch_source} for k in self.launches],
                "torch_ops": [o["op"] for o in self.torch_ops], "sizes_inferred": self.sizes,
                "unknown": self.unknown}


@lru_cache(maxsize=512)
def _analysed(text: str, scalars: str) -> list:
    from ..analysis.analyzer import Options, analyze_source

    args = json.loads(scalars)
    return analyze_source(text, options=Options(args=args, resources="estimate")).kernels


@lru_cache(maxsize=2048)
def _launch_report(text: str, kernel: str, launch: str) -> dict:
    """The analyzer's report of one kernel (a name expression: `k` or `k<float, 256>`) under one traced
    launch (JSON: grid, block, smem, scalar arguments by name, bytes each pointer argument reaches)."""
    from ..analysis.analyzer import Options, analyze_source

    cfg = json.loads(launch)
    options = Options(kernel=kernel, grid=tuple(cfg["grid"]), block=tuple(cfg["block"]), dynamic_smem=cfg["smem"],
                      args=cfg["args"], extents=cfg.get("extents", {}), resources="estimate")
    base = kernel.split("<", 1)[0].strip()
    for k in analyze_source(text, options=options).kernels:
        if k.kernel.name == base:
            return k.to_json()
    raise LookupError(f"the analyzer did not find {base}")


def defaulted(report: dict) -> list[str]:
    """What the analyzer assumed for one kernel: scalar arguments it gave a default value, a default launch,
    loops whose trip count rests on loaded values (taken as one iteration, `sampling.enter_loop`; a CSR
    row's `crow[r]` to `crow[r + 1]` as its arrays' entries over its rows where the trace gave their lengths,
    `analysis.extents`)."""
    launch = report["launch"]
    out = [f"{name} (assumed {a['value']})" for name, a in launch.get("args", {}).items()
           if a.get("source") == "default"]
    if launch.get("source") == "default":
        out.append(f"launch (assumed <<<{launch['grid'][0]}, {launch['block'][0]}>>>)")
    reason = report["compute"].get("reason") or ""
    loops = [why.split(': ', 1)[-1] + ("" if why.endswith("over its rows)") else " (taken as one iteration)")
             for why in reason.split("; ") if "whose trip count depends on data" in why]
    if not loops and report.get("estimate_exact") is False:  # the loop's body does no arithmetic to name it by
        loops.append("a loop's trip count depends on data (taken as one iteration, or a row's average length)")
    return out + loops


def _add(into: dict[str, float], terms: dict[str, float], times: float = 1.0) -> None:
    for k, v in terms.items():
        into[k] = into.get(k, 0.0) + v * times


def _call_bytes(call: dict) -> float:
    """Bytes of the tensors a call takes and returns (4-byte elements): the least it can move."""
    shapes = [a["shape"] for a in call["args"] if "shape" in a] + list(call.get("outputs") or [])
    return 4.0 * sum(math.prod(s) for s in shapes)


def _traced_launches(est: Estimate, terms: dict[str, float], cuda: str, call: dict) -> None:
    """The launches the interpreter recorded for one call, each analysed under its own configuration."""
    fn = call["function"]
    for launch in call["launches"]:
        cfg = json.dumps({k: launch[k] for k in ("grid", "block", "smem", "args", "extents") if k in launch},
                         sort_keys=True)
        try:
            k = _launch_report(cuda, launch["kernel"], cfg)
        except Exception as exc:   # the analyzer's one-line errors: priced by the bytes the call moves, a guess
            est.unknown.append(f"{fn}: {launch['kernel']} not analysed ({str(exc).splitlines()[0][:120]}): "
                               f"priced as its call's tensors at DRAM rate")
            _add(terms, op_terms({"op": launch["kernel"], "bytes": _call_bytes(call), "flops": 0.0,
                                  "strided": False}), launch["count"])
            continue
        est.unknown += [f"{fn}: {launch['kernel']}: {d}" for d in defaulted(k)]
        launch_terms = time_terms(describe(k))
        _add(terms, launch_terms, launch["count"])
        est.launches.append(KernelLaunch(fn, launch["kernel"], launch["count"], launch["grid"], launch["block"],
                                         "traced", k, launch_terms))
        est.sizes.setdefault(fn, {}).update({name: v for name, v in launch["args"].items()
                                             if isinstance(v, (int, float))})


def _read_launches(est: Estimate, terms: dict[str, float], cuda: str, call: dict) -> str | None:
    """A call the interpreter could not run: the wrapper read by patterns (`wrapper.bind`); the reason
    the candidate cannot be ranked, or None."""
    fn = call["function"]
    wrapper = wrappers(cuda).get(fn)
    if wrapper is None:
        return f"no C++ wrapper named {fn} in the CUDA source"
    plain = [a.get("shape", a.get("value")) for a in call["args"]]
    bound = bind(cuda, wrapper, plain)
    est.sizes[fn] = bound.sizes
    est.unknown += [f"{fn}: {u}" for u in bound.unknown]
    try:
        reports = {k.kernel.name: k for k in _analysed(bound.text, json.dumps(bound.scalars, sort_keys=True))}
    except Exception as exc:    # the analyzer's one-line errors: unreadable source, impossible launch
        return f"{fn}: {str(exc).splitlines()[0][:200]}"
    if not bound.launches:
        return f"{fn} launches no kernel"
    for kernel, count in bound.launches.items():
        report = reports.get(kernel)
        if report is None:
            return f"{fn} launches {kernel}, which the analyzer did not find"
        k = report.to_json()
        est.unknown += [f"{fn}: {kernel}: {d}" for d in defaulted(k)]
        launch_terms = time_terms(describe(k))
        _add(terms, launch_terms, count)
        assumed = any(u.startswith((f"{kernel}: grid", f"{kernel}: block")) for u in bound.unknown)
        est.launches.append(KernelLaunch(fn, kernel, count, k["launch"]["grid"], k["launch"]["block"],
                                         "assumed" if assumed else k["launch"]["source"], k, launch_terms))
    if bound.filled:
        _add(terms, op_terms({"op": "fill", "bytes": 4.0 * bound.filled, "flops": 0.0, "strided": False}))
    return None


def estimate_traced(label: str, traced: dict) -> Estimate:
    """An Estimate from one candidate's trace (`trace.run(...)["candidates"][i]`)."""
    if traced.get("error") and not traced.get("guessed"):
        return Estimate(label, reason=traced["error"])
    est = Estimate(label)
    if traced.get("guessed"):
        est.note = (f"not traced ({traced['guessed']}): its exported functions were called once with the "
                    f"reference's inputs in order")
    elif traced.get("partial"):
        est.note = f"the trace stopped after the extension calls ({traced['partial']}): what followed is not counted"
    terms: dict[str, float] = {}
    host = 0.0
    for call in traced["calls"]:
        cuda = traced["extensions"][call["extension"]]["cuda"]
        if "launches" in call:
            _traced_launches(est, terms, cuda, call)
        else:
            reason = _read_launches(est, terms, cuda, call)
            if reason is not None:
                return Estimate(label, reason=reason)
        host += 0.0 if call.get("graph") else TORCH["host_s"]
    if not terms:
        est.torch_only = _torch_only(traced)
        if not traced["ops"]:       # a constant, a cached or a lazy result: what is timed is its Python
            est.note = f"{est.torch_only}, and no torch operator runs on the task's inputs: its host calls only"
    for op in traced["ops"]:
        _add(terms, op_terms(op))
        est.torch_ops.append(op)
        if not op.get("wrapper") and not op.get("graph"):
            host += op_host(op)
    terms["host"] = host + host_only(traced)
    terms["total"] = max(terms.get("total", 0.0), terms["host"])
    est.terms, est.seconds = terms, terms["total"]
    return est


def _torch_only(traced: dict) -> str:
    """Why a traced candidate launched none of its own kernels."""
    if traced.get("torch_only"):
        return traced["torch_only"]
    broken = [e["build_error"] for e in traced["extensions"] if e.get("build_error")]
    if broken:
        return f"its extension cannot build ({broken[0]}): its fallback runs"
    return "no kernel of its own runs on the task's inputs"


def estimate(reference: str, codes: list[str], sizes: dict | None = None, labels: list[str] | None = None,
             traced: dict | None = None) -> list[Estimate]:
    """Estimates of every candidate at the reference's input shapes (`sizes` assigns its size
    globals first); one child process traces them all."""
    from . import trace

    labels = labels or [f"candidate {i}" for i in range(len(codes))]
    traced = traced or trace.run(reference, codes, sizes)
    found = [estimate_traced(label, t) for label, t in zip(labels, traced["candidates"])]
    ref = reference_terms(traced.get("reference_ops"), traced.get("reference_host")) or \
        reference_floor(traced.get("inputs"))
    for e in found:
        e.reference_terms = ref
    return found


def reference_terms(ops: list[dict] | None, host_calls: dict | None = None) -> dict[str, float] | None:
    """The reference's summed time terms: its torch operators priced as a candidate's (`op_terms`: bytes at
    DRAM rate, FLOPs at cuBLAS / cuDNN rates, a launch each; `.item()` is host time only), `total` their sum
    or the host's time if larger (its calls, and `host_calls` that launch nothing).  None when the
    reference could not be run on meta tensors or runs no operator."""
    if not ops:
        return None
    terms: dict[str, float] = {}
    for op in ops:
        if op["op"] != "item":
            _add(terms, op_terms(op))
    terms["host"] = sum(op_host(op) for op in ops) + host_only(host_calls)
    terms["total"] = max(terms.get("total", 0.0), terms["host"])
    return terms


def reference_floor(inputs: list[dict] | None) -> dict[str, float] | None:
    """The reference priced as one torch operator that reads its inputs once (4-byte elements), where its
    own operators cannot be run on meta tensors (`bincount`, whose output is sized by the data; sparse
    tensors): a floor its real time is above, the same for every candidate of the task, so that a
    speed-up against it still orders them.  None without input tensors."""
    if not any("shape" in x for x in inputs or []):
        return None
    return reference_terms([{"op": "reference", "bytes": _call_bytes({"args": inputs}), "flops": 0.0,
                             "strided": False}])


def task_reference(task: Any) -> str:
    """The reference source of a Task, a path, or source text."""
    from pathlib import Path

    if hasattr(task, "source"):
        return task.source
    if isinstance(task, Path) or (isinstance(task, str) and "\n" not in task and Path(task).is_file()):
        return Path(task).read_text()
    return str(task)
