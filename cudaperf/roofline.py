"""The roofline chart: each analysed kernel placed on its architecture's roofline.

Static analysis knows a kernel's arithmetic intensity (FLOPs over DRAM bytes) but not its
achieved rate, so each kernel is drawn where the roofline caps it: at its intensity, at the
attainable rate min(peak, intensity x bandwidth) of its dominant precision.  Left of the ridge
point a kernel is memory-bound, right of it compute-bound.  matplotlib is an optional extra
(`pip install 'cudaperf[plot]'`); it is imported only here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .analysis.arch import Arch
from .analysis.report import KernelReport
from .analysis.work import PRECISIONS


class PlotUnavailable(RuntimeError):
    pass


@dataclass
class Point:
    label: str
    intensity: float  # FLOP per DRAM byte
    attainable: float  # GFLOP/s
    precision: str


def points(reports: list[tuple[str, KernelReport]], arch: Arch) -> tuple[list[Point], list[str]]:
    """Kernels that can be placed, and the labels of those that cannot (no FLOPs or bytes known)."""
    placed, skipped = [], []
    bandwidth = arch.dram_bandwidth_gbs
    for label, report in reports:
        compute = report.compute_json() or {}
        intensity = compute.get("arithmetic_intensity")
        if not intensity:
            skipped.append(label)
            continue
        precision = max(PRECISIONS, key=lambda p: compute.get(f"flops_{p}") or 0)
        peak = (arch.peak_tflops.get(precision) or arch.peak_tflops["fp32"]) * 1000
        placed.append(Point(label, intensity, min(peak, intensity * bandwidth), precision))
    return placed, skipped


def draw(placed: list[Point], arch: Arch, path: str) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailable("matplotlib is not installed: pip install 'cudaperf[plot]'") from None
    bandwidth = arch.dram_bandwidth_gbs
    xs = [p.intensity for p in placed] or [1.0]
    low, high = min(min(xs) / 4, 0.01), max(max(xs) * 4, 1000.0)
    fig, ax = plt.subplots(figsize=(9, 6), dpi=120)
    styles = {"fp64": ("tab:purple", "--"), "fp32": ("tab:blue", "-"), "fp16": ("tab:green", ":")}
    for precision, (color, style) in styles.items():
        peak = arch.peak_tflops.get(precision)
        if not peak:
            continue
        ridge = peak * 1000 / bandwidth
        ax.plot([low, ridge, high], [low * bandwidth, peak * 1000, peak * 1000], style, color=color,
                label=f"{precision} peak {peak:g} TFLOP/s (ridge {ridge:.1f} FLOP/B)")
    colors = {"fp64": "tab:purple", "fp32": "tab:blue", "fp16": "tab:green", "bf16": "tab:olive"}
    for p in placed:
        ax.scatter([p.intensity], [p.attainable], color=colors[p.precision], zorder=3, s=36)
        ax.annotate(p.label, (p.intensity, p.attainable), textcoords="offset points", xytext=(5, -11), fontsize=7)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(low, high)
    ax.set_xlabel("arithmetic intensity (FLOP per DRAM byte)")
    ax.set_ylabel("attainable GFLOP/s")
    ax.set_title(f"Roofline: {arch.product} ({arch.name}), DRAM {bandwidth:g} GB/s")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
