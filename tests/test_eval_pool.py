"""Pool bookkeeping with real checker and worker processes (no GPU: the workers only say hello)."""

from __future__ import annotations

from conftest import child_pids

from cudaperf.rewards.execution.pool import Pool


def test_spares_follow_demand_up_to_the_limit_and_all_go_at_close():
    before = child_pids()
    pool = Pool([], device="none", spare=3)
    (slot,) = pool.slots
    assert pool.hello() is not None
    assert len(slot.spares) == 1                   # one spare while nothing is recycled
    pool.expect(2)
    assert len(slot.spares) == 2                   # a batch of two that will use up workers
    pool.expect(10)
    assert len(slot.spares) == 3                   # never more than the limit
    started = {w.proc.pid for w in (slot.current, *slot.spares)}
    assert started <= child_pids()
    pool.close()
    assert child_pids() <= before


def test_a_recycled_worker_is_replaced_by_a_spare_and_reaped():
    before = child_pids()
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
    assert child_pids() <= before


def test_a_worker_outside_a_pid_namespace_of_its_own_refuses_to_score():
    """Without `unshare` the worker would see the engine's /proc/PID/environ: it says the sandbox is
    unavailable instead, and the job is refused, not run unconfined."""
    with Pool([], device="none", spare=1) as pool:
        pool.namespace = []
        hello = pool.hello()
        refused = pool.run({"format": "c", "reference": {}}, 30, 30)
    assert "PID namespace" in hello["sandbox_error"]
    assert refused["status"] == "infra_error" and refused["reason"].startswith("refusing to score")
