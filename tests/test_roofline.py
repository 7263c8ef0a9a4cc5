"""The roofline chart: placement of kernels (first principles) and the command that draws it."""

from __future__ import annotations

import pytest
from conftest import ROOT
from test_cli import run

from cudaperf.analysis import arch
from cudaperf.analysis.analyzer import Options, analyze_file
from cudaperf.roofline import points

EXAMPLE = ROOT / "examples" / "roofline.cu"


def test_kernels_sit_on_the_roof_of_their_precision():
    h200 = arch.get("sm_90")
    kernels = [(k.kernel.name, k) for k in analyze_file(EXAMPLE, Options(resources="estimate")).kernels]
    placed = {p.label: p for p in points(kernels, h200)[0]}
    saxpy, daxpy, matmul = placed["saxpy"], placed["daxpy"], placed["matmul_tiled"]
    # saxpy: 2 FLOPs per element against 8 B read plus the share of 4 B writes the 60 MiB L2 evicts
    assert 2 / 12 <= saxpy.intensity <= 2 / 8
    assert saxpy.attainable == pytest.approx(saxpy.intensity * h200.dram_bandwidth_gbs)
    assert daxpy.precision == "fp64" and daxpy.intensity < saxpy.intensity
    assert matmul.intensity > h200.ridge_point and matmul.attainable == h200.peak_tflops["fp32"] * 1000


def test_roofline_command_writes_an_image(tmp_path):
    out = tmp_path / "roof.png"
    proc = run("roofline", str(EXAMPLE), str(ROOT / "examples" / "transpose.cu"), "-o", str(out),
               "--resources", "estimate")
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 20_000
    assert "4 kernels" in proc.stdout and "transpose_naive" in proc.stdout  # no FLOPs: listed, not drawn
