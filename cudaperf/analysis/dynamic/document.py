"""The ``cudaperf.profile/1`` document: measured reports with the keys ``analyze`` uses.

``{"schema", "device", "kernels": [{"name", "signature", "launch", "measured", "counters"}]}``, one
kernel entry per profiled launch in the order Nsight Compute wrote them.  ``measured`` mirrors the
sections of a ``cudaperf.analyze/1`` kernel (memory, occupancy, resources, compute) plus branches
and time; ``counters`` keeps the raw values they were computed from.  The JSON schema is
``data/profile.schema.json``.
"""

from __future__ import annotations

from pathlib import Path

from .counters import LAUNCH_COUNTERS, METRICS, Counters, measurements
from .device import from_ncu
from .ncu_csv import NcuRow, read

SCHEMA = "cudaperf.profile/1"
SCHEMA_FILE = Path(__file__).resolve().parents[1] / "data" / "profile.schema.json"


def kernel_name(signature: str) -> str:
    """``void tile<32, 8>(const float *, int)`` -> ``tile<32, 8>``: ncu's demangled name without the
    parameter list and the return type it prints for template instances."""
    name = signature.strip()
    if name.endswith(")"):
        depth = 0
        for i in range(len(name) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(name[i], 0)
            if depth == 0:
                name = name[:i]
                break
    depth, start = 0, 0
    for i, ch in enumerate(name):
        depth += {"<": 1, ">": -1}.get(ch, 0)
        if ch == " " and depth == 0:
            start = i + 1
    return name[start:].strip()


def _dims(row: NcuRow, column: str, prefix: str) -> list[int]:
    text = row.text(column)
    if text and text.startswith("("):
        return [int(v.replace(",", "")) for v in text.strip("()").split(", ")]
    return [int(row.number(f"{prefix}_{axis}") or 1) for axis in "xyz"]


def launch_of(row: NcuRow) -> dict:
    return {"grid": _dims(row, "Grid Size", "launch__grid_dim"), "block": _dims(row, "Block Size", "launch__block_dim"),
            "dynamic_smem": int(row.number("launch__shared_mem_per_block_dynamic") or 0)}


def counters_of(row: NcuRow) -> Counters:
    """The curated metrics and launch values the row has, in base units."""
    return {m: row.number(m) for m in (*METRICS, *LAUNCH_COUNTERS) if m in row.values}


def kernel_entry(row: NcuRow) -> dict:
    counters = counters_of(row)
    signature = row.text("Kernel Name") or ""
    return {"name": kernel_name(signature), "signature": signature, "launch": launch_of(row),
            "measured": measurements(counters), "counters": counters}


def document(device: dict | None, kernels: list[dict]) -> dict:
    return {"schema": SCHEMA, "device": device, "kernels": kernels}


def from_rows(rows: list[NcuRow]) -> dict:
    """A profile document from parsed rows; the device is the first row's (one device per file)."""
    return document(from_ncu(rows[0]) if rows else None, [kernel_entry(r) for r in rows])


def select(doc: dict, kernel: str | None) -> dict:
    """Only the kernels named ``kernel`` (with or without template arguments); all when None."""
    if kernel is None:
        return doc
    return {**doc, "kernels": [k for k in doc["kernels"] if kernel in (k["name"], k["name"].split("<")[0])]}


def import_ncu_csv(path: str | Path) -> dict:
    return from_rows(read(path))
