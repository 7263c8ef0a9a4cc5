"""Timing in the worker: reference and candidate interleaved, each trial on fresh inputs, after an L2
flush and a persisting-L2 reset, bracketed by CUDA events with the whole device synchronised before
the end event (so work on any stream counts, hack 1), median of the trials.

The end event is recorded after `torch.cuda.synchronize()`: both sides pay the same few microseconds
of host round trip, which can only shrink speedups, never inflate them.  The timer's functions are
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


class Timer:
    def __init__(self, device: str, l2_bytes: int):
        self.device = device
        self.flush = torch.empty(max(2 * l2_bytes, 1 << 20), dtype=torch.uint8, device=device) \
            if device == "cuda" else None

    def __call__(self, fn: Callable[..., Any], args: list[Any]) -> float:
        """Milliseconds of one call."""
        if self.device != "cuda":
            start = _perf_counter()
            fn(*args)
            return (_perf_counter() - start) * 1e3
        self.flush.zero_()
        driver.reset_persisting_l2()
        _synchronize()
        start, end = _Event(enable_timing=True), _Event(enable_timing=True)
        _record(start)
        fn(*args)
        _synchronize()
        _record(end)
        _event_sync(end)
        return _elapsed(start, end)


def cpu_time(fn: Callable[..., Any], args: list[Any]) -> float:
    start = _perf_counter()
    fn(*args)
    return (_perf_counter() - start) * 1e3


def interleaved(timer: Timer, sides: dict[str, tuple[Callable[..., Any], Callable[[int], list[Any]]]],
                trials: int, warmup: int, cpu_sides: tuple[str, ...] = ()) -> dict[str, float]:
    """Median milliseconds per side.  `sides` maps a name to (function, inputs for trial i); the order
    of sides rotates every trial so drift and cache state are shared fairly."""
    names = list(sides)
    for name in names:
        fn, inputs = sides[name]
        for w in range(warmup):
            fn(*inputs(-1 - w))
    if timer.device == "cuda":
        _synchronize()
    samples: dict[str, list[float]] = {n: [] for n in names}
    for i in range(trials):
        order = names[i % len(names):] + names[:i % len(names)]
        for name in order:
            fn, inputs = sides[name]
            args = inputs(i)
            samples[name].append(cpu_time(fn, args) if name in cpu_sides else timer(fn, args))
    return {n: statistics.median(v) for n, v in samples.items()}
