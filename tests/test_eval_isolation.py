"""Hostile candidates against the checker/worker split and the sandbox, on the CPU (`Options(device="cpu")`,
gate off, so only the runtime defences stand between each attack and a `correct`).  The same code runs
on a GPU; the GPU versions of these attacks (C++ extensions) are tests/hacks/hostile/, run on the H200.
Needs torch (CPU build) and the sandbox libraries (pyseccomp, landlock)."""

from __future__ import annotations

import hashlib
import json
import os
import textwrap
from pathlib import Path

import pytest
from conftest import child_pids

import cudaperf
from cudaperf.rewards.execution.api import Evaluator, Options
from cudaperf.rewards.execution.formats import candidate_from_source, task_from_source

pytest.importorskip("torch")
pytest.importorskip("pyseccomp")
pytest.importorskip("landlock")
pytestmark = pytest.mark.torch

REFERENCE = textwrap.dedent('''
    import torch, torch.nn as nn
    class Model(nn.Module):
        def __init__(self, alpha):
            super().__init__()
            self.alpha = alpha
        def forward(self, a, b):
            return self.alpha * a + b
    def get_inputs():
        return [torch.randn(4096), torch.randn(4096)]
    def get_init_inputs():
        return [2.0]
''')


def _candidate(body: str, prelude: str = "") -> str:
    return textwrap.dedent('''
        import torch, torch.nn as nn
        PRELUDE
        class ModelNew(nn.Module):
            def __init__(self, alpha):
                super().__init__()
                self.alpha = alpha
            def forward(self, a, b):
                out = self.alpha * a + b
                BODY
    ''').replace("PRELUDE", prelude).replace("BODY", body)


SECRET = "hunter2-sentinel-7f3a"
# name: (forward body, prelude, allowed statuses, text the reason must contain or "")
ATTACKS = {
    # the checker's tolerance is in another process: nothing to find on the stack or in the heap
    "stack_walk": ("""
        import sys, gc
        f = sys._getframe()
        while f is not None:
            for k in list(f.f_locals):
                if k in ('atol', 'rtol', 'tolerance'):
                    f.f_locals[k] = 1e9
            f = f.f_back
        for o in gc.get_objects():
            if isinstance(o, dict) and 'atol' in o:
                o['atol'] = o['rtol'] = 1e9
        return torch.zeros_like(out)""", "", {"incorrect"}, ""),
    # torch's comparison functions patched in the worker: the checker's torch is its own
    "patch_torch": ("""
        torch.allclose = lambda *a, **k: True
        torch.Tensor.sub = lambda self, other: torch.zeros_like(self)
        torch.equal = lambda *a: True
        return torch.zeros_like(out)""", "", {"incorrect", "rejected"}, ""),
    # the installed package is read-only to the worker
    "edit_package": (f"""
        import os
        target = os.path.join({str(Path(cudaperf.__file__).parent)!r}, 'rewards', 'execution', 'correctness.py')
        with open(target, 'a') as f:
            f.write('\\n# pwned\\n')
        return out""", "", {"runtime_error"}, "Permission"),
    # skip the work once the correctness trials are over: timed calls are checked at random
    "skip_when_timed": ("""
        self.calls = getattr(self, 'calls', 0) + 1
        if self.calls > 8:
            return torch.zeros_like(a)
        return out""", "", {"incorrect"}, "timed call"),
    # the engine is the worker's grandparent: no signal reaches outside the sandbox
    "kill_engine": ("""
        import os, signal
        for pid in (os.getppid(), 1, -1):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        return out""", "", {"correct"}, ""),
    # no new process, no socket
    "spawn": ("""
        import subprocess
        subprocess.Popen(['sleep', '600'], start_new_session=True)
        return out""", "", {"runtime_error"}, "Operation not permitted"),
    "socket": ("""
        import socket
        socket.create_connection(('127.0.0.1', 22), timeout=1)
        return out""", "", {"runtime_error"}, ""),
    # host files and the engine's environment stay out of the result
    "read_host": ("""
        raise RuntimeError('leak ' + open('/etc/passwd').read())""", "", {"runtime_error"}, "Permission"),
    "read_environment": ("""
        import os
        raise RuntimeError('leak ' + repr(sorted(os.environ.items())))""", "", {"runtime_error"}, "leak"),
    "write_outside": ("""
        import os
        for d in (os.path.expanduser('~'), '/tmp', os.getcwd() + '/..'):
            try:
                open(os.path.join(d, 'cudaperf-escaped.txt'), 'w').write('x')
            except OSError:
                pass
        return out""", "", {"correct"}, ""),
}


@pytest.fixture(scope="module")
def outcome(tmp_path_factory):
    os.environ["CUDAPERF_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    os.environ["CUDAPERF_SELFTEST_SECRET"] = SECRET
    package = Path(cudaperf.__file__).parent
    digest = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in package.rglob("*.py")}
    task = task_from_source(REFERENCE, "torch")
    names = [*ATTACKS, "honest_after"]
    sources = [_candidate(textwrap.dedent(body).strip().replace("\n", "\n        "), prelude)
               for body, prelude, _, _ in ATTACKS.values()] + [_candidate("return out")]
    candidates = [candidate_from_source(s, "python", path=f"{n}.py") for n, s in zip(names, sources)]
    streamed = tmp_path_factory.mktemp("stream") / "results.jsonl"
    options = Options(device="cpu", gate=False, run_timeout=30, compile_timeout=60, timing_trials=30)
    before = child_pids()
    with Evaluator(options) as evaluator, open(streamed, "w") as out:
        def progress(done, total, result):
            out.write(json.dumps(result.to_json()) + "\n")
            out.flush()
        results = evaluator.evaluate_many(task, candidates, progress=progress)
    os.environ.pop("CUDAPERF_SELFTEST_SECRET")
    changed = [str(p) for p, h in digest.items() if hashlib.sha256(p.read_bytes()).hexdigest() != h]
    return {r.candidate[:-3]: r for r in results}, changed, child_pids() - before, streamed


@pytest.mark.parametrize("name", list(ATTACKS))
def test_attack_is_not_correct_or_is_harmless(outcome, name):
    result = outcome[0][name]
    _, _, statuses, text = ATTACKS[name]
    assert result.status in statuses, result
    assert text in result.reason, result.reason


def test_an_honest_candidate_after_the_attacks_is_correct(outcome):
    assert outcome[0]["honest_after"].status == "correct", outcome[0]["honest_after"]


def test_the_installed_package_is_unchanged(outcome):
    assert outcome[1] == []


def test_no_process_survives(outcome):
    assert outcome[2] == set()


def test_no_host_data_in_any_result(outcome):
    passwd = [ln for ln in Path("/etc/passwd").read_text().splitlines() if ln.strip()]
    for result in outcome[0].values():
        text = json.dumps(result.to_json())
        assert SECRET not in text
        assert not any(ln in text for ln in passwd), result.candidate


def test_no_file_escaped_the_workers_directory(outcome):
    for d in (Path.home(), Path("/tmp")):
        assert not (d / "cudaperf-escaped.txt").exists()


def test_results_streamed_as_each_finished(outcome):
    lines = outcome[3].read_text().splitlines()
    assert len(lines) == len(ATTACKS) + 1
    assert {json.loads(ln)["candidate"] for ln in lines} == {f"{n}.py" for n in [*ATTACKS, "honest_after"]}


class _Exiting:
    """A real process still exiting, standing where a killed worker waits to release its GPU memory."""

    def __init__(self, seconds: float):
        import subprocess

        self.proc = subprocess.Popen(["sleep", str(seconds)])

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None


def test_out_of_memory_while_an_earlier_worker_exits_is_retried_once_after_it_has():
    """On the H200 the candidate after a GPU memory hog ran out of memory while the hog's killed worker
    still held the GPU; such a result is retried once, after every killed worker has exited."""
    task = task_from_source(REFERENCE, "torch")
    oom = candidate_from_source(_candidate("raise RuntimeError('CUDA out of memory. Tried to allocate 2.00 GiB')"),
                                "python", path="oom.py")
    with Evaluator(Options(device="cpu", gate=False, time=False, trials=1)) as evaluator:
        alone = evaluator.evaluate(task, oom)
        exiting = _Exiting(1.5)
        evaluator.pool.dying.append(exiting)
        crowded = evaluator.evaluate(task, oom)
        assert not exiting.alive
    assert alone.status == crowded.status == "runtime_error"
    assert not any(line.startswith("retried once") for line in alone.log)
    assert any(line.startswith("retried once after an earlier candidate's worker released the GPU")
               for line in crowded.log)
