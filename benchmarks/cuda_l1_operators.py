"""Every torch operator CUDA-L1's references ran on the H200, as the tracer records it beside the kernel
time the profile measured: the ground truth the torch side's rates (`costmodel.torch_ops`) are fitted
on (tuning half) and checked against (held-out half).

The profile (`torch_ops_h200.py`, tests/data/h200/cuda_l1/torch_ops.jsonl.gz) has each operator's input
shapes but not its other arguments (a convolution's stride, padding and groups, a pooling's window); the
tracer's records (the traces `cuda_l1 features` keeps per task) have what those give.  A task's
operators of one name pair in the order they ran, each with the outermost profiled node of that name;
a task whose counts of a name differ, or whose convolution weights disagree, keeps none of that name.

    python3 benchmarks/cuda_l1_operators.py TRACES_DIR OUT.jsonl.gz
"""

from __future__ import annotations

import gzip
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from cudaperf.rl.dataset.cuda_l1 import split  # noqa: E402

PROFILE = ROOT / "tests/data/h200/cuda_l1/torch_ops.jsonl.gz"


def _outermost(nodes, names: set[str]):
    """The outermost profiled nodes whose aten name is one of `names`, in the order they ran."""
    for node in nodes:
        if node["n"].removeprefix("aten::") in names:
            yield node
        else:
            yield from _outermost(node.get("c", []), names)


def _kernel_us(node) -> float:
    return sum(k[1] for k in node["k"]) + sum(_kernel_us(c) for c in node.get("c", []))


def _agrees(op: dict, node: dict) -> bool:
    """Whether a convolution's implicit GEMM is the one the profiled weight gives (`trace._implicit_gemm`);
    any other operator pairs by name and order alone."""
    if "gemm" not in op:
        return True
    weight = node["s"][1]
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
            by_name: dict[str, list[dict]] = defaultdict(list)
            for op in json.loads(kept.read_text()).get("reference_ops") or []:
                by_name[op["op"]].append(op)
            for name, ops in by_name.items():
                nodes = list(_outermost(row["ops"], {name}))
                if len(ops) == len(nodes) and all(_agrees(o, n) for o, n in zip(ops, nodes)):
                    rows += [{"task": row["task"], "split": split(row["task"]), "op": o,
                              "kernel_us": round(_kernel_us(n), 2)} for o, n in zip(ops, nodes)]
    with gzip.open(out, "wt") as stream:
        stream.writelines(json.dumps(r) + "\n" for r in rows)
    print(f"{len(rows)} operators of {len({r['task'] for r in rows})} tasks", file=sys.stderr)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
