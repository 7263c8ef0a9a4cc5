"""The analyses run on a long-lived deep-stack thread per calling thread (analyzer._DeepThread): callers on
several threads each get their own report or their own error, the threads end with their callers, and deep
nesting still does not crash."""

from __future__ import annotations

import threading
import time
import warnings

from cudaperf.analysis.analyzer import analyze_source
from cudaperf.analysis.source import SourceError

KERNEL = "__global__ void k_{i}(float* a) {{ a[threadIdx.x * {i}] = 1.f; }}\n"


def test_callers_on_several_threads_get_their_own_reports():
    results: dict[int, object] = {}

    def analyse(i: int) -> None:
        try:
            results[i] = analyze_source(KERNEL.format(i=i) if i % 3 else b"\x00\xff" * 64, f"t{i}.cu")
        except SourceError as exc:
            results[i] = exc

    threads = [threading.Thread(target=analyse, args=(i,)) for i in range(1, 10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
        assert not t.is_alive()
    for i, got in results.items():
        if i % 3 == 0:
            assert isinstance(got, SourceError)
        else:
            assert [k.kernel.name for k in got.kernels] == [f"k_{i}"]
    assert len(results) == 9


def test_deep_nesting_is_analysed_on_the_deep_thread():
    depth = 3000
    source = "__global__ void k(float* a) {" + "{" * depth + "a[threadIdx.x] = 1.f;" + "}" * depth + "}"
    report = analyze_source(source, "deep.cu")
    assert [k.kernel.name for k in report.kernels] == ["k"]


def _analysis_threads() -> int:
    return sum(t.name == "cudaperf-analysis" for t in threading.enumerate())


def test_a_callers_analysis_thread_ends_with_it():
    before = _analysis_threads()
    caller = threading.Thread(target=analyze_source, args=(KERNEL.format(i=1), "t.cu"))
    caller.start()
    caller.join(timeout=120)
    deadline = time.monotonic() + 10
    while _analysis_threads() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _analysis_threads() == before


def test_workers_are_forked_after_the_callers_analysis_thread_ended():
    """`analyze -j` and `lint -j` fork their workers: an analysis made earlier in the process leaves its
    thread running, and forking a multi-threaded process can deadlock the child (Python 3.12 and later
    warn).  The pool ends the caller's analysis thread first; the next analysis starts another."""
    from cudaperf import workers

    analyze_source(KERNEL.format(i=1), "t.cu")
    before = _analysis_threads()
    assert before >= 1
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        with workers.pool(2) as pool:
            assert _analysis_threads() == before - 1
            assert list(pool.map(abs, [-1, -2, -3])) == [1, 2, 3]
    assert [k.kernel.name for k in analyze_source(KERNEL.format(i=2), "t.cu").kernels] == ["k_2"]
    assert _analysis_threads() == before
