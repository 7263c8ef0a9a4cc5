"""`python -m cudaperf.rl.dataset COMMAND`: generate the task records, check the implementations on
the CPU, compute the analyzer features, export contrastive pairs, print coverage statistics.
(Measuring on the GPU is `python -m cudaperf.rl.dataset.measure`.)"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict

from . import compilecheck, emulate, features, generate, load, pairs


def stats(data: str) -> dict:
    """What the recipe defines and what the committed measurements cover, per family."""
    tasks = list(generate.all_tasks())
    out: dict = defaultdict(Counter)
    for t in tasks:
        c = out[t.family]
        c["tasks"] += 1
        c[t.kind] += 1
        c["implementations"] += len(t.implementations)
        c["configurations"] += len(t.configs)
        c["measurements_defined"] += len(t.implementations) * len(t.configs)
    for r in load.read_jsonl(f"{data}/{load.MEASUREMENTS}"):
        c = out[load.family(r["task_id"])]
        c["measured"] += 1
        c["verified"] += bool(r.get("verified"))
        c["timed"] += r.get("time_ms") is not None
    total: Counter = Counter()
    for c in out.values():
        total.update(c)
    return {**{k: dict(v) for k, v in sorted(out.items())}, "total": dict(total)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m cudaperf.rl.dataset", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="task records (JSON lines, loadable with HF datasets)")
    g.add_argument("output")
    g.add_argument("--families", help="comma-separated (default all)")
    c = sub.add_parser("check", help="compile every implementation with nvcc -cubin; emulate tasks on the CPU")
    c.add_argument("--families", help="comma-separated (default all)")
    c.add_argument("--emulate", type=int, default=0, metavar="N", help="also run every N-th task under the emulator")
    c.add_argument("--jobs", type=int, default=1)
    f = sub.add_parser("features", help="analyzer features of every implementation and configuration")
    f.add_argument("output", help="a .jsonl.gz file")
    f.add_argument("--jobs", type=int, default=1)
    f.add_argument("--families", help="comma-separated (default all)")
    pr = sub.add_parser("pairs", help="(chosen, rejected) pairs for TRL's RewardTrainer")
    pr.add_argument("output")
    pr.add_argument("--min-ratio", type=float, default=1.25)
    pr.add_argument("--data", default=str(load.DEFAULT))
    s = sub.add_parser("stats", help="tasks, implementations, configurations; measured, verified, timed")
    s.add_argument("--data", default=str(load.DEFAULT))
    ns = p.parse_args(argv)
    families = ns.families.split(",") if getattr(ns, "families", None) else None
    if ns.command == "generate":
        print(f"{generate.write_tasks(ns.output, families)} tasks written to {ns.output}")
    elif ns.command == "check":
        tasks = list(generate.all_tasks(families))
        impls = [(t, i) for t in tasks for i in t.implementations]
        failed = compilecheck.failures([i.source for _, i in impls], jobs=ns.jobs)
        for k, log in failed.items():
            print(f"compile {impls[k][0].task_id} {impls[k][1].impl_id}: {log.strip().splitlines()[-1]}")
        bad = 0
        for t in tasks[::ns.emulate] if ns.emulate else []:
            for result in emulate.check_task(t):
                if not result.ok:
                    bad += 1
                    print(f"emulate {t.task_id} {result.impl_id}: {result.message}")
        print(f"{len(impls)} implementations compiled, {len(failed)} failed; {bad} emulator failures")
        return 1 if failed or bad else 0
    elif ns.command == "features":
        print(f"{features.write(ns.output, ns.jobs, families)} rows written to {ns.output}")
    elif ns.command == "pairs":
        print(f"{pairs.write(ns.output, ns.data, ns.min_ratio)} pairs written to {ns.output}")
    else:
        json.dump(stats(ns.data), sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
