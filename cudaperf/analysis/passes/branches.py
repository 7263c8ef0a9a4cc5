"""Branch uniformity: whether each branch and loop condition can differ inside a warp, a block or
the grid, and in what share of the warps that reach it (divergence.py)."""

from __future__ import annotations

from typing import ClassVar

from .. import graph as access_graph
from ..budget import check
from ..divergence import LEVELS, BranchUniformity, Dependence, condition_level, divergence_sampler, uniformity
from ..predication import predicated
from ..report import BranchReport, KernelReport, rounded
from . import Context, Feature, Pass, register


def _divergent_warp_fraction(report: KernelReport) -> float:
    executing = [b.result.divergent_fraction for b in report.branches if b.result.divergent_fraction is not None]
    return rounded(sum(executing) / len(executing) if executing else 0.0)


@register
class Branches(Pass):
    name = "branches"
    key = "branches"
    schema: ClassVar[dict] = {"property": {"type": "array", "items": {"$ref": "#/$defs/branch"}},
              "$defs": {"branch": {
                  "type": "object",
                  "required": ["line", "kind", "condition", "uniformity"],
                  "additionalProperties": False,
                  "properties": {"line": {"type": "integer", "minimum": 1},
                                 "kind": {"enum": ["if", "select", "case", "loop"]},
                                 "condition": {"type": "string"},
                                 "uniformity": {"enum": ["thread", "warp", "block", "grid"]},
                                 "divergent_fraction": {"$ref": "#/$defs/nullable_number"},
                                 "jump": {"type": "boolean"}}}}}
    features = (
        Feature("thread_divergent_branches", "branches and loop conditions that may differ inside a warp",
                lambda r: float(sum(b.result.uniformity == "thread" for b in r.branches)), ranked=True),
        Feature("divergent_warp_fraction", "share of executing warps, over all branches, whose lanes disagree",
                _divergent_warp_fraction, ranked=True),
        Feature("branches", "conditional branches and loop conditions (including early exits) in the kernel",
                lambda r: float(len(r.branches))),
    )

    def run(self, ctx: Context) -> dict[int, BranchUniformity]:
        """Each branch's and loop's uniformity by its id (the sync pass reads them)."""
        launch, tails = ctx.launch, ctx.tails
        arguments = [f"arg:{name}" for name in launch.args]
        every_warp = divergence_sampler(ctx.kernel, launch, arguments)
        dependence = Dependence.of(ctx.kernel)
        uniform: dict[int, BranchUniformity] = {}
        found, seen = [], {}
        for b, context in access_graph.branches(ctx.graph):
            site = (b.condition, context)  # a macro-built kernel repeats conditions: judged once
            if site not in seen:
                check()
                seen[site] = uniformity(b.condition, every_warp.batch(context), dependence, arguments,
                                        block_given="block" not in launch.guessed)
            uniform[b.id] = seen[site]
            jump = b.kind == "case" or not (b.exits or b.id in tails or predicated(b))  # switches branch
            found.append(BranchReport(b.line, b.kind, b.text, uniform[b.id], jump))
        for loop, context in access_graph.loops(ctx.graph):
            check()
            # a condition no thread decides on its own is judged by whether any warp reaches the
            # loop, which its context's batch tells as well as the loop's (whose lanes repeat it):
            # the loop is then not entered for it
            uniform_loop = condition_level(loop.condition, dependence, loop) < LEVELS.index("thread")
            batch = every_warp.batch(context) if uniform_loop else every_warp.exits(context, loop)
            uniform[loop.id] = uniformity(loop.condition, batch, dependence, arguments, loop,
                                          block_given="block" not in launch.guessed)
            found.append(BranchReport(loop.line, "loop", loop.text, uniform[loop.id]))
        ctx.report.branches.extend(sorted(found, key=lambda b: b.line))
        return uniform

    def to_json(self, report: KernelReport) -> list:
        return [b.to_json() for b in report.branches]
