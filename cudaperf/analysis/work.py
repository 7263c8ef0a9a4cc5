"""FLOPs per launch, counted the way Nsight Compute's roofline counts them.

For each precision: adds + multiplies + 2 x FMAs executed by threads whose predicate is on,
i.e. `smsp__sass_thread_inst_executed_op_{fadd,fmul,ffma}_pred_on.sum` (and the `d`/`h` twins)
combined as ncu's SpeedOfLight roofline does.  Each statement's counts (``arith.py``) are
multiplied by the thread-level executions of its context under the launch: loop trip counts,
guards and the grid all come from the same sampled batches as the memory analyses.  A count that
depends on data (a loop bound read from memory, a branch on loaded values) is not guessed: the
precision's total is null and `reason` says why.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import networkx as nx

from . import graph as access_graph
from .instructions import issued
from .ir import Compute, Loop
from .sampling import Sampler

PRECISIONS = ("fp16", "bf16", "fp32", "fp64")


@dataclass
class Work:
    instructions: dict[str, float]  # "fp32_fma" -> thread-level instructions per launch
    unknown: dict[str, str]  # precision -> why its count depends on data
    issued: dict[str, float] = field(default_factory=dict)  # kind -> warp instructions per launch (instructions.py)

    def flops(self, prec: str) -> float | None:
        if prec in self.unknown:
            return None
        i = self.instructions
        return i.get(f"{prec}_add", 0.0) + i.get(f"{prec}_mul", 0.0) + 2 * i.get(f"{prec}_fma", 0.0)

    def to_json(self) -> dict:
        known = [self.flops(p) for p in PRECISIONS]
        return {
            **{f"flops_{p}": (None if f is None else round(f)) for p, f in zip(PRECISIONS, known)},
            "flops": None if any(f is None for f in known) else round(sum(known)),
            "instructions": {k: round(v) for k, v in sorted(self.instructions.items())},
            "reason": "; ".join(f"{p}: {why}" for p, why in sorted(self.unknown.items())) or None,
            "issued": {k: round(v) for k, v in self.issued.items()},
        }


def work(g: nx.DiGraph, sampler: Sampler) -> Work:
    totals: Counter[str] = Counter()
    unknown: dict[str, str] = {}
    for stmt, context in access_graph.statements(g, Compute):
        batch = sampler.batch(context)
        executions = float((batch.active.sum(axis=1) * batch.weight).sum())
        if context and isinstance(context[-1], Loop) and batch.iterations is not None:
            executions = batch.iterations  # directly in a loop body: every lane's exact trip count
        for key, count in stmt.counts.items():
            totals[key] += count * executions
            if not batch.exact:
                prec = key.split("_", 1)[0]
                loops = [c for c in context if isinstance(c, Loop) and c.id in sampler.unknown_trips]
                averaged = sampler.row_spans.get(loops[0].id) if loops else None
                unknown.setdefault(prec, f"line {stmt.line} runs " + (
                    f"in a loop (line {loops[0].line}) whose trip count depends on data" if loops
                    else "under a condition on loaded data") + (
                    f" (a row taken as {averaged:.3g} entries: its arrays' entries over its rows)" if averaged else ""))
    return Work({k: v for k, v in totals.items() if v}, unknown, issued(g, sampler))
