"""The sorting set operations give what numpy's own do (sets.py replaces them for speed)."""

import numpy as np

from cudaperf.analysis.sets import common, distinct_rows, grouped_rows


def test_distinct_rows_match_numpy_unique_on_rows():
    rng = np.random.default_rng(7)
    rows = np.floor(rng.random((3000, 3)) * 6)
    rows[::97, 1] = -0.0  # equal to 0.0, as numpy compares them
    assert np.array_equal(distinct_rows(rows), np.unique(rows, axis=0))
    assert distinct_rows(rows[:0]).shape == (0, 3)


def test_grouped_rows_match_numpy_unique_inverse():
    rng = np.random.default_rng(3)
    rows = np.floor(rng.random((500, 2)) * 4)
    distinct, groups = grouped_rows(rows)
    want, inverse = np.unique(rows, axis=0, return_inverse=True)
    assert np.array_equal(distinct, want) and np.array_equal(groups, inverse.ravel())
    assert grouped_rows(rows[:0])[1].shape == (0,)


def test_rows_holding_nan_stay_apart_as_in_numpy():
    rows = np.array([[1.0, np.nan], [1.0, np.nan], [0.0, 2.0], [0.0, 2.0]])
    assert len(distinct_rows(rows)) == len(np.unique(rows, axis=0)) == 3


def test_common_values_match_numpy_intersect():
    a, b = np.array([1, 3, 5, 9]), np.array([3, 4, 5, 7, 8, 9, 11])
    for x, y in ((a, b), (b, a)):
        _, i, j = np.intersect1d(x, y, return_indices=True)
        assert all(np.array_equal(got, want) for got, want in zip(common(x, y), (i, j)))
    assert all(part.size == 0 for part in common(a, b[:0]) + common(a[:0], b))
