"""Static estimates beside measurements: per kernel and feature the two values and the error, and
per feature how often the estimate lands within its tolerance.

Each measured kernel is analysed under the launch that was measured (grid, block, dynamic shared
memory from the measurement; scalar arguments from the profile or the caller, since ncu does not
record them).  Features and tolerances:

* sectors and wavefronts per request: the kernel ratios, max(0.5, 10%); a global kind with
  data-dependent addresses has no comparable static ratio (it covers the computable accesses only);
* DRAM bytes, read + write: max(35%, 1 MB);
* theoretical occupancy: 0.01;
* registers per thread: exact, the static count raised to 16 (ncu reports the launch's value, never
  below 16 on sm_90);
* FLOPs fp32 and fp64: 2%.  fp16 (static fp16 + bf16, since ncu's half counters hold both): 2%,
  compared only where the analyzer finds half-precision arithmetic, because the counters also
  count the ``HFMA2.MMA`` register moves nvcc emits in fp32 code;
* divergence: a branch whose lanes disagree in some warp under the launch, against divergent
  branch targets counted; must agree.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from ..analyzer import Options, analyze_file
from ..launch import LaunchError

SCHEMA = "cudaperf.crosscheck/1"
MIN_REGISTERS = 16  # ncu's launch__registers_per_thread on sm_90 for every kernel ptxas gave fewer


def _ratio_tolerance(measured: float) -> float:
    return max(0.5, 0.1 * abs(measured))


def _global_ratio(kind: str) -> Callable[[dict], float | None]:
    def static(k: dict) -> float | None:
        if any(a["space"] == "global" and a["kind"] == kind and a["pattern"] == "indirect"
               for a in k["memory"]["accesses"]):
            return None  # the kernel ratio covers only the computable accesses: not comparable
        return k["memory"][f"global_{kind}_sectors_per_request"]
    return static


def _sum(*values: float | None) -> float | None:
    return None if any(v is None for v in values) else sum(values)


def _registers(k: dict) -> float | None:
    regs = (k["resources"] or {}).get("registers_per_thread")
    return None if regs is None else max(MIN_REGISTERS, regs)


def _compute(k: dict, *keys: str) -> float | None:
    return None if k["compute"] is None else _sum(*(k["compute"][key] for key in keys))


def _static_divergent(k: dict) -> float | None:
    """1 when some branch compiled to a jump splits warps under the launch (the hardware counts
    divergent jump targets: predicated bodies and exits never split), null when that depends on data."""
    fractions = [b.get("divergent_fraction") for b in k["branches"]
                 if b["uniformity"] == "thread" and b["jump"]]
    if any(f for f in fractions):
        return 1.0
    return None if None in fractions else 0.0


def _divergent(m: dict) -> float | None:
    targets = m["branches"]["divergent_targets"]
    return None if targets is None else float(targets > 0)


def _at(section: str, key: str) -> Callable[[dict], float | None]:
    """The same key in a static kernel and in ``measured`` (a static section may be null)."""
    return lambda d: (d[section] or {}).get(key)


@dataclass(frozen=True)
class Feature:
    name: str
    static: Callable[[dict], float | None]  # from a cudaperf.analyze/1 kernel
    measured: Callable[[dict], float | None]  # from a cudaperf.profile/1 ``measured``
    tolerance: Callable[[float], float]  # allowed absolute error for a measured value
    rule: str  # the tolerance in words
    applies: Callable[[float | None], bool] = lambda static: True  # compared for this static value?
    boolean: bool = False  # 0/1 agreement: no relative error


_RATIO = "max(0.5, 10%)"
FEATURES = (
    Feature("memory.global_load_sectors_per_request", _global_ratio("load"),
            _at("memory", "global_load_sectors_per_request"), _ratio_tolerance, _RATIO),
    Feature("memory.global_store_sectors_per_request", _global_ratio("store"),
            _at("memory", "global_store_sectors_per_request"), _ratio_tolerance, _RATIO),
    Feature("memory.shared_load_wavefronts_per_request", _at("memory", "shared_load_wavefronts_per_request"),
            _at("memory", "shared_load_wavefronts_per_request"), _ratio_tolerance, _RATIO),
    Feature("memory.shared_store_wavefronts_per_request", _at("memory", "shared_store_wavefronts_per_request"),
            _at("memory", "shared_store_wavefronts_per_request"), _ratio_tolerance, _RATIO),
    Feature("memory.dram_bytes", lambda k: _sum(k["memory"]["dram_bytes_read"], k["memory"]["dram_bytes_write"]),
            lambda m: _sum(m["memory"]["dram_bytes_read"], m["memory"]["dram_bytes_write"]),
            lambda v: max(0.35 * v, 1e6), "max(35%, 1 MB)"),
    Feature("occupancy.theoretical", _at("occupancy", "theoretical"), _at("occupancy", "theoretical"),
            lambda v: 0.01, "0.01"),
    Feature("resources.registers_per_thread", _registers, _at("resources", "registers_per_thread"),
            lambda v: 0.0, "exact"),
    Feature("compute.flops_fp16", lambda k: _compute(k, "flops_fp16", "flops_bf16"), _at("compute", "flops_fp16"),
            lambda v: 0.02 * v, "2%", applies=bool),
    Feature("compute.flops_fp32", lambda k: _compute(k, "flops_fp32"), _at("compute", "flops_fp32"),
            lambda v: 0.02 * v, "2%"),
    Feature("compute.flops_fp64", lambda k: _compute(k, "flops_fp64"), _at("compute", "flops_fp64"),
            lambda v: 0.02 * v, "2%"),
    Feature("branches.divergent", _static_divergent, _divergent, lambda v: 0.0, "agree", boolean=True),
)


@dataclass(frozen=True)
class Comparison:
    kernel: str
    feature: str
    static: float | None
    measured: float | None
    tolerance: float | None
    boolean: bool = False

    @property
    def error(self) -> float | None:
        return None if self.static is None or self.measured is None else abs(self.static - self.measured)

    @property
    def relative_error(self) -> float | None:
        if self.error is None or not self.measured or self.boolean:
            return None
        return self.error / abs(self.measured)

    @property
    def within(self) -> bool | None:
        return None if self.error is None else self.error <= self.tolerance + 1e-9

    def to_json(self) -> dict:
        return {"feature": self.feature, "static": self.static, "measured": self.measured, "error": self.error,
                "relative_error": self.relative_error, "tolerance": self.tolerance, "within": self.within}


def compare(kernel: str, static: dict, measured: dict) -> list[Comparison]:
    """Every feature the hardware measured for one kernel (static may be null: not estimated)."""
    out = []
    for f in FEATURES:
        m, s = f.measured(measured), f.static(static)
        if m is not None and f.applies(s):
            out.append(Comparison(kernel, f.name, s, m, f.tolerance(m), f.boolean))
    return out


def summary(comparisons: list[Comparison]) -> list[dict]:
    """Per feature: kernels measured, compared (static known), within tolerance, errors."""
    rows = []
    for f in FEATURES:
        mine = [c for c in comparisons if c.feature == f.name]
        if not mine:
            continue
        errors = [c.error for c in mine if c.error is not None]
        relative = [c.relative_error for c in mine if c.relative_error is not None]
        rows.append({
            "feature": f.name, "tolerance": f.rule, "measured": len(mine), "compared": len(errors),
            "within": sum(bool(c.within) for c in mine), "not_estimated": len(mine) - len(errors),
            "mean_abs_error": statistics.fmean(errors) if errors else None,
            "max_abs_error": max(errors) if errors else None,
            "median_relative_error": statistics.median(relative) if relative else None,
        })
    return rows


def crosscheck(path: str | Path, profile: dict, options: Options) -> dict:
    """Analyse ``path`` under each measured launch of a ``cudaperf.profile/1`` document and compare.
    ``options`` gives the arguments, defines, arch and resources; a kernel's recorded args win."""
    kernels, comparisons = [], []
    for entry in profile["kernels"]:
        launch = entry["launch"]
        run = replace(options, kernel=entry["name"], grid=tuple(launch["grid"]), block=tuple(launch["block"]),
                      dynamic_smem=launch["dynamic_smem"], args={**options.args, **launch.get("args", {})})
        record = {"name": entry["name"], "launch": launch, "error": None, "comparisons": []}
        try:
            report = analyze_file(path, run)
        except LaunchError as exc:
            report, record["error"] = None, str(exc)
        if report is not None and not report.kernels:
            record["error"] = "not defined in the file"
        elif report is not None:
            mine = compare(entry["name"], report.kernels[0].to_json(), entry["measured"])
            record["comparisons"] = [c.to_json() for c in mine]
            comparisons += mine
        kernels.append(record)
    return {"schema": SCHEMA, "path": str(path), "kernels": kernels, "summary": summary(comparisons)}
