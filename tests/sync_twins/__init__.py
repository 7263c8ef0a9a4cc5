"""Generated bug/clean twins for the race and barrier rules (issue 26): graph.py (graph codes) and
verifier.py (small kernels of the classes a verifier's test suite plants)."""

from __future__ import annotations

from .graph import Twin
from .graph import twins as graph_twins


def all_twins() -> list[Twin]:
    from .verifier import twins as verifier_twins

    return [*graph_twins(), *verifier_twins()]
