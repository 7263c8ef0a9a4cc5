"""Pool bookkeeping with real checker and worker processes (no GPU: the workers only say hello)."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time

import pytest
from conftest import descendant_pids

from cudaperf.rewards.execution.pool import GpuLock, Held, Pool
from cudaperf.rewards.execution.zygote import Forked


def test_spares_follow_demand_up_to_the_limit_and_all_go_at_close():
    before = descendant_pids()
    pool = Pool([], device="none", spare=3)
    (slot,) = pool.slots
    assert pool.hello() is not None
    assert len(slot.spares) == 1                   # one spare while nothing is recycled
    pool.expect(2)
    assert len(slot.spares) == 2                   # a batch of two that will use up workers
    pool.expect(10)
    assert len(slot.spares) == 3                   # never more than the limit
    started = {w.proc.pid for w in (slot.current, *slot.spares)}
    assert started <= descendant_pids()
    pool.close()
    assert descendant_pids() <= before


def test_a_recycled_worker_is_replaced_by_a_spare_and_reaped():
    before = descendant_pids()
    with Pool([], device="none", spare=2) as pool:
        (slot,) = pool.slots
        first = slot.worker()
        broken = pool.run({"format": "c", "reference": {}}, 30, 30)   # the checker fails: both go, retried once
        assert broken["status"] == "infra_error" and broken["recycle"]
        assert any(line.startswith("retried once") for line in broken["log"])
        assert slot.current is None and slot.checker is None and slot.wanted == 2
        second = slot.worker()
        assert second is not first and second.alive and first.proc.pid not in {w.proc.pid for w in slot.spares}
        first.proc.wait(timeout=10)
        pool.reap()
        assert first not in pool.dying
    assert descendant_pids() <= before


def test_a_worker_outside_a_pid_namespace_of_its_own_refuses_to_score():
    """Without `unshare` the worker would see the engine's /proc/PID/environ: it says the sandbox is
    unavailable instead, and the job is refused, not run unconfined."""
    with Pool([], device="none", spare=1) as pool:
        pool.namespace = []
        hello = pool.hello()
        refused = pool.run({"format": "c", "reference": {}}, 30, 30)
    assert "PID namespace" in hello["sandbox_error"]
    assert refused["status"] == "infra_error" and refused["reason"].startswith("refusing to score")


def test_workers_are_forked_by_the_zygote_each_pid_1_of_its_own_namespace_and_sandboxed():
    with Pool([], device="none", spare=2) as pool:
        (slot,) = pool.slots
        first = slot.worker()
        assert first.wait_hello(60) is not None
        assert isinstance(first.proc, Forked)
        assert first.hello["pid"] == 1 and "sandbox_error" not in first.hello and first.hello["sandbox"]
        zygote = pool.zygote(slot.worker_env)
        assert first.proc.pid in descendant_pids(zygote.proc.pid)          # not a fresh interpreter
        assert first.pid != first.proc.pid and first.pid in descendant_pids(first.proc.pid)
        os.kill(first.pid, signal.SIGKILL)                                 # dies as the worker did
        assert first.proc.wait(timeout=10) == -signal.SIGKILL
        assert first.how_it_died() == "signal SIGKILL"


def test_a_dead_zygote_is_replaced_and_its_orphans_still_read_as_dead():
    with Pool([], device="none", spare=1) as pool:
        (slot,) = pool.slots
        worker = slot.worker()
        zygote = pool.zygote(slot.worker_env)
        zygote.proc.kill()
        zygote.proc.wait()
        os.kill(worker.pid, signal.SIGKILL)
        assert worker.proc.wait(timeout=10) < 0                            # no status to read: reported killed
        slot.current = None
        fresh = slot.worker()
        assert fresh is not None and fresh.hello["pid"] == 1
        assert pool.zygote(slot.worker_env) is not zygote


def test_without_forking_workers_start_as_fresh_interpreters():
    with Pool([], device="none", spare=0, fork_workers=False) as pool:
        worker = pool.slots[0].worker()
        assert isinstance(worker.proc, subprocess.Popen) and worker.hello["pid"] == 1


def test_the_gpu_alone_waits_for_every_share_and_goes_before_new_ones():
    lock, events = GpuLock(), []
    first, second = Held(lock), Held(lock)
    first.shared()
    second.shared()

    def timing():
        timer = Held(lock)
        timer.alone()
        events.append("alone")
        time.sleep(0.05)
        events.append("done")
        timer.drop()

    def newcomer():
        late = Held(lock)
        late.shared()
        events.append("newcomer")
        late.drop()

    t = threading.Thread(target=timing)
    t.start()
    time.sleep(0.05)
    n = threading.Thread(target=newcomer)   # arrives while the timer waits: goes after it
    n.start()
    time.sleep(0.05)
    first.drop()
    time.sleep(0.05)
    assert events == []                     # one share still held
    second.alone()                          # trading a share for the GPU alone: queued behind the first timer
    events.append("second alone")
    second.drop()
    t.join()
    n.join()
    assert events[:2] == ["alone", "done"] and set(events[2:]) == {"second alone", "newcomer"}


def test_a_whole_run_keeps_the_gpu_alone_through_shares_asks_and_compiles():
    """The retry after the checker ran out of memory: no other candidate may share the GPU until it drops,
    whatever its checker asks (shared after timing) or the build it waits for (lend)."""
    lock, events = GpuLock(), []
    retry = Held(lock)
    retry.whole_run()
    assert retry.shared() == 0.0 and retry.alone() == 0.0
    retry.lend()

    def neighbour():
        other = Held(lock)
        other.shared()
        events.append("shared")
        other.drop()

    t = threading.Thread(target=neighbour)
    t.start()
    time.sleep(0.1)
    assert events == [] and retry.state == "alone"
    retry.drop()
    t.join(5)
    assert events == ["shared"]


def test_candidates_per_gpu_run_at_once_and_time_alone():
    """Two slots on one (CPU) device share its lock: both candidates get their verdict, and each checker
    logs its wait for the device alone before the kernel record and timing."""
    pytest.importorskip("torch")
    from cudaperf.rewards.execution.api import Evaluator, Options
    from cudaperf.rewards.execution.formats import candidate_from_source, task_from_source

    reference = "import torch, torch.nn as nn\nclass Model(nn.Module):\n    def forward(self, a, b):\n" \
                "        return 2.0 * a + b\ndef get_inputs():\n    return [torch.randn(256), torch.randn(256)]\n" \
                "def get_init_inputs():\n    return []\n"
    task = task_from_source(reference, "torch")
    bodies = ["return 2.0 * a + b", "return 2.0 * a + b + 1.0"]
    cands = [candidate_from_source(reference.replace("class Model", "class ModelNew").replace("return 2.0 * a + b",
                                                                                             body), "python",
                                   path=f"cand{i}.py") for i, body in enumerate(bodies)]
    options = Options(device="cpu", gate=False, trials=1, timing_trials=30, spare_workers=1, run_timeout=120,
                      candidates_per_gpu=2)
    with Evaluator(options) as evaluator:
        assert len(evaluator.pool.slots) == 2 and evaluator.pool.slots[0].gpu is evaluator.pool.slots[1].gpu
        results = evaluator.evaluate_many(task, cands)
    assert [r.status for r in results] == ["correct", "incorrect"], [r.reason for r in results]
    assert any(line.startswith("waited for the GPU alone") for line in results[0].log)


def test_a_gpu_named_twice_is_one_gpu_with_more_slots(monkeypatch):
    """gpus=[0, 0] (what the H200 benchmarks asked for, meaning two slots on one GPU) made two locks for
    one device: timing on one side ran beside the other side's trials, and six workers each took 0.85/3
    of the memory, with six checkers beside them, so a batch of 256 MB inputs ran the H200 out of memory."""
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    monkeypatch.delenv("CUDAPERF_GPU_MEMORY_FRACTION", raising=False)
    with Pool([0, 0, 1], device="cuda", spare=6, per_gpu=3) as pool:
        assert len(pool.slots) == 9
        first, second = pool.slots[:6], pool.slots[6:]
        assert len({id(s.gpu) for s in first}) == 1 and len({id(s.gpu) for s in second}) == 1
        assert first[0].gpu is not second[0].gpu
        assert {s.env["CUDAPERF_GPU_MEMORY_FRACTION"] for s in first} == {f"{0.85 / 6:.3f}"}
        assert {s.env["CUDAPERF_GPU_MEMORY_FRACTION"] for s in second} == {f"{0.85 / 3:.3f}"}
        assert {s.env["CUDA_VISIBLE_DEVICES"] for s in first} == {"0"}
        assert {s.spare for s in first} == {1} and {s.spare for s in second} == {2}   # six per GPU, shared
    with Pool([0], device="cuda", per_gpu=1) as pool:
        assert "CUDAPERF_GPU_MEMORY_FRACTION" not in pool.slots[0].env
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")   # index 0 is device 1, and so is 1 (past the list)
    with Pool([0, 1], device="cuda", per_gpu=1) as pool:
        assert len({id(s.gpu) for s in pool.slots}) == 1
        assert {s.env["CUDAPERF_GPU_MEMORY_FRACTION"] for s in pool.slots} == {f"{0.85 / 2:.3f}"}
