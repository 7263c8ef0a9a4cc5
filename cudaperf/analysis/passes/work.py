"""Work: floating-point operations per precision on the sampled lanes (work.py), and where the kernel
sits on the roofline with the memory pass's DRAM bytes."""

from __future__ import annotations

from typing import ClassVar

from ..report import KernelReport, rounded
from ..work import work
from . import Context, Feature, Pass, register


def _per_thread(report: KernelReport) -> float:
    flops = (report.compute_json() or {}).get("flops")
    return rounded((flops or 0.0) / (report.launch.threads_per_block * report.launch.blocks or 1), 4)


@register
class Work(Pass):
    name = "work"
    key = "compute"
    schema: ClassVar[dict] = {"property": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/compute"}]},
              "$defs": {"compute": {
                  "type": "object",
                  "required": ["flops_fp16", "flops_bf16", "flops_fp32", "flops_fp64", "flops", "instructions",
                               "reason", "issued", "arithmetic_intensity", "bound"],
                  "additionalProperties": False,
                  "properties": {"flops_fp16": {"type": ["integer", "null"]},
                                 "flops_bf16": {"type": ["integer", "null"]},
                                 "flops_fp32": {"type": ["integer", "null"]},
                                 "flops_fp64": {"type": ["integer", "null"]},
                                 "flops": {"type": ["integer", "null"]},
                                 "instructions": {"type": "object", "additionalProperties": {"type": "integer"}},
                                 "reason": {"type": ["string", "null"]},
                                 "issued": {"type": "object", "additionalProperties": {"type": "integer"}},
                                 "arithmetic_intensity": {"type": ["number", "null"], "minimum": 0},
                                 "bound": {"enum": ["memory", "compute", None]}}}}}
    features = (
        Feature("flops_per_thread", "FLOPs per launched thread (add + mul + 2 x fma, all precisions; 0 when unknown)",
                _per_thread, ranked=True),
        Feature("arithmetic_intensity",
                "FLOP per compulsory DRAM byte: reads and every written byte (0 when unknown)",
                lambda r: rounded((r.compute_json() or {}).get("arithmetic_intensity") or 0.0, 4)),
    )

    def run(self, ctx: Context) -> None:
        ctx.report.work = work(ctx.graph, ctx.sampler)

    def to_json(self, report: KernelReport) -> dict | None:
        return report.compute_json()
