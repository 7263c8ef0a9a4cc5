"""Run the hostile suite (tests/hacks/hostile/) through the engine in ONE batch and report escapes.

    python benchmarks/hostile_h200.py OUT [--sandboxed] [--deadline 420]

Needs a GPU and torch.  Every candidate there passes today's static gate (tests/test_hostile_gate.py),
so what stops it is the runtime: the worker's sandbox, the separate checker, the timer, the builder.
Before and after the batch it snapshots

- the sha256 of every file of the installed `cudaperf` package (__pycache__ left out);
- files under $HOME and the repository newer than the start (OUT, where the trusted side's driver JIT
  cache goes too (CUDA_CACHE_PATH), and the engine's cache directory left out), plus any path with
  `hostile` in its name under /tmp;
- the process table: pids that were not there before and are still alive 5 s after the engine
  closed (and any process whose command line says `hostile`);

and sets a sentinel secret, CUDAPERF_SECRET=hunter2-sentinel, in this (the caller's) environment.
It writes OUT/hostile.jsonl (one ExecResult.to_json() per candidate, input order; a candidate the
deadline cut off is {"status": "unfinished"}), OUT/escapes.json (package files changed, files
created, processes left, the secret or /etc/passwd lines found in any result's text) and prints a
table of each file's status against its `# expect:` line.  Exit code 0 when every status matches
and nothing escaped, 1 otherwise.

Safety: files with a `# sandbox-only:` line (kill_engine.py: kill(getppid()), kill(-1, SIGTERM)) are
skipped unless --sandboxed is given, since without a sandbox they end this process and every other
process of the user.  Package files the batch changed are restored from a copy taken before, files
created by the candidates are listed (not deleted) and processes left running that the
candidates started (a `sleep 600` payload, or a descendant of this process) are killed by pid after
they have been recorded (--keep-processes leaves them).  The batch runs in a thread with a
deadline (default 420 s, so the whole run ends within 8 minutes); past it the results so far are
written and the process exits without waiting for the engine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "tests" / "hacks" / "hostile"
SECRET_NAME, SECRET = "CUDAPERF_SECRET", "hunter2-sentinel"
# The batch order matters: probes after the attacks they probe, honest controls last.
ORDER = [
    "honest_native_style", "zero_all_gpu_memory", "stack_walk_tolerance", "stack_walk_python",
    "tensor_method_patch", "tensor_method_patch_python", "overwrite_installed_package", "after_overwrite_zeros",
    "static_counter_skip", "static_fingerprint_cache", "fresh_input_skip", "quick_calls_skip", "write_files",
    "detached_process",
    "detached_process_python", "posix_spawn_static_init", "kill_engine", "gpu_memory_hog", "honest_two_kernels",
    "long_compile", "huge_compiler_errors", "read_host_file", "honest_vectorized",
]
STATUSES = {"rejected", "compile_error", "runtime_error", "timeout", "incorrect", "correct", "no_gpu", "infra_error"}
WALK_LIMIT = 400_000   # files looked at per tree, so a huge $HOME cannot stall the report


def header(path: Path) -> tuple[set[str], str, bool]:
    """(expected statuses, attack class, sandbox-only) from the file's first lines."""
    lines = path.read_text().splitlines()
    m = re.match(r"#\s*expect:\s*(.*?)\s+—\s+(.*)", lines[0]) if lines else None
    expected = set(m.group(1).split()) if m else set()
    attack = m.group(2).split(":")[0] if m else ""
    sandbox_only = any(ln.startswith("# sandbox-only:") for ln in lines[1:4])
    return expected, attack, sandbox_only


def ordered(paths: list[Path]) -> list[Path]:
    rank = {name: i for i, name in enumerate(ORDER)}
    return sorted(paths, key=lambda p: (rank.get(p.stem, len(ORDER)), p.name))


# -- snapshots --------------------------------------------------------------------------------------
def package_dir() -> Path:
    import cudaperf

    return Path(cudaperf.__file__).resolve().parent


def package_hashes(pkg: Path) -> dict[str, str]:
    out = {}
    for path in sorted(pkg.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            out[str(path.relative_to(pkg))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def newer_files(roots: list[Path], since: float, exclude: list[Path]) -> list[str]:
    """Files (and links) under `roots` modified or created at or after `since`, outside `exclude`."""
    excluded = [str(e.resolve()) for e in exclude if e]
    found, seen = [], set()
    for root in roots:
        if not root.is_dir():
            continue
        count = 0
        stack = [root]
        while stack and count < WALK_LIMIT:
            d = stack.pop()
            real = os.path.realpath(d)
            if real in seen or any(real == e or real.startswith(e + os.sep) for e in excluded):
                continue
            seen.add(real)
            try:
                entries = list(os.scandir(d))
            except OSError:
                continue
            for e in entries:
                count += 1
                try:
                    if e.is_dir(follow_symlinks=False):
                        if e.name not in ("__pycache__", ".git", "proc"):
                            stack.append(Path(e.path))
                        continue
                    st = e.stat(follow_symlinks=False)
                except OSError:
                    continue
                if max(st.st_mtime, st.st_ctime) >= since and not e.name.endswith(".pyc"):
                    found.append(e.path)
    return sorted(set(found))


def tmp_markers() -> list[str]:
    out = []
    for base in ("/tmp", "/var/tmp", "/dev/shm"):
        try:
            out += [os.path.join(base, n) for n in os.listdir(base) if "hostile" in n.lower()]
        except OSError:
            pass
    return sorted(out)


def processes() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, command line) of every live (non-zombie) process."""
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and fields[1] != "2" and name != "2":   # kernel threads (kthreadd's) are no one's doing
            out[int(name)] = (int(fields[1]), cmd)
    return out


def ancestors(table: dict[int, tuple[int, str]], pid: int) -> set[int]:
    out = set()
    while pid in table and pid not in out and pid > 1:
        out.add(pid)
        pid = table[pid][0]
    return out


PAYLOAD = re.compile(r"hostile_static_init|\bsleep 600\b")   # what the candidates start


def passwd_lines() -> list[str]:
    try:
        return [ln.strip() for ln in Path("/etc/passwd").read_text().splitlines() if ln.strip()]
    except OSError:
        return []


def leaks(records: list[dict]) -> list[dict]:
    """The secret or a full /etc/passwd line anywhere in a result's text (reason, log, flags)."""
    lines = passwd_lines()
    found = []
    for rec in records:
        text = json.dumps(rec)
        # json.dumps escapes nothing in these strings except quotes and backslashes; compare on both
        raw = "\n".join(str(v) for v in (rec.get("reason"), *(rec.get("log") or []), *(rec.get("flags") or [])))
        for where, blob in (("json", text), ("text", raw)):
            if SECRET in blob:
                found.append({"candidate": rec.get("candidate"), "leak": SECRET_NAME, "in": where})
                break
        hits = [ln for ln in lines if ln in raw or ln in text]
        if hits:
            found.append({"candidate": rec.get("candidate"), "leak": "/etc/passwd",
                          "lines": len(hits), "example": hits[0]})
    return found


# -- the batch ------------------------------------------------------------------------------------
def run_batch(paths: list[Path], deadline: float, args) -> tuple[list[dict], list[str]]:
    from cudaperf.rewards.execution.api import Evaluator, Options
    from cudaperf.rewards.execution.formats import load_candidate, load_task

    task = load_task(SUITE / "reference.py")
    candidates = [load_candidate(p) for p in paths]
    by_label: dict[str, dict] = {}
    notes: list[str] = []
    holder: dict = {}

    def progress(done: int, total: int, result) -> None:
        by_label[result.candidate] = result.to_json()
        print(f"  [{done}/{total}] {result.candidate}: {result.status} {result.reason[:100]}", flush=True)

    def work() -> None:
        try:
            options = Options(compile_timeout=args.compile_timeout, run_timeout=args.run_timeout,
                              spare_workers=2)
            ev = Evaluator(options)
            holder["ev"] = ev
            try:
                ev.evaluate_many(task, candidates, progress=progress)
            finally:
                ev.close()
                holder["closed"] = True
        except BaseException as exc:   # the report must still be written
            holder["error"] = f"{type(exc).__name__}: {exc}"

    thread = threading.Thread(target=work, name="hostile-batch", daemon=True)
    thread.start()
    thread.join(max(1.0, deadline - time.time()))
    if thread.is_alive():
        notes.append(f"deadline: the batch did not finish within {args.deadline:.0f} s")
        ev = holder.get("ev")
        if ev is not None:   # try to close the engine, bounded
            closer = threading.Thread(target=ev.close, daemon=True)
            closer.start()
            closer.join(20)
            if closer.is_alive():
                notes.append("the engine did not close within 20 s")
    if "error" in holder:
        notes.append(f"engine error: {holder['error']}")
    records = []
    for cand in candidates:
        rec = by_label.get(cand.label)
        records.append(rec if rec is not None else {"candidate": cand.label, "status": "unfinished"})
    return records, notes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sandboxed", action="store_true",
                        help="also run `# sandbox-only:` candidates (only with an engine that sandboxes workers)")
    parser.add_argument("--deadline", type=float, default=420.0, help="seconds for the batch (default 420)")
    parser.add_argument("--compile-timeout", type=float, default=60.0)
    parser.add_argument("--run-timeout", type=float, default=20.0)
    parser.add_argument("--keep-processes", action="store_true", help="do not kill processes left running")
    parser.add_argument("--only", nargs="*", help="candidate stems to run (default: all)")
    args = parser.parse_args()

    start = time.time()
    args.out.mkdir(parents=True, exist_ok=True)
    os.environ[SECRET_NAME] = SECRET
    home = Path(os.environ.get("HOME", "/root"))
    cache = Path(os.environ.get("CUDAPERF_CACHE_DIR", home / ".cache" / "cudaperf"))
    # the driver's JIT cache of the trusted side (engine, checker, builder inherit this environment; a
    # worker's scrubbed one does not, its HOME is its own directory): kept out of $HOME, so a file a
    # candidate writes there is not hidden among the PTX the engine's own kernels compile to
    driver_cache = args.out / "driver_cache"
    os.environ["CUDA_CACHE_PATH"] = str(driver_cache)

    paths, skipped = [], []
    for p in ordered([p for p in SUITE.glob("*.py") if p.name != "reference.py"]):
        if args.only and p.stem not in args.only:
            continue
        if header(p)[2] and not args.sandboxed:
            skipped.append(p.name)
            continue
        paths.append(p)

    # the imported package and the repository's copy (the same directory on an editable install)
    pkgs = list(dict.fromkeys([package_dir(), (ROOT / "cudaperf").resolve()]))
    pkg = pkgs[0]
    hashes_before = {str(p): package_hashes(p) for p in pkgs}
    backup = Path(tempfile.mkdtemp(prefix="cudaperf-pkg-backup-"))
    for i, p in enumerate(pkgs):
        shutil.copytree(p, backup / str(i), ignore=shutil.ignore_patterns("__pycache__"))
    procs_before = processes()
    markers_before = set(tmp_markers())
    since = time.time() - 1.0   # mtime granularity
    print(f"hostile suite: {len(paths)} candidates, skipped {skipped or 'none'}; package {pkg}", flush=True)

    records, notes = run_batch(paths, start + args.deadline, args)

    time.sleep(5)
    procs_after = processes()
    mine = ancestors(procs_after, os.getpid())   # this process, the shell and runner above it
    left = {pid: cmd for pid, (_, cmd) in procs_after.items()
            if pid not in mine and (pid not in procs_before or PAYLOAD.search(cmd))}
    changed: list[str] = []
    restored: list[str] = []
    for i, p in enumerate(pkgs):   # put the package back as it was, so later runs on this machine are honest
        before, after = hashes_before[str(p)], package_hashes(p)
        for rel in sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k)):
            changed.append(str(p / rel))
            src, dst = backup / str(i) / rel, p / rel
            try:
                if src.is_file():
                    shutil.copy2(src, dst)
                elif dst.is_file():
                    dst.unlink()
                restored.append(str(p / rel))
            except OSError as exc:
                notes.append(f"could not restore {p / rel}: {exc}")
    created = newer_files([home, ROOT], since, [args.out, cache, backup])
    created = [f for f in created if not any(f.startswith(str(p) + os.sep) for p in pkgs)]   # judged by hashes
    markers = sorted(set(tmp_markers()) - markers_before)
    shutil.rmtree(backup, ignore_errors=True)
    killed = []
    if not args.keep_processes:   # only what the candidates started: their payloads and our own descendants
        for pid, cmd in left.items():
            if PAYLOAD.search(cmd) or os.getpid() in ancestors(procs_after, pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                except OSError:
                    pass

    found_leaks = leaks(records)
    escapes = {
        "packages": [str(p) for p in pkgs], "package_files_changed": changed, "package_files_restored": restored,
        "files_created": created, "tmp_markers": markers,
        "processes_left": [{"pid": pid, "cmdline": cmd} for pid, cmd in sorted(left.items())],
        "processes_killed": killed, "leaks": found_leaks, "skipped": skipped, "notes": notes,
        "seconds": round(time.time() - start, 1),
    }
    with open(args.out / "hostile.jsonl", "w") as f:
        for rec in records:
            f.write(json.dumps(rec) + "\n")
    (args.out / "escapes.json").write_text(json.dumps(escapes, indent=2) + "\n")

    mismatches = 0
    # an attack that ends `correct` did honest work: its speedup may not beat the honest controls' by more
    # than timing noise (a quarter)
    honest = [rec.get("speedup") or 0 for p, rec in zip(paths, records)
              if header(p)[1].startswith("honest") and rec.get("status") == "correct"]
    ceiling = 1.25 * max(honest, default=0)
    print(f"\n{'candidate':34} {'attack':28} {'expected':30} {'got':14} ok  reason")
    for p, rec in zip(paths, records):
        expected, attack, _ = header(p)
        got = rec.get("status", "?")
        inflated = got == "correct" and not attack.startswith("honest") and (rec.get("speedup") or 0) > ceiling
        ok = ("any" in expected or got in expected) and not inflated
        mismatches += not ok
        if inflated:
            rec["reason"] = f"speedup {rec['speedup']:.2f} above 1.25x the honest controls' best ({ceiling / 1.25:.2f})"
        reason = (rec.get("reason") or "").replace("\n", " ")[:70]
        print(f"{p.name:34} {attack[:28]:28} {' '.join(sorted(expected)):30} {got:14} {'yes' if ok else 'NO ':3} "
              f"{reason}")
    escaped = bool(changed or created or markers or left or found_leaks)
    print(f"\nstatus mismatches: {mismatches}; package files changed: {len(changed)}; files created: "
          f"{len(created) + len(markers)}; processes left: {len(left)}; leaks: {len(found_leaks)}; "
          f"skipped: {len(skipped)}; {escapes['seconds']} s")
    for note in notes:
        print(f"note: {note}")
    sys.stdout.flush()
    os._exit(0 if mismatches == 0 and not escaped and not notes else 1)   # never wait on a stuck engine thread


if __name__ == "__main__":
    main()
