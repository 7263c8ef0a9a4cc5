"""Render what the registered analyses (passes/) declare into the files that publish it, so
documentation, schema and code cannot drift: docs/features.md from their features, and the kernel
object's pass keys of data/analyze.schema.json from their schema fragments."""

from __future__ import annotations

import json
import sys

from .passes import feature_table, schema_fragments
from .report import SCHEMA_FILE

HEADER = """# Features

`features` in every kernel object of `cudaperf.analyze/1` is a flat map of named numbers: the
input of structural rewards and of the ranker.  Every feature is always present (absent
quantities take the neutral value stated).  Generated from the features the registered analyses
(`cudaperf/analysis/passes/`) declare, by `python -m cudaperf.analysis.featuredoc > docs/features.md`;
a test keeps them equal.

| feature | meaning |
| --- | --- |
"""
BEFORE = ("name", "line", "launch", "resources", "occupancy")  # the kernel object's own keys, then the passes'
AFTER = ("features", "estimate_exact")
REQUIRED_AFTER = ("features",)


def render() -> str:
    return HEADER + "".join(f"| `{name}` | {meaning} |\n" for name, meaning in feature_table().items())


def schema() -> dict:
    """data/analyze.schema.json with the kernel object's pass keys (and the `$defs` they use) as the
    passes declare them, in the order KernelReport.to_json writes them."""
    doc = json.loads(SCHEMA_FILE.read_text())
    kernel = doc["$defs"]["kernel"]
    own, (fragments, defs) = kernel["properties"], schema_fragments()
    kernel["properties"] = {**{k: own[k] for k in BEFORE}, **fragments, **{k: own[k] for k in AFTER}}
    kernel["required"] = [*BEFORE, *fragments, *REQUIRED_AFTER]
    doc["$defs"].update(defs)
    return doc


if __name__ == "__main__":
    if sys.argv[1:] == ["--schema"]:  # python -m cudaperf.analysis.featuredoc --schema > cudaperf/analysis/data/...
        print(json.dumps(schema(), indent=2))
    else:
        print(render(), end="")
