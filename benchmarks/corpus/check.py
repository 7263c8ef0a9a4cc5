#!/usr/bin/env python3
"""Check the generated corpus against nvcc.

For every selected file that is not marked broken, compile it with

    nvcc -arch=sm_90 -cubin -std=c++17 -o /dev/null [file's nvcc_flags] [variant -D flags]

(headers through a one-line includer), keep the PTX, and compare the kernel entry points
nvcc emitted with truth.json:

* every emitted entry must be a kernel that truth.json lists for the file or for a
  header it includes (catches kernels the truth missed, e.g. a wrong macro expansion name);
* every listed non-template, unconditional kernel must be emitted by at least one
  variant (catches truth entries that are not real definitions);
* template kernels are reported as covered when some instantiation was emitted.

Files marked broken must fail to compile.

    python3 benchmarks/corpus/check.py --sample 40      # seeded random sample
    python3 benchmarks/corpus/check.py --all -j 8
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = ["nvcc", "-arch=sm_90", "-cubin", "-std=c++17", "-o", "/dev/null"]
ENTRY_RE = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([A-Za-z_$][\w$]*)\s*\(", re.M)
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def demangle(names):
    if not names:
        return {}
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout.split("\n")
    return dict(zip(names, out))


def base_name(demangled: str) -> str:
    s = demangled.strip()
    # drop the parameter list: the last top-level parenthesised group
    if s.endswith(")"):
        depth = 0
        for j in range(len(s) - 1, -1, -1):
            c = s[j]
            if c == ")":
                depth += 1
            elif c == "(":
                depth -= 1
                if depth == 0:
                    s = s[:j]
                    break
    # drop trailing template arguments
    s = s.strip()
    if s.endswith(">"):
        depth = 0
        for j in range(len(s) - 1, -1, -1):
            c = s[j]
            if c == ">":
                depth += 1
            elif c == "<":
                depth -= 1
                if depth == 0:
                    s = s[:j]
                    break
    # last scope component, ignoring "(anonymous namespace)" and a return type
    depth = 0
    last = 0
    for j, c in enumerate(s):
        if c in "(<":
            depth += 1
        elif c in ")>":
            depth -= 1
        elif depth == 0 and s.startswith("::", j):
            last = j + 2
    s = s[last:]
    return s.split()[-1] if s.split() else s


def resolve_flags(corpus_src, flags):
    """'-I@dir' in truth.json means an include directory relative to src/."""
    return [("-I" + os.path.join(corpus_src, f[3:].lstrip("/")) if f.startswith("-I@") else f) for f in flags]


def included_headers(corpus_src, path, seen=None, incdirs=()):
    seen = set() if seen is None else seen
    full = os.path.join(corpus_src, path)
    try:
        text = open(full, encoding="utf-8", errors="replace").read()
    except OSError:
        return seen
    for inc in INCLUDE_RE.findall(text):
        for d in [os.path.dirname(path)] + list(incdirs):
            rel = os.path.normpath(os.path.join(d, inc))
            if os.path.exists(os.path.join(corpus_src, rel)):
                if rel not in seen:
                    seen.add(rel)
                    included_headers(corpus_src, rel, seen, incdirs)
                break
    return seen


def compile_one(corpus_src, path, flags, defines, keep):
    full = os.path.join(corpus_src, path)
    src = full
    if path.endswith(".cuh") or path.endswith(".h"):
        src = os.path.join(keep, "includer.cu")
        with open(src, "w") as f:
            f.write(f'#include "{full}"\n')
    cmd = BASE + resolve_flags(corpus_src, flags) + list(defines) + ["--keep", "--keep-dir", keep, src]
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    entries = []
    for fn in os.listdir(keep):
        if fn.endswith(".ptx"):
            entries += ENTRY_RE.findall(open(os.path.join(keep, fn)).read())
    return p.returncode, p.stdout + p.stderr, entries, " ".join(cmd)


def check_file(corpus_src, truth, path):
    info = truth["files"][path]
    res = {"path": path, "problems": [], "emitted": [], "template_covered": 0, "template_total": 0, "compiles": []}
    variants = [[]] + [list(v) for v in info.get("variants", [])]
    names = set()
    for variant in variants:
        keep = tempfile.mkdtemp(prefix="corpus_check_")
        try:
            rc, log, entries, cmd = compile_one(corpus_src, path, info.get("nvcc_flags", []), variant, keep)
        finally:
            shutil.rmtree(keep, ignore_errors=True)
        res["compiles"].append({"cmd": cmd, "rc": rc})
        if info["broken"]:
            if rc == 0:
                res["problems"].append(f"marked broken but compiles with {variant or 'defaults'}")
            continue
        if rc != 0:
            res["problems"].append(f"does not compile with {variant or 'defaults'}:\n{log[-3000:]}")
            continue
        dm = demangle(entries)
        names |= {base_name(dm.get(e, e)) for e in entries}
    if info["broken"]:
        return res
    allowed = {k["name"] for k in info["kernels"]}
    incdirs = [f[3:].lstrip("/") for f in info.get("nvcc_flags", []) if f.startswith("-I@")]
    for h in included_headers(corpus_src, path, incdirs=incdirs):
        if h in truth["files"]:
            allowed |= {k["name"] for k in truth["files"][h]["kernels"]}
    res["emitted"] = sorted(names)
    # names emitted here that a header (or an included .cu) defines count as coverage for that file
    res["header_hits"] = {}
    for h in included_headers(corpus_src, path, incdirs=incdirs):
        if h in truth["files"]:
            hit = names & {k["name"] for k in truth["files"][h]["kernels"]}
            if hit:
                res["header_hits"][h] = hit
    for n in sorted(names - allowed):
        res["problems"].append(f"nvcc emitted kernel '{n}' that truth.json does not list")
    for k in info["kernels"]:
        tags = set(k.get("tags", []))
        if "template" in tags:
            res["template_total"] += 1
            if k["name"] in names:
                res["template_covered"] += 1
            else:
                res.setdefault("uninstantiated", []).append(k["name"])
            continue
        if k.get("conditional") or "no_entry" in tags:
            continue
        if k["name"] not in names:
            res["problems"].append(f"listed kernel '{k['name']}' (line {k['line']}) was not emitted by nvcc")
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description="compile corpus files with nvcc and cross-check truth.json")
    ap.add_argument("--corpus", default=HERE)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--all", action="store_true")
    g.add_argument("--sample", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("-v", "--verbose", action="store_true", help="list template kernels never instantiated")
    ap.add_argument("files", nargs="*", help="paths relative to src/ (overrides --all/--sample)")
    args = ap.parse_args(argv)
    truth = json.load(open(os.path.join(args.corpus, "truth.json")))
    corpus_src = os.path.join(args.corpus, "src")
    paths = sorted(truth["files"])
    if args.files:
        sel = args.files
    elif args.all:
        sel = paths
    else:
        rng = random.Random(args.seed)
        broken = [p for p in paths if truth["files"][p]["broken"]]
        ok = [p for p in paths if not truth["files"][p]["broken"]]
        n = min(args.sample, len(paths))
        sel = sorted(rng.sample(ok, min(len(ok), n - min(3, len(broken)))) + rng.sample(broken, min(3, len(broken))))
    bad = 0
    results = []
    hits = {}
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        for res in ex.map(lambda p: check_file(corpus_src, truth, p), sel):
            results.append(res)
            for h, names in res.get("header_hits", {}).items():
                hits.setdefault(h, set()).update(names)
            status = "ok" if not res["problems"] else "FAIL"
            broken = " (broken by design)" if truth["files"][res["path"]]["broken"] else ""
            print(f"{status:4} {res['path']}{broken}: {len(res['emitted'])} entry names")
            if args.verbose and res.get("uninstantiated"):
                print("     template kernels not instantiated: " + ", ".join(res["uninstantiated"]))
            for p in res["problems"]:
                print("     " + p.replace("\n", "\n     "))
            bad += bool(res["problems"])
    tc = tt = 0
    for res in results:
        p = res["path"]
        for k in truth["files"][p]["kernels"]:
            if "template" in k.get("tags", []) and not truth["files"][p]["broken"]:
                tt += 1
                tc += k["name"] in set(res["emitted"]) | hits.get(p, set())
    print(f"\n{len(sel)} files checked, {bad} with problems; template kernels instantiated somewhere "
          f"(in the file or through a checked includer): {tc}/{tt}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
