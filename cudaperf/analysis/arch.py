"""GPU architecture facts, loaded from the one table in data/arch.json (sources cited there)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

TABLE = Path(__file__).with_name("data") / "arch.json"


class UnknownArch(ValueError):
    pass


@dataclass(frozen=True)
class Arch:
    name: str
    product: str
    compute_capability: tuple[int, int]
    sm_count: int
    max_warps_per_sm: int
    max_blocks_per_sm: int
    max_threads_per_block: int
    registers_per_sm: int
    registers_per_block: int
    max_registers_per_thread: int
    register_allocation_unit: int
    sub_partitions: int
    shared_memory_per_sm: int
    shared_memory_per_block: int
    shared_memory_per_block_optin: int
    reserved_shared_memory_per_block: int
    shared_memory_allocation_unit: int
    carveout_steps_kb: tuple[int, ...]
    barriers_per_sm: int | None
    peak_tflops: dict  # dense, non-tensor-core TFLOP/s per precision
    dram_bandwidth_gbs: float
    l2_bytes: int
    tensor_tflops: dict  # dense tensor-core TFLOP/s per precision (fp16 and bf16 with FP32 accumulate)
    # atomic forms (Access.operation) nvcc applies once per warp when all lanes name one address:
    # {"result_unused": [...], "result_read": [...]}, measured from SASS
    aggregated_atomics: dict

    @property
    def ridge_point(self) -> float:
        """FP32 FLOP per DRAM byte at which the roofline turns from memory- to compute-bound."""
        return self.peak_tflops["fp32"] * 1e12 / (self.dram_bandwidth_gbs * 1e9)


@cache
def _table() -> dict:
    return json.loads(TABLE.read_text())["archs"]


def names() -> list[str]:
    return sorted(_table(), key=lambda n: int(n[3:]))


@cache
def get(name: str) -> Arch:
    """`sm_90`, `sm_90a` or `90`; raises UnknownArch with the known names."""
    key = name if name.startswith("sm_") else f"sm_{name}"
    key = key.rstrip("a")
    row = _table().get(key)
    if row is None:
        raise UnknownArch(f"unknown architecture {name!r}; known: {', '.join(names())}")
    return Arch(name=key, **{k: tuple(v) if isinstance(v, list) else v for k, v in row.items()})
