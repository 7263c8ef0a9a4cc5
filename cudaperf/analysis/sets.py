"""Set operations on 1-D integer arrays and on rows, by sorting.

numpy 2's `np.unique` and `isin` hash integer arrays, which costs about ten times a sort or a
binary search on the few thousand codes the race joins build per pair of accesses (races.py)."""

from __future__ import annotations

import numpy as np


def member(values: np.ndarray, of: np.ndarray) -> np.ndarray:
    """Per value: is it in `of`, sorted and distinct (`np.isin`)?"""
    if not of.size:
        return np.zeros(values.shape, dtype=bool)
    at = np.minimum(np.searchsorted(of, values), of.size - 1)
    return of[at] == values


def distinct_rows(rows: np.ndarray) -> np.ndarray:
    """The distinct rows of a 2-D array, in lexicographic order (`np.unique(rows, axis=0)`: rows
    with a NaN are each distinct).  A lexicographic sort of the columns costs a quarter of
    `np.unique`'s sort of the rows as records from a few thousand rows on."""
    s = rows[np.lexsort(rows.T[::-1])] if rows.size else rows
    keep = np.ones(len(s), dtype=bool)
    keep[1:] = (s[1:] != s[:-1]).any(axis=1)
    return s[keep]
