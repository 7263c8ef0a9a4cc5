"""Theoretical occupancy, exactly as `cudaOccupancyMaxActiveBlocksPerMultiprocessor` computes it.

Reimplements the rules of NVIDIA's cuda_occupancy.h (see shared/reference/occupancy.md): blocks
per SM are the minimum of five limits.

- registers: allocated per warp in units of 256 and per sub-partition (an SM's 65,536 registers
  are four pools of 16,384); a block that does not fit the per-block register file, even when
  its warps are rounded up to a multiple of four (the hardware check), does not launch;
- warps: the SM's warp slots over the block's warps;
- blocks: the SM's block slots;
- shared memory: static + dynamic + the driver's reserved 1 KB per block, rounded to 128 bytes,
  against the carveout the preference selects (the smallest step that holds the preference and
  at least one block); more than 48 KB per block needs the opt-in attribute;
- barriers (compute capability 9.0 and newer): 64 named barriers per SM.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import arch as archs

LIMITERS = ("warps", "registers", "shared_memory", "barriers", "blocks")


@dataclass(frozen=True)
class Occupancy:
    arch: str
    block_size: int
    active_blocks_per_sm: int
    theoretical: float  # active warps over the SM's maximum, 0..1
    limiter: str | None  # which limit binds (None when the block cannot launch for another reason)
    limits: dict[str, int | None]  # blocks per SM each resource allows (None: unlimited)
    shared_memory_pool: int | None  # bytes of the carveout chosen
    error: str | None = None  # why nothing fits, when active_blocks_per_sm is 0

    @property
    def active_warps_per_sm(self) -> int:
        return self.active_blocks_per_sm * math.ceil(self.block_size / 32)

    def to_json(self) -> dict:
        return {"theoretical": round(self.theoretical, 4), "active_blocks_per_sm": self.active_blocks_per_sm,
                "active_warps_per_sm": self.active_warps_per_sm, "limiter": self.limiter,
                "limits": dict(self.limits), "shared_memory_pool": self.shared_memory_pool, "error": self.error}


def _round_up(x: int, unit: int) -> int:
    return -(-x // unit) * unit


def _register_limit(a: archs.Arch, warps: int, registers: int) -> tuple[int | None, str | None]:
    if registers <= 0:
        return None, None
    if registers > a.max_registers_per_thread:
        return 0, f"{registers} registers per thread exceed the limit of {a.max_registers_per_thread}"
    per_warp = _round_up(registers * 32, a.register_allocation_unit)
    hardware_check = per_warp * _round_up(warps, a.sub_partitions)  # warps rounded to whole sub-partitions
    if hardware_check > a.registers_per_block or per_warp * warps > a.registers_per_block:
        return 0, f"{registers} registers x {warps * 32} threads exceed the {a.registers_per_block}-register " \
                  "block limit"
    per_partition = a.registers_per_sm // a.sub_partitions
    return (per_partition // per_warp) * a.sub_partitions // warps, None


def _shared_memory_limit(a: archs.Arch, static_smem: int, dynamic_smem: int, carveout: int | None,
                         max_dynamic_smem: int | None) -> tuple[int | None, int | None, str | None]:
    """(blocks, pool bytes, error).  Dynamic shared memory may use what the block's static part
    leaves of the default 48 KB, or the function's maximum if that was raised above it (a lowered
    attribute does not lower the API's answer: measured on the H200)."""
    per_block = static_smem + dynamic_smem
    dynamic_allowed = a.shared_memory_per_block - static_smem
    if max_dynamic_smem is not None:
        dynamic_allowed = max(dynamic_allowed, max_dynamic_smem)
    if dynamic_smem > dynamic_allowed:
        hint = " (raise cudaFuncAttributeMaxDynamicSharedMemorySize)" if max_dynamic_smem is None else ""
        return 0, None, f"{dynamic_smem} bytes of dynamic shared memory exceed the {dynamic_allowed} allowed{hint}"
    if per_block > a.shared_memory_per_block_optin:
        return 0, None, f"{per_block} bytes of shared memory per block exceed {a.shared_memory_per_block_optin}"
    allocated = _round_up(per_block + a.reserved_shared_memory_per_block, a.shared_memory_allocation_unit)
    steps = [kb * 1024 for kb in a.carveout_steps_kb]
    if carveout is None or carveout < 0:
        pool = a.shared_memory_per_sm
    else:
        wanted = math.ceil(min(carveout, 100) / 100 * a.shared_memory_per_sm)
        pool = next((s for s in steps if s >= wanted), steps[-1])
    if pool < allocated:  # the preference is ignored when a block would not fit
        pool = next((s for s in steps if s >= allocated), steps[-1])
    if static_smem + dynamic_smem == 0 and a.reserved_shared_memory_per_block == 0:
        return None, pool, None
    return pool // allocated, pool, None


def occupancy(arch: str, block_size: int, registers_per_thread: int, static_smem: int = 0, dynamic_smem: int = 0,
              carveout: int | None = None, max_dynamic_smem: int | None = None,
              barriers: int = 1) -> Occupancy:
    """Blocks per SM and theoretical occupancy of one launch configuration.

    `carveout` is the preferred shared-memory carveout in percent (None or -1: the default, the
    whole shared memory); `max_dynamic_smem` is the function's
    cudaFuncAttributeMaxDynamicSharedMemorySize when raised above the 48 KB default (None: not
    raised); `barriers` is the number of named barriers the kernel uses (ptxas reports it)."""
    a = archs.get(arch)
    if not 1 <= block_size <= a.max_threads_per_block:
        return Occupancy(a.name, block_size, 0, 0.0, None, {}, None,
                         f"block size {block_size} outside 1..{a.max_threads_per_block}")
    warps = math.ceil(block_size / 32)
    errors = []
    registers, error = _register_limit(a, warps, registers_per_thread)
    errors.append(error)
    shared, pool, error = _shared_memory_limit(a, static_smem, dynamic_smem, carveout, max_dynamic_smem)
    errors.append(error)
    barrier_limit = a.barriers_per_sm // barriers if a.barriers_per_sm and barriers > 0 else None
    limits = {"warps": a.max_warps_per_sm // warps, "registers": registers, "shared_memory": shared,
              "barriers": barrier_limit, "blocks": a.max_blocks_per_sm}
    bounded = {k: v for k, v in limits.items() if v is not None}
    blocks = min(bounded.values())
    limiter = min(LIMITERS, key=lambda k: (bounded.get(k, math.inf), LIMITERS.index(k)))
    error = next((e for e in errors if e), None)
    return Occupancy(a.name, block_size, blocks, blocks * warps / a.max_warps_per_sm,
                     limiter if blocks or not error else None, limits, pool, error if not blocks else None)
