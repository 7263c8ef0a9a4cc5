"""The per-kernel analysis budget: a kernel whose analysis runs past it is reported with what
was finished and a note, so one pathological kernel cannot stall a whole-project lint.

The budget is cooperative: the lowering checks it per statement and the analyses per access,
branch and hazard pass (`check`).  KERNEL_BUDGET_S is documented in docs/lint.md.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

KERNEL_BUDGET_S = 10.0
_state = threading.local()


class BudgetExceeded(Exception):
    """The current kernel's analysis ran past its budget."""


@contextmanager
def kernel_budget(seconds: float | None = KERNEL_BUDGET_S) -> Iterator[None]:
    """Run the body under a deadline (None: unbounded); nested budgets keep the earlier deadline."""
    previous = getattr(_state, "deadline", None)
    deadline = None if seconds is None else time.monotonic() + seconds
    _state.deadline = deadline if previous is None else min(previous, deadline or previous)
    try:
        yield
    finally:
        _state.deadline = previous


def check() -> None:
    """Raise BudgetExceeded once the current deadline has passed."""
    deadline = getattr(_state, "deadline", None)
    if deadline is not None and time.monotonic() > deadline:
        raise BudgetExceeded
