"""DRAM traffic per launch: what the L2 cannot keep.

Reads: each global array is fetched from DRAM once at sector granularity (64 bytes per sector
when a warp's sectors are scattered), however often threads
re-read it (re-reads of a stencil's neighbours, a vector every row shares: L2 hits), so an array
costs the smaller of its footprint (the span of addresses the launch touches) and the sectors its
loads request.  Writes: stores land in the L2 and reach DRAM only when evicted during the kernel;
measured on the H200, a 16 MiB copy wrote 0.44 MB.  The model evicts the written footprint in
proportion to how far the launch's whole footprint exceeds the L2.  Data-dependent addresses
make a total unknown (null, with the reason); the bytes of the arrays and accesses that are known
stay as a lower bound (`at_least`), which is what the time model prices then rather than nothing.

The roofline's intensity divides by the compulsory traffic instead: the reads, and every written
byte once.  A write the L2 still holds when the kernel ends reaches DRAM afterwards, costing the
bandwidth of whatever runs next; counting it only when evicted during the kernel made small
launches that write their results look compute-bound (simpleVulkanMMAP's Monte Carlo kernel: 18
FLOPs per 12 bytes written read as 896 FLOP per byte).
"""

from __future__ import annotations

from dataclasses import dataclass

from .ir import Kernel, OpaqueMemory, statements

SECTOR = 32
# memory an opaque operation moves through DRAM uncounted; not "unknown" (behind a pointer the lowering
# lost): on the corpora that is mostly a __constant__ table or a struct member (dxtc's prods4, nbody's
# p[i].acc), and counting it unseen silenced six compute-bound kernels that are
UNSEEN_SPACES = ("global", "texture")
SCATTERED_FETCH = 64  # bytes DRAM delivers per requested sector when sectors are scattered (H200)


@dataclass
class ArrayTraffic:
    low: float  # smallest byte offset touched
    high: float  # one past the largest byte touched
    sector_bytes: float  # bytes of the sectors requested at L1
    unknown: bool = False

    @property
    def footprint(self) -> float:
        if self.high <= self.low:  # no lane reached the access under this launch
            return 0.0
        return min(self.high - self.low, self.sector_bytes)


def dram_fetch_bytes(coalescing) -> int:
    """Bytes DRAM moves per requested sector: 32 for dense access, 64 when a warp's sectors are
    scattered one per lane (measured on the H200: stride-32 float loads read 64 B per thread)."""
    spread = coalescing.sectors_per_request
    return SCATTERED_FETCH if coalescing.pattern == "strided" and spread is not None and spread >= 16 else SECTOR


@dataclass
class Dram:
    read: float | None
    write: float | None  # written back during the kernel (what ncu's dram__bytes_write counts)
    reason: str | None
    written: float | None = None  # the written footprint: reaches DRAM during the kernel or after it
    unseen: str | None = None  # an operation whose bytes are not counted: the totals are a lower bound
    at_least: float | None = None  # unknown totals: what the known accesses read and write back

    @property
    def compulsory(self) -> float | None:
        """Bytes the launch moves to and from DRAM sooner or later: the roofline's denominator."""
        return None if self.read is None else self.read + self.written


def unseen_traffic(kernel: Kernel) -> str | None:
    """The first operation that moves DRAM bytes the model does not count: a texture or surface
    fetch, a library call given a global pointer (`cuda::memcpy_async`)."""
    return next((f"`{s.name}` at line {s.line}" for s, _ in statements(kernel)
                 if isinstance(s, OpaqueMemory) and s.space in UNSEEN_SPACES), None)


def traffic(loads: dict[str, ArrayTraffic], stores: dict[str, ArrayTraffic], l2_bytes: int,
            unseen: str | None = None) -> Dram:
    read = sum(t.footprint for t in loads.values())
    written = sum(t.footprint for t in stores.values())
    total = read + written
    evicted = written * max(0.0, (total - l2_bytes) / total) if total else 0.0
    unknown = sorted(name for name, t in {**loads, **stores}.items() if t.unknown)
    if unknown:
        return Dram(None, None, f"addresses of {', '.join(unknown)} depend on data", at_least=read + evicted)
    return Dram(read, evicted, None, written, unseen)
