"""`cudaperf eval --self-test`: try to escape a sandboxed child and say what was blocked.

A child (`python -m cudaperf.rewards.execution.selftest --child PRIVATE PARENT_TMP ENGINE_PID`, started
as a worker is: with `scrubbed_env`, in a PID namespace of its own) calls
`enforce(Policy(private, processes=False))` as a worker does, runs each probe and prints one JSON line.
Exit 0: every probe blocked and the control (writing its private directory)
works; 1: a probe got through, or the sandbox cannot be enforced (the engine refuses to score then).
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SECRET = "CUDAPERF_SELFTEST_SECRET"


def _attempt(fn) -> tuple[bool, str]:
    """(blocked, detail): blocked when fn raises (OSError and friends) or returns a refusal string."""
    try:
        got = fn()
    except Exception as exc:   # any refusal counts as blocked
        return True, f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}".strip()
    if isinstance(got, str) and got.startswith("refused"):
        return True, got
    return False, f"succeeded{': ' + got if isinstance(got, str) else ''}"


def _all(*attempts) -> tuple[bool, str]:
    """Blocked only when every attempt is; the detail names each."""
    results = [(label, *_attempt(fn)) for label, fn in attempts]
    return all(b for _, b, _ in results), "; ".join(f"{label}: {d}" for label, _, d in results)


def _write(path: Path) -> str:
    with open(path, "w") as f:
        f.write("escaped")
    return str(path)


def _append_zero(path: Path) -> str:
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    os.close(fd)
    return str(path)


def _read(path: str) -> str:
    with open(path, "rb") as f:
        return f"read {len(f.read(64))} bytes"


def _socket(family: int, address=None) -> str:
    import socket

    s = socket.socket(family, socket.SOCK_STREAM)
    try:
        if address is not None:
            s.connect(address)
    finally:
        s.close()
    return "socket opened"


def _ptrace(pid: int) -> str:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.restype = ctypes.c_long
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    if libc.ptrace(16, pid, None, None) == -1:              # PTRACE_ATTACH
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    libc.ptrace(17, pid, None, None)                         # PTRACE_DETACH
    return f"attached to {pid}"


def _fork() -> str:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return "forked"


def _spawn() -> str:
    pid = os.posix_spawn("/bin/true", ["true"], {})
    os.waitpid(pid, 0)
    return "spawned /bin/true"


def _subprocess() -> str:
    subprocess.run(["/bin/true"], check=True, timeout=10)
    return "ran /bin/true"


def _thread() -> str:
    import threading

    box = []
    t = threading.Thread(target=lambda: box.append(1))
    t.start()
    t.join()
    return "refused" if not box else "thread ran"


def probes(private: Path, parent_tmp: Path, parent: int) -> list[dict]:
    import cudaperf

    package = Path(cudaperf.__file__).parent
    home = Path(os.path.expanduser("~root"))
    table = [
        ("write-outside", _all(("parent temp", lambda: _write(parent_tmp / "escaped.txt")),
                               ("home", lambda: _write(home / ".cudaperf-selftest-escaped")),
                               ("/tmp", lambda: _write(Path("/tmp") / f"cudaperf-escaped-{os.getpid()}")))),
        ("write-package", _all(("append", lambda: _append_zero(package / "__init__.py")),
                               ("create", lambda: _write(package / "escaped_selftest.py")))),
        ("spawn", _all(("fork", _fork), ("posix_spawn", _spawn), ("subprocess", _subprocess))),
        ("socket", _all(("AF_INET", lambda: _socket(2, ("127.0.0.1", 9))),
                        ("AF_INET6", lambda: _socket(10, ("::1", 9))),
                        ("AF_UNIX abstract", lambda: _socket(1, "\0cudaperf-selftest")),
                        ("AF_UNIX path", lambda: _socket(1, "/run/dbus/system_bus_socket")))),
        ("ptrace", _all(("attach parent", lambda: _ptrace(parent)))),
        ("signal-parent", _all(("signal 0", lambda: os.kill(parent, 0)),
                               ("SIGCONT", lambda: os.kill(parent, 18)))),
        ("read-host-file", _all(("/etc/passwd", lambda: _read("/etc/passwd")),
                                ("/etc/shadow", lambda: _read("/etc/shadow")),
                                ("~root/.bashrc", lambda: _read(str(home / ".bashrc"))),
                                ("engine environ", lambda: _read(f"/proc/{parent}/environ")))),
        ("environment", (SECRET not in os.environ,
                         f"{SECRET} {'present' if SECRET in os.environ else 'absent'}; "
                         f"{len(os.environ)} variables")),
    ]
    out = [{"name": n, "blocked": b, "detail": d} for n, (b, d) in table]
    for name, fn in (("write-private", lambda: _write(private / "control.txt")), ("thread", _thread)):
        blocked, detail = _attempt(fn)
        out.append({"name": name, "blocked": blocked, "detail": detail, "control": True})
    return out


def child(private: str, parent_tmp: str, engine: str) -> int:
    from .sandbox import Policy, SandboxUnavailable, enforce

    try:
        report = enforce(Policy(private=Path(private)))
    except SandboxUnavailable as exc:
        print(json.dumps({"unavailable": str(exc)}))
        return 0
    print(json.dumps({"enforced": report, "probes": probes(Path(private), Path(parent_tmp), int(engine))}))
    return 0


def run() -> dict:
    """Start the sandboxed child and collect its verdicts (never raises for a sandbox failure)."""
    from .sandbox import own_pid_namespace, scrubbed_env, status

    doc: dict = {"probes": [], "refuses_to_score": True, "sandbox": status()}
    parent_tmp = Path(tempfile.mkdtemp(prefix="cudaperf-selftest-"))
    private = parent_tmp / "private"
    private.mkdir()
    os.environ[SECRET] = "parent-only"
    try:
        pkg_root = str(Path(__file__).resolve().parents[3])
        env = scrubbed_env(private, {"PYTHONPATH": os.pathsep.join(
            p for p in [pkg_root, os.environ.get("PYTHONPATH", "")] if p)})
        proc = subprocess.run([*own_pid_namespace(), sys.executable, "-m", "cudaperf.rewards.execution.selftest",
                               "--child", str(private), str(parent_tmp), str(os.getpid())], env=env,
                              capture_output=True, text=True, timeout=120, cwd=str(private))
        line = next((ln for ln in reversed(proc.stdout.splitlines()) if ln.startswith("{")), "")
        if not line:
            err = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
            doc["error"] = f"the sandboxed child failed: {err}"
            return doc
        got = json.loads(line)
        if "unavailable" in got:
            doc["error"] = f"sandbox unavailable: {got['unavailable']}"
            return doc
        doc["probes"], doc["enforced"] = got["probes"], got["enforced"]
        leaked = [p.name for p in parent_tmp.iterdir() if p.name != "private"]
        if leaked:
            doc["probes"].append({"name": "write-outside-check", "blocked": False, "detail": f"found {leaked}"})
        doc["refuses_to_score"] = False
        return doc
    except (OSError, subprocess.SubprocessError, ValueError) as exc:
        doc["error"] = f"the sandboxed child could not run: {exc}"
        return doc
    finally:
        os.environ.pop(SECRET, None)
        shutil.rmtree(parent_tmp, ignore_errors=True)


def ok(doc: dict) -> bool:
    return (not doc["refuses_to_score"] and bool(doc["probes"])
            and all(p["blocked"] != bool(p.get("control")) for p in doc["probes"]))


def main(fmt: str = "text") -> int:
    try:
        doc = run()
    except Exception as exc:                               # the self-test never prints a traceback
        doc = {"probes": [], "refuses_to_score": True, "sandbox": {}, "error": f"self-test failed: {exc}"}
    if fmt in ("json", "jsonl"):
        print(json.dumps(doc, indent=None if fmt == "jsonl" else 2))
    else:
        if doc.get("error"):
            print(f"sandbox: {doc['error']}; refuses_to_score: true")
        for p in doc["probes"]:
            good = p["blocked"] != bool(p.get("control"))
            word = ("works" if not p["blocked"] else "FAILED") if p.get("control") else \
                   ("blocked" if p["blocked"] else "OPEN")
            print(f"{word:8} {p['name']:15} {p['detail']}" + ("" if good else "   <- problem"))
        if not doc.get("error"):
            st = doc["sandbox"]
            print(f"sandbox: Landlock ABI {st.get('landlock_abi')}, seccomp {st.get('seccomp')}; "
                  f"{'all probes blocked' if ok(doc) else 'NOT CONTAINED'}")
    return 0 if ok(doc) else 1


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        sys.exit(child(sys.argv[2], sys.argv[3], sys.argv[4]))
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "text"))
