"""The timer: each call after an L2 flush and a persisting-L2 reset, bracketed by CUDA events with the
whole device synchronised before the last event (so work on any stream counts, hack 1).  The checker
times the reference with it and the candidate's worker the candidate, interleaved call by call
(checker.py); the median of the trials is the time.

Three events per call: `start`, `end` on the current stream right after the call, and `after`,
recorded once `torch.cuda.synchronize()` returned.  `after` covers work on every stream but also the
host's round trip through the synchronise (10 to 25 microseconds, a tenth of a level-1 kernel); that
round trip is measured on 20 empty calls just before each timing run, and its median (`gap_ms`) is
taken off, and a call never counts less than its own stream's `end`.  So a call costs
max(end - start, after - start - gap): work another stream leaves running past `end` counts, the
synchronise's round trip does not.  A median over `MAX_GAP_MS` is not taken off at all: measured while
the host is busy (compiles on every core) it can reach milliseconds, and taking that off would hide as
much side-stream work.  (The minimum under-corrects: on the H200 an empty call still timed 16 us;
and calibrating on back-to-back calls without the flush left 14 us.)
The timer's functions are
bound when this module is imported, before any candidate code runs (hack 3)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import torch

from . import driver

_Event = torch.cuda.Event
_record = torch.cuda.Event.record
_elapsed = torch.cuda.Event.elapsed_time
_event_sync = torch.cuda.Event.synchronize
_synchronize = torch.cuda.synchronize
_perf_counter = time.perf_counter
MAX_GAP_MS = 0.05


def _nothing() -> None:
    return None


class Timer:
    def __init__(self, device: str, l2_bytes: int):
        self.device = device
        self.flush = torch.empty(max(2 * l2_bytes, 1 << 20), dtype=torch.uint8, device=device) \
            if device == "cuda" else None
        self.gap_ms = 0.0

    def calibrate(self) -> None:
        """Measure the synchronise's round trip now, after the same flush and reset as a timed call
        (see the module docstring)."""
        if self.device == "cuda":
            gap = statistics.median(self._prepared_events(_nothing, [])[1] for _ in range(20))
            self.gap_ms = gap if gap <= MAX_GAP_MS else 0.0

    def _prepared_events(self, fn: Callable[..., Any], args: list[Any]) -> tuple[float, float]:
        """`_events` on a cold L2 with no persisting lines: the state every timed call starts in."""
        self.flush.zero_()
        driver.reset_persisting_l2()
        _synchronize()
        return self._events(fn, args)

    def _events(self, fn: Callable[..., Any], args: list[Any]) -> tuple[float, float]:
        """(end - start, after - end) in milliseconds for one call."""
        start, end, after = (_Event(enable_timing=True) for _ in range(3))
        _record(start)
        fn(*args)
        _record(end)
        _synchronize()
        _record(after)
        _event_sync(after)
        return _elapsed(start, end), _elapsed(end, after)

    def __call__(self, fn: Callable[..., Any], args: list[Any]) -> float:
        """Milliseconds of one call."""
        if self.device != "cuda":
            start = _perf_counter()
            fn(*args)
            return (_perf_counter() - start) * 1e3
        own, rest = self._prepared_events(fn, args)
        return max(own, own + rest - self.gap_ms)


def cpu_time(fn: Callable[..., Any], args: list[Any]) -> float:
    start = _perf_counter()
    fn(*args)
    return (_perf_counter() - start) * 1e3
