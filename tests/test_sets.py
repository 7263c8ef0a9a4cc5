"""The sorting set operations give what numpy's own do (sets.py replaces them for speed)."""

import numpy as np

from cudaperf.analysis.sets import distinct_rows, member


def test_distinct_rows_match_numpy_unique_on_rows():
    rng = np.random.default_rng(7)
    rows = np.floor(rng.random((3000, 3)) * 6)
    rows[::97, 1] = -0.0  # equal to 0.0, as numpy compares them
    assert np.array_equal(distinct_rows(rows), np.unique(rows, axis=0))
    assert distinct_rows(rows[:0]).shape == (0, 3)


def test_rows_holding_nan_stay_apart_as_in_numpy():
    rows = np.array([[1.0, np.nan], [1.0, np.nan], [0.0, 2.0], [0.0, 2.0]])
    assert len(distinct_rows(rows)) == len(np.unique(rows, axis=0)) == 3


def test_membership_matches_numpy():
    a, b = np.array([5, 1, 3, 3, 9]), np.array([3, 4, 5, 5])
    assert np.array_equal(member(a, np.unique(b)), np.isin(a, b))
    assert not member(a, b[:0]).any()
