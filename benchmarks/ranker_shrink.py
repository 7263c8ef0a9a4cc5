"""How strongly the ranker's weights other than the total's are shrunk: leave one family out over the 27
training families (the kernel dataset's and the model-style candidates'), for each strength.

    python benchmarks/ranker_shrink.py [STRENGTH ...]    # default: 0 0.03 0.1 0.3 1 3 30

Each family is scored by a ranker fitted on the other 26 with that strength (`rank_train.fit(...,
shrink=)`); the table gives the mean of the families' accuracy on pairs >= 1.25x apart and the pooled
accuracy, and the total alone (the untrained estimate) for comparison.  `rank_train.SHRINK` is this
table's best mean (docs/ranking.md, "Weights shrunk toward the total").  Training data only: no
held-out set is read.  Needs scipy (`pip install '.[ml]'`); about 10 CPU seconds per strength.
"""

from __future__ import annotations

import sys

import numpy as np

from cudaperf.rl import rank_train


def lofo(items: list, names: list[str], x: np.ndarray, shrink: float | None) -> tuple[float, float]:
    """Mean of families and pooled accuracy at >= 1.25x; `shrink` None scores by the total alone."""
    families = np.array([s.family for s in items])
    total = names.index(rank_train.TOTAL)
    scores = -x[:, total].copy()
    if shrink is not None:
        for family in sorted(set(families)):
            train, test = np.flatnonzero(families != family), np.flatnonzero(families == family)
            ranker = rank_train.fit([items[i] for i in train], names, x[train], shrink=shrink)
            scores[test] = (x[test] / ranker.scale) @ ranker.weights
    rates, right, pairs = [], 0.0, 0
    for family in sorted(set(families)):
        test = np.flatnonzero(families == family)
        m = rank_train.group_metrics(scores[test], [items[i] for i in test])
        if m["pairs_1.25"]:
            rates.append(m["accuracy_1.25"])
            right, pairs = right + m["accuracy_1.25"] * m["pairs_1.25"], pairs + m["pairs_1.25"]
    return float(np.mean(rates)), right / pairs


def main(argv: list[str]) -> int:
    strengths = [float(a) for a in argv] or [0.0, 0.03, 0.1, 0.3, 1.0, 3.0, 30.0]
    items = rank_train.all_samples()
    names, x = rank_train.matrix(items)
    print("| shrink | mean of families | pooled |\n| --- | ---: | ---: |")
    for shrink in [*strengths, None]:
        mean, pooled = lofo(items, names, x, shrink)
        print(f"| {'the total alone' if shrink is None else shrink} | {mean:.2%} | {pooled:.2%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
