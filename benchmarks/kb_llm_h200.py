"""tests/kb_llm through the whole engine on a GPU, twice, in one batch with the layernorm task of
tests/kb_heldout: one Evaluator, every task's candidates compiling together (a batch over several
tasks), the engine's three slots on the GPU so that checks and timing overlap worker start-up (runs before
2026-12-05 asked for gpus=[0, 0], which the engine then took as two GPUs: six slots under two locks on
one device, so timing did not have the GPU alone).  The second run uses
a copy of the corpus under another path, so its builds come from the cache and its results are told
apart; each result is written as soon as it is known, so a run cut short keeps what it finished.
Given a corpus (tests/kb_fresh), that corpus instead, twice, compared at KernelBench's tolerance
(atol = rtol = 1e-2).

    python3 benchmarks/kb_llm_h200.py OUT_DIR [CORPUS] [--fast-path off]   (from the repository root)

`--fast-path off` builds every candidate the full way (nvcc, torch's wrapper) instead of the fast path's
NVRTC and interpreted wrapper: kb_fresh4's float4 kernels were timed slow through the fast path and fast
by a plain nvcc build (docs/ranking.md), and this tells the two apart.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from cudaperf.rewards.execution import Evaluator, Options, load_candidate, load_task

CORPORA = [("run1", Path("tests/kb_llm")), ("heldout_layernorm", Path("tests/kb_heldout/layernorm"))]


def _cases(root: Path) -> list[tuple[Path, Path]]:
    """(reference, candidate) for a corpus directory of task directories, or for one task directory."""
    refs = [root / "reference.py"] if (root / "reference.py").exists() else sorted(root.glob("*/reference.py"))
    return [(ref, p) for ref in refs for p in sorted(ref.parent.glob("*.py")) if p.name != "reference.py"]


def main(out: Path, corpus: Path | None = None, fast_path: str = "on") -> int:
    out.mkdir(parents=True, exist_ok=True)
    first = [("run1", corpus)] if corpus else CORPORA
    second = Path(tempfile.mkdtemp()) / first[0][1].name
    shutil.copytree(first[0][1], second)
    corpora = [*first, ("run2", second)]
    tolerance = {"atol": 1e-2, "rtol": 1e-2} if corpus else {}
    jobs = [(name, ref, cand) for name, root in corpora for ref, cand in _cases(root)]
    tasks = {ref: load_task(ref) for _, ref, _ in jobs}
    files = {name: (out / f"{name}.jsonl").open("w") for name, _ in corpora}
    owner = {str(cand): name for name, _, cand in jobs}
    started = time.perf_counter()

    def progress(done: int, total: int, result) -> None:
        stream = files[owner[result.candidate]]
        stream.write(json.dumps(result.to_json()) + "\n")
        stream.flush()
        print(f"[{time.perf_counter() - started:6.1f} s] {done}/{total} {owner[result.candidate]:18} "
              f"{Path(result.candidate).parent.name}/{Path(result.candidate).name:42} {result.status:13} "
              f"{result.rule or '':16} share={result.own_kernel_share} {result.reason[:90]}", flush=True)

    with Evaluator(Options(gpus=[0], spare_workers=6, fast_path=fast_path, **tolerance)) as evaluator:
        evaluator.evaluate_many([tasks[ref] for _, ref, _ in jobs], [load_candidate(c) for _, _, c in jobs],
                                progress=progress)
    for stream in files.values():
        stream.close()
    print(f"{len(jobs)} evaluations in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="A corpus through the whole engine on a GPU, twice.")
    parser.add_argument("out", type=Path)
    parser.add_argument("corpus", type=Path, nargs="?")
    parser.add_argument("--fast-path", choices=("on", "off"), default="on")
    ns = parser.parse_args()
    sys.exit(main(ns.out, ns.corpus, ns.fast_path))
