"""The one progress bar of every command: rich's, on stderr, only when stderr is a terminal (logs,
pipes and CI output stay clean), and gone when the work is done."""

from __future__ import annotations

import sys
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RichProgress


class Progress:
    def __init__(self, total: int, label: str, stream: TextIO | None = None, minimum: int = 8):
        self.total, self.label, self.done = total, label, 0
        stream = stream or sys.stderr
        self.enabled = total >= minimum and stream.isatty()
        self._bar: RichProgress | None = None
        if self.enabled:
            self._bar = RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                     TimeElapsedColumn(), TextColumn("{task.fields[item]}"),
                                     console=Console(file=stream), transient=True)
            self._task = self._bar.add_task(label, total=total, item="")
            self._bar.start()

    def advance(self, item: str = "", summary: str | None = None) -> None:
        """One more done; `item` names it, `summary` (e.g. counts so far) follows the label."""
        self.done += 1
        if self._bar is not None:
            description = f"{self.label} {summary}" if summary else self.label
            self._bar.update(self._task, advance=1, item=item[-60:], description=description)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
