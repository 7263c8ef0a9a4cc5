"""Smoke test of every `cudaperf` command as a user of the installed package runs it: from an empty
directory outside the checkout, on copies of a few files from it, with the `cudaperf` found on PATH
(or given with --cudaperf).  CI runs it in a fresh venv holding only the wheel, scipy and matplotlib.

    python .ci/smoke.py [--cudaperf PATH/TO/cudaperf] [--keep]

Each command must exit as documented, print no traceback and give the output it promises; commands
that need what such a venv lacks (a GPU, torch, the rl extra) must say so in one line.  Exit 0 when
every check passes.  Never import cudaperf here: the command under test is the installed one."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
INPUTS = {  # copied next to nothing of the checkout
    "transpose.cu": "examples/transpose.cu",
    "roofline.cu": "examples/roofline.cu",
    "profile.json": "tests/data/h200/profile/profile.json",
    "divergence.cu": "tests/corpus/kernels/divergence.cu",
    "ncu_raw.csv": "tests/data/h200/corpus/ncu_raw.csv",
    "reference.py": "examples/eval/scale_add/reference.py",
    "candidate_native.cu": "examples/eval/scale_add/candidate_native.cu",
    "kb/reference.py": "tests/kb_llm/conv_relu_bias/reference.py",
    "kb/honest.py": "tests/kb_llm/conv_relu_bias/honest_direct_conv_fused.py",
    **{f"planted/{p.name}": str(p.relative_to(CHECKOUT)) for p in sorted((CHECKOUT / "tests/planted").glob("*.cu"))},
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cudaperf", default=shutil.which("cudaperf"), help="the installed command")
    parser.add_argument("--keep", action="store_true", help="keep the working directory")
    ns = parser.parse_args()
    if not ns.cudaperf:
        print("smoke: no cudaperf on PATH (give --cudaperf)", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="cudaperf-smoke-"))
    for name, source in INPUTS.items():
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(CHECKOUT / source, work / name)
    failures = 0
    for name, args, expect in CHECKS:
        start = time.monotonic()
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NO_COLOR", "FORCE_COLOR")}
        env.update(CUDAPERF_CACHE_DIR=str(work / ".cache"), MPLBACKEND="Agg")
        proc = subprocess.run([ns.cudaperf, *args], cwd=work, capture_output=True, text=True, env=env, timeout=300)
        problem = _check(proc, expect, work)
        status = "ok" if problem is None else f"FAILED: {problem}"
        print(f"smoke: {name:<26} exit {proc.returncode}  {time.monotonic() - start:5.1f} s  {status}")
        if problem is not None:
            failures += 1
            print(f"  $ cudaperf {' '.join(args)}\n  stdout: {proc.stdout[-1500:]}\n  stderr: {proc.stderr[-1500:]}")
    if not ns.keep:
        shutil.rmtree(work, ignore_errors=True)
    print(f"smoke: {len(CHECKS) - failures} of {len(CHECKS)} passed ({ns.cudaperf}, run in {work})")
    return 1 if failures else 0


def _check(proc: subprocess.CompletedProcess, expect: dict, work: Path) -> str | None:
    if "Traceback" in proc.stdout + proc.stderr:
        return "a traceback"
    if proc.returncode != expect["exit"]:
        return f"exit {proc.returncode}, expected {expect['exit']}"
    if "one_line" in expect:
        lines = proc.stderr.strip().splitlines()
        if len(lines) != 1 or expect["one_line"] not in lines[0]:
            return f"expected one line saying {expect['one_line']!r} on stderr"
    for text in expect.get("stdout", ()):
        if text not in proc.stdout:
            return f"stdout lacks {text!r}"
    if "json" in expect:
        try:
            problem = expect["json"](json.loads(proc.stdout))
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            return f"bad JSON: {exc!r}"
        if problem:
            return problem
    for name in expect.get("files", ()):
        if not (work / name).is_file() or not (work / name).stat().st_size:
            return f"{name} was not written"
    return None


def _analyze(doc: dict) -> str | None:
    names = [k["name"] for f in doc["files"] for k in f["kernels"]]
    return None if doc["schema"] == "cudaperf.analyze/1" and "transpose_shared" in names else f"kernels {names}"


def _lint(doc: dict) -> str | None:
    codes = {f["code"] for f in doc["findings"]}
    return None if doc["kernels"] > 20 and {"CP101", "CP102", "CP401"} <= codes else f"kernels {doc['kernels']}, " \
                                                                                    f"codes {sorted(codes)}"


def _sarif(doc: dict) -> str | None:
    return None if doc["version"] == "2.1.0" and doc["runs"][0]["results"] else "no SARIF results"


def _crosscheck(doc: dict) -> str | None:
    analysed = [k["name"] for k in doc["kernels"] if not k["error"]]
    return None if "div_odd_even" in analysed and doc["summary"] else f"kernels {analysed}"


def _rank(doc: dict) -> str | None:
    return None if len(doc["kernels"]) == 3 and doc["kernels"][0]["rank"] == 1 else "not three kernels ranked"


def _rank_candidates(doc: dict) -> str | None:
    ranked = [c for c in doc["candidates"] if c["score"] is not None]
    return None if ranked else "no candidate ranked"


def _plan(doc) -> str | None:
    rows = doc if isinstance(doc, list) else [doc]
    return None if rows and all("path" in r or "plan" in r or "candidate" in r for r in rows) else "no plan"


TORCH = importlib.util.find_spec("torch") is not None  # this interpreter is the venv's: what cudaperf can import
CHECKS = [
    ("version", ["--version"], {"exit": 0, "stdout": ["cudaperf "]}),
    ("analyze", ["analyze", "transpose.cu", "--format", "json"], {"exit": 0, "json": _analyze}),
    ("analyze text", ["analyze", "transpose.cu", "--kernel", "transpose_shared"],
     {"exit": 0, "stdout": ["kernel transpose_shared", "wavefronts/request"]}),
    ("occupancy", ["occupancy", "--block", "256", "--registers", "32"], {"exit": 0, "stdout": ["occupancy"]}),
    ("lint", ["lint", "planted", "--format", "json", "-j", "2"], {"exit": 1, "json": _lint}),
    ("lint text", ["lint", "transpose.cu"], {"exit": 1, "stdout": ["warning: CP101 [uncoalesced-access]", "^^^",
                                                                   "Found 2 findings"]}),
    ("lint sarif", ["lint", "planted", "--format", "sarif"], {"exit": 1, "json": _sarif}),
    ("lint nothing checked", ["lint", "reference.py"], {"exit": 2}),
    ("lint --list-rules", ["lint", "--list-rules"], {"exit": 0, "stdout": ["CP101", "memory-bound"]}),
    ("rule", ["rule", "CP401"], {"exit": 0, "stdout": ["# CP401 `barrier-divergence` (error)"]}),
    ("roofline", ["roofline", "roofline.cu", "--measured", "profile.json", "-o", "roofline.png"],
     {"exit": 0, "stdout": ["wrote roofline.png"], "files": ["roofline.png"]}),
    ("profile --from-ncu-csv", ["profile", "--from-ncu-csv", "ncu_raw.csv", "--format", "json", "-o", "p.json"],
     {"exit": 0, "files": ["p.json"], "json": lambda d: None if d["kernels"] else "no kernels"}),
    ("profile without a GPU", ["profile", "transpose.cu", "--kernel", "transpose_naive", "--grid", "1",
                               "--block", "32,8"], {"exit": 3, "one_line": "no GPU"}),
    ("crosscheck", ["crosscheck", "divergence.cu", "--from-ncu-csv", "ncu_raw.csv", "--arg", "n=1048576",
                    "--arg", "iters=16", "--format", "json"], {"exit": 0, "json": _crosscheck}),
    ("crosscheck missing", ["crosscheck", "divergence.cu", "--measured", "nope.json"],
     {"exit": 2, "one_line": "nope.json: no such file or directory"}),
    ("eval --plan", ["eval", "--plan", "--reference", "kb/reference.py", "--candidate", "kb/honest.py",
                     "--format", "json"], {"exit": 0}),
    ("eval without a GPU", ["eval", "--reference", "reference.py", "--candidate", "candidate_native.cu"],
     {"exit": 3}),
    ("rank", ["rank", "transpose.cu", "--format", "json"], {"exit": 0, "json": _rank}),
    ("rank --reference", ["rank", "--reference", "kb/reference.py", "kb/honest.py", "--format", "json"],
     {"exit": 0, "json": _rank_candidates} if TORCH else {"exit": 2, "one_line": "needs torch"}),
    ("rank --train", ["rank", "--train", "-o", "model.json"], {"exit": 0, "stdout": ["all (pooled)"],
                                                               "files": ["model.json"]}),
    ("rank --model", ["rank", "transpose.cu", "--model", "model.json"], {"exit": 0, "stdout": ["1."]}),
    ("train without the rl extra", ["train", "--dataset", "t.jsonl", "--model", "m", "-o", "out"], {"exit": 2}),
    ("refine without a model", ["refine", "--reference", "reference.py"], {"exit": 2, "one_line": "give --model"}),
]


if __name__ == "__main__":
    sys.exit(main())
