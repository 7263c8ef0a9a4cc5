"""Score the race and barrier rules on generated bug/clean twins (tests/sync_twins): graph codes
with a barrier removed or an atomic replaced by a plain update, and small kernels of the classes
issue 26 lists (a verifier's test-suite style).  A buggy twin is flagged when any race or barrier
rule fires on it, placed when a finding sits on (or names) the planted line; a clean twin flagged
is a false alarm.  Files are analysed as they come (no launch given: the host program's launch
when the twin has one, else the defaults).

    python benchmarks/score_sync_twins.py            # markdown table
    python benchmarks/score_sync_twins.py --misses   # also list every wrong twin with what was found
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from sync_twins import all_twins  # noqa: E402

from cudaperf.analysis.analyzer import Options, analyze_source  # noqa: E402
from cudaperf.analysis.sync import DIVERGENT_SYNCHRONISATION, RACES  # noqa: E402
from cudaperf.lint.rules import select  # noqa: E402
from cudaperf.lint.run import lint_file  # noqa: E402

RULES = select([*RACES, *DIVERGENT_SYNCHRONISATION])


def findings(twin) -> list:
    report = analyze_source(twin.source, f"{twin.name}.cu", Options(resources="estimate"))
    return lint_file(report, RULES, twin.source)


def score(twins=None) -> list[dict]:
    out = []
    for twin in twins if twins is not None else all_twins():
        found = findings(twin)
        placed = twin.line is not None and any(f.line == twin.line or f"line {twin.line}" in f.message for f in found)
        out.append({"name": twin.name, "category": twin.category, "buggy": twin.buggy, "flagged": bool(found),
                    "placed": placed, "found": [f"{f.line}:{f.name}: {f.message}" for f in found],
                    "what": twin.what})
    return out


def markdown(results: list[dict], misses: bool = False) -> str:
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in results:
        groups[r["category"]].append(r)
    lines = ["| class | buggy flagged | on the line | clean flagged |", "| --- | --- | --- | --- |"]
    for name, rows in [*sorted(groups.items()), ("all", results)]:
        bug = [r for r in rows if r["buggy"]]
        ok = [r for r in rows if not r["buggy"]]
        lines.append(f"| {name} | {sum(r['flagged'] for r in bug)}/{len(bug)} | {sum(r['placed'] for r in bug)}/"
                     f"{len(bug)} | {sum(r['flagged'] for r in ok)}/{len(ok)} |")
    if misses:
        for r in results:
            if r["flagged"] != r["buggy"]:
                lines.append(f"\n{'MISSED' if r['buggy'] else 'FALSE'} {r['name']}: {r['what']}")
                lines += [f"    {f}" for f in r["found"]]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(markdown(score(), misses="--misses" in sys.argv))
