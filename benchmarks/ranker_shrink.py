"""How strongly the ranker's weights other than the total's are shrunk: leave one family out over the 27
training families (the kernel dataset's and the model-style candidates'), for each strength.

    python benchmarks/ranker_shrink.py [STRENGTH ...]          # default: 0 0.03 0.1 0.3 1 3 30
    python benchmarks/ranker_shrink.py --real [STRENGTH ...]   # real model-written corpora instead

Each family is scored by a ranker fitted on the other 26 with that strength (`rank_train.fit(...,
shrink=)`); the table gives the mean of the families' accuracy on pairs >= 1.25x apart and the pooled
accuracy, and the total alone (the untrained estimate) for comparison (docs/ranking.md, "Weights shrunk
toward the total"; `SHRINK` was this table's best, 0.03, until it was chosen with `--real`).  Training data
only: no held-out set is read.  Needs scipy (`pip install '.[ml]'`); about 10 CPU seconds per strength.

`--real` scores the corpora of real model-written solutions timed on the H200 that the ranker is not
judged on (the kb corpora, kb_fresh, kb_fresh2, kb_fresh3 and CUDA-L1's tuning half; kb_fresh4 and
CUDA-L1's held-out half are left alone): each corpus by a ranker fitted on the training families, and by
one fitted on the training families and the other corpora (each corpus one more family), at each
strength.  `rank_train.SHRINK` is the strength with the best mean of the first kind (docs/ranking.md,
"Learning from real solutions, and the shrinkage chosen on them").
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


def real_corpora() -> dict[str, list]:
    """The real corpora `--real` scores, each one family of its own (`<corpus>/<task>`)."""
    from dataclasses import replace

    from cudaperf.rl.dataset import cuda_l1, kb_measured

    found = {name: kb_measured.samples(kb_measured.CORPORA[key])
             for name, key in (("kb", "kb"), ("kb_fresh", "fresh"), ("kb_fresh2", "fresh2"), ("kb_fresh3", "fresh3"))}
    found["CUDA-L1 tuning"] = [s for s in cuda_l1.samples(which="tuning") if s.inputs["terms"] is not None]
    return {name: [replace(s, task_id=f"{name}/{s.task_id.replace('/', '_')}") for s in items]
            for name, items in found.items()}


def real(strengths: list[float]) -> None:
    """Accuracy at >= 1.25x on each real corpus: fitted on the training families alone, and with the
    other real corpora too; the total alone first."""
    items = rank_train.all_samples()
    names, x = rank_train.matrix(items)
    corpora = real_corpora()
    rows = {name: np.array([[rank_train.model_vector(s)[n] for n in names] for s in c]) for name, c in corpora.items()}

    def accuracy(scores: np.ndarray, members: list) -> float:
        return rank_train.group_metrics(scores, members)["accuracy_1.25"]

    print("| shrink | fitted on | " + " | ".join(corpora) + " | mean |\n| --- | --- |" + " ---: |" * (len(corpora) + 1))
    total = names.index(rank_train.TOTAL)
    alone = [accuracy(-rows[c][:, total], corpora[c]) for c in corpora]
    print("| - | the total alone | " + " | ".join(f"{a:.1%}" for a in alone) + f" | {np.mean(alone):.2%} |")
    for shrink in strengths:
        for learns in (False, True):
            rates = []
            for name, members in corpora.items():
                extra = [s for other, c in corpora.items() if learns and other != name for s in c]
                ranker = rank_train.fit(items + extra, names, np.vstack([x, *(rows[o] for o in corpora
                                                                                if learns and o != name)]),
                                        shrink=shrink)
                rates.append(accuracy((rows[name] / ranker.scale) @ ranker.weights, members))
            label = "the families and the other corpora" if learns else "the training families"
            print(f"| {shrink} | {label} | " + " | ".join(f"{a:.1%}" for a in rates) + f" | {np.mean(rates):.2%} |")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--real"]:
        real([float(a) for a in argv[1:]] or [0.03, 0.1, 0.3, 1.0, 3.0])
        return 0
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
