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

from .analysis.analyzer import release_thread
from .analysis.process import descendants, kill_frozen


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    release_thread()  # the workers are forked: the analysis thread of an earlier in-process call must be gone
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
    kill_frozen(p.pid for p in processes)
    for p in processes:
        p.join(5)


def kill_descendants() -> None:
    """Every process this one started, and theirs (the CLI's last act on Ctrl-C)."""
    kill_frozen(descendants(os.getpid()))
