"""Matrix shapes shared by the row-wise families (reductions, softmax, norms, scans): each regime
is a task of its own, because which implementation wins depends on it."""

from __future__ import annotations


def _rc(pairs: list[tuple[int, int]]) -> list[dict[str, int]]:
    return [{"rows": r, "cols": c} for r, c in pairs]


# regime -> a small configuration for CPU checks (alignment kept: cols a multiple of 16)
CHECK = {"narrow": {"rows": 37, "cols": 128}, "medium": {"rows": 5, "cols": 1040}, "wide": {"rows": 3, "cols": 4112}}

# regime -> kind -> configurations (small, medium, large)
ROWS = {
    "narrow": {"c2cuda": _rc([(2048, 128), (8192, 128), (8192, 256)]),
               "torch2cuda": _rc([(8192, 128), (32768, 128), (32768, 512)])},
    "medium": {"c2cuda": _rc([(256, 1024), (1024, 1024), (1024, 2048)]),
               "torch2cuda": _rc([(1024, 1024), (4096, 1024), (4096, 4096)])},
    "wide": {"c2cuda": _rc([(8, 32768), (16, 65536), (32, 65536)]),
             "torch2cuda": _rc([(32, 32768), (64, 65536), (128, 131072)])},
}
