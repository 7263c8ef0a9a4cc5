"""Render docs/features.md from the feature table, so documentation and code cannot drift."""

from __future__ import annotations

from .passes import feature_table

HEADER = """# Features

`features` in every kernel object of `cudaperf.analyze/1` is a flat map of named numbers: the
input of structural rewards and of the ranker.  Every feature is always present (absent
quantities take the neutral value stated).  Generated from the features the registered analyses
(`cudaperf/analysis/passes/`) declare, by `python -m cudaperf.analysis.featuredoc > docs/features.md`;
a test keeps them equal.

| feature | meaning |
| --- | --- |
"""


def render() -> str:
    return HEADER + "".join(f"| `{name}` | {meaning} |\n" for name, meaning in feature_table().items())


if __name__ == "__main__":
    print(render(), end="")
