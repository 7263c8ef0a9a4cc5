"""Per-row counting over (rows, lanes) arrays, shared by the memory analyses.

Inactive lanes are NaN.  Sorting each row once (rows are at most a few dozen values wide) is
much cheaper than sorting all values with their row index.
"""

from __future__ import annotations

import numpy as np


def sorted_rows(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row sorted (NaN last) and a mask of the first occurrence of every distinct value."""
    s = np.sort(values, axis=1)
    first = ~np.isnan(s)
    first[:, 1:] &= s[:, 1:] != s[:, :-1]
    return s, first


def distinct_per_row(values: np.ndarray) -> np.ndarray:
    """Number of distinct non-NaN values in each row."""
    return sorted_rows(values)[1].sum(axis=1).astype(float)
