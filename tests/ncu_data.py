"""The committed Nsight Compute measurements of the kernel sets (tests/data/h200), joined with their
manifests.  Reading the CSV and turning counters into measured values is the package's job
(``cudaperf.analysis.dynamic``); this module only maps ncu rows to manifest case ids."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from cudaperf.analysis.analyzer import Options
from cudaperf.analysis.dynamic.document import kernel_entry
from cudaperf.analysis.dynamic.ncu_csv import read

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


@cache
def measured(data: Path = DATA) -> dict[str, dict]:
    """Per case id: the profile/1 kernel entry (``measured``, ``counters``, ``launch``) of its one launch."""
    order = json.loads((data / "launch_order.json").read_text())
    rows = read(data / "ncu_raw.csv")
    out = {}
    for entry in order:
        if entry.get("ncu_index") is None:
            continue
        kernel = kernel_entry(rows[entry["ncu_index"]])
        assert entry["kernel"] in kernel["name"], (kernel["name"], entry)
        out[entry["id"]] = kernel
    return out
