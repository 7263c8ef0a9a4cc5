"""Set operations on 1-D integer arrays and on rows, by sorting.

numpy 2's `np.unique` and `isin` hash integer arrays, which costs about ten times a sort or a
binary search on the few thousand codes the race joins build per pair of accesses (races.py)."""

from __future__ import annotations

import numpy as np


def common(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where the values two sorted, distinct arrays share lie in each: (indices into `a`, indices
    into `b`), in increasing order, so `a[i] == b[j]` pairwise (`np.intersect1d(...,
    return_indices=True)`).  One binary search, of the shorter array in the longer."""
    if len(a) > len(b):
        j, i = common(b, a)
        return i, j
    if not b.size:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    at = np.minimum(np.searchsorted(b, a), b.size - 1)
    hit = b[at] == a
    return np.flatnonzero(hit), at[hit]


def distinct_rows(rows: np.ndarray) -> np.ndarray:
    """The distinct rows of a 2-D array, in lexicographic order (`np.unique(rows, axis=0)`: rows
    with a NaN are each distinct).  A lexicographic sort of the columns costs a quarter of
    `np.unique`'s sort of the rows as records from a few thousand rows on."""
    _, ordered, first = _sorted_rows(rows)
    return ordered[first]


def grouped_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of a 2-D array and a group number per row, the index of its row among them
    (`np.unique(rows, axis=0, return_inverse=True)`), from one sort."""
    order, ordered, first = _sorted_rows(rows)
    groups = np.empty(len(rows), dtype=np.intp)
    groups[order] = np.cumsum(first) - 1
    return ordered[first], groups


def _sorted_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows' lexicographic order, the rows in it, and which of them differ from the one before."""
    order = np.lexsort(rows.T[::-1]) if rows.size else np.arange(len(rows))
    ordered = rows[order]
    first = np.ones(len(ordered), dtype=bool)
    first[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    return order, ordered, first
