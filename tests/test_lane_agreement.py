"""`disagrees`, the per-warp test every uniformity verdict rests on: a row disagrees when two of
its active lanes hold different values or one holds an unknown (NaN).  The lone-warp form compares
with the first active lane; the grouped form reduces lows and highs over a group of rows.  With
every row its own group the two must agree, NaN, inactive lanes and broadcast rows included."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from cudaperf.analysis.divergence import disagrees

ROWS, LANES = 6, 32
VALUES = st.sampled_from([0.0, 1.0, 2.0, -3.5, 1e6, np.nan])


def _brute_force(values: np.ndarray, active: np.ndarray) -> np.ndarray:
    seen = [values[r][active[r]] for r in range(values.shape[0])]
    return np.array([np.isnan(s).any() or len(set(s.tolist())) > 1 for s in seen])


@settings(max_examples=200, deadline=None)
@given(arrays(float, (ROWS, LANES), elements=VALUES), arrays(bool, (ROWS, LANES)))
def test_both_forms_match_the_definition(values, active):
    expected = _brute_force(values, active)
    assert (disagrees(values, active) == expected).all()
    assert (disagrees(values, active, np.arange(ROWS)) == expected).all()


def test_a_value_per_row_broadcasts_and_never_disagrees():
    per_row = np.arange(ROWS, dtype=float)[:, None]
    active = np.ones((ROWS, LANES), dtype=bool)
    assert not disagrees(np.broadcast_to(per_row, active.shape), active).any()
    assert disagrees(np.broadcast_to(per_row, active.shape), active, np.zeros(ROWS, dtype=int)).all()


def test_a_row_with_no_active_lane_agrees_and_an_unknown_lane_that_is_active_does_not():
    values = np.zeros((2, LANES))
    values[:, 5] = np.nan
    active = np.zeros((2, LANES), dtype=bool)
    active[1, 5] = True
    assert disagrees(values, active).tolist() == [False, True]
