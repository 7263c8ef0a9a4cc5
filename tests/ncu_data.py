"""Reading the committed Nsight Compute measurements of the calibration corpus (tests/data/h200).

`ncu --csv --page raw` output: tool messages before the header, a units row after it, numbers
with thousands separators; one row per profiled launch, in launch order.
"""

from __future__ import annotations

import csv
import json
from functools import cache
from pathlib import Path

from cudaperf.analysis.analyzer import Options

TESTS = Path(__file__).resolve().parent
DATA = TESTS / "data" / "h200" / "corpus"
SETS = {  # kernel set -> (manifest folder, measurements)
    "corpus": (TESTS / "corpus", DATA),
    "validation": (TESTS / "validation", TESTS / "data" / "h200" / "validation"),
}


def case_options(case: dict, resources: str = "auto") -> Options:
    """The analyzer options reproducing a manifest case's launch exactly."""
    return Options(kernel=case["kernel"] + (case.get("template_args") or ""), grid=tuple(case["grid"]),
                   block=tuple(case["block"]), dynamic_smem=case.get("smem", 0),
                   args={k: float(v) for k, v in case["args"].items()}, resources=resources)


def _number(text: str) -> float | None:
    text = text.replace(",", "").strip()
    if not text or text == "n/a":
        return None
    try:
        return float(text)
    except ValueError:
        return None


@cache
def ncu_rows(path: Path = DATA / "ncu_raw.csv") -> list[dict[str, str]]:
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    reader = csv.DictReader(lines[start:])
    rows = list(reader)
    return rows[1:]  # the first row after the header holds units


@cache
def measured(data: Path = DATA) -> dict[str, dict[str, float | None]]:
    """Per case id: the raw counters ncu reported for its one launch."""
    order = json.loads((data / "launch_order.json").read_text())
    rows = ncu_rows(data / "ncu_raw.csv")
    out = {}
    for entry in order:
        if entry.get("ncu_index") is None:
            continue
        row = rows[entry["ncu_index"]]
        assert entry["kernel"] in row["Kernel Name"], (row["Kernel Name"], entry)
        out[entry["id"]] = {k: _number(v) for k, v in row.items()}
    return out


def ratio(counters: dict[str, float | None], numerator: str, denominator: str) -> float | None:
    num, den = counters.get(numerator), counters.get(denominator)
    if not den:
        return None
    return (num or 0.0) / den


def kernel_metrics(counters: dict[str, float | None]) -> dict[str, float | None]:
    """The analyze/1 memory keys as the issue defines them from ncu counters."""
    return {
        "global_load_sectors_per_request": ratio(counters, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                                 "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
        "global_store_sectors_per_request": ratio(counters, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                                                  "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
        "shared_load_wavefronts_per_request": ratio(counters, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                                    "smsp__inst_executed_op_shared_ld.sum"),
        "shared_store_wavefronts_per_request": ratio(counters, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                                                     "smsp__inst_executed_op_shared_st.sum"),
    }
