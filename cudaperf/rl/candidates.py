"""A KernelBench candidate's estimated time at the task's real input shapes, from static analysis.

`trace.run` says what the candidate runs on the reference's inputs (meta tensors, no GPU): each
extension call with its argument shapes, each torch operator left around it.  Per extension call,
`wrapper.bind` turns the C++ wrapper's size computations into numbers, the analyzer reads every
kernel that wrapper launches under the grid and block those numbers give, and `ranking.time_terms`
prices each launch; torch operators are priced by their bytes and FLOPs (`TORCH`).  A candidate's
terms are the sums over everything it launches, times how often; `seconds` is the larger of the
GPU's total and the host's (a call to the extension or to torch costs host time that a short
kernel does not hide).  Candidates without a readable extension get `reason` and no terms."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .ranking import ARCH, describe, time_terms
from .wrapper import bind, wrappers

# torch operators outside the extension: H200 rates measured on the styles tasks (tests/data/h200/styles:
# cuBLAS fp32 GEMMs 30-46 TFLOP/s, cuDNN fp32 3x3 convolutions 10-17 TFLOP/s, copies from strided views
# 3.5x slower than contiguous ones), and the host time per call (a cuDNN convolution's ~100 us of setup)
TORCH = {"gemm_flops": 40e12, "conv_flops": 15e12, "strided_copy": 3.5, "host_s": 5e-6, "conv_host_s": 1e-4}
_CONVS = ("convolution", "_convolution", "cudnn_convolution", "conv2d", "conv1d", "conv3d")
_GEMMS = ("mm", "addmm", "bmm", "baddbmm", "matmul", "linear", "addmv", "mv", "dot")


@dataclass
class KernelLaunch:
    """One kernel of one extension call at the task's shapes."""

    function: str
    kernel: str
    count: int
    grid: list[int]
    block: list[int]
    launch_source: str                  # inferred (from the wrapper at these shapes) | default
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

    @property
    def rankable(self) -> bool:
        return self.terms is not None

    def launch_count(self) -> int:
        return sum(k.count for k in self.launches) + len(self.torch_ops)

    def to_json(self) -> dict:
        return {"label": self.label, "seconds": self.seconds, "reason": self.reason,
                "launches": [{"function": k.function, "kernel": k.kernel, "count": k.count, "grid": k.grid,
                              "block": k.block, "launch": k.launch_source} for k in self.launches],
                "torch_ops": [o["op"] for o in self.torch_ops], "sizes_inferred": self.sizes,
                "unknown": self.unknown}


@lru_cache(maxsize=512)
def _analysed(text: str, scalars: str) -> list:
    from ..analysis.analyzer import Options, analyze_source

    args = json.loads(scalars)
    return analyze_source(text, options=Options(args=args, resources="estimate")).kernels


def op_terms(op: dict) -> dict[str, float]:
    """Time terms of one torch operator: its bytes at DRAM rate (strided copies slower), its FLOPs
    at cuBLAS / cuDNN rates, a launch."""
    dram = op["bytes"] / ARCH["dram_bps"] * (TORCH["strided_copy"] if op["strided"] and op["op"] in (
        "clone", "copy", "_to_copy") else 1.0)
    rate = TORCH["conv_flops"] if op["op"] in _CONVS else TORCH["gemm_flops"]
    flops = op["flops"] / rate
    return {"dram": dram, "flops": flops, "total": max(dram, flops) + ARCH["launch_s"]}


def _add(into: dict[str, float], terms: dict[str, float], times: float = 1.0) -> None:
    for k, v in terms.items():
        into[k] = into.get(k, 0.0) + v * times


def estimate_traced(label: str, traced: dict) -> Estimate:
    """An Estimate from one candidate's trace (`trace.run(...)["candidates"][i]`)."""
    if traced.get("error"):
        return Estimate(label, reason=traced["error"])
    est = Estimate(label)
    terms: dict[str, float] = {}
    host = 0.0
    for call in traced["calls"]:
        cuda = traced["extensions"][call["extension"]]["cuda"]
        wrapper = wrappers(cuda).get(call["function"])
        if wrapper is None:
            return Estimate(label, reason=f"no C++ wrapper named {call['function']} in the CUDA source")
        plain = [a.get("shape", a.get("value")) for a in call["args"]]
        bound = bind(cuda, wrapper, plain)
        est.sizes[call["function"]] = bound.sizes
        est.unknown += [f"{call['function']}: {u}" for u in bound.unknown]
        try:
            reports = {k.kernel.name: k for k in _analysed(bound.text, json.dumps(bound.scalars, sort_keys=True))}
        except Exception as exc:    # the analyzer's one-line errors: unreadable source, impossible launch
            return Estimate(label, reason=f"{call['function']}: {str(exc).splitlines()[0][:200]}")
        if not bound.launches:
            return Estimate(label, reason=f"{call['function']} launches no kernel")
        for kernel, count in bound.launches.items():
            report = reports.get(kernel)
            if report is None:
                return Estimate(label, reason=f"{call['function']} launches {kernel}, which the analyzer did not find")
            k = report.to_json()
            launch_terms = time_terms(describe(k))
            _add(terms, launch_terms, count)
            est.launches.append(KernelLaunch(call["function"], kernel, count, k["launch"]["grid"], k["launch"]["block"],
                                             k["launch"]["source"], k, launch_terms))
        if bound.filled:
            _add(terms, op_terms({"op": "fill", "bytes": 4.0 * bound.filled, "flops": 0.0, "strided": False}))
        host += TORCH["host_s"]
    for op in traced["ops"]:
        _add(terms, op_terms(op))
        est.torch_ops.append(op)
        host += TORCH["conv_host_s"] if op["op"] in _CONVS else TORCH["host_s"]
    if not est.launches:
        return Estimate(label, reason="no kernel of its own runs on the task's inputs")
    terms["host"] = host
    terms["total"] = max(terms["total"], host)
    est.terms, est.seconds = terms, terms["total"]
    return est


def estimate(reference: str, codes: list[str], sizes: dict | None = None, labels: list[str] | None = None,
             traced: dict | None = None) -> list[Estimate]:
    """Estimates of every candidate at the reference's input shapes (`sizes` assigns its size
    globals first); one child process traces them all."""
    from . import trace

    labels = labels or [f"candidate {i}" for i in range(len(codes))]
    traced = traced or trace.run(reference, codes, sizes)
    return [estimate_traced(label, t) for label, t in zip(labels, traced["candidates"])]


def task_reference(task: Any) -> str:
    """The reference source of a Task, a path, or source text."""
    from pathlib import Path

    if hasattr(task, "source"):
        return task.source
    if isinstance(task, Path) or (isinstance(task, str) and "\n" not in task and Path(task).is_file()):
        return Path(task).read_text()
    return str(task)
