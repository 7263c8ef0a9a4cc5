"""Loops without a closed-form trip count are stepped (sampling._stepped).  A loop left only by a
break, whose counter moves by a whole-number step, is computed at the sampled iterations instead
of stepped 4,096 times: the analysis must be the one stepping gives, and the shortcut must not be
taken where float64 would round the counter."""

from __future__ import annotations

import numpy as np
import pytest

from cudaperf.analysis import sampling
from cudaperf.analysis.analyzer import Options, analyze_source

GRID_STRIDE_BREAK = """
__global__ void tiles(const float* in, float* out, int n) {
    for (unsigned int p = blockIdx.x * blockDim.x + threadIdx.x;; p += %s) {
        if (p >= n) break;
        out[p] = in[p] * 2.0f;
    }
}
"""


def _analysis(source: str) -> dict:
    report = analyze_source(source, "k.cu", Options(resources="estimate", grid=(8, 1, 1), block=(128, 1, 1)))
    return report.to_json()


def _stepped_only(monkeypatch) -> None:
    monkeypatch.setattr(sampling, "_whole_step", lambda *args: None)


@pytest.mark.parametrize("step", ["gridDim.x * blockDim.x", "3", "-2"])
def test_an_affine_counter_left_by_a_break_is_computed_not_stepped(monkeypatch, step):
    moved = []
    real = sampling._moves_exactly
    monkeypatch.setattr(sampling, "_moves_exactly", lambda *a: moved.append(real(*a)) or moved[-1])
    computed = _analysis(GRID_STRIDE_BREAK % step)
    assert moved and moved[-1]  # the shortcut was taken
    _stepped_only(monkeypatch)
    assert computed == _analysis(GRID_STRIDE_BREAK % step)


def test_a_counter_float64_cannot_hold_exactly_is_stepped(monkeypatch):
    source = GRID_STRIDE_BREAK.replace("blockIdx.x * blockDim.x + threadIdx.x", "4503599627370496.0 + threadIdx.x") \
        .replace("unsigned int p", "double p") % "4398046511104.0"
    moved = []
    real = sampling._moves_exactly
    monkeypatch.setattr(sampling, "_moves_exactly", lambda *a: moved.append(real(*a)) or moved[-1])
    stepped = _analysis(source)
    assert moved and not any(moved)  # 2**52 + 4,096 steps of 2**42 passes 2**53
    _stepped_only(monkeypatch)
    assert stepped == _analysis(source)


def test_a_counter_that_stands_still_is_left_to_stepping():
    """A zero step would run to MAX_ITERATE computed; stepping stops it at once (`_same`)."""
    value = np.arange(64.0).reshape(2, 32)
    assert not sampling._moves_exactly(value, np.zeros((2, 32)), 4096)
    assert sampling._moves_exactly(value, np.ones((2, 32)), 4096)
    assert not sampling._moves_exactly(value + 0.5, np.ones((2, 32)), 4096)  # not a whole number
