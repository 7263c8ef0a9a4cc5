"""The timed KernelBench-style corpora estimated again by the working tree's analyzer and time model,
scored beside the estimates committed before each was timed (which docs/ranking.md's tables keep).

    python benchmarks/kb_reestimate.py OUT_DIR [CORPUS ...]     # default: every timed corpus of CORPORA

Writes OUT_DIR/<corpus>.jsonl.gz (as `python -m cudaperf.rl.dataset.kb_measured features` does; an
existing file is reused, so delete it after changing the analyzer) and prints, per corpus and pooled,
each ordering's accuracy on pairs >= 1.25x apart and its within-task Spearman, committed -> now.  A
change judged on these corpora is judged on data it was tuned on: say so beside any figure from here.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import sys
from pathlib import Path

import numpy as np

from cudaperf.rl import rank_train
from cudaperf.rl.dataset import kb_measured

ORDERINGS = ("ranker", "untrained time estimate", "structural reward at the task's shapes")


def metrics(corpus: kb_measured.Corpus) -> dict[str, tuple[float, int, float]]:
    """Ordering -> (accuracy on pairs >= 1.25x, pairs, mean within-task Spearman)."""
    items = kb_measured.samples(corpus)
    scored = kb_measured.scores(items)
    out = {}
    for name in ORDERINGS:
        m = rank_train.group_metrics(np.array(scored[name], dtype=float), items)
        out[name] = (m["accuracy_1.25"], m["pairs_1.25"], m["spearman"])
    return out


def main(out_dir: str, names: list[str]) -> int:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    names = names or [n for n, c in kb_measured.CORPORA.items() if c.timed]
    pooled: dict[str, list[float]] = {name: [0.0, 0.0, 0.0] for name in ORDERINGS}
    for corpus_name in names:
        corpus = kb_measured.CORPORA[corpus_name]
        path = out / f"{corpus_name}.jsonl.gz"
        if not path.exists():
            rows = kb_measured.rows(corpus)
            with gzip.open(path, "wt") as f:
                f.writelines(json.dumps(r) + "\n" for r in rows)
        before, now = metrics(corpus), metrics(dataclasses.replace(corpus, features=path))
        cells = []
        for name in ORDERINGS:
            (a0, pairs, r0), (a1, _, r1) = before[name], now[name]
            pooled[name][0] += a0 * pairs
            pooled[name][1] += a1 * pairs
            pooled[name][2] += pairs
            cells.append(f"{name}: {a0:.1%} -> {a1:.1%} (rho {r0:.2f} -> {r1:.2f})")
        print(f"{corpus_name} ({before['ranker'][1]} pairs): " + "; ".join(cells), flush=True)
    print("pooled: " + "; ".join(f"{name}: {p[0] / p[2]:.1%} -> {p[1] / p[2]:.1%} of {int(p[2])}"
                                 for name, p in pooled.items() if p[2]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
