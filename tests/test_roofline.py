"""The roofline chart: placement of kernels (first principles, measured data) and the command that draws it."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT
from test_cli import run

from cudaperf.analysis import arch
from cudaperf.analysis.analyzer import Options, analyze_file
from cudaperf.cli import main
from cudaperf.roofline import measured_points, points

EXAMPLE = ROOT / "examples" / "roofline.cu"
PROFILE = ROOT / "tests" / "data" / "h200" / "profile" / "profile.json"  # measured on the H200
NCU_CSV = ROOT / "tests" / "data" / "h200" / "validation" / "ncu_raw.csv"
PNG = b"\x89PNG\r\n\x1a\n"


def test_static_estimates_sit_at_the_ceiling_of_their_precision():
    h200 = arch.get("sm_90")
    kernels = [(k.kernel.name, k) for k in analyze_file(EXAMPLE, Options(resources="estimate")).kernels]
    placed = {p.label: p for p in points(kernels, h200)[0]}
    saxpy, daxpy, matmul = placed["saxpy"], placed["daxpy"], placed["matmul_tiled"]
    # saxpy: 2 FLOPs per element against 8 B read plus the share of 4 B writes the 60 MiB L2 evicts
    assert 2 / 12 <= saxpy.intensity <= 2 / 8
    assert saxpy.gflops == pytest.approx(saxpy.intensity * h200.dram_bandwidth_gbs)
    assert daxpy.precision == "fp64" and daxpy.intensity < saxpy.intensity
    assert matmul.intensity > h200.ridge_point and matmul.gflops == h200.peak_tflops["fp32"] * 1000
    assert not any(p.measured for p in placed.values())


def test_measured_points_are_where_the_kernel_ran_not_the_roof():
    doc = json.loads(PROFILE.read_text())
    placed, skipped = measured_points(doc)
    by_name = {p.label: p for p in placed}
    m = next(k["measured"] for k in doc["kernels"] if k["name"] == "matmul_tiled<16>")
    moved = m["memory"]["dram_bytes_read"] + m["memory"]["dram_bytes_write"]
    seconds = (m["time"].get("median_us") or m["time"]["ncu_duration_us"]) * 1e-6
    matmul = by_name["matmul_tiled<16>"]
    assert matmul.measured and matmul.intensity == pytest.approx(m["compute"]["flops"] / moved)
    assert matmul.gflops == pytest.approx(m["compute"]["flops"] / seconds / 1e9)
    roof = min(arch.get("sm_90").peak_tflops["fp32"] * 1000, matmul.intensity * arch.get("sm_90").dram_bandwidth_gbs)
    assert matmul.gflops < 0.5 * roof  # a real kernel below its roof, not on it
    assert "copy_float" in skipped  # no FLOPs: not placed


def test_roofline_command_draws_measured_and_static_points(tmp_path):
    out = tmp_path / "new" / "folder" / "roof.png"  # a missing folder is created
    proc = run("roofline", str(EXAMPLE), "--measured", str(PROFILE), "-o", str(out), "--resources", "estimate")
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes()[:8] == PNG and out.stat().st_size > 20_000
    assert "5 measured, 4 static" in proc.stdout


def test_roofline_reads_an_ncu_csv_alone(tmp_path, capsys):
    out = tmp_path / "roof.svg"
    assert main(["roofline", "--from-ncu-csv", str(NCU_CSV), "--kernel", "gemm_tile32x8", "-o", str(out)]) == 0
    assert "1 measured, 0 static" in capsys.readouterr().out and out.read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize("args, message", [
    ([str(ROOT / "examples" / "transpose.cu")], "no kernel to draw"),  # no FLOPs anywhere
    ([str(EXAMPLE), "-o", "roof.txt"], "unsupported output format '.txt'"),
    ([str(EXAMPLE), "--kernel", "nope"], "no kernel named nope; available: saxpy"),
    ([], "give PATHs"),
])
def test_roofline_refuses_in_one_line(tmp_path, monkeypatch, capsys, args, message):
    monkeypatch.chdir(tmp_path)
    assert main(["roofline", *args, "--resources", "estimate"]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
    assert not list(tmp_path.iterdir())  # no empty chart written
