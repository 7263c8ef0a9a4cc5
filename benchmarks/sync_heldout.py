"""Score the race and barrier rules on a suite written without the linter (tests/sync_heldout).

Each buggy file and its clean twin carry their intended launch in the manifest.  A buggy file is
flagged when any race or barrier rule fires on it, and "placed" when a finding is on the labelled
line (or names it: a race message names its other access's line); a clean file that is flagged is
a false alarm.  Two ways of running, as users do: with the launch given (`--grid/--block`, the
manifest's), and as the files come (host launches found, the rest guessed).

    python benchmarks/sync_heldout.py [FOLDER]     # markdown table for docs/lint.md
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cudaperf.analysis.analyzer import Options, analyze_file
from cudaperf.analysis.sync import DIVERGENT_SYNCHRONISATION, RACES
from cudaperf.lint.rules import select
from cudaperf.lint.run import lint_file

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "tests" / "sync_heldout"
RULES = select([*RACES, *DIVERGENT_SYNCHRONISATION])
CATEGORIES = {1: "shared-memory race", 2: "intra-warp race", 3: "global race", 4: "barrier divergence",
              5: "partial full-mask collective"}


def findings(path: Path, case: dict, given: bool) -> list:
    launch = case["launch"]
    options = Options(grid=tuple(launch["grid"]), block=tuple(launch["block"]), resources="estimate") if given \
        else Options(resources="estimate")
    report = analyze_file(path, options)
    return lint_file(report, RULES, path.read_text())


def score(folder: Path = SUITE) -> list[dict]:
    out = []
    for case in json.loads((folder / "manifest.json").read_text()):
        for given in (True, False):
            found = findings(folder / case["file"], case, given)
            line = case.get("line")
            placed = line is not None and any(f.line == line or f"line {line}" in f.message for f in found)
            out.append({**case, "given": given, "flagged": bool(found), "placed": placed,
                        "rules": sorted({f.name for f in found})})
    return out


def markdown(results: list[dict]) -> str:
    lines = ["| category | buggy flagged, launch given | on the line | clean flagged, launch given "
             "| buggy flagged, as the files come | clean flagged, as the files come |",
             "| --- | --- | --- | --- | --- | --- |"]

    def share(rows: list[dict], key: str) -> str:
        return f"{sum(r[key] for r in rows)}/{len(rows)}" if rows else "-"

    for number, name in [*CATEGORIES.items(), (None, "all")]:
        rows = [r for r in results if number is None or r["category"] == number]
        pick = [[r for r in rows if r["given"] is given and r["buggy"] is buggy]
                for given, buggy in ((True, True), (True, False), (False, True), (False, False))]
        lines.append(f"| {name} | {share(pick[0], 'flagged')} | {share(pick[0], 'placed')} | "
                     f"{share(pick[1], 'flagged')} | {share(pick[2], 'flagged')} | {share(pick[3], 'flagged')} |")
    misses = [r["file"] for r in results if r["given"] and r["flagged"] != r["buggy"]]
    lines += ["", "Wrong with the launch given: " + (", ".join(f"`{m}`" for m in misses) or "none.")]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(markdown(score(Path(sys.argv[1]) if len(sys.argv) > 1 else SUITE)))
