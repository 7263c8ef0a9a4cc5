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
from collections import Counter, defaultdict
from dataclasses import dataclass

import numpy as np

from ..costmodel.model import SCHEMA, Ranker
from ..costmodel.terms import log_terms, vector
from .dataset import styles_data
from .dataset.load import DEFAULT, Sample, samples

TRAIN_RATIO, TARGET_RATIO = 1.1, 1.25
RATES = ("accuracy_1.25", "accuracy_1.1", "kendall_tau", "top1")
L2 = 1e-2
TOTAL = "t_total"  # the model's input for the total time (terms.log_terms names each term t_<name>)
# a second L2 penalty on every weight but the total's: a term moves the prediction away from the untrained
# estimate only as far as the training pairs insist (the strength with the best mean accuracy over the real
# corpora the ranker is no longer judged on: benchmarks/ranker_shrink.py --real, docs/ranking.md)
SHRINK = 0.1


def all_samples(data: str = str(DEFAULT)) -> list[Sample]:
    """The kernel dataset's samples and the model-style candidates' (their `inputs` hold summed terms).
    CUDA-L1's tuning half is not among them: in a two-fold split of that half, training on one fold left
    the other's orderings as they were (docs/ranking.md)."""
    return samples(data) + styles_data.samples()


def model_vector(s: Sample) -> dict[str, float]:
    return log_terms(s.inputs["terms"]) if "terms" in s.inputs else vector(s.inputs)


def matrix(items: list[Sample]) -> tuple[list[str], np.ndarray]:
    """The model's input names and one row of `vector` per sample."""
    vectors = [model_vector(s) for s in items]
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


def fit(items: list[Sample], names: list[str] | None = None, x: np.ndarray | None = None,
        shrink: float = SHRINK) -> Ranker:
    """Logistic regression on standardised differences of the time terms, every weight bounded to
    be <= 0 (more time on any resource never predicts faster), families weighted equally, every weight
    but the total's shrunk toward zero by `shrink`, solved with scipy's L-BFGS-B."""
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
    penalty = np.array([L2 if name == TOTAL else L2 + shrink for name in names])

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = sign * (d @ w)
        grad = -(weight * sign / (1.0 + np.exp(z))) @ d
        return float(weight @ np.logaddexp(0.0, -z) + (penalty * w) @ w), grad + 2.0 * penalty * w

    w = minimize(loss, np.full(len(names), -0.1), jac=True, method="L-BFGS-B",
                 bounds=[(None, 0.0)] * len(names)).x
    return Ranker({"schema": SCHEMA, "kind": "logistic-pairwise", "features": names, "scale": scale.tolist(),
                   "weights": w.tolist(),
                   "trained_on": {"samples": len(items), "pairs": len(d) // 2, "min_ratio": TRAIN_RATIO,
                                  "families": sorted(count), "l2": L2, "shrink": shrink}})


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


RATIOS = (1.1, 1.25, 2.0)
# trivial orderings of candidates (higher = predicted faster) the ranker must beat, and the structural reward
BASELINES = {
    "untrained time estimate": lambda s: -s.inputs["terms"]["total"],
    "more CUDA lines": lambda s: s.inputs["lines"],
    "fewer launches": lambda s: -s.inputs["launches"],
    "structural reward at the task's shapes": lambda s: s.inputs["structural"],
}


def ranks(values: np.ndarray) -> np.ndarray:
    """Ranks of `values` from 0, ties sharing their mean rank (Spearman's correlation is Pearson's over these)."""
    order = np.argsort(values, kind="stable")
    out = np.empty(len(values))
    out[order] = np.arange(len(values))
    for v in np.unique(values):      # ties share their mean rank
        out[values == v] = out[values == v].mean()
    return out


def group_metrics(scores: np.ndarray, items: list[Sample]) -> dict:
    """Per-group orderings of `scores` (higher = faster) against measured times: pairwise accuracy
    at each of RATIOS (a predicted tie counts half), Kendall tau, Spearman, top-1 (the predicted
    fastest is the fastest; the first of tied predictions is the pick) and the
    top-1 pick's slowdown against the group's fastest (mean of time(pick) / time(best)); pooled over
    pairs and averaged over groups."""
    pairs_at = dict.fromkeys(RATIOS, 0)
    right_at = dict.fromkeys(RATIOS, 0.0)
    taus, rhos, top1, slowdown = [], [], 0, []
    for group in _group_rows(items):
        if len(group) < 2:
            continue
        pred, times = scores[group], np.array([items[i].time_ms for i in group])
        taus.append(_tau(pred, -times))
        rp, rt = ranks(pred), ranks(-times)
        rhos.append(float(np.corrcoef(rp, rt)[0, 1]) if rp.std() > 0 and rt.std() > 0 else 0.0)
        pick = int(np.argmax(pred))
        top1 += int(times[pick] == times.min())
        slowdown.append(times[pick] / times.min())
        for i, j in itertools.combinations(range(len(group)), 2):
            ratio = max(times[i], times[j]) / min(times[i], times[j])
            agree = (pred[i] - pred[j]) * (times[j] - times[i])
            right = 1.0 if agree > 0 else 0.5 if pred[i] == pred[j] else 0.0    # a tie is a coin toss
            for r in RATIOS:
                if ratio >= r:
                    pairs_at[r] += 1
                    right_at[r] += right
    row = {f"pairs_{r}": pairs_at[r] for r in RATIOS}
    row.update({f"accuracy_{r}": round(right_at[r] / pairs_at[r], 4) if pairs_at[r] else None for r in RATIOS})
    row.update(groups=len(taus), kendall_tau=round(float(np.mean(taus)), 4), spearman=round(float(np.mean(rhos)), 4),
               top1=round(top1 / len(taus), 4), slowdown=round(float(np.mean(slowdown)), 4))
    return row


def boosted_scores(train: list[Sample], x_train: np.ndarray, x_test: np.ndarray, test: list[Sample]) -> np.ndarray:
    """The alternative model: scikit-learn's gradient-boosted trees on the same pairs, every input
    constrained monotone (more time on a resource never predicts faster); a candidate's score is its
    summed P(faster) against the rest of its group (Borda)."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    d, y, _ = pairs(train, x_train, TRAIN_RATIO)
    model = HistGradientBoostingClassifier(max_iter=100, learning_rate=0.1, max_leaf_nodes=15, random_state=0,
                                           monotonic_cst=[-1] * x_train.shape[1]).fit(d, y)
    scores = np.zeros(len(test))
    for group in _group_rows(test):
        for i in group:
            others = [j for j in group if j != i]
            if others:
                scores[i] = model.predict_proba(x_test[i] - x_test[others])[:, 1].sum()
    return scores


def held_out_candidate_scores(items: list[Sample], boost: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Leave one family out over the model-style candidates: each candidate family scored by the ranker
    trained on every other family (the kernel dataset's and the other candidates'); the indices of the
    candidates in `items`, their scores and (with `boost`) the boosted trees' scores."""
    names, x = matrix(items)
    fams = np.array([s.family for s in items])
    candidate_fams = sorted({s.family for s in items if "terms" in s.inputs})
    scores, boosted = np.zeros(len(items)), np.zeros(len(items))
    for fam in candidate_fams:
        train, test = np.flatnonzero(fams != fam), np.flatnonzero(fams == fam)
        ranker = fit([items[i] for i in train], names, x[train])
        scores[test] = (x[test] / ranker.scale) @ ranker.weights
        if boost:
            boosted[test] = boosted_scores([items[i] for i in train], x[train] / ranker.scale, x[test] / ranker.scale,
                                           [items[i] for i in test])
    held = np.flatnonzero(np.isin(fams, candidate_fams))
    return held, scores, boosted


def candidate_tables(items: list[Sample], boost: bool = False) -> tuple[dict[str, dict], dict[str, dict]]:
    """Per held-out candidate family its figures (`held_out_candidate_scores`); and, pooled over those
    held-out families, the ranker beside the trivial baselines and the structural reward."""
    held, scores, boosted = held_out_candidate_scores(items, boost)
    per_family = {}
    for fam in sorted({items[i].family for i in held}):
        test = [i for i in held if items[i].family == fam]
        per_family[fam] = group_metrics(scores[test], [items[i] for i in test])
    subset = [items[i] for i in held]
    methods = {"ranker (held-out family)": group_metrics(scores[held], subset)}
    if boost:
        methods["boosted trees (scikit-learn, held-out family)"] = group_metrics(boosted[held], subset)
    for name, key in BASELINES.items():
        methods[name] = group_metrics(np.array([key(s) for s in subset], dtype=float), subset)
    return per_family, methods


def pair_margins(scores: np.ndarray, items: list[Sample]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair of one group with different measured times: the score margin (first minus second),
    whether the first is the faster (1.0) or not, and whether either estimate is a guess (which
    `Ranker.p_faster` prices with the halved slope, as `cudaperf rank` does)."""
    margins, faster, guessed = [], [], []
    for group in _group_rows(items):
        for i, j in itertools.combinations(group, 2):
            if items[i].time_ms != items[j].time_ms:
                margins.append(scores[i] - scores[j])
                faster.append(1.0 if items[i].time_ms < items[j].time_ms else 0.0)
                guessed.append(bool(items[i].inputs.get("guess") or items[j].inputs.get("guess")))
    return np.array(margins), np.array(faster), np.array(guessed, dtype=bool)


def cuda_l1_margins(which: str, ranker: Ranker) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`pair_margins` of `ranker`'s scores over one half of CUDA-L1's tasks (solutions and reference; the
    solutions without an estimate left out)."""
    from .dataset import cuda_l1

    items = [s for s in cuda_l1.samples(which=which) if s.inputs["terms"] is not None]
    return pair_margins(np.array([ranker.score_terms(s.inputs["terms"]) for s in items]), items)


def calibration(items: list[Sample], ranker: Ranker) -> dict:
    """The slope `a` of P(faster) = sigmoid(a * margin) for whole candidates, by maximum likelihood on
    every pair of the model-style candidates scored by a ranker that never saw their family, and every
    pair of the tuning half of CUDA-L1's tasks scored by `ranker` (pairs at any ratio: near-ties are coin
    tosses, which is what keeps P away from 1); `guess_slope`, for estimates that rest on a guess, is half
    of it (a stated prior: too few guessed estimates are in the data)."""
    from scipy.optimize import minimize_scalar

    held, scores, _ = held_out_candidate_scores(items)
    styles = pair_margins(scores[held], [items[i] for i in held])
    tuning = cuda_l1_margins("tuning", ranker)
    margins, faster = np.concatenate([styles[0], tuning[0]]), np.concatenate([styles[1], tuning[1]])

    def loss(a: float) -> float:
        z = a * margins
        return float(np.mean(np.logaddexp(0.0, -z) * faster + np.logaddexp(0.0, z) * (1.0 - faster)))

    slope = float(minimize_scalar(loss, bounds=(0.01, 10.0), method="bounded").x)
    return {"slope": round(slope, 4), "guess_slope": round(slope / 2, 4), "pairs": len(margins),
            "fitted_on": "model-style candidates (tests/data/h200/styles), held-out-family scores, and the "
                         "tuning half of CUDA-L1's tasks, all pairs"}


RELIABILITY_BINS = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0)


def reliability(margins: np.ndarray, faster: np.ndarray, guessed: np.ndarray, ranker: Ranker) -> list[dict]:
    """Predicted P(faster) of the side predicted faster, as `cudaperf rank` gives it, binned, against how
    often it was the faster (a predicted tie counts half); the mean log-loss of all pairs beside it."""
    p = np.array([ranker.p_faster(abs(m), g) for m, g in zip(margins, guessed)])
    right = np.where(margins == 0, 0.5, np.where(margins > 0, faster, 1.0 - faster))
    rows = []
    for lo, hi in itertools.pairwise(RELIABILITY_BINS):
        k = (p >= lo) & ((p < hi) if hi < 1.0 else (p <= hi))
        if k.any():
            rows.append({"bin": f"{lo:.2f}-{hi:.2f}", "pairs": int(k.sum()), "predicted": round(float(p[k].mean()), 3),
                         "observed": round(float(right[k].mean()), 3)})
    q = np.clip(np.array([ranker.p_faster(m, g) for m, g in zip(margins, guessed)]), 1e-9, 1 - 1e-9)
    rows.append({"bin": "all (log-loss)", "pairs": len(margins),
                 "predicted": round(float(-np.mean(faster * np.log(q) + (1 - faster) * np.log(1 - q))), 3),
                 "observed": None})
    return rows


def reliability_markdown(tables: dict[str, list[dict]]) -> str:
    """Reliability tables side by side: one column pair per data set."""
    names = list(tables)
    bins = list(dict.fromkeys(r["bin"] for rows in tables.values() for r in rows))
    head = "| P(faster) | " + " | ".join(f"{n}: pairs | predicted | observed" for n in names) + " |\n"
    head += "| --- |" + " ---: | ---: | ---: |" * len(names) + "\n"
    lines = []
    for b in bins:
        cells = []
        for n in names:
            r = next((r for r in tables[n] if r["bin"] == b), None)
            cells.append("- | - | -" if r is None else f"{r['pairs']} | {r['predicted']:.3f} | "
                         + ("-" if r["observed"] is None else f"{r['observed']:.3f}"))
        lines.append(f"| {b} | " + " | ".join(cells) + " |")
    return head + "\n".join(lines) + "\n"


def candidate_markdown(per_family: dict[str, dict], methods: dict[str, dict]) -> str:
    fmt = "{:.1%}".format
    head = ("| {} | pairs >= 1.25x | acc. >= 1.1x | acc. >= 1.25x | acc. >= 2x | groups | Kendall tau | Spearman | "
            "top-1 | top-1 slowdown |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")

    def line(name: str, r: dict) -> str:
        accs = " | ".join(fmt(r[f"accuracy_{k}"]) if r[f"accuracy_{k}"] is not None else "-" for k in RATIOS)
        return (f"| {name} | {r['pairs_1.25']} | {accs} | {r['groups']} | {r['kendall_tau']:.3f} | "
                f"{r['spearman']:.3f} | {fmt(r['top1'])} | {r['slowdown']:.2f}x |")

    return (head.format("held-out family") + "\n".join(line(f, r) for f, r in per_family.items()) + "\n\n"
            + head.format("ordering (all held-out candidate groups)")
            + "\n".join(line(m, r) for m, r in methods.items()) + "\n")


def reliability_tables(items: list[Sample], ranker: Ranker | None = None) -> dict[str, list[dict]]:
    """The calibrated P(faster) of the packaged model (or `ranker`) on the data the slope was fitted on
    (the model-style candidates' held-out-family scores, the tuning half of CUDA-L1's tasks) and on data
    held out from it: the KernelBench-style corpora measured on a GPU (`kb_measured`; the shrinkage was
    chosen on all but kb_fresh4 to kb_fresh7, each listed once timed and scored on the estimates committed
    before its times; kb_fresh, kb_fresh5 and kb_fresh6 were also read while the interpreter or the
    analyzer was extended) and the held-out half of CUDA-L1's tasks."""
    from .dataset import kb_measured

    ranker = ranker or Ranker.default()
    held, scores, _ = held_out_candidate_scores(items)

    def measured(corpus: str) -> dict:   # a candidate placed without an estimate has no P(faster)
        found = [s for s in kb_measured.samples(kb_measured.CORPORA[corpus]) if s.inputs["terms"]]
        return reliability(*pair_margins(np.array(kb_measured.scores(found, ranker)["ranker"]), found), ranker)

    tuned = {"kb": "kb corpora", "fresh": "kb_fresh", "fresh2": "kb_fresh2", "fresh3": "kb_fresh3"}
    return {"model-style candidates (fitted on)": reliability(*pair_margins(scores[held], [items[i] for i in held]),
                                                              ranker),
            "CUDA-L1 tuning half (fitted on)": reliability(*cuda_l1_margins("tuning", ranker), ranker),
            **{f"{label} (tuned on)": measured(name) for name, label in tuned.items()},
            **{f"kb_{name} (held out)": measured(name) for name, corpus in kb_measured.CORPORA.items()
               if name not in tuned and corpus.timed},   # every corpus written since, once timed
            "CUDA-L1 held-out half": reliability(*cuda_l1_margins("held_out", ranker), ranker)}


def kb_markdown(ranker: Ranker | None = None, corpus: str = "kb") -> str:
    """The orderings of a KernelBench-style corpus measured on the H200 (`kb_measured.CORPORA`)."""
    from .dataset import kb_measured

    kb = kb_measured.samples(kb_measured.CORPORA[corpus])
    table = {name: group_metrics(np.array(values, dtype=float), kb)
             for name, values in kb_measured.scores(kb, ranker).items()}
    return candidate_markdown({}, table).split("\n\n", 1)[1]


def cuda_l1_tables(which: str, ranker: Ranker | None = None) -> dict[str, dict[str, dict]]:
    """Orderings of one half of CUDA-L1's solutions measured on the H200 (`cuda_l1.split`: `tuning` or
    `held_out`), per task: its solutions with its reference; each solution against its reference alone
    (is it faster than the task's own torch code?); its solutions alone (where the structural reward,
    which scores solutions, is compared; one that runs no kernel of its own gets its floor)."""
    from dataclasses import replace

    from .dataset import cuda_l1, kb_measured

    with_ref = cuda_l1.samples(which=which)
    alone = [s for s in with_ref if s.impl_id != cuda_l1.REFERENCE]
    refs = {s.task_id: s for s in with_ref if s.impl_id == cuda_l1.REFERENCE}
    versus = [m for i, s in enumerate(alone) for m in (replace(s, config_id=i), replace(refs[s.task_id], config_id=i))]
    tables: dict[str, dict[str, dict]] = {}
    views = (("solutions and reference", with_ref), ("against the reference", versus), ("solutions", alone))
    for title, items in views:
        if max(Counter(s.group for s in items).values(), default=0) < 2:
            continue
        values = kb_measured.scores(items, ranker)
        tables[title] = {name: group_metrics(np.array(v, dtype=float), items) for name, v in values.items()
                         if title == "solutions" or not name.startswith("structural")}
    return tables


def cuda_l1_markdown(which: str, ranker: Ranker | None = None) -> str:
    """`cuda_l1_tables` as markdown, one table per view."""
    return "\n".join(candidate_markdown({}, table).split("\n\n", 1)[1].replace(
        "ordering (all held-out candidate groups)", f"{which}: {title}") for title, table in
        cuda_l1_tables(which, ranker).items())


_RELEASE_METHODS = ("ranker", "untrained time estimate", "more CUDA lines")


def release_tables(ranker: Ranker | None = None) -> dict[tuple[str, str], dict[str, dict]]:
    """Per half of CUDA-L1's tasks and GPU it released solutions for: each released solution against its
    reference, ordered by CUDA-L1's own measurement on that GPU (`cuda_l1.release_samples`); and, where
    the H200 timed the solution correct too, the ranker beside the H200's measured order (how far one
    GPU's order carries to another)."""
    from .dataset import cuda_l1, kb_measured

    on_h200 = cuda_l1.relative_times()

    def ordered(items: list[Sample]) -> dict[str, dict]:
        values = kb_measured.scores(items, ranker)
        return {name: group_metrics(np.array(values[name], dtype=float), items) for name in _RELEASE_METHODS}

    tables: dict[tuple[str, str], dict[str, dict]] = {}
    for which in ("tuning", "held_out"):
        for gpu in cuda_l1.release_gpus():
            items = cuda_l1.release_samples(gpu, which)
            measured = ((s.group, on_h200.get(s.task_id.removeprefix("cuda_l1/"), {}).get(s.impl_id)) for s in items)
            h200 = {group: ratio for group, ratio in measured if ratio is not None}
            timed = [s for s in items if s.group in h200]
            table = ordered(items)
            table["timed on the H200: ranker"] = ordered(timed)["ranker"]
            table["timed on the H200: the H200's measured order"] = group_metrics(
                -np.array([1.0 if s.impl_id == cuda_l1.REFERENCE else h200[s.group] for s in timed]), timed)
            tables[which, gpu] = table
    return tables


def release_markdown(ranker: Ranker | None = None) -> str:
    """`release_tables` as one markdown table: pairs >= 1.25x apart and the share each ordering gets right."""
    fmt = "{:.1%}".format
    h200 = ("timed on the H200: ranker", "timed on the H200: the H200's measured order")
    lines = ["| CUDA-L1's half, GPU measured on | pairs >= 1.25x | ranker | untrained time estimate | "
             "more CUDA lines | of which timed on the H200 too | ranker | the H200's measured order |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for (which, gpu), t in release_tables(ranker).items():
        cells = [str(t["ranker"]["pairs_1.25"]), *(fmt(t[m]["accuracy_1.25"]) for m in _RELEASE_METHODS),
                 str(t[h200[0]]["pairs_1.25"]), *(fmt(t[m]["accuracy_1.25"]) for m in h200)]
        lines.append(f"| {which}, {gpu} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def h200_baseline_tables(ranker: Ranker | None = None) -> dict[tuple[str, str], dict[str, dict]]:
    """Per half of CUDA-L1's tasks, its codes timed on the H200 with the release's two baselines among
    them (`cuda_l1.BASELINE_RUNS`, timed in the tenth session): every pair of a task's codes and its
    reference (`all`), the pairs of two codes (`codes`), each with both baselines or the CUDA-graph one
    alone (the cuDNN one differs from its reference only by the host time of `cudnn.flags`)."""
    from .dataset import cuda_l1, kb_measured

    tables: dict[tuple[str, str], dict[str, dict]] = {}
    for which in ("tuning", "held_out"):
        items = cuda_l1.samples((cuda_l1.FEATURES, cuda_l1.BASELINE_FEATURES), which=which,
                                also=(cuda_l1.BASELINE_RUNS,))
        for kept, members in (("both baselines", items),
                              ("the CUDA-graph baseline", [s for s in items if s.impl_id != cuda_l1.CUDNN])):
            table = {}
            for view, subset in (("all", members), ("codes", [s for s in members if s.impl_id != cuda_l1.REFERENCE])):
                values = kb_measured.scores(subset, ranker)
                table.update({f"{view}: {name}": group_metrics(np.array(values[name], dtype=float), subset)
                              for name in _RELEASE_METHODS})
            tables[which, kept] = table
    return tables


def h200_baseline_markdown(ranker: Ranker | None = None) -> str:
    """`h200_baseline_tables` as one markdown table: pairs >= 1.25x apart and the share each gets right."""
    fmt = "{:.1%}".format
    lines = ["| CUDA-L1's half, with | all pairs >= 1.25x | ranker | untrained time estimate | more CUDA lines | "
             "pairs of two codes | ranker | untrained time estimate | more CUDA lines |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for (which, kept), t in h200_baseline_tables(ranker).items():
        cells = []
        for view in ("all", "codes"):
            cells.append(str(t[f"{view}: ranker"]["pairs_1.25"]))
            cells += [fmt(t[f"{view}: {m}"]["accuracy_1.25"]) for m in _RELEASE_METHODS]
        lines.append(f"| {which}, {kept} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def baseline_scores_markdown() -> str:
    """`cuda_l1.baseline_scores` as markdown."""
    from .dataset import cuda_l1

    lines = ["| GPU | cuDNN baselines whose GPU work is estimated within 10% of their reference's | CUDA-L1's score of "
             "those: median | scored >= 1.25x |", "| --- | ---: | ---: | ---: |"]
    lines += [f"| {gpu} | {n} | {median:.2f} | {share:.0%} |" for gpu, (n, median, share)
              in cuda_l1.baseline_scores().items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m cudaperf.rl.rank_train", description=__doc__.splitlines()[0])
    p.add_argument("--data", default=str(DEFAULT), help="directory with measurements.jsonl.gz and features.jsonl.gz")
    p.add_argument("--report", action="store_true", help="print the held-out-family table (markdown)")
    p.add_argument("-o", "--output", help="write the model trained on every family here")
    p.add_argument("--boost", action="store_true", help="also score scikit-learn's boosted trees (slow)")
    ns = p.parse_args(argv)
    items = all_samples(ns.data)
    if ns.report:
        sys.stdout.write(markdown(held_out(samples(ns.data))) + "\n")
        sys.stdout.write(candidate_markdown(*candidate_tables(items, ns.boost)) + "\n")
        from .dataset.kb_measured import CORPORA

        for name, corpus in CORPORA.items():
            if corpus.timed:
                sys.stdout.write(kb_markdown(corpus=name) + "\n")
        sys.stdout.write(cuda_l1_markdown("tuning") + "\n" + cuda_l1_markdown("held_out") + "\n")
        for table in (release_markdown(), baseline_scores_markdown(), h200_baseline_markdown()):
            sys.stdout.write(table + "\n")
        sys.stdout.write(reliability_markdown(reliability_tables(items)))
    if ns.output:
        model = fit(items)
        model.model["calibration"] = calibration(items, model)
        model.save(ns.output)
        print(json.dumps({"model": ns.output, "samples": len(items)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
