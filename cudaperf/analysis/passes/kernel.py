"""What the lowered kernel and its launch say without sampling: loops, barriers, shared arrays, the
launch's shape, registers, and the theoretical occupancy (occupancy.py).  Runs for every report."""

from __future__ import annotations

from ..ir import Barrier, Loop, statements
from ..occupancy import occupancy
from ..report import KernelReport, rounded
from . import Context, Feature, Pass, register


def _loops(report: KernelReport) -> list[Loop]:
    return [s for s, _ in statements(report.kernel) if isinstance(s, Loop)]


def _depth(report: KernelReport) -> float:
    return float(max((sum(isinstance(x, Loop) for x in ctx) + 1 for s, ctx in statements(report.kernel)
                      if isinstance(s, Loop)), default=0))


def _barriers(report: KernelReport) -> list:
    return [(s, ctx) for s, ctx in statements(report.kernel) if isinstance(s, Barrier) and s.scope == "block"]


@register
class KernelShape(Pass):
    name = "kernel"
    always = True
    features = (
        Feature("loops", "loops in the kernel (after inlining)", lambda r: float(len(_loops(r)))),
        Feature("max_loop_depth", "deepest loop nesting", _depth, ranked=True),
        Feature("unrolled_loops", "loops with #pragma unroll",
                lambda r: float(sum(1 for loop in _loops(r) if loop.unroll is not None)), ranked=True),
        Feature("barriers", "block-level barriers in the source", lambda r: float(len(_barriers(r))), ranked=True),
        Feature("barriers_in_loops", "block-level barriers inside loops",
                lambda r: float(sum(1 for _, ctx in _barriers(r) if any(isinstance(x, Loop) for x in ctx))),
                ranked=True),
        Feature("shared_arrays", "shared-memory arrays declared", lambda r: float(len(r.kernel.shared))),
        Feature("uses_dynamic_shared", "1 if the kernel declares extern (dynamic) shared memory",
                lambda r: float(any(s.dynamic for s in r.kernel.shared))),
        Feature("block_threads", "threads per block of the analysed launch",
                lambda r: float(r.launch.threads_per_block)),
        Feature("grid_blocks", "blocks of the analysed launch", lambda r: float(r.launch.blocks)),
        Feature("registers_per_thread", "registers per thread (ptxas, or the estimate)",
                lambda r: float(r.resources.registers_per_thread) if r.resources else 0.0, ranked=True),
        Feature("occupancy_theoretical", "theoretical occupancy under the launch, 0..1",
                lambda r: rounded(r.occupancy.theoretical) if r.occupancy else 0.0, ranked=True),
    )

    def run(self, ctx: Context) -> None:
        report, launch, arch = ctx.report, ctx.launch, ctx.arch
        resources = report.resources
        report.occupancy = occupancy(
            arch.name, launch.threads_per_block, resources.registers_per_thread, resources.static_smem,
            launch.dynamic_smem, barriers=resources.barriers,
            max_dynamic_smem=launch.dynamic_smem if resources.static_smem + launch.dynamic_smem >
            arch.shared_memory_per_block else None)
