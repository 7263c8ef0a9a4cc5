"""Accuracy of the static analyzer against Nsight Compute measurements committed under tests/data.

    python benchmarks/accuracy.py

For every measured kernel set (tests/corpus, tests/validation) and every kernel-level ratio:
how many cases land within max(0.5, 10%) of ncu, the mean and the largest absolute error.
Prints the markdown table kept in docs/accuracy.md.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from ncu_data import SETS, case_options, kernel_metrics, measured  # noqa: E402

from cudaperf.analysis.analyzer import analyze_file  # noqa: E402

KEYS = ("global_load_sectors_per_request", "global_store_sectors_per_request",
        "shared_load_wavefronts_per_request", "shared_store_wavefronts_per_request")


def main() -> None:
    print("| set | metric | within max(0.5, 10%) | mean abs error | max abs error |")
    print("| --- | --- | --- | --- | --- |")
    for name, (root, data) in SETS.items():
        truth_by_id = measured(data)
        errors: dict[str, list[float]] = {k: [] for k in KEYS}
        hits = {k: 0 for k in KEYS}
        skipped = 0
        for case in json.loads((root / "manifest.json").read_text()):
            options = case_options(case)
            doc = analyze_file(root / case["file"], options).kernels[0].to_json()
            truth = kernel_metrics(truth_by_id[case["id"]])
            indirect = {p["kind"] for p in case["expect"].get("access_patterns", []) if p["pattern"] == "indirect"}
            for key in KEYS:
                want, got = truth[key], doc["memory"][key]
                if want is None or (key.startswith("global") and key.split("_")[1] in indirect):
                    skipped += want is not None
                    continue
                error = abs(got - want) if got is not None else float("inf")
                errors[key].append(error)
                hits[key] += error <= max(0.5, 0.1 * abs(want))
        for key in KEYS:
            e = errors[key]
            finite = [x for x in e if x != float("inf")]
            print(f"| {name} | {key} | {hits[key]}/{len(e)} | {statistics.mean(finite):.3f} | {max(e):.3f} |")
        print(f"| {name} | global ratios of kernels with data-dependent addresses (not estimated) | {skipped} | | |")


if __name__ == "__main__":
    main()
