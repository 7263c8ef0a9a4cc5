"""Fast-path coverage of a directory of KernelBench candidates (issue 25): the share `cudaperf eval
--plan` would send down the fast path, the top fallback reasons, and (with NVRTC) the device code's
compile time per candidate.

    python benchmarks/fastpath_coverage.py DIR [--reference REF] [--ungated] [--nvrtc ARCH] [--json]

DIR holds candidate .py files, or one sub-directory per task with `reference.py` and candidate files
beside it (then each candidate is gated against its own reference).  --ungated also counts candidates
the gate rejects (their translation is still informative).  Reasons are grouped with line numbers and
names of extensions removed."""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

from cudaperf.rewards.execution.fastpath.report import candidate_path, plan_record
from cudaperf.rewards.execution.formats import load_candidate, load_task


def pairs(root: Path, reference: str | None) -> list[tuple[Path, Path]]:
    if reference:
        return [(Path(reference), f) for f in sorted(root.glob("*.py")) if f.resolve() != Path(reference).resolve()]
    found = []
    for ref in sorted(root.rglob("reference.py")):
        found += [(ref, f) for f in sorted(ref.parent.glob("*.py")) if f.name != "reference.py"]
    return found


def group(reason: str) -> str:
    reason = re.sub(r" \(extension .*\)$", "", reason)
    reason = re.sub(r" at line \d+", "", reason)
    return re.sub(r"line \d+: ", "", reason)


def nvrtc_seconds(candidate, arch: str) -> list[tuple[float, bool, str]]:
    from cudaperf.rewards.execution.fastpath import device
    from cudaperf.rewards.execution.fastpath.plan import translate_or_reason
    from cudaperf.rewards.execution.fastpath.report import read_builds as extract_builds

    out = []
    for spec in extract_builds(candidate.source) or []:
        translation, _ = translate_or_reason(spec)
        if translation is not None:
            start = time.perf_counter()
            built = device.compile_device(translation, arch, cache=False)
            out.append((time.perf_counter() - start, built.ok, built.first_error if not built.ok else ""))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--reference")
    parser.add_argument("--ungated", action="store_true", help="also translate candidates the gate rejects")
    parser.add_argument("--nvrtc", metavar="ARCH", help="compile the fast candidates' device code for ARCH")
    parser.add_argument("--json", action="store_true")
    ns = parser.parse_args(argv)
    paths, reasons, gated, times, nvrtc_errors = Counter(), Counter(), Counter(), [], Counter()
    records = []
    for ref, path in pairs(Path(ns.directory), ns.reference):
        task, candidate = load_task(ref), load_candidate(path)
        record = plan_record(task, candidate)
        if record["path"] == "none":
            gated[group(record["fallback"]).split(":")[1].strip()] += 1
            if not ns.ungated:
                records.append(record)
                paths["none"] += 1
                continue
            route, reason = candidate_path(candidate)
            record = {**record, "path": route, "fallback": reason, "gate": record["fallback"]}
        records.append(record)
        paths[record["path"]] += 1
        if record["fallback"] and record["path"] == "full":
            reasons[group(record["fallback"])] += 1
        if ns.nvrtc and record["path"] == "fast":
            for seconds, ok, error in nvrtc_seconds(candidate, ns.nvrtc):
                times.append(seconds)
                if not ok:
                    nvrtc_errors[re.sub(r"candidate\.cu\(\d+\): ", "", error)[:100]] += 1
    built = paths["fast"] + paths["full"]
    # reasons that say the full build fails too (two module definitions, a function name that is not a
    # host function, no CUDA source): the candidate cannot be built as written on either path
    never = ("PYBIND11_MODULE beside", "no host definition", "functions= names kernel",
             "load_inline without cuda_sources")
    unbuildable = sum(n for r, n in reasons.items() if r.startswith(never))
    summary = {"candidates": sum(paths.values()), "paths": dict(paths),
               "fast_share_of_built": round(paths["fast"] / built, 3) if built else None,
               "unbuildable_as_written": unbuildable,
               "fast_share_of_buildable": round(paths["fast"] / (built - unbuildable), 3) if built > unbuildable
               else None,
               "gate_rejected": dict(gated.most_common()), "top_fallbacks": reasons.most_common(15)}
    if times:
        ordered = sorted(times)
        summary["nvrtc_seconds"] = {"n": len(times), "median": round(ordered[len(ordered) // 2], 3),
                                    "max": round(ordered[-1], 3), "failed": sum(nvrtc_errors.values()),
                                    "errors": nvrtc_errors.most_common(10)}
    if ns.json:
        json.dump({"summary": summary, "records": records}, sys.stdout, indent=1)
    else:
        print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
