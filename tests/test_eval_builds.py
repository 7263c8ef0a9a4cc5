"""Builds that cannot be poisoned (issue 24): a builder's whole process tree dies at its deadline,
its output is read with a cap, locks are polled with a deadline and never needed to read a published
build, a killed build publishes nothing, and a builder never imports what it built.

The primitives are tested fast with Python children; the real builds (torch's load_inline, g++,
the precompiled header) are `slow`: 1-2 minutes each on a 2-core machine."""

from __future__ import annotations

import fcntl
import os
import resource
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from cudaperf.analysis import process
from cudaperf.rewards.execution import pch, torch_ext


def _processes_with(token: str) -> list[int]:
    """Live processes whose command line holds `token` or whose working directory lies below it."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            cwd = os.readlink(f"/proc/{entry}/cwd")
        except OSError:
            continue
        if state not in "ZX" and (token in cmdline or cwd.startswith(token)):
            found.append(int(entry))
    return found


ESCAPER = textwrap.dedent("""
    import os, subprocess, sys, time
    token, ready = sys.argv[1], sys.argv[2]
    sleeper = [sys.executable, "-c", "import time; time.sleep(1000)", token]
    for how in ("setsid", "double-fork", "pgroup"):
        if os.fork() == 0:
            if how == "setsid":
                os.setsid()
            if how == "pgroup":
                os.setpgid(0, 0)
            if how == "double-fork" and os.fork() != 0:
                os._exit(0)   # the grandchild is orphaned
            os.execv(sys.executable, sleeper)
    subprocess.Popen(sleeper, start_new_session=True)
    time.sleep(1)
    open(ready, "w").close()
    time.sleep(1000)
""")


def test_the_whole_tree_dies_at_the_deadline_setsid_and_double_forks_included(tmp_path: Path) -> None:
    token = f"cudaperf-escaper-{os.getpid()}-{time.monotonic_ns()}"
    ready = tmp_path / "ready"
    proc = subprocess.Popen([sys.executable, "-c", ESCAPER, token, str(ready)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=process.subreaper_preexec())
    try:
        for _ in range(200):
            if ready.exists():
                break
            time.sleep(0.05)
        # four sleepers, each in a session or group of its own, one orphaned: all still below the subreaper
        sleepers = set(_processes_with(token)) - {proc.pid}
        assert len(sleepers) == 4 and sleepers <= set(process.descendants(proc.pid))
        start = time.monotonic()
        done = process.communicate_capped(proc, 0.5)
        assert done.returncode is None and time.monotonic() - start < 5
        assert _processes_with(token) == []
    finally:
        process.kill_tree(proc.pid)


def test_a_frozen_kill_returns_once_the_tree_is_gone() -> None:
    """The CLI's Ctrl-C path: a compiler below a worker, in a session of its own, must not still be
    tearing down when the CLI exits (CI once saw one alive 0.2 s after exit 130)."""
    proc = subprocess.Popen([sys.executable, "-c", "import subprocess, sys, time\n"
                             "for _ in range(3): subprocess.Popen(['sleep', '1000'], start_new_session=True)\n"
                             "print('ready', flush=True); time.sleep(1000)"],
                            stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        tree = [proc.pid, *process.descendants(proc.pid)]
        assert len(tree) == 4
        process.kill_frozen([proc.pid])
        states = process._parents()
        assert [p for p in tree if p in states and states[p][1] not in "ZX"] == []
    finally:
        process.kill_tree(proc.pid)
        proc.wait()


def test_output_is_read_with_a_cap_and_memory_stays_bounded() -> None:
    """200 MB on stderr (and 1 MB on stdout): the reader keeps head and tail, never the whole."""
    writer = ("import os, sys\nos.write(1, b'o' * (1 << 20))\nos.write(2, b'FIRST')\nchunk = b'e' * (1 << 20)\n"
              "for _ in range(200):\n    os.write(2, chunk)\nos.write(2, b'LAST')\n")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    proc = subprocess.Popen([sys.executable, "-c", writer], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, preexec_fn=process.subreaper_preexec())
    done = process.communicate_capped(proc, 60, b"", cap=64 << 10)
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert done.returncode == 0
    assert len(done.stderr) < (64 << 10) + 100 and len(done.stdout) < (64 << 10) + 100
    assert done.stderr.startswith("FIRST") and done.stderr.endswith("LAST") and "bytes of output dropped" in done.stderr
    assert grown_mb < 40, f"the engine grew by {grown_mb:.0f} MB"


def test_input_larger_than_a_pipe_reaches_the_child() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "import sys; print(len(sys.stdin.buffer.read()))"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=process.subreaper_preexec())
    done = process.communicate_capped(proc, 30, b"x" * (3 << 20))
    assert done.returncode == 0 and done.stdout.strip() == str(3 << 20)


def test_files_are_capped_for_the_child_and_its_descendants(tmp_path: Path) -> None:
    target = tmp_path / "big"
    writer = f"import subprocess, sys; sys.exit(subprocess.run(['dd', 'if=/dev/zero', 'of={target}', 'bs=1M', " \
             "'count=8'], capture_output=True).returncode)"
    proc = subprocess.Popen([sys.executable, "-c", writer], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=process.subreaper_preexec((1 << 20, 2 << 20)))
    done = process.communicate_capped(proc, 30)
    assert done.returncode != 0 and target.stat().st_size <= 1 << 20


def test_a_held_lock_is_waited_on_only_until_the_deadline(tmp_path: Path) -> None:
    path = tmp_path / ".key.lock"
    with open(path, "a") as other:
        fcntl.flock(other, fcntl.LOCK_EX)   # another open file: conflicts even within this process
        start = time.monotonic()
        with pytest.raises(torch_ext.LockTimeout), torch_ext._locked(path, time.monotonic() + 0.3):
            pass
        assert time.monotonic() - start < 2
    with torch_ext._locked(path, time.monotonic() + 0.3):
        pass


def test_published_builds_are_read_without_a_lock_and_oversized_failures_are_not_believed(tmp_path: Path) -> None:
    (tmp_path / "ok").mkdir()
    (tmp_path / "ok" / "built.json").write_text('{"variant": "plain", "linked": false}')
    assert torch_ext._published(tmp_path / "ok") == {"variant": "plain", "linked": False}
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "failed").write_text("main.cpp:3: error: 'y' was not declared")
    with pytest.raises(torch_ext.BuildError, match="not declared"):
        torch_ext._published(tmp_path / "bad")
    (tmp_path / "huge").mkdir()   # an older engine's uncapped failure: rebuilt, never read whole
    (tmp_path / "huge" / "failed").write_text("e" * (torch_ext.FAILED_CAP + 1))
    assert torch_ext._published(tmp_path / "huge") is None
    assert torch_ext._published(tmp_path / "partial") is None


@pytest.mark.skipif(subprocess.run(["sh", "-c", "command -v c++"]).returncode != 0, reason="needs c++")
def test_a_compile_never_waits_long_for_a_header_another_compile_precompiles(tmp_path: Path) -> None:
    (tmp_path / "inc" / "torch").mkdir(parents=True)
    (tmp_path / "inc" / "torch" / "extension.h").write_text("#pragma once\ninline int answer() { return 42; }\n")
    (tmp_path / "main.cpp").write_text("#include <torch/extension.h>\nint f() { return answer(); }\n")
    args = [pch.command(tmp_path / "pch"), "-isystem", str(tmp_path / "inc"), "-fPIC", "-H", "-c",
            str(tmp_path / "main.cpp"), "-o", str(tmp_path / "main.o")]
    first = subprocess.run(args, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    overlay = next(p for p in (tmp_path / "pch").iterdir() if p.is_dir())
    gch = overlay / "torch" / "extension.h.gch"
    gch.unlink()
    (gch.parent / "extension.h.part999").write_text("a killed precompile's")
    with open(overlay / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # "another compile is precompiling it" (for ever)
        start = time.monotonic()
        blocked = subprocess.run(args, capture_output=True, text=True)
        assert blocked.returncode == 0 and time.monotonic() - start < pch.WAIT + 10
        assert not any(line.startswith("! ") for line in blocked.stderr.splitlines())   # no PCH used
    again = subprocess.run(args, capture_output=True, text=True)
    assert again.returncode == 0 and gch.is_file() and not (gch.parent / "extension.h.part999").exists()


# -- real builds -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def builders(tmp_path_factory):
    """One extension root (so the precompiled header is made once) and one set of builders."""
    pytest.importorskip("torch")
    pytest.importorskip("pyseccomp")
    root = tmp_path_factory.mktemp("builds") / "ext"
    made = torch_ext.Builders(root, "9.0", jobs=2, ready=1)
    made.warm()
    yield made
    made.close()


def _spec(name: str, cpp: str) -> dict:
    return torch_ext.normalise((), {"name": name, "cpp_sources": cpp, "functions": ["add_one"]})


def _build_processes(builders) -> list[int]:
    """Processes of the root's builds, but for the idle builders started ahead (waiting for a spec)."""
    return sorted(set(_processes_with(str(builders.root))) - {p.pid for p in builders._idle})


def _no_lock_held(root: Path) -> bool:
    for path in root.rglob(".lock*"):
        with open(path, "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
    return True


@pytest.mark.slow
def test_a_builder_builds_but_never_runs_the_candidates_static_initialisers(builders, tmp_path: Path,
                                                                          monkeypatch) -> None:
    marker = tmp_path / "initialiser-ran"
    cpp = (f'#include <cstdio>\nstatic int ran = [] {{ FILE* f = std::fopen("{marker}", "w"); if (f) std::fclose(f);'
           ' return 1; }();\nint add_one(int x) { return x + ran; }\n')
    ok, output, _ = builders.build(_spec("cp_static_init", cpp), 600)
    assert ok, output
    assert "built the plain variant" in output and not marker.exists()
    directory = builders.root / torch_ext.build_key(_spec("cp_static_init", cpp), "9.0")
    assert (directory / "built.json").is_file() and not list(builders.root.glob(".*.tmp*"))
    # the worker's side: imports the published build (no compiler, no lock), which runs the initialiser
    monkeypatch.setenv("TORCH_CUDA_ARCH_LIST", "9.0")
    load_inline = torch_ext.cached_load_inline(builders.root, real_load_inline=None)
    assert load_inline(name="cp_static_init", cpp_sources=cpp, functions=["add_one"]).add_one(41) == 42
    assert marker.exists()
    with pytest.raises(torch_ext.BuildError, match="not built ahead"):
        load_inline(name="cp_never_built", cpp_sources="int add_one(int x) { return x; }", functions=["add_one"])


@pytest.mark.slow
def test_a_flood_of_compiler_errors_is_capped_in_memory_and_in_the_cache(builders) -> None:
    lines = "".join(f"#define E{i + 1} E{i} E{i} E{i} E{i}\n" for i in range(7))   # 4^7 = 16384 errors
    cpp = f"#define E0 undeclared_function_with_a_long_name_for_a_long_message(1, 2, 3);\n{lines}" \
          "int add_one(int x) { E7 return x + 1; }\n"
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    ok, output, _ = builders.build(_spec("cp_flood", cpp), 600)
    assert not ok and "undeclared_function_with_a_long_name" in output and len(output) <= 16100
    assert (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024 < 40
    failed = builders.root / torch_ext.build_key(_spec("cp_flood", cpp), "9.0") / "failed"
    assert failed.is_file() and failed.stat().st_size <= torch_ext.FAILED_CAP


@pytest.mark.slow
def test_killed_builds_leave_no_process_no_lock_and_nothing_a_later_build_trips_over(builders) -> None:
    root = builders.root
    # 40 constant evaluations, each under -fconstexpr-ops-limit (one loop of 200000^2 hit the limit and
    # ended as a compile error within 30 s on an idle machine): g++ runs for minutes
    asserts = "".join(f"static_assert(spin<{k}>() != 1, \"\");\n" for k in range(40))
    hostile = _spec("cp_hostile", "template <int K> constexpr long spin() { long s = 0; for (long i = 0; i < 40000;"
                                  " ++i) for (long j = 0; j < 40000; ++j) s += (i ^ j) + K; return s; }\n"
                                  f"{asserts}int add_one(int x) {{ return x + 1; }}\n")
    honest = _spec("cp_honest", "int add_one(int x) { return x + 1; }")
    for spec, deadline in ((hostile, 30), (honest, 2)):   # the honest one is cut mid-build (with the PCH: 5+ s)
        start = time.monotonic()
        ok, output, _ = builders.build(spec, deadline)
        assert not ok and output.startswith("build took longer") and time.monotonic() - start < deadline + 10
        assert _build_processes(builders) == []
        assert _no_lock_held(root)
        assert not (root / torch_ext.build_key(spec, "9.0")).exists()   # nothing published
    start = time.monotonic()
    ok, output, _ = builders.build(honest, 600)
    assert ok, output
    assert time.monotonic() - start < 120
    assert not list(root.glob(f".{torch_ext.build_key(honest, '9.0')}.tmp*"))   # the killed one's leftovers
    assert _build_processes(builders) == []
