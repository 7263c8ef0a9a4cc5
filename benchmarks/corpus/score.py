#!/usr/bin/env python3
"""Score `cudaperf analyze` against the corpus truth: kernel recall, extras, speed.

    python3 benchmarks/corpus/score.py                     # runs the analyzer on src/
    python3 benchmarks/corpus/score.py --json report.json  # scores a saved report
    python3 benchmarks/corpus/score.py --cmd "python3 -m cudaperf"   # how to invoke it

A reported kernel matches a truth entry of the same file and name whose line span
[line, name_line] (or, for X-macro kernels, alt_line) is within --slack lines of the
reported line; each truth entry is matched at most once.  Same-name reports at other
lines are counted separately as "name-only" matches (the line convention differs).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def rel(path: str, src: str) -> str:
    p = os.path.normpath(os.path.abspath(path))
    s = os.path.normpath(os.path.abspath(src))
    return os.path.relpath(p, s) if p.startswith(s + os.sep) else os.path.normpath(path)


def score(report: dict, truth: dict, src: str, slack: int):
    reported = {}
    for f in report.get("files", []):
        reported.setdefault(rel(f["path"], src), []).extend(f.get("kernels", []))
    tot = {"truth": 0, "matched": 0, "name_only": 0, "extra": 0}
    by_style, by_flag, missed = {}, {}, []
    for path, info in sorted(truth["files"].items()):
        ks = reported.get(path, [])
        used = [False] * len(ks)
        for t in info["kernels"]:
            lo, hi = t["line"] - slack, max(t["line"], t["name_line"]) + slack
            alt = t.get("alt_line")
            hit = None
            for j, k in enumerate(ks):
                if used[j] or k.get("name") != t["name"]:
                    continue
                ln = k.get("line", -1)
                if lo <= ln <= hi or (alt is not None and abs(ln - alt) <= slack):
                    hit = j
                    break
            kind = "matched"
            if hit is None:
                hit = next((j for j, k in enumerate(ks) if not used[j] and k.get("name") == t["name"]), None)
                kind = "name_only" if hit is not None else None
            if hit is not None:
                used[hit] = True
                tot[kind] += 1
            else:
                missed.append(f"{path}:{t['line']} {t['name']}")
            tot["truth"] += 1
            st = by_style.setdefault(info["style"] + (" (broken)" if info["broken"] else ""), [0, 0])
            st[0] += 1
            st[1] += hit is not None
            flags = (["macro_generated"] if t["macro_generated"] else []) + (["conditional"] if t.get("conditional") else []) \
                + [x for x in t.get("tags", []) if x in ("template", "qualifier_macro", "launch_bounds", "extern_c",
                                                          "split_signature", "body_error", "after_syntax_error",
                                                          "unknown_macros", "xmacro")]
            for fl in flags or ["plain"]:
                b = by_flag.setdefault(fl, [0, 0])
                b[0] += 1
                b[1] += hit is not None
        tot["extra"] += used.count(False)
    extra_files = sorted(set(reported) - set(truth["files"]))
    return tot, by_style, by_flag, missed, extra_files


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=HERE)
    ap.add_argument("--json", help="score this saved `cudaperf analyze --format json` report instead of running")
    ap.add_argument("--cmd", default="cudaperf", help="command that runs the analyzer (default: cudaperf)")
    ap.add_argument("--extra-args", default="--resources estimate --format json")
    ap.add_argument("--slack", type=int, default=2)
    ap.add_argument("--show-missed", type=int, default=40)
    args = ap.parse_args(argv)
    truth = json.load(open(os.path.join(args.corpus, "truth.json")))
    src = os.path.join(args.corpus, "src")
    elapsed = None
    if args.json:
        report = json.load(open(args.json))
    else:
        cmd = shlex.split(args.cmd) + ["analyze", src] + shlex.split(args.extra_args)
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
        elapsed = time.perf_counter() - t0
        print(f"$ {' '.join(cmd)}\nexit status {p.returncode}, {elapsed:.1f} s")
        if p.stderr.strip():
            print("stderr (tail):\n" + p.stderr[-2000:])
        try:
            report = json.loads(p.stdout)
        except json.JSONDecodeError:
            print("no JSON on stdout")
            return 2
    tot, by_style, by_flag, missed, extra_files = score(report, truth, src, args.slack)
    n = tot["truth"]
    found = tot["matched"] + tot["name_only"]
    print(f"kernel definitions in truth: {n}")
    print(f"recall: {found}/{n} = {100.0 * found / n:.1f}%  (line within {args.slack}: {tot['matched']}, "
          f"name only: {tot['name_only']})")
    print(f"reported kernels not in truth: {tot['extra']}" + (f"; files not in truth: {len(extra_files)}" if extra_files else ""))
    if elapsed:
        print(f"speed: {n / elapsed:.1f} truth kernels/s over {elapsed:.1f} s")
    print("\nrecall by style:")
    for k, (a, b) in sorted(by_style.items()):
        print(f"  {k:16} {b:5}/{a:<5} {100.0 * b / a:5.1f}%")
    print("recall by feature:")
    for k, (a, b) in sorted(by_flag.items()):
        print(f"  {k:20} {b:5}/{a:<5} {100.0 * b / a:5.1f}%")
    if missed and args.show_missed:
        print(f"\nfirst {min(args.show_missed, len(missed))} of {len(missed)} missed:")
        for m in missed[: args.show_missed]:
            print("  " + m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
