"""racecheck_compare: racecheck's report forms parse into hazards, and findings get the right verdicts."""

import json
from pathlib import Path

import pytest
from conftest import load_script

rc = load_script(Path(__file__).resolve().parents[1] / "benchmarks" / "racecheck_compare.py")

# Analysis form, older location style (address, then file:line:function) and newer (function+offset, file:line).
ANALYSIS = """\
========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at 0x1a0 in /o/bscan/src/main.cu:18:binary_scan(unsigned int *)
=========     and Read access at 0x2c0 in /o/bscan/src/main.cu:20:binary_scan(unsigned int *) [1024 hazards]
=========
========= Warning: Race reported between Read access at binary_scan(unsigned int *)+0x2c0 in main.cu:21
=========     and Write access at binary_scan(unsigned int *)+0x1a0 in main.cu:88 [992 hazards]
=========
PASS
========= RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)
"""

# Hazard form: the sides on the lines after the header; no -lineinfo on the second report.
HAZARD = """\
========= ERROR: Potential WAW hazard detected at __shared__ 0x0 in block (0, 0, 0) :
=========     Write Thread (31, 0, 0) at 0x00000148 in /tmp/x/src/kernels.h:40:CompressionKernel(int)
=========     Write Thread (0, 0, 0) at 0x00000148 in /tmp/x/src/kernels.h:68:CompressionKernel(int)
=========     Current Value : 0, Incoming Value : 31
========= WARN: Potential WAR hazard detected at __shared__ 0x10 in block (1, 0, 0) :
=========     Read Thread (0, 0, 0) at 0x00000200 in CompressionKernel(int)
=========     Write Thread (32, 0, 0) at 0x00000210 in CompressionKernel(int)
"""


def test_analysis_form_gives_both_sides_with_file_and_line():
    hazards, complete = rc.parse_racecheck(ANALYSIS)
    assert complete
    assert [(h.severity, h.kind) for h in hazards] == [("Error", "Write-Read"), ("Warning", "Read-Write")]
    path = "/o/bscan/src/main.cu"
    assert hazards[0].sides == (rc.Side("Write", path, 18), rc.Side("Read", path, 20))
    assert hazards[1].sides == (rc.Side("Read", "main.cu", 21), rc.Side("Write", "main.cu", 88))


def test_hazard_form_and_missing_line_info():
    hazards, complete = rc.parse_racecheck(HAZARD)
    assert not complete
    assert [(h.severity, h.kind) for h in hazards] == [("Error", "WAW"), ("Warning", "WAR")]
    assert [s.line for s in hazards[0].sides] == [40, 68]
    assert hazards[1].sides == (rc.Side("Read", None, None), rc.Side("Write", None, None))


def test_both_sides_on_one_line():
    hazards, _ = rc.parse_racecheck(
        "========= Error: Race reported between Write access at k()+0x10 in a.cu:3"
        " and Read access at k()+0x20 in b.cuh:9\n")
    assert hazards[0].sides == (rc.Side("Write", "a.cu", 3), rc.Side("Read", "b.cuh", 9))


def test_program_of_both_corpora():
    assert rc.program_of("hecbench/src/gerbil-cuda/src/cuda_ds/AddKernel.cu") == ("gerbil", "src/cuda_ds/AddKernel.cu")
    assert rc.program_of("cuda-samples/Samples/0_Introduction/matrixMulDrv/matrixMul_kernel.cu") == (
        "matrixMulDrv", "matrixMul_kernel.cu")
    assert rc.program_of("elsewhere/k.cu") is None


def _program(out: Path, name: str, status: str, log: str | None = None) -> None:
    (out / name).mkdir()
    (out / name / "status").write_text(status + "\n")
    if log is not None:
        (out / name / "racecheck.log").write_text(log)


def _finding(path: str, line: int, name: str = "implicit-warp-sync") -> dict:
    return {"path": path, "line": line, "name": name, "kernel": "k", "code": "CP406"}


def test_verdicts_per_program_state(tmp_path):
    _program(tmp_path, "bscan", "build_rc=0 run_rc=0", ANALYSIS)
    _program(tmp_path, "fpdc", "build_rc=0 run_rc=124", HAZARD)
    _program(tmp_path, "sss", "skipped=needs gsl")
    _program(tmp_path, "lda", "build_rc=2")
    findings = [
        _finding("hecbench/src/bscan-cuda/main.cu", 20),  # second side of the first report
        _finding("hecbench/src/bscan-cuda/main.cu", 88),  # newer location style
        _finding("hecbench/src/bscan-cuda/main.cu", 25),  # ran to the summary, nothing there
        _finding("hecbench/src/fpdc-cuda/kernels.h", 68),  # timed out, but the hazard was printed
        _finding("hecbench/src/fpdc-cuda/kernels.h", 92),  # timed out, nothing: not run
        _finding("hecbench/src/sss-cuda/kernels.cu", 22, "shared-race"),
        _finding("hecbench/src/lda-cuda/kernel.h", 45, "shared-race"),
        _finding("hecbench/src/merge-cuda/kernels.h", 195, "shared-race"),  # not in the output
        {"path": "hecbench/src/bscan-cuda/main.cu", "line": 18, "name": "global-race"},  # other rule
    ]
    rows, counts, absent = rc.compare(findings, tmp_path)
    verdicts = {row[1]: (row[4], row[5]) for row in rows}
    assert verdicts["main.cu:20"][0] == "confirmed" and "Read vs Write main.cu:18" in verdicts["main.cu:20"][1]
    assert verdicts["main.cu:88"][0] == "confirmed"
    assert verdicts["main.cu:25"] == ("not seen", "hazards in this file at lines 18, 20, 21, 88")
    assert verdicts["kernels.h:68"][0] == "confirmed"
    assert verdicts["kernels.h:92"] == ("not run", "timed out")
    assert verdicts["kernels.cu:22"] == ("not run", "skipped: needs gsl")
    assert verdicts["kernel.h:45"] == ("not run", "build failed (rc 2)")
    assert absent == 1
    assert counts == {"implicit-warp-sync": {"confirmed": 3, "not seen": 1, "not run": 1},
                      "shared-race": {"confirmed": 0, "not seen": 0, "not run": 2}}
    table = rc.render(rows, counts, absent)
    assert "| implicit-warp-sync | 3 | 1 | 1 |" in table


def test_same_file_needs_the_whole_relative_path():
    assert rc.same_file("/o/segsort/src/src/bb_bin.cuh", "src/bb_bin.cuh")
    assert rc.same_file("./binomialOptions_kernel.cu", "binomialOptions_kernel.cu")
    assert not rc.same_file("/o/x/src/other_main.cu", "main.cu")


@pytest.mark.parametrize("bad", ["missing.jsonl", "notjson"])
def test_bad_input_is_a_one_line_error(tmp_path, capsys, bad):
    findings = tmp_path / "f.jsonl"
    if bad == "notjson":
        findings.write_text(json.dumps(_finding("hecbench/src/bscan-cuda/main.cu", 1)) + "\n{oops\n")
    else:
        findings = tmp_path / bad
    assert rc.main([str(findings), str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


def test_controls_report_what_racecheck_saw(tmp_path):
    assert rc.controls(tmp_path) == []
    log = ("========= Error: Race reported between Write access at 0x10 in /o/control/src/control.cu:4:cross_warp()\n"
           "=========     and Read access at 0x20 in /o/control/src/control.cu:5:cross_warp(int *) [32 hazards]\n"
           "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n")
    _program(tmp_path, "control", "build_rc=0 run_rc=0", log)
    seen = {case: reported for case, _, reported in rc.controls(tmp_path)}
    assert seen["race between two warps, no barrier"] == "Error Write-Read"
    assert seen["race between lanes of one warp, no __syncwarp"] == "nothing"
    assert "| race between two warps, no barrier | race | Error Write-Read |" in rc.render(
        [], {rule: dict.fromkeys(rc.VERDICTS, 0) for rule in rc.RULES}, 0, rc.controls(tmp_path))


def test_the_h200_calibration_run_reads_as_racecheck_meant_it():
    """The committed H200 run (tests/data/h200/racecheck): our calibration kernel's races are read
    with their kind, and the same-value stores and the ordered pair read as nothing."""
    got = {case: reported for case, expected, reported in rc.controls(
        Path(__file__).resolve().parent / "data" / "h200" / "racecheck")}
    assert len(got) == 4
    cross, intra, same_value, ordered = got.values()
    assert cross.startswith("Error") and intra.startswith("Warning")
    assert same_value == ordered == "nothing"
