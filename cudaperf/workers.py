"""Worker processes for files handled in parallel (`analyze -j`, `lint -j`) that Ctrl-C stops at once.

Workers ignore SIGINT: the terminal sends it to the whole foreground group, and a worker that took
it would only fail its current file and go on with the queue.  The parent takes it instead, kills
every worker with whatever the worker started (ptxas runs in a session of its own, which the
terminal's SIGINT misses), and passes the interrupt on."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager

from .analysis.process import descendants


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    executor = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
    try:
        yield executor
    except BaseException:
        stop(executor)
        raise
    executor.shutdown()


def stop(executor: ProcessPoolExecutor) -> None:
    """Cancel what is queued and kill the workers and everything below them."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    kill_all(p.pid for p in processes)
    for p in processes:
        p.join(5)


def kill_all(pids) -> None:
    """SIGKILL each process and every process below it.  Each tree is frozen first (SIGSTOP, root down,
    until a scan finds nothing new), so nothing in it starts a process that would escape the kill."""
    for pid in pids:
        frozen: list[int] = []
        _signal(pid, signal.SIGSTOP)
        for _ in range(100):
            found = [p for p in descendants(pid) if p not in frozen]
            if not found:
                break
            for p in found:
                _signal(p, signal.SIGSTOP)
            frozen += found
        for p in [*frozen, pid]:
            _signal(p, signal.SIGKILL)


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def kill_descendants() -> None:
    """Every process this one started, and theirs (the CLI's last act on Ctrl-C)."""
    kill_all(descendants(os.getpid()))
