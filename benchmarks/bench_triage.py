"""GPU seconds the static triage of GRPO groups saves (rewards/triage.py, evaluate_many's untimed), on the
H200-measured model-style candidates (tests/data/h200/styles), CPU only.

Each (task, configuration) group of candidates stands for a GRPO group.  The ranker is trained with
the group's family held out (rank_train), its scores pick what gets timed (`triage.select`), and the
engine's timing cost of a candidate is taken as (warm-up + timed calls) x its measured time, with
the engine's defaults (Options: 3 + 30).  Reported per top_k: the share of timing seconds saved and
how often the group's measured fastest is still among the timed ones (if not, how much slower the
best timed one is).

    python benchmarks/bench_triage.py [--json OUT.json]
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from cudaperf.rewards.execution.api import Options
from cudaperf.rewards.triage import DEFAULT_UNCERTAIN_P, select
from cudaperf.rl import rank_train


def held_out_scores(items) -> np.ndarray:
    names, x = rank_train.matrix(items)
    fams = np.array([s.family for s in items])
    scores = np.full(len(items), np.nan)
    for fam in sorted({s.family for s in items if "terms" in s.inputs}):
        train, test = np.flatnonzero(fams != fam), np.flatnonzero(fams == fam)
        ranker = rank_train.fit([items[i] for i in train], names, x[train])
        scores[test] = (x[test] / ranker.scale) @ ranker.weights
    return scores


def run(top_ks=(1, 2, 3), uncertain_p: float = DEFAULT_UNCERTAIN_P) -> dict:
    items = rank_train.all_samples()
    scores = held_out_scores(items)
    calls = Options().warmup + Options().timing_trials
    groups: dict = {}
    for i, s in enumerate(items):
        if "terms" in s.inputs:
            groups.setdefault(s.group, []).append(i)
    out = {"groups": len(groups), "candidates": sum(len(g) for g in groups.values()), "calls_per_candidate": calls,
           "uncertain_p": uncertain_p, "by_top_k": {}}
    for k in top_ks:
        total = saved = 0.0
        kept_best, regrets, timed_count = 0, [], 0
        for members in groups.values():
            times = [items[i].time_ms for i in members]
            keep = select([float(scores[i]) for i in members], k, uncertain_p)
            timed_count += len(keep)
            total += calls * sum(times) / 1e3
            saved += calls * sum(t for j, t in enumerate(times) if j not in keep) / 1e3
            best_timed = min(times[j] for j in keep)
            kept_best += best_timed == min(times)
            regrets.append(best_timed / min(times))
        out["by_top_k"][k] = {"timed": timed_count, "timing_seconds": round(total, 3),
                              "saved_seconds": round(saved, 3), "saved_share": round(saved / total, 4),
                              "best_kept": round(kept_best / len(groups), 4),
                              "mean_best_timed_over_best": round(float(np.mean(regrets)), 4)}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", help="write the figures here")
    ns = p.parse_args(argv)
    result = run()
    print(f"{result['groups']} groups, {result['candidates']} candidates, {result['calls_per_candidate']} timed calls "
          f"each; uncertain_p {result['uncertain_p']}")
    print("top_k  timed  timing s  saved s  saved  best kept  best timed / best")
    for k, r in result["by_top_k"].items():
        print(f"{k:>5}  {r['timed']:>5}  {r['timing_seconds']:>8.3f}  {r['saved_seconds']:>7.3f}  "
              f"{r['saved_share']:>5.1%}  {r['best_kept']:>9.1%}  {r['mean_best_timed_over_best']:.3f}x")
    if ns.json:
        with open(ns.json, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
