"""Vectorised per-row counting shared by the memory analyses."""

from __future__ import annotations

import numpy as np


def distinct_per_row(rows: np.ndarray, values: np.ndarray, nrows: int) -> np.ndarray:
    """Number of distinct ``values`` in each row (``rows`` gives each value's row index)."""
    if rows.size == 0:
        return np.zeros(nrows)
    order = np.lexsort((values, rows))
    r, v = rows[order], values[order]
    new = np.ones(r.size, dtype=bool)
    new[1:] = (r[1:] != r[:-1]) | (v[1:] != v[:-1])
    return np.bincount(r[new], minlength=nrows).astype(float)


def group_max(groups: np.ndarray, values: np.ndarray, ngroups: int) -> np.ndarray:
    out = np.zeros(ngroups)
    np.maximum.at(out, groups, values)
    return out
