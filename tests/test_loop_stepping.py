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


SCALED = """
__global__ void halves(const float* in, float* out) {
    int j = threadIdx.x %% 37;
    float acc = 0.f;
    for (int mb = %s; %s; mb += %s) acc += in[blockIdx.x * 64 + mb];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
"""


@pytest.mark.parametrize("init, condition, step", [
    ("0", "2 * mb < j", "1"), ("0", "2 * mb <= j", "1"), ("1", "j > mb * 3", "2"), ("40", "3 * mb >= j", "-1"),
    ("36", "2 * mb > j", "-3"),
])
def test_a_scaled_counter_has_the_trip_counts_stepping_finds(monkeypatch, init, condition, step):
    """`2 * mb < j`: the closed form compares the counter with j / 2 rounded as whole numbers compare."""
    source = SCALED % (init, condition, step)
    scaled = []
    real = sampling._scale
    monkeypatch.setattr(sampling, "_scale", lambda e, c: scaled.append(real(e, c)) or scaled[-1])
    computed = _analysis(source)
    assert any(m > 1 for m in scaled)
    monkeypatch.setattr(sampling, "_scale", lambda e, c: 1.0 if real(e, c) == 1 else 0.0)
    assert computed == _analysis(source)
