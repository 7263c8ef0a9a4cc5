"""Cross-check of the two frontends (issue 29): tree-sitter against clang (libclang), kernel by kernel.

    python benchmarks/frontends.py $(python benchmarks/corpora.py)         # HeCBench and cuda-samples
    python benchmarks/frontends.py --every 3 --json all.json --figures tests/data/cpu/frontends.json DIR...
    python benchmarks/frontends.py --from-json all.json --figures tests/data/cpu/frontends.json  # no rerun

Each file is analysed twice, `Options(frontend="tree-sitter")` then `Options(frontend="clang")`, with the
compile database found above it (none in the corpora: the files' own includes, searched as described
in clangfront.compile_args).  Per kernel it compares the access patterns, element sizes, launch, FLOPs
and lint findings, and gives the reason of each difference: a name tree-sitter could not resolve that
clang knew as a macro, a constant or a type (`lost macro`, `lost constant`, `lost type`), or another one.

Printed: the share of kernels with every access resolved under each frontend (no access whose offset
holds a name nothing in sight declares, or whose element type is unknown), the share with no `unknown`
pattern, clang's CPU cost per file (process time: the libclang parse and fact gathering alone, and the
whole analysis), the files clang could not parse (analysed with tree-sitter, with a note), and the differences by kind.
Fetched code is never committed; nothing here needs a GPU.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cudaperf.analysis import clangfront
from cudaperf.analysis.analyzer import Options, analyze_file, find_sources
from cudaperf.analysis.source import SourceError
from cudaperf.analysis.symbolic import Op, Opaque
from cudaperf.lint.rules import REGISTRY
from cudaperf.lint.run import lint_file
from cudaperf.lint.selection import default_rules

_last: dict = {}
_original_facts_for = clangfront.facts_for


def _timed_facts_for(path, options, database=False):
    start = time.process_time()
    try:
        facts = _original_facts_for(path, options, database)
    finally:
        _last["seconds"] = time.process_time() - start
    _last["facts"] = facts
    return facts


clangfront.facts_for = _timed_facts_for


def unseen_names(expr, found: set[str], depth: int = 0) -> set[str]:
    if depth > 200:
        return found
    if isinstance(expr, Opaque):
        if expr.unseen:
            found.add(expr.reason)
        for e in expr.follows:
            unseen_names(e, found, depth + 1)
    elif isinstance(expr, Op):
        for e in expr.args:
            unseen_names(e, found, depth + 1)
    return found


def declared_template(lines: list[str], line: int) -> list[str]:
    """The template parameter names declared just above (or on) a kernel's line (`template <class T, int B>`),
    read from the text: the analyzer reports only the parameters it could bind."""
    head = "\n".join(lines[max(line - 4, 0):line])
    at = head.rfind("template")
    if at < 0 or ";" in head[at:] or "}" in head[at:]:
        return []
    depth, parts, current = 0, [], ""
    for ch in head[head.find("<", at) + 1:]:
        if ch == "<":
            depth += 1
        elif ch == ">" and depth == 0:
            parts.append(current)
            break
        elif ch == ">":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        current += ch
    names = [re.findall(r"[A-Za-z_]\w*", p.split("=", 1)[0]) for p in parts]
    return [words[-1] for words in names if words]


def summary(report, text: str, rules) -> dict:
    kernels = {}
    lines = text.splitlines()
    findings = lint_file(report, rules, text)
    for k in report.kernels:
        name = f"{k.kernel.name}:{k.kernel.line}"
        lost, types, accesses, untyped = set(), 0, [], set()
        for a in k.accesses:
            names = unseen_names(a.access.offset, set())
            lost |= names
            if a.access.type_name == "?":
                types += 1
                untyped.add(a.access.array)
            accesses.append((a.access.line, a.access.column, a.access.array, a.pattern, a.access.size))
        work = k.work.to_json() if k.work is not None else {}
        kernels[name] = {
            "accesses": accesses, "lost": sorted(lost), "unknown_types": types, "untyped": sorted(untyped),
            "template": declared_template(lines, k.kernel.line), "bound": list(k.kernel.template_params),
            "unknown_patterns": sum(a.pattern == "unknown" for a in k.accesses),
            "launch": [list(k.launch.grid), list(k.launch.block)],
            "flops": work.get("flops"),
            "findings": sorted({(f.line, f.code) for f in findings if k.kernel.line <= f.line}),
        }
    return kernels


def one(path: str) -> dict:
    rules = [*default_rules(), REGISTRY["CP501"], REGISTRY["CP502"]]
    text = Path(path).read_text(errors="replace")
    out: dict = {"path": path}
    for frontend in ("tree-sitter", "clang"):
        _last.clear()
        start = time.process_time()
        try:
            report = analyze_file(path, Options(resources="estimate", frontend=frontend, compile_commands="auto"))
        except SourceError as exc:
            out[frontend] = {"error": str(exc)}
            continue
        except Exception as exc:  # the benchmark reports it and goes on
            out[frontend] = {"error": f"{type(exc).__name__}: {exc}"}
            continue
        seconds = time.process_time() - start
        entry = {"seconds": seconds, "kernels": summary(report, text, rules)}
        if frontend == "clang":
            entry["clang_seconds"] = _last.get("seconds")
            facts = _last.get("facts")
            entry["fell_back"] = [d.message for d in report.diagnostics if "analysed with tree-sitter" in d.message]
            if facts is not None:
                entry["facts"] = {"macros": sorted(facts.macros), "constants": sorted(facts.constants),
                                  "types": sorted(facts.types), "errors": facts.errors,
                                  "missing": sorted(set(facts.missing_headers)), "shims": facts.shims,
                                  "assumed": sorted(facts.assumed)}
        out[frontend] = entry
    return out


def _family(header: str) -> str:
    """A missing header's library: `cub/cub.cuh` -> cub, `cooperative_groups/reduce.h` -> cooperative_groups."""
    stem = header.split("/", 1)[0].rsplit(".", 1)[0]
    for family in ("cub", "cooperative_groups", "curand", "thrust", "cublas", "cusparse", "cufft", "helper_"):
        if stem.startswith(family):
            return family.rstrip("_")
    return "other"


def cause(kernel: dict, facts: dict | None) -> str:
    """Why a kernel has an access not resolved: a template parameter nothing binds, a header clang did not
    find (the name or type likely came from there), or a name nothing in sight declares."""
    unbound = set(kernel.get("template", ())) - set(kernel.get("bound", ()))
    if unbound and (set(kernel["lost"]) & unbound or kernel["unknown_types"]):
        return "template kernel without an instance"
    missing = (facts or {}).get("missing") or []
    if missing:
        return "missing header: " + "+".join(sorted({_family(h) for h in missing}))
    return "undeclared name" if kernel["lost"] else "unknown type"


def reasons(tree: dict, clang: dict, facts: dict | None) -> list[str]:
    """Why the two frontends disagree on a kernel."""
    found = []
    for name in tree["lost"]:
        if name not in clang["lost"]:
            if facts and name in facts["constants"]:
                found.append(f"lost constant {name}")
            elif facts and name in facts["macros"]:
                found.append(f"lost macro {name}")
            else:
                found.append(f"lost name {name}")
    if tree["unknown_types"] > clang["unknown_types"]:
        found.append("lost type")
    if found:
        return found
    tree_sizes = [a[4] for a in tree["accesses"]]
    clang_sizes = [a[4] for a in clang["accesses"]]
    if tree_sizes != clang_sizes:
        found.append("element type (typedef, #if arm or template argument clang resolved differently)")
    elif tree["launch"] != clang["launch"]:
        found.append("launch (a macro's value: the #if arm or redefinition clang takes)")
    elif [a[3] for a in tree["accesses"]] != [a[3] for a in clang["accesses"]]:
        found.append("pattern (a macro's or constant's value: the #if arm or redefinition clang takes)")
    elif tree["flops"] != clang["flops"]:
        found.append("FLOPs (a constant or type clang resolved)")
    else:
        found.append("findings only")
    return found


def _relative(path: str) -> str:
    """A corpus path without the cache directory: `HeCBench/src/degrid-cuda/kernels.cu`."""
    parts = Path(path).parts
    for i, part in enumerate(parts):
        if part.startswith(("HeCBench-", "cuda-samples-")):
            return "/".join((part.rsplit("-", 1)[0], *parts[i + 1:]))
    return path


def _times(values: list[float]) -> dict | None:
    if not values:
        return None
    return {"median": round(statistics.median(values), 3), "mean": round(statistics.mean(values), 3),
            "max": round(max(values), 3)}


def stats(results: list[dict]) -> dict:
    """The figures the docs publish, from every file's summaries."""
    totals: Counter = Counter()
    differences, kinds, causes, unresolved = [], Counter(), Counter(), []
    tree_times, clang_times, parse_times, fell_back = [], [], [], []
    for r in sorted(results, key=lambda r: r["path"]):
        tree, clang = r.get("tree-sitter", {}), r.get("clang", {})
        totals["files"] += 1
        if "kernels" not in tree or "kernels" not in clang:
            totals["unreadable"] += 1
            continue
        tree_times.append(tree["seconds"])
        clang_times.append(clang["seconds"])
        if clang.get("clang_seconds") is not None:
            parse_times.append(clang["clang_seconds"])
        if clang.get("fell_back"):
            fell_back.append([_relative(r["path"]), clang["fell_back"][0]])
        for name, t in tree["kernels"].items():
            c = clang["kernels"].get(name)
            totals["kernels"] += 1
            totals["tree_resolved"] += not t["lost"] and not t["unknown_types"]
            totals["tree_known_patterns"] += not t["unknown_patterns"]
            if c is None:
                totals["clang_missing"] += 1
                continue
            if c["lost"] or c["unknown_types"]:
                why = cause(c, clang.get("facts"))
                causes[why] += 1
                unresolved.append({"path": _relative(r["path"]), "kernel": name, "cause": why, "lost": c["lost"],
                                   "untyped": c.get("untyped", [])})
            else:
                totals["clang_resolved"] += 1
                facts = clang.get("facts") or {}
                totals["clang_resolved_assumed"] += name.split(":")[0] in facts.get("assumed", ())
                totals["clang_resolved_shims"] += bool(facts.get("shims"))
            totals["clang_known_patterns"] += not c["unknown_patterns"]
            what = [f for f in ("accesses", "launch", "flops", "findings") if t[f] != c[f]]
            if what:
                why = reasons(t, c, clang.get("facts"))
                kinds.update(what)
                kinds.update("why: " + " ".join(w.split(" ")[:2]) for w in why)
                differences.append({"path": _relative(r["path"]), "kernel": name, "differs": what, "why": why})
    n = max(totals["kernels"], 1)
    return {
        "files": totals["files"], "unreadable": totals["unreadable"], "kernels": totals["kernels"],
        "resolved_share": {"tree-sitter": round(totals["tree_resolved"] / n, 4),
                           "clang": round(totals["clang_resolved"] / n, 4)},
        # of the kernels clang resolves: those analysed under the assumed template arguments, those in
        # files where declaration shims stood in for missing toolkit headers
        "clang_resolved_assumed": totals["clang_resolved_assumed"],
        "clang_resolved_with_shims": totals["clang_resolved_shims"],
        "known_pattern_share": {"tree-sitter": round(totals["tree_known_patterns"] / n, 4),
                                "clang": round(totals["clang_known_patterns"] / n, 4)},
        "seconds_per_file": {"tree-sitter": _times(tree_times), "clang": _times(clang_times),
                             "libclang": _times(parse_times)},
        "fell_back": fell_back, "kernels_differing": len(differences), "kinds": dict(kinds.most_common()),
        "differences": differences, "clang_unresolved_causes": dict(causes.most_common()),
        "clang_unresolved": unresolved,
    }


def report(figures: dict) -> str:
    shares, known, times = figures["resolved_share"], figures["known_pattern_share"], figures["seconds_per_file"]
    lines = [f"files: {figures['files']} ({figures['unreadable']} unreadable), kernels: {figures['kernels']}",
             f"every access resolved (no lost name or type): tree-sitter {shares['tree-sitter']:.1%}, "
             f"clang {shares['clang']:.1%}",
             f"  of clang's: {figures['clang_resolved_assumed']} kernels under assumed template arguments, "
             f"{figures['clang_resolved_with_shims']} in files where declaration shims stood in",
             f"no `unknown` pattern: tree-sitter {known['tree-sitter']:.1%}, clang {known['clang']:.1%}"]
    if times["tree-sitter"] and times["clang"] and times["libclang"]:
        ts, cl, lc = times["tree-sitter"], times["clang"], times["libclang"]
        lines.append(f"CPU seconds per file (process time), median / mean: tree-sitter analysis {ts['median']:.3f} / "
                     f"{ts['mean']:.3f}; clang analysis {cl['median']:.3f} / {cl['mean']:.3f}; libclang parse + "
                     f"facts alone {lc['median']:.3f} / {lc['mean']:.3f} (max {lc['max']:.3f})")
    lines.append(f"clang could not parse (fell back to tree-sitter): {len(figures['fell_back'])} files")
    lines += [f"  {path}: {why}" for path, why in figures["fell_back"][:10]]
    lines.append("clang: kernels with an access not resolved, by cause:")
    lines += [f"  {why}: {count}" for why, count in figures["clang_unresolved_causes"].items()]
    lines.append(f"kernels that differ: {figures['kernels_differing']}")
    lines += [f"  {kind}: {count}" for kind, count in figures["kinds"].items()]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="*")
    ap.add_argument("--every", type=int, default=1, help="every Nth file (a sample), default all")
    ap.add_argument("--offset", type=int, default=0,
                    help="start the sample at this file (--every 3 --offset 1: a third the default sample leaves out)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--json", help="write every file's summaries here (large)")
    ap.add_argument("--from-json", help="recompute the figures from an earlier --json instead of analysing")
    ap.add_argument("--figures", help="write the published figures here (tests/data/cpu/frontends.json)")
    ns = ap.parse_args(argv)
    if ns.from_json:
        results = json.loads(Path(ns.from_json).read_text())["files"]
    else:
        if not clangfront.available():
            print("frontends.py needs libclang: pip install 'cudaperf[clang]'", file=sys.stderr)
            return 2
        files = [str(p) for p in find_sources(ns.dirs)][ns.offset::ns.every]
        start = time.perf_counter()
        with multiprocessing.Pool(ns.jobs) as pool:
            results = list(pool.imap_unordered(one, files, chunksize=4))
        print(f"wall {time.perf_counter() - start:.0f} s on {ns.jobs} processes")
        if ns.json:
            Path(ns.json).write_text(json.dumps({"files": results}, default=str))
    figures = stats(results)
    figures["every"] = ns.every
    figures["offset"] = ns.offset
    print(report(figures))
    if ns.figures:
        Path(ns.figures).write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
