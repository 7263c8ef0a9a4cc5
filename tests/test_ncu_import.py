"""Importing `ncu --csv --page raw` output (`cudaperf profile --from-ncu-csv`): the committed H200
files, and messier variants of them (warnings, interleaved program output, a units row in scaled
units, n/a, a second table), checked against an independent reading of the raw counters."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import jsonschema
import pytest
from conftest import ROOT

from cudaperf.analysis.dynamic.document import SCHEMA_FILE, from_rows, import_ncu_csv, kernel_name
from cudaperf.analysis.dynamic.ncu_csv import NcuCsvError, parse
from cudaperf.cli import main

CSVS = [ROOT / "tests" / "data" / "h200" / s / "ncu_raw.csv" for s in ("corpus", "validation")]


def raw_rows(path: Path) -> list[dict[str, str]]:
    """The oracle: the csv module on the lines from the header on, units row dropped."""
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    return [r for r in csv.DictReader(lines[start:]) if r["ID"]]


def num(text: str) -> float:
    return float(text.replace(",", ""))


def flops(row: dict, p: str) -> float:
    add, mul, fma = (num(row[f"smsp__sass_thread_inst_executed_op_{p}{op}_pred_on.sum"])
                     for op in ("add", "mul", "fma"))
    return add + mul + 2 * fma


@pytest.mark.parametrize("path", CSVS, ids=lambda p: p.parent.name)
def test_every_imported_value_equals_the_raw_counters(path):
    doc = import_ncu_csv(path)
    rows = raw_rows(path)
    assert len(doc["kernels"]) == len(rows) and len(rows) in (83, 63)
    jsonschema.validate(doc, json.loads(SCHEMA_FILE.read_text()))
    assert doc["device"]["name"] == "NVIDIA H200" and doc["device"]["compute_capability"] == "9.0"
    assert doc["device"]["sm_count"] == 132 and doc["device"]["l2_bytes"] == 62914560
    for k, row in zip(doc["kernels"], rows):
        m = k["measured"]
        assert k["signature"] == row["Kernel Name"] and row["Kernel Name"].split("(")[0].endswith(k["name"])
        assert k["launch"]["grid"] == [int(v) for v in row["Grid Size"].strip("()").split(", ")]
        assert k["launch"]["block"] == [int(v) for v in row["Block Size"].strip("()").split(", ")]
        for kind, op in (("load", "ld"), ("store", "st")):
            requests = num(row[f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum"])
            sectors = num(row[f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum"])
            assert m["memory"][f"global_{kind}_sectors_per_request"] == (sectors / requests if requests else None)
            lds = num(row[f"smsp__inst_executed_op_shared_{op}.sum"])
            wavefronts = num(row[f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"])
            assert m["memory"][f"shared_{kind}_wavefronts_per_request"] == (wavefronts / lds if lds else None)
        assert m["memory"]["dram_bytes_read"] == num(row["dram__bytes_read.sum"])
        assert m["memory"]["dram_bytes_write"] == num(row["dram__bytes_write.sum"])
        assert m["occupancy"]["theoretical"] == num(row["sm__maximum_warps_per_active_cycle_pct"]) / 100
        assert m["occupancy"]["achieved"] == num(row["sm__warps_active.avg.pct_of_peak_sustained_active"]) / 100
        assert m["resources"]["registers_per_thread"] == num(row["launch__registers_per_thread"])
        assert m["resources"]["static_smem"] == num(row["launch__shared_mem_per_block_static"])
        assert (m["compute"]["flops_fp32"], m["compute"]["flops_fp64"], m["compute"]["flops_fp16"]) == (
            flops(row, "f"), flops(row, "d"), flops(row, "h"))
        assert m["compute"]["flops"] == flops(row, "f") + flops(row, "d") + flops(row, "h")
        targets = num(row["smsp__sass_branch_targets.sum"])
        assert m["branches"]["targets"] == targets
        assert m["branches"]["divergent_targets"] == num(row["smsp__sass_branch_targets_threads_divergent.sum"])
        uniform = num(row["smsp__sass_average_branch_targets_threads_uniform.pct"]) / 100
        assert m["branches"]["uniform_fraction"] == (uniform if targets else None)
        assert m["time"]["ncu_duration_us"] == num(row["gpu__time_duration.sum"]) / 1000
        assert k["counters"]["dram__bytes_read.sum"] == num(row["dram__bytes_read.sum"])


CLEAN = CSVS[0].read_text()
HEADER = next(i for i, line in enumerate(CLEAN.splitlines()) if line.startswith('"ID"'))


def import_with(text: str) -> dict:
    return from_rows(parse(text))


def measured_of(text: str) -> list[tuple]:
    return [(k["name"], k["launch"], k["measured"]) for k in import_with(text)["kernels"]]


def test_program_output_and_tool_messages_anywhere_change_nothing():
    lines, start = CLEAN.splitlines(), HEADER
    messy = ["launching 83 kernels", "==WARNING== Something about clocks", *lines[:start], "==PROF== Profiling..."]
    for i, line in enumerate(lines[start:]):
        if i % 7 == 3:
            messy.append('step, 3, "done"')  # CSV-looking program output with the wrong number of fields
        if i % 11 == 5:
            messy.append("[case] copy_contiguous ok" + line)  # output glued in front of a row (no newline)
            continue
        messy.append(line)
        if i % 13 == 0:
            messy.append("==PROF== Disconnected from process 2581")
    messy.append("all done")
    assert measured_of("\r\n".join(messy)) == measured_of(CLEAN)


def test_scaled_units_are_brought_back_to_bytes_and_nanoseconds():
    lines, start = CLEAN.splitlines(), HEADER
    header = next(csv.reader([lines[start]]))
    col_bytes, col_time = header.index("dram__bytes_read.sum"), header.index("gpu__time_duration.sum")
    rows = [next(csv.reader([line])) for line in lines[start + 1:]]
    rows[0][col_bytes], rows[0][col_time] = "Mbyte", "usecond"
    for r in rows[1:]:
        r[col_bytes] = f"{num(r[col_bytes]) / 1e6:.6f}"
        r[col_time] = f"{num(r[col_time]) / 1e3:.3f}"
    scaled = "\n".join([lines[start]] + [",".join(f'"{v}"' for v in r) for r in rows])
    want, got = import_with(CLEAN)["kernels"], import_with(scaled)["kernels"]
    for w, g in zip(want, got):
        assert g["measured"]["memory"]["dram_bytes_read"] == pytest.approx(w["measured"]["memory"]["dram_bytes_read"])
        assert g["measured"]["time"]["ncu_duration_us"] == pytest.approx(w["measured"]["time"]["ncu_duration_us"])


def test_not_available_values_and_a_second_table():
    lines, start = CLEAN.splitlines(), HEADER
    header = next(csv.reader([lines[start]]))
    first = next(csv.reader([lines[start + 2]]))
    first[header.index("dram__bytes_read.sum")] = "n/a"
    first[header.index("launch__registers_per_thread")] = ""
    broken = ",".join(f'"{v}"' for v in first)
    text = "\n".join([lines[start], lines[start + 1], broken, "==PROF== second process",
                      lines[start], lines[start + 1], lines[start + 3]])
    kernels = import_with(text)["kernels"]
    assert len(kernels) == 2
    assert kernels[0]["measured"]["memory"]["dram_bytes_read"] is None
    assert kernels[0]["measured"]["resources"]["registers_per_thread"] is None
    assert kernels[0]["measured"]["memory"]["global_load_sectors_per_request"] == 4.0
    assert kernels[1] == import_with(CLEAN)["kernels"][1]


def test_text_without_a_table_is_refused():
    with pytest.raises(NcuCsvError):
        parse("==PROF== Connected to process 1\nhello\n")
    assert parse(CLEAN.splitlines()[HEADER]) == []  # a header alone: no launches


@pytest.mark.parametrize("signature, name", [
    ("copy_float(const float *, float *, int)", "copy_float"),
    ("void transpose16<0>(const float *, float *, int, int)", "transpose16<0>"),
    ("void row_max<float, 128>(const T1 *, T1 *, int)", "row_max<float, 128>"),
    ("void ns::k<(int)4>(float *)", "ns::k<(int)4>"),
])
def test_kernel_names_drop_parameters_and_return_type(signature, name):
    assert kernel_name(signature) == name


def test_cli_imports_a_csv_without_a_gpu(tmp_path, capsys):
    out = tmp_path / "profile.json"
    assert main(["profile", "--from-ncu-csv", str(CSVS[1]), "--kernel", "row_max", "--format", "json",
                 "-o", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc == json.loads(out.read_text())
    assert [k["name"] for k in doc["kernels"]] == ["row_max<float, 128>", "row_max<double, 256>"]
    assert main(["profile", "--from-ncu-csv", str(CSVS[0]), "--kernel", "copy_float"]) == 0
    text = capsys.readouterr().out
    assert "device NVIDIA H200" in text and "load 4 sectors/request" in text


def test_cli_refuses_a_file_that_is_not_ncu_csv(tmp_path, capsys):
    bad = tmp_path / "x.csv"
    bad.write_text("a,b\n1,2\n")
    assert main(["profile", "--from-ncu-csv", str(bad)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["profile", "--from-ncu-csv", str(tmp_path / "missing.csv")]) == 2
