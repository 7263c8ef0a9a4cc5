"""Memory accesses: each access's warp requests on the sampled lanes, global sectors (coalescing.py),
shared wavefronts (banks.py) and each array's DRAM traffic (dram.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from .. import graph as access_graph
from ..banks import bank_conflicts
from ..budget import check
from ..coalescing import coalescing
from ..divergence import Dependence
from ..dram import ArrayTraffic, dram_fetch_bytes, traffic, unseen_traffic
from ..fields import merge_fields
from ..launch import dimensionality
from ..memory import executions
from ..predication import issue_context
from ..report import AccessReport, KernelReport, rounded
from ..sampling import Sampler
from ..shapes import alternative_blocks, reads_warp_layout
from ..vectorize import vectorised
from . import Context, Feature, Pass, register


def _judge(ctx: Context, access, context, sampler: Sampler, threads: int, seen: dict):
    """The access's report and executions.  Accesses alike in all the judgement reads (space, an
    atomic or not, width, byte offset, and the enclosing loops and branches: a macro-built stencil
    repeats each of them many times) are judged once (`seen`, per sampler)."""
    site = (access.space, access.kind == "atomic", access.size, access.offset, context)
    if site not in seen:
        check()
        batch = sampler.batch(context)
        # shared instruction counters include predicated-off issues; global request counters don't
        issuing = sampler.batch(issue_context(context, ctx.tails)) if access.space == "shared" else None
        issued, per_instruction = vectorised(access, context, batch)
        ex = executions(issued, batch, issuing, ctx.counters, per_instruction, Dependence.of(ctx.kernel))
        seen[site] = (ex, per_instruction, coalescing(ex) if access.space == "global" else None,
                      bank_conflicts(ex) if access.space == "shared" else None)
    ex, per_instruction, coalesced, banks = seen[site]
    report = AccessReport.of(access, ex, threads, per_instruction)
    report.coalescing, report.banks = coalesced, banks
    return report, ex


def _account(arrays: dict[str, ArrayTraffic], array: str, ex, coalesced) -> None:
    """Add one global access's address range and requested sectors to its array's traffic."""
    entry = arrays.setdefault(array, ArrayTraffic(float("inf"), float("-inf"), 0.0))
    if ex.address is None or coalesced.sectors is None:
        entry.unknown = True
        return
    touched = ex.address[ex.active]
    if touched.size:
        entry.low = min(entry.low, float(touched.min()))
        entry.high = max(entry.high, float(touched.max()) + ex.access.size)
    entry.sector_bytes += coalesced.sectors * dram_fetch_bytes(coalesced)


def _global(report: KernelReport) -> list[AccessReport]:
    return [a for a in report.accesses if a.access.space == "global" and a.access.kind != "atomic"]


def _shared(report: KernelReport) -> list[AccessReport]:
    return [a for a in report.accesses if a.access.space == "shared"]


def _efficiency(items, actual, ideal) -> float:
    pairs = [(actual(a), ideal(a)) for a in items if actual(a)]
    total = sum(p[0] for p in pairs)
    return sum(p[1] for p in pairs) / total if total else 1.0


def _global_efficiency(kind: str):
    return lambda r: rounded(_efficiency([a for a in _global(r) if a.access.kind == kind and a.coalescing],
                                         lambda a: a.coalescing.sectors, lambda a: a.coalescing.ideal_sectors))


def _per_thread(requests: float, report: KernelReport) -> float:
    return rounded(requests * 32 / (report.launch.threads_per_block * report.launch.blocks or 1), 4)


def _share(report: KernelReport, which) -> float:
    """Share of executed global requests (loads and stores) that `which` picks."""
    glob = _global(report)
    total = sum(a.requests for a in glob)
    return rounded(sum(a.requests for a in glob if which(a)) / total if total else 0.0)


def _dram_per_thread(report: KernelReport) -> float:
    dram = report.dram
    moved = (dram.read + dram.write) if dram is not None and dram.read is not None else 0.0
    return rounded(moved / (report.launch.threads_per_block * report.launch.blocks or 1), 4)


_SUMMARY = ("global_load_sectors_per_request", "global_store_sectors_per_request", "shared_load_wavefronts_per_request",
            "shared_store_wavefronts_per_request", "dram_bytes_read", "dram_bytes_write", "dram_bytes_at_least")


@register
class Memory(Pass):
    name = "memory"
    phase = "memory accesses"
    key = "memory"
    schema: ClassVar[dict] = {"property": {
        "type": "object",
        "required": [*_SUMMARY, "accesses"],
        "additionalProperties": False,
        "properties": {**{k: {"$ref": "#/$defs/nullable_number"} for k in _SUMMARY},
                       "accesses": {"type": "array", "items": {"$ref": "#/$defs/access"}}}},
        "$defs": {"access": {
            "type": "object",
            "required": ["line", "column", "space", "kind", "array", "bytes", "pattern", "sectors_per_request",
                         "wavefronts_per_request", "executions_per_thread"],
            "additionalProperties": False,
            "properties": {
                "line": {"type": "integer", "minimum": 1},
                "column": {"type": "integer", "minimum": 1},
                "space": {"enum": ["global", "shared", "local", "constant"]},
                "kind": {"enum": ["load", "store", "atomic"]},
                "array": {"type": "string"},
                "bytes": {"type": "integer", "minimum": 0},
                "instruction_bytes": {"type": "integer", "minimum": 0},
                "pattern": {"enum": ["coalesced", "strided", "misaligned", "broadcast", "indirect", "unknown"]},
                "sectors_per_request": {"$ref": "#/$defs/nullable_number"},
                "wavefronts_per_request": {"$ref": "#/$defs/nullable_number"},
                "executions_per_thread": {"$ref": "#/$defs/nullable_number"},
                "index": {"type": "string"},
                "text": {"type": "string"}}}}}
    features = (
        Feature("global_load_sectors_per_request",
                "32-byte sectors per executed global load request (0 without loads)",
                lambda r: rounded(r.sectors_per_request("load")) or 0.0),
        Feature("global_store_sectors_per_request",
                "32-byte sectors per executed global store request (0 without stores)",
                lambda r: rounded(r.sectors_per_request("store")) or 0.0),
        Feature("global_load_efficiency", "ideal over actual global load sectors, 0..1 (1 without loads)",
                _global_efficiency("load"), ranked=True),
        Feature("global_store_efficiency", "ideal over actual global store sectors, 0..1 (1 without stores)",
                _global_efficiency("store"), ranked=True),
        Feature("shared_load_wavefronts_per_request", "wavefronts per executed shared load request (0 without)",
                lambda r: rounded(r.wavefronts_per_request("load")) or 0.0),
        Feature("shared_store_wavefronts_per_request", "wavefronts per executed shared store request (0 without)",
                lambda r: rounded(r.wavefronts_per_request("store")) or 0.0),
        Feature("shared_efficiency", "ideal over actual shared wavefronts, loads and stores, 0..1 (1 without)",
                lambda r: rounded(_efficiency([a for a in _shared(r) if a.banks], lambda a: a.banks.wavefronts,
                                              lambda a: a.banks.ideal_wavefronts)), ranked=True),
        Feature("global_requests_per_thread", "global load+store instructions executed per thread",
                lambda r: _per_thread(sum(a.requests for a in _global(r)), r), ranked=True),
        Feature("shared_requests_per_thread", "shared load+store instructions executed per thread",
                lambda r: _per_thread(sum(a.requests for a in _shared(r)), r), ranked=True),
        Feature("atomic_requests_per_thread", "atomic instructions executed per thread",
                lambda r: _per_thread(sum(a.requests for a in r.accesses if a.access.kind == "atomic"), r),
                ranked=True),
        Feature("indirect_access_fraction", "share of executed global requests with data-dependent addresses",
                lambda r: _share(r, lambda a: a.pattern == "indirect"), ranked=True),
        Feature("uncoalesced_access_fraction", "share of executed global requests that are strided or misaligned",
                lambda r: _share(r, lambda a: a.pattern in ("strided", "misaligned")), ranked=True),
        Feature("vector_access_fraction", "share of executed global requests moving >= 8 bytes per thread",
                lambda r: _share(r, lambda a: a.access.size >= 8), ranked=True),
        Feature("dram_bytes_per_thread", "DRAM bytes read and written per launched thread (0 when unknown)",
                _dram_per_thread, ranked=True),
    )

    def run(self, ctx: Context) -> None:
        report, kernel, launch = ctx.report, ctx.kernel, ctx.launch
        loads: dict[str, ArrayTraffic] = {}
        stores: dict[str, ArrayTraffic] = {}
        contexts, seen = {}, {}
        for access, context in access_graph.accesses(ctx.graph):
            contexts[access.id] = context
            judged, ex = _judge(ctx, access, context, ctx.sampler, ctx.threads, seen)
            if access.space == "global":
                sides = {"load": (loads,), "store": (stores,)}.get(access.kind, (loads, stores))  # atomics: both
                for side in sides:
                    _account(side, access.array, ex, judged.coalescing)
            report.accesses.append(judged)
        merge_fields(kernel, contexts, ctx.sampler, report.accesses, ctx.counters)
        # under a guessed block, accesses whose warps depend on blockDim.x are judged under other
        # plausible shapes too (shapes.py): the rules report what holds under all of them
        layout = [r for r in report.accesses if r.access.space in ("global", "shared") and reads_warp_layout(r.access)]
        for block in alternative_blocks(kernel, launch, dimensionality(kernel)) if layout else ():
            other = replace(launch, block=block)
            shaped, alike = Sampler(other), {}
            judged = [_judge(ctx, r.access, contexts[r.access.id], shaped, other.threads_per_block * other.blocks,
                             alike)[0] for r in layout]
            merge_fields(kernel, contexts, shaped, judged, ctx.counters)
            for r, j in zip(layout, judged):
                r.shapes.append((block, j))
        report.dram = traffic(loads, stores, ctx.arch.l2_bytes, unseen_traffic(kernel))

    def to_json(self, report: KernelReport) -> dict:
        return report.memory_json()
