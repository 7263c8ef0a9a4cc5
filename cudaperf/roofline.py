"""The roofline chart: measured kernels where they ran, static estimates where the roof caps them.

A measured point (from a ``cudaperf profile`` document or an ncu CSV) is the kernel's achieved
position: FLOPs over DRAM bytes against FLOPs over its measured time.  Static analysis knows the
arithmetic intensity but not the rate, so a static point is drawn hollow at the roof above its
intensity: a ceiling, not an achievement.  Roofs are drawn per precision for the CUDA cores
(solid) and the tensor cores (dashed), from the architecture table.  matplotlib is an optional
extra (`pip install 'cudaperf[plot]'`); it is imported only here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .analysis.arch import Arch
from .analysis.report import KernelReport
from .analysis.work import PRECISIONS

FORMATS = (".png", ".svg", ".pdf")
COLORS = {"fp64": "tab:purple", "fp32": "tab:blue", "fp16": "tab:green", "bf16": "tab:olive", "tf32": "tab:cyan",
          "fp8": "tab:red"}


class PlotUnavailable(RuntimeError):
    pass


@dataclass
class Point:
    label: str
    intensity: float  # FLOP per DRAM byte
    gflops: float  # measured: achieved GFLOP/s; static: the roof's ceiling at this intensity
    precision: str
    measured: bool


def _dominant(flops: dict) -> str:
    return max(PRECISIONS, key=lambda p: flops.get(f"flops_{p}") or 0)


def points(reports: list[tuple[str, KernelReport]], arch: Arch) -> tuple[list[Point], list[str]]:
    """Static estimates that can be placed, and the labels of those that cannot (no FLOPs or bytes)."""
    placed, skipped = [], []
    for label, report in reports:
        compute = report.compute_json() or {}
        intensity = compute.get("arithmetic_intensity")
        if not intensity:
            skipped.append(label)
            continue
        precision = _dominant(compute)
        peak = (arch.peak_tflops.get(precision) or arch.peak_tflops["fp32"]) * 1000
        placed.append(Point(label, intensity, min(peak, intensity * arch.dram_bandwidth_gbs), precision, False))
    return placed, skipped


def measured_points(doc: dict) -> tuple[list[Point], list[str]]:
    """Achieved positions of the kernels of a ``cudaperf.profile/1`` document; launches of one
    kernel are numbered.  Kernels without FLOPs, DRAM bytes or a time are returned as skipped."""
    placed, skipped = [], []
    names = [k["name"] for k in doc["kernels"]]
    seen: dict[str, int] = {}
    for entry in doc["kernels"]:
        name, m = entry["name"], entry["measured"]
        seen[name] = seen.get(name, 0) + 1
        label = f"{name} #{seen[name]}" if names.count(name) > 1 else name
        flops = m["compute"].get("flops")
        moved = (m["memory"].get("dram_bytes_read") or 0) + (m["memory"].get("dram_bytes_write") or 0)
        seconds = (m["time"].get("median_us") or m["time"].get("ncu_duration_us") or 0) * 1e-6
        if not flops or not moved or not seconds:
            skipped.append(label)
            continue
        placed.append(Point(label, flops / moved, flops / seconds / 1e9, _dominant(m["compute"]), True))
    return placed, skipped


def _base(label: str) -> str:
    """`matmul_tiled<16>` and `matmul_tiled` name one kernel."""
    return label.split("<", 1)[0].split(" #", 1)[0]


def check_output(path: str) -> Path:
    """The output path, its folder created; ValueError (one line) for a format matplotlib is not asked for."""
    out = Path(path)
    if out.suffix.lower() not in FORMATS:
        raise ValueError(f"{path}: unsupported output format {out.suffix or '(none)'!r}; use {', '.join(FORMATS)}")
    out.parent.mkdir(parents=True, exist_ok=True)
    return out


def _roofs(ax, arch: Arch, low: float, high: float) -> None:
    """One line per distinct ceiling: precisions that share a peak (fp16 and bf16 often do) share a line."""
    bandwidth = arch.dram_bandwidth_gbs
    for unit, style, table in (("CUDA cores", "-", arch.peak_tflops), ("tensor cores", "--", arch.tensor_tflops)):
        by_peak: dict[float, list[str]] = {}
        for precision, peak in table.items():
            if peak:
                by_peak.setdefault(peak, []).append(precision)
        for peak, precisions in by_peak.items():
            ridge = peak * 1000 / bandwidth
            ax.plot([low, ridge, high], [low * bandwidth, peak * 1000, peak * 1000], style, lw=1.2,
                    color=COLORS.get(precisions[0], "gray"),
                    label=f"{'/'.join(precisions)} {unit}: {peak:g} TFLOP/s (ridge {ridge:.0f} FLOP/B)")


def draw(static: list[Point], measured: list[Point], arch: Arch, path: str | Path) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailable("matplotlib is not installed: pip install 'cudaperf[plot]'") from None
    everything = static + measured
    xs = [p.intensity for p in everything] or [1.0]
    low, high = min(min(xs) / 4, 0.01), max(max(xs) * 4, 1000.0)
    fig, ax = plt.subplots(figsize=(12, 6.5), dpi=120)
    _roofs(ax, arch, low, high)
    bases = [_base(p.label) for p in measured]
    achieved = {_base(p.label): p for p in measured if bases.count(_base(p.label)) == 1}
    for p in static:
        ax.scatter([p.intensity], [p.gflops], facecolors="none", edgecolors=COLORS[p.precision], zorder=3, s=44)
        match = achieved.get(_base(p.label))
        if match is not None:  # from the ceiling down to where it ran
            ax.plot([p.intensity, match.intensity], [p.gflops, match.gflops], ":", color="gray", lw=0.8)
    for p in measured:
        ax.scatter([p.intensity], [p.gflops], color=COLORS[p.precision], marker="D", zorder=4, s=30)
    for p in everything:
        ax.annotate(p.label, (p.intensity, p.gflops), textcoords="offset points", xytext=(5, -10), fontsize=6)
    ax.scatter([], [], facecolors="none", edgecolors="black", label="static estimate (ceiling at its intensity)")
    ax.scatter([], [], color="black", marker="D", label="measured (achieved)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(low, high)
    ax.set_xlabel("arithmetic intensity (FLOP per DRAM byte)")
    ax.set_ylabel("GFLOP/s")
    ax.set_title(f"Roofline: {arch.product} ({arch.name}), DRAM {arch.dram_bandwidth_gbs:g} GB/s")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
