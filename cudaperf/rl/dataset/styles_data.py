"""The model-style candidates' committed data: what the H200 measured (`measure_styles`) joined with
what the CPU estimates (`candidates.estimate` at each configuration's shapes), as ranker samples.

    python -m cudaperf.rl.dataset.styles_data features tests/data/h200/styles/features.jsonl.gz

Per (task, configuration, candidate) the features file holds the summed time terms, the counts the
trivial baselines use (CUDA lines, launches), the wrapper values inferred at the configuration's
shapes, and per kernel launch its grid, block, estimated seconds and analyzer features (from which
the structural reward at the task's shapes is computed)."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

from .load import DEFAULT, Sample, read_jsonl

STYLES = DEFAULT.parent / "styles"
RECORDS, FEATURES = "records.jsonl.gz", "features.jsonl.gz"


def cuda_lines(source: str) -> int:
    """Lines of CUDA/C++ text in a candidate (the "more code is faster" baseline)."""
    from ...rewards.execution.gate_python import cuda_strings
    from ...rewards.execution.pysource import parse as parse_python

    try:
        texts = cuda_strings(parse_python(source))
        return sum(len([ln for ln in text.splitlines() if ln.strip()]) for text, _ in texts)
    except SyntaxError:
        return 0


def estimate_row(est, source: str) -> dict:
    """What the features files keep of one candidate's estimate (`candidates.Estimate`)."""
    return {"terms": est.terms, "reference_terms": est.reference_terms, "reason": est.reason,
            "guess": est.guess, "unknown": est.unknown, "note": est.note,
            "launches": est.launch_count(), "lines": cuda_lines(source), "inferred": est.sizes,
            "kernels": [{"kernel": k.kernel, "count": k.count, "grid": k.grid, "block": k.block,
                         "launch": k.launch_source, "seconds": k.terms["total"],
                         "features": k.report["features"]} for k in est.launches],
            "torch_ops": [o["op"] for o in est.torch_ops]}


def row_structural(row: dict, reference_terms: dict | None, config) -> float:
    """The structural reward at the task's shapes of one features row (`estimate_row`) against its
    reference's summed terms (`structural.score_at_shapes`)."""
    from ...rewards.structural import score_at_shapes

    return score_at_shapes([(k["kernel"], k["features"], k["count"] * k["seconds"]) for k in row["kernels"]],
                           row["terms"], reference_terms, config).score


def rows(families: tuple[str, ...] = ()) -> list[dict]:
    """Every (task, configuration, candidate) estimated at the configuration's shapes (of `families`
    only, when given)."""
    from ...costmodel.candidates import estimate
    from .styles import all_tasks

    out = []
    for task in (t for t in all_tasks() if not families or t.family in families):
        for cfg in task.configs:
            codes = [c.source for c in task.candidates]
            for cand, est in zip(task.candidates, estimate(task.reference, codes, cfg["sizes"],
                                                          [c.cand_id for c in task.candidates])):
                out.append({"task_id": task.task_id, "impl_id": cand.cand_id, "config_id": cfg["config_id"],
                            **estimate_row(est, cand.source)})
                print(task.task_id, cfg["config_id"], cand.cand_id, est.seconds, est.reason, file=sys.stderr)
    return out


def samples(data: str | Path = STYLES) -> list[Sample]:
    """Verified measurements joined with their estimates; `inputs` carries the summed `terms` and
    the baselines' counts."""
    from ...rewards.config import RewardConfig

    config = RewardConfig()
    data = Path(data)
    feats = {(r["task_id"], r["impl_id"], r["config_id"]): r for r in read_jsonl(data / FEATURES)}
    found = []
    for r in read_jsonl(data / RECORDS):
        f = feats.get((r["task_id"], r["cand_id"], r["config_id"]))
        if r.get("verified") and r.get("time_ms") and f is not None and f["terms"] is not None:
            found.append(Sample(r["task_id"], r["config_id"], r["cand_id"], r["time_ms"],
                                {"terms": f["terms"], "launches": f["launches"], "lines": f["lines"],
                                 "structural": row_structural(f, f["reference_terms"], config),
                                 "reference_ms": r["reference_ms"]}))
    return found


def write_features(argv: list[str], prog: str, make_rows) -> int:
    """`python -m PROG features OUT.jsonl.gz`: the rows `make_rows()` returns, one JSON line each."""
    if len(argv) != 2 or argv[0] != "features":
        print(f"usage: python -m {prog} features OUT.jsonl.gz", file=sys.stderr)
        return 2
    with gzip.open(argv[1], "wt") as f:
        for row in make_rows():
            f.write(json.dumps(row, sort_keys=True) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    return write_features(sys.argv[1:] if argv is None else argv, "cudaperf.rl.dataset.styles_data", rows)


if __name__ == "__main__":
    sys.exit(main())
