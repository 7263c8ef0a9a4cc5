"""Draw the per-rule sample of lint findings that people judge by reading the code.

    python benchmarks/lint_sample.py FINDINGS.jsonl [--seed N] [--per-corpus K] [--rules a,b]

FINDINGS.jsonl is `bench_lint_corpus.py --findings` output over public projects.  Per corpus
(the first path component) and per rule, `random.Random(seed).sample` of K findings sorted by
(path, line, column, kernel), all of them when there are fewer; rules are drawn in name order
with one generator, so a seed fixes the whole sample.  Prints a markdown table with empty
verdicts for the judge to fill in (docs/lint-judged.md keeps the judged one).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict


def draw(findings: list[dict], seed: int, per_corpus: int, rules: set[str] | None = None) -> list[dict]:
    """The sample, in (corpus, rule) order."""
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for f in findings:
        if rules is None or f["name"] in rules:
            groups[(f["path"].split("/", 1)[0], f["name"])].append(f)
    rng = random.Random(seed)
    sample = []
    for key in sorted(groups):
        group = sorted(groups[key], key=lambda f: (f["path"], f["line"], f["column"], f["kernel"]))
        sample += group if len(group) <= per_corpus else rng.sample(group, per_corpus)
    return sample


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("findings")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--per-corpus", type=int, default=5)
    parser.add_argument("--rules", help="comma-separated rule names (default: all)")
    ns = parser.parse_args()
    with open(ns.findings) as f:
        findings = [json.loads(line) for line in f if line.strip()]
    rules = set(ns.rules.split(",")) if ns.rules else None
    print("| rule | finding | kernel | message | verdict | why |")
    print("| --- | --- | --- | --- | --- | --- |")
    for f in draw(findings, ns.seed, ns.per_corpus, rules):
        print(f"| {f['name']} | `{f['path']}:{f['line']}` | {f['kernel']} | {f['message']} |  |  |")


if __name__ == "__main__":
    main()
