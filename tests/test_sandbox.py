"""The sandbox (cudaperf/rewards/execution/sandbox.py) in real child processes: no fakes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytest.importorskip("pyseccomp")
pytest.importorskip("landlock")

from cudaperf.rewards.execution import sandbox, selftest

ROOT = Path(__file__).resolve().parents[1]
if not sandbox.status()["landlock"] or not sandbox.status()["seccomp"]:
    pytest.skip(f"this kernel cannot sandbox: {sandbox.status()}", allow_module_level=True)

PRELUDE = """
import json, os, sys, time
from pathlib import Path
from cudaperf.rewards.execution import sandbox
def attempt(fn):
    try:
        fn()
    except Exception as exc:
        return f"blocked {type(exc).__name__}"
    return "open"
"""


def run_child(body: str, private: Path, processes: bool = False, env: dict | None = None,
              preexec: bool = False, namespace: bool = False) -> dict:
    """Run PRELUDE + body in a fresh Python with a scrubbed environment (in a PID namespace of its own,
    as workers are, with `namespace`); body prints one JSON line; ENGINE in it is this process's pid."""
    env = sandbox.scrubbed_env(private, {"PYTHONPATH": str(ROOT), **(env or {})})
    kwargs = {"preexec_fn": sandbox.preexec(sandbox.Policy(private=private, processes=processes))} if preexec else {}
    prefix = sandbox.own_pid_namespace() if namespace else []
    code = PRELUDE + f"ENGINE = {os.getpid()}\n" + textwrap.dedent(body)
    proc = subprocess.run([*prefix, sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=120, cwd=private, **kwargs)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


ENFORCE = """
policy = sandbox.Policy(private=Path(sys.argv[0] if False else os.environ["HOME"]), processes={processes})
t0 = time.perf_counter()
report = sandbox.enforce(policy)
cost = time.perf_counter() - t0
"""


@pytest.fixture
def private(tmp_path: Path) -> Path:
    p = tmp_path / "private"
    p.mkdir()
    return p


def test_worker_policy_blocks_every_probe_class(private: Path, tmp_path: Path):
    out = run_child(ENFORCE.format(processes=False) + f"""
import socket, subprocess, ctypes
outside = {str(tmp_path)!r}
def ptrace():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.ptrace(16, ENGINE, None, None) == -1:
        raise OSError(ctypes.get_errno(), "ptrace")
def connect(family, addr):
    s = socket.socket(family, socket.SOCK_STREAM)
    s.connect(addr)
print(json.dumps({{
    "write_outside": attempt(lambda: open(outside + "/escaped", "w")),
    "write_tmp": attempt(lambda: open("/tmp/cudaperf-test-escaped", "w")),
    "write_package": attempt(lambda: os.open(sandbox.__file__, os.O_WRONLY | os.O_APPEND)),
    "fork": attempt(os.fork),
    "posix_spawn": attempt(lambda: os.posix_spawn("/bin/true", ["true"], {{}})),
    "subprocess": attempt(lambda: subprocess.run(["/bin/true"])),
    "inet": attempt(lambda: connect(socket.AF_INET, ("127.0.0.1", 9))),
    "inet6": attempt(lambda: socket.socket(socket.AF_INET6)),
    "unix_abstract": attempt(lambda: connect(socket.AF_UNIX, "\\0cudaperf-test")),
    "ptrace": attempt(ptrace),
    "signal_parent": attempt(lambda: os.kill(ENGINE, 0)),
    "passwd": attempt(lambda: open("/etc/passwd").read()),
    "engine_environ": attempt(lambda: open(f"/proc/{{ENGINE}}/environ").read()),
    "engine_cmdline": attempt(lambda: open(f"/proc/{{ENGINE}}/cmdline").read()),
    "signal_self": attempt(lambda: os.kill(os.getpid(), 0)),
    "own_proc": attempt(lambda: open("/proc/self/status").read()),
    "write_private": attempt(lambda: open(os.environ["HOME"] + "/ok", "w").write("x")),
    "read_python": attempt(lambda: open(os.__file__).read()),
    "report": report,
}}))
""", private, namespace=True)
    controls = {"signal_self", "own_proc", "write_private", "read_python"}
    for name, verdict in out.items():
        if name == "report":
            continue
        assert verdict == "open" if name in controls else verdict.startswith("blocked"), (name, verdict)
    assert not (tmp_path / "escaped").exists() and (private / "ok").exists()
    assert out["report"]["processes"] == "threads only" and out["report"]["landlock_abi"] >= 1


def test_threads_work_without_processes(private: Path):
    out = run_child(ENFORCE.format(processes=False) + """
import threading
box = []
threads = [threading.Thread(target=lambda: box.append(open(os.environ["HOME"] + "/t", "a").write("x")))
           for _ in range(4)]
for t in threads: t.start()
for t in threads: t.join()
from concurrent.futures import ThreadPoolExecutor
with ThreadPoolExecutor(3) as ex:
    squares = list(ex.map(lambda x: x * x, range(6)))
escaped = attempt(lambda: threading.Thread(target=lambda: open("/tmp/cudaperf-thread-escape", "w")).run())
print(json.dumps({"ran": len(box), "squares": squares, "thread_write_outside": escaped}))
""", private)
    assert out == {"ran": 4, "squares": [0, 1, 4, 9, 16, 25], "thread_write_outside": "blocked PermissionError"}


def test_builder_policy_runs_programs_but_not_writes_or_sockets(private: Path, tmp_path: Path):
    if not sandbox.status()["scopes"]:
        pytest.skip("processes=True needs Landlock ABI >= 6")
    out = run_child(f"""
import socket, subprocess
r = subprocess.run(["/bin/sh", "-c", "echo hi > $HOME/from-child && /bin/true && echo ok"], capture_output=True,
                   text=True)
child_escape = subprocess.run(["/bin/sh", "-c", "echo x > {tmp_path}/escaped"], capture_output=True, text=True)
print(json.dumps({{
    "ran": r.stdout.strip(), "child_escape_rc": child_escape.returncode,
    "write_outside": attempt(lambda: open({str(tmp_path)!r} + "/escaped2", "w")),
    "socket": attempt(lambda: socket.socket(socket.AF_INET)),
    "signal_parent": attempt(lambda: os.kill(os.getppid(), 0)),
}}))
""", private, processes=True, preexec=True)
    assert out["ran"] == "ok" and (private / "from-child").read_text() == "hi\n"
    assert out["child_escape_rc"] != 0 and not (tmp_path / "escaped").exists()
    assert out["write_outside"].startswith("blocked") and out["socket"].startswith("blocked")
    assert out["signal_parent"].startswith("blocked")


def test_environment_is_scrubbed(private: Path, monkeypatch):
    monkeypatch.setenv("CUDAPERF_API_TOKEN", "x")
    monkeypatch.setenv("HF_TOKEN", "y")
    monkeypatch.setenv("CUDAPERF_CACHE_DIR", "/cache")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    env = sandbox.scrubbed_env(private, {"EXTRA": "1"})
    assert "HF_TOKEN" not in env and "CUDAPERF_API_TOKEN" not in env
    assert env["CUDAPERF_CACHE_DIR"] == "/cache" and env["CUDA_VISIBLE_DEVICES"] == "1" and env["EXTRA"] == "1"
    assert env["HOME"] == env["TMPDIR"] == str(private) and env["LC_ALL"] == "C.UTF-8"
    out = run_child("print(json.dumps(sorted(os.environ)))", private)
    assert "HF_TOKEN" not in out and "CUDAPERF_API_TOKEN" not in out and "HOME" in out


def test_default_readable_leaves_out_secrets():
    paths = {str(p) for p in sandbox.default_readable()}
    for secret in ("/etc/passwd", "/etc/shadow", "/root", "/home", "/", "/tmp", "/dev"):
        assert secret not in paths
    assert "/usr" in paths and str(Path(sandbox.__file__).resolve().parents[2]) in paths


def test_enforce_refuses_a_process_with_threads(private: Path):
    out = run_child("""
import threading
ev = threading.Event()
t = threading.Thread(target=ev.wait); t.start()
try:
    sandbox.enforce(sandbox.Policy(private=Path(os.environ["HOME"])))
    verdict = "applied"
except sandbox.SandboxUnavailable as exc:
    verdict = str(exc)
ev.set(); t.join()
print(json.dumps({"verdict": verdict, "write": attempt(lambda: open("/tmp/cudaperf-not-sandboxed", "a"))}))
""", private)
    assert "threads already run" in out["verdict"] and out["write"] == "open"   # nothing half-applied


def test_torch_imported_inside_the_sandbox(private: Path):
    pytest.importorskip("torch")
    out = run_child(ENFORCE.format(processes=False) + """
import torch
total = torch.ones(3).sum().item()
import torch.utils.checkpoint
x = torch.randn(64, 64, requires_grad=True)
torch.utils.checkpoint.checkpoint(lambda a: (a @ a).sum(), x, use_reentrant=False).backward()
print(json.dumps({"sum": total, "grad": bool(x.grad is not None),
                  "write_outside": attempt(lambda: open("/tmp/cudaperf-torch-escape", "w"))}))
""", private)
    assert out == {"sum": 3.0, "grad": True, "write_outside": "blocked PermissionError"}


def test_torch_imported_before_enforce_is_refused(private: Path):
    pytest.importorskip("torch")
    out = run_child("""
import torch
n = len(os.listdir("/proc/self/task"))
try:
    sandbox.enforce(sandbox.Policy(private=Path(os.environ["HOME"])))
    verdict = "applied"
except sandbox.SandboxUnavailable as exc:
    verdict = "refused"
print(json.dumps({"threads": n, "verdict": verdict}))
""", private)
    # Landlock ABI < 8 confines only the calling thread: with torch's threads running, enforce() must refuse
    assert out["verdict"] == ("refused" if out["threads"] > 1 else "applied")


def test_enforce_cost(private: Path):
    costs = [run_child(ENFORCE.format(processes=False) + "print(json.dumps(cost))", private) for _ in range(3)]
    print(f"\nenforce() cost: {', '.join(f'{c * 1000:.1f} ms' for c in costs)}")
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True,
                   preexec_fn=sandbox.preexec(sandbox.Policy(private=private, processes=True)))
    print(f"python -c pass under preexec(): {(time.perf_counter() - t0) * 1000:.0f} ms")
    assert min(costs) < 1.0
    with pytest.raises(ValueError):
        sandbox.preexec(sandbox.Policy(private=private))


def test_self_test_cli_json(tmp_path: Path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "cudaperf.cli", "eval", "--self-test", "--format", "json"],
                          capture_output=True, text=True, timeout=180, env=env, cwd=tmp_path)
    doc = json.loads(proc.stdout)
    assert proc.returncode == 0, proc.stdout
    assert set(doc) >= {"probes", "refuses_to_score", "sandbox"} and doc["refuses_to_score"] is False
    names = {p["name"] for p in doc["probes"]}
    assert names >= {"write-outside", "write-package", "spawn", "socket", "ptrace", "signal-parent",
                     "read-host-file", "environment", "write-private"}
    for p in doc["probes"]:
        assert set(p) >= {"name", "blocked", "detail"} and p["blocked"] is not bool(p.get("control")), p
    assert "Traceback" not in proc.stdout + proc.stderr


def test_self_test_text_and_exit_code():
    assert selftest.main("text") == 0
