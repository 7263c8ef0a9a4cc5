"""Every convolution CUDA-L1's references ran on the H200, as the tracer records it beside the kernel time
the profile measured: the ground truth `torch_ops.conv_seconds` is fitted (tuning half) and checked
(held-out half) against.

The profile (`torch_ops_h200.py`, tests/data/h200/cuda_l1/torch_ops.jsonl.gz) has each operator's input
shapes but not its stride, padding or groups; the tracer's records (the traces `cuda_l1 features` keeps
per task) have the implicit GEMM those give.  A task's convolutions pair in the order they ran; a task
whose counts differ, or whose weight shapes disagree, is left out.

    python3 benchmarks/cuda_l1_convolutions.py TRACES_DIR OUT.jsonl.gz
"""

from __future__ import annotations

import gzip
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from cudaperf.rl.dataset.cuda_l1 import split  # noqa: E402

PROFILE = ROOT / "tests/data/h200/cuda_l1/torch_ops.jsonl.gz"


def _convolutions(nodes):
    """The outermost `aten::convolution` nodes, in the order they ran."""
    for node in nodes:
        if node["n"] == "aten::convolution":
            yield node
        else:
            yield from _convolutions(node.get("c", []))


def _kernel_us(node) -> float:
    return sum(k[1] for k in node["k"]) + sum(_kernel_us(c) for c in node.get("c", []))


def _weights_agree(op: dict, weight: list) -> bool:
    """Whether the tracer's implicit GEMM is the one the profiled weight gives (`trace._implicit_gemm`)."""
    _, n, k, groups = op["gemm"]
    volume = math.prod(weight[2:])
    if op.get("transposed"):                    # (in, out / groups, filter...)
        return n == weight[1] and k == weight[0] // groups * volume
    return n * groups == weight[0] and k == weight[1] * volume


def main(traces: Path, out: Path) -> None:
    rows = []
    with gzip.open(PROFILE, "rt") as stream:
        for row in map(json.loads, stream):
            kept = traces / f"{row['task']}.json"
            if row["solution"] != "reference" or row["error"] or not kept.exists():
                continue
            ops = [o for o in json.loads(kept.read_text()).get("reference_ops") or [] if o.get("gemm")]
            nodes = list(_convolutions(row["ops"]))
            if len(ops) != len(nodes) or not all(_weights_agree(o, n["s"][1]) for o, n in zip(ops, nodes)):
                continue
            rows += [{"task": row["task"], "split": split(row["task"]), "op": o, "kernel_us": round(_kernel_us(n), 2)}
                     for o, n in zip(ops, nodes)]
    with gzip.open(out, "wt") as stream:
        stream.writelines(json.dumps(r) + "\n" for r in rows)
    print(f"{len(rows)} convolutions of {len({r['task'] for r in rows})} tasks", file=sys.stderr)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
