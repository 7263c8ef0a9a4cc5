"""Score `cudaperf lint` on the two held-out suites (written without running the linter):

- tests/planted: kernels with one planted smell each and their clean twins.  A planted kernel
  scores when every rule name it plants is reported; a twin scores when none of the suite's
  smell names is.
- tests/sync_suite: race and barrier-divergence kernels in the style of the verification
  literature's suites, labels cross-checked with compute-sanitizer on an H200.  A buggy kernel is
  flagged when any race or barrier-divergence rule fires on it; the same for a clean one is a
  false alarm.

    python benchmarks/lint_suites.py            # markdown tables for docs/lint.md
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from ncu_data import case_options  # noqa: E402

from cudaperf.analysis.analyzer import analyze_file  # noqa: E402
from cudaperf.analysis.sync import DIVERGENT_SYNCHRONISATION, RACES  # noqa: E402
from cudaperf.lint.rules import select  # noqa: E402
from cudaperf.lint.run import lint_file  # noqa: E402

PLANTED = ROOT / "tests" / "planted"
SYNC_SUITE = ROOT / "tests" / "sync_suite"
SYNC_NAMES = {*RACES, *DIVERGENT_SYNCHRONISATION}  # the rules named like these hazard kinds


def names_found(folder: Path, case: dict, resources: str = "auto") -> set[str]:
    """Rule names reported on the case's kernel under its launch."""
    path = folder / case["file"]
    report = analyze_file(path, case_options(case, resources))
    kernel = case["kernel"].split("<")[0]
    return {f.name for f in lint_file(report, select(), path.read_text()) if f.kernel == kernel}


def planted_results(resources: str = "auto") -> list[dict]:
    cases = json.loads((PLANTED / "manifest.json").read_text())
    smells = {name for c in cases for name in c["planted"]}
    out = []
    for case in cases:
        found = names_found(PLANTED, case, resources)
        wanted = set(case["planted"])
        ok = wanted <= found if wanted else not (found & smells)
        out.append({"id": case["id"], "planted": sorted(wanted), "found": sorted(found & smells), "ok": ok})
    return out


def sync_results(resources: str = "estimate") -> list[dict]:
    out = []
    for case in json.loads((SYNC_SUITE / "manifest.json").read_text()):
        found = names_found(SYNC_SUITE, case, resources) & SYNC_NAMES
        out.append({"id": case["id"], "label": case["label"], "kind": case["kind"], "found": sorted(found),
                    "flagged": bool(found)})
    return out


def _markdown(planted: list[dict], sync: list[dict]) -> str:
    lines = ["| planted smell | planted kernels named | clean twins left alone |", "| --- | --- | --- |"]
    by_smell: dict[str, list[int]] = {}
    twins_ok = sum(r["ok"] for r in planted if not r["planted"])
    twins = sum(1 for r in planted if not r["planted"])
    for r in planted:
        for name in r["planted"]:
            by_smell.setdefault(name, [0, 0])
            by_smell[name][0] += r["ok"]
            by_smell[name][1] += 1
    for name, (ok, n) in sorted(by_smell.items()):
        lines.append(f"| `{name}` | {ok}/{n} | |")
    lines.append(f"| all | {sum(v[0] for v in by_smell.values())}/{sum(v[1] for v in by_smell.values())} "
                 f"| {twins_ok}/{twins} |")
    lines += ["", "| sync suite kind | kernels | flagged |", "| --- | --- | --- |"]
    kinds: dict[str, list[int]] = {}
    for r in sync:
        kinds.setdefault(r["kind"], [0, 0])
        kinds[r["kind"]][0] += 1
        kinds[r["kind"]][1] += r["flagged"]
    for kind, (n, flagged) in sorted(kinds.items()):
        lines.append(f"| {kind} | {n} | {flagged} ({100 * flagged / n:.0f}%) |")
    misses = [r["id"] for r in planted if not r["ok"]]
    misses += [r["id"] for r in sync if r["flagged"] != (r["label"] == "buggy")]
    lines += ["", "Misses: " + (", ".join(f"`{m}`" for m in misses) if misses else "none.")]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(_markdown(planted_results(), sync_results()))
