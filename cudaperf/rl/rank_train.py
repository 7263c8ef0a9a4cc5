"""Training and held-out evaluation of the pairwise ranker (scipy, in the `ml` extra).

Pairs: two verified implementations of the same task and configuration whose median times differ
by at least `min_ratio` (10% for training); the label says which is faster.  Each pair enters in
both orders, and pairs are weighted so every family counts the same (the elementwise family alone
has 44% of the tasks).  Evaluation holds out one family at a time, trains on the others and scores
the held-out family: pairwise accuracy (pairs at >= 1.25x and >= 1.1x), Kendall tau between the
predicted and measured order per (task, configuration), and how often the predicted fastest is the
measured fastest (top-1).

    python -m cudaperf.rl.rank_train [--data DIR] [--report] [-o MODEL.json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from .dataset.load import DEFAULT, Sample, samples
from .ranking import SCHEMA, Ranker, vector

TRAIN_RATIO, TARGET_RATIO = 1.1, 1.25
RATES = ("accuracy_1.25", "accuracy_1.1", "kendall_tau", "top1")
L2 = 1e-2


def matrix(items: list[Sample]) -> tuple[list[str], np.ndarray]:
    """The model's input names and one row of `vector` per sample."""
    vectors = [vector(s.inputs) for s in items]
    names = sorted(vectors[0])
    return names, np.array([[v[n] for n in names] for v in vectors])


def _group_rows(items: list[Sample]) -> list[np.ndarray]:
    """Row indices of `items` per (task, configuration)."""
    index: dict[tuple[str, int], list[int]] = defaultdict(list)
    for i, s in enumerate(items):
        index[s.group].append(i)
    return [np.array(rows) for rows in index.values()]


def pairs(items: list[Sample], x: np.ndarray, min_ratio: float) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Differences x[a] - x[b] for pairs of one group with t_b / t_a >= min_ratio (a faster),
    each in both orders; labels; the family of each row."""
    rows, labels, fams = [], [], []
    for group in _group_rows(items):
        for a, b in itertools.combinations(sorted(group, key=lambda i: items[i].time_ms), 2):
            if items[b].time_ms / items[a].time_ms >= min_ratio:
                rows += [x[a] - x[b], x[b] - x[a]]
                labels += [1, 0]
                fams += [items[a].family] * 2
    return np.array(rows).reshape(-1, x.shape[1]), np.array(labels), fams


def fit(items: list[Sample], names: list[str] | None = None, x: np.ndarray | None = None) -> Ranker:
    """Logistic regression on standardised differences of the time terms, every weight bounded to
    be <= 0 (more time on any resource never predicts faster), families weighted equally, solved with
    scipy's L-BFGS-B."""
    from scipy.optimize import minimize

    if x is None:
        names, x = matrix(items)
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1.0     # a term constant over the training families carries no information
    d, y, fams = pairs(items, x / scale, TRAIN_RATIO)
    count: dict[str, int] = defaultdict(int)
    for f in fams:
        count[f] += 1
    weight = np.array([1.0 / (len(count) * count[f]) for f in fams])
    sign = 2.0 * y - 1.0

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = sign * (d @ w)
        grad = -(weight * sign / (1.0 + np.exp(z))) @ d
        return float(weight @ np.logaddexp(0.0, -z) + L2 * w @ w), grad + 2.0 * L2 * w

    w = minimize(loss, np.full(len(names), -0.1), jac=True, method="L-BFGS-B",
                 bounds=[(None, 0.0)] * len(names)).x
    return Ranker({"schema": SCHEMA, "kind": "logistic-pairwise", "features": names, "scale": scale.tolist(),
                   "weights": w.tolist(),
                   "trained_on": {"samples": len(items), "pairs": len(d) // 2, "min_ratio": TRAIN_RATIO,
                                  "families": sorted(count), "l2": L2}})


def _tau(pred: np.ndarray, true: np.ndarray) -> float:
    """Kendall tau-b between two score vectors (higher = faster in both)."""
    concordant = discordant = ties_p = ties_t = 0
    for i, j in itertools.combinations(range(len(pred)), 2):
        dp, dt = np.sign(pred[i] - pred[j]), np.sign(true[i] - true[j])
        if dp == 0 and dt == 0:
            continue
        if dp == 0:
            ties_p += 1
        elif dt == 0:
            ties_t += 1
        elif dp == dt:
            concordant += 1
        else:
            discordant += 1
    denom = np.sqrt((concordant + discordant + ties_p) * (concordant + discordant + ties_t))
    return float((concordant - discordant) / denom) if denom else 0.0


@dataclass
class Metrics:
    pairs_125: int = 0
    correct_125: int = 0
    pairs_110: int = 0
    correct_110: int = 0
    groups: int = 0
    tau_sum: float = 0.0
    top1: int = 0

    def add(self, other: Metrics) -> None:
        for k in vars(self):
            setattr(self, k, getattr(self, k) + getattr(other, k))

    def row(self) -> dict:
        return {"pairs_1.25": self.pairs_125,
                "accuracy_1.25": round(self.correct_125 / self.pairs_125, 4) if self.pairs_125 else None,
                "pairs_1.1": self.pairs_110,
                "accuracy_1.1": round(self.correct_110 / self.pairs_110, 4) if self.pairs_110 else None,
                "groups": self.groups, "kendall_tau": round(self.tau_sum / self.groups, 4) if self.groups else None,
                "top1": round(self.top1 / self.groups, 4) if self.groups else None}


def score(scores: np.ndarray, items: list[Sample]) -> Metrics:
    """Metrics of predicted scores (higher = faster) against the measured times, per group."""
    m = Metrics()
    for group in _group_rows(items):
        if len(group) < 2:
            continue
        pred, times = scores[group], np.array([items[i].time_ms for i in group])
        m.groups += 1
        m.tau_sum += _tau(pred, -times)
        m.top1 += int(np.argmax(pred) == np.argmin(times))
        for i, j in itertools.combinations(range(len(group)), 2):
            ratio = max(times[i], times[j]) / min(times[i], times[j])
            right = bool((pred[i] - pred[j]) * (times[j] - times[i]) > 0)
            if ratio >= TRAIN_RATIO:
                m.pairs_110 += 1
                m.correct_110 += right
            if ratio >= TARGET_RATIO:
                m.pairs_125 += 1
                m.correct_125 += right
    return m


def held_out(items: list[Sample]) -> dict[str, dict]:
    """Leave-one-family-out: per family, pooled over all held-out pairs and groups, and the mean
    of the families' figures (each family counting once)."""
    names, x = matrix(items)
    fams = np.array([s.family for s in items])
    table, pooled = {}, Metrics()
    for fam in sorted(set(fams)):
        train, test = np.flatnonzero(fams != fam), np.flatnonzero(fams == fam)
        ranker = fit([items[i] for i in train], names, x[train])
        m = score((x[test] / ranker.scale) @ ranker.weights, [items[i] for i in test])
        table[fam] = m.row()
        pooled.add(m)
    per_family = list(table.values())
    table["all (pooled)"] = pooled.row()
    table["mean of families"] = {k: round(float(np.mean([r[k] for r in per_family])), 4) if k in RATES
                                 else sum(r[k] for r in per_family) for k in per_family[0]}
    return table


def markdown(table: dict[str, dict]) -> str:
    head = "| held-out family | pairs >= 1.25x | accuracy | pairs >= 1.1x | accuracy | groups | Kendall tau | top-1 |\n"
    head += "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
    fmt = "{:.1%}".format
    lines = [f"| {fam} | {r['pairs_1.25']} | {fmt(r['accuracy_1.25']) if r['accuracy_1.25'] is not None else '-'} | "
             f"{r['pairs_1.1']} | {fmt(r['accuracy_1.1']) if r['accuracy_1.1'] is not None else '-'} | {r['groups']} | "
             f"{r['kendall_tau']:.3f} | {fmt(r['top1'])} |" for fam, r in table.items()]
    return head + "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m cudaperf.rl.rank_train", description=__doc__.splitlines()[0])
    p.add_argument("--data", default=str(DEFAULT), help="directory with measurements.jsonl.gz and features.jsonl.gz")
    p.add_argument("--report", action="store_true", help="print the held-out-family table (markdown)")
    p.add_argument("-o", "--output", help="write the model trained on every family here")
    ns = p.parse_args(argv)
    items = samples(ns.data)
    if ns.report:
        sys.stdout.write(markdown(held_out(items)))
    if ns.output:
        fit(items).save(ns.output)
        print(json.dumps({"model": ns.output, "samples": len(items)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
