"""Accuracy of the static analyzer against the Nsight Compute measurements committed under tests/data.

    python benchmarks/accuracy.py            # print the per-feature agreement table (markdown)
    python benchmarks/accuracy.py --write    # and put it into docs/accuracy.md

For every measured kernel set (tests/corpus, tests/validation) each case is analysed under its exact
launch and arguments and compared feature by feature with what ncu measured, through
``cudaperf.analysis.dynamic.crosscheck`` (the same comparison ``cudaperf crosscheck`` prints).
Resources come from ptxas when nvcc is on PATH, else from the estimate (the table says which).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from ncu_data import SETS, case_options, measured  # noqa: E402

from cudaperf.analysis.analyzer import analyze_file  # noqa: E402
from cudaperf.analysis.dynamic.crosscheck import compare, summary  # noqa: E402
from cudaperf.analysis.resources import nvcc  # noqa: E402

DOC = ROOT / "docs" / "accuracy.md"
BEGIN, END = "<!-- accuracy.py: begin -->", "<!-- accuracy.py: end -->"


def _cell(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{int(x):,}" if float(x).is_integer() else f"{x:,.3f}"


def table() -> str:
    resources = "ptxas" if nvcc() else "estimate"
    lines = [f"Resources from {resources}.", "",
             "| set | feature | tolerance | measured | compared | within | mean abs error | max abs error "
             "| median relative error |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, (root, data) in SETS.items():
        truth = measured(data)
        comparisons = []
        for case in json.loads((root / "manifest.json").read_text()):
            static = analyze_file(root / case["file"], case_options(case, resources)).kernels[0].to_json()
            comparisons += compare(case["id"], static, truth[case["id"]]["measured"])
        for s in summary(comparisons):
            rel = s["median_relative_error"]
            lines.append(f"| {name} | {s['feature']} | {s['tolerance']} | {s['measured']} | {s['compared']} "
                         f"| {s['within']} | {_cell(s['mean_abs_error'])} | {_cell(s['max_abs_error'])} "
                         f"| {'-' if rel is None else f'{rel:.2%}'} |")
    return "\n".join(lines) + "\n"


def write(text: str) -> None:
    doc = DOC.read_text()
    head, _, rest = doc.partition(BEGIN + "\n")
    _, _, tail = rest.partition(END)
    DOC.write_text(head + BEGIN + "\n" + text + END + tail)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"replace the table in {DOC.relative_to(ROOT)}")
    args = parser.parse_args()
    text = table()
    print(text, end="")
    if args.write:
        write(text)


if __name__ == "__main__":
    main()
