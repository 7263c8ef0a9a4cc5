"""The one progress bar of every command: rich's, on stderr, only when stderr is a terminal (logs,
pipes and CI output stay clean), and gone when the work is done.

Output never goes through the bar: what a command prints to stdout stays on stdout, whatever stdout is
(`cudaperf lint DIR > out.txt` keeps every finding).  While the bar is drawn, lines written to
sys.stdout or sys.stderr that are the same kind of terminal briefly take the bar down and put it back
below them, so a terminal shows them whole above the bar."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
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
        self._proxies: list[tuple[str, TextIO]] = []
        if self.enabled:
            self._bar = RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                     TimeElapsedColumn(), TextColumn("{task.fields[item]}"),
                                     console=Console(file=stream), transient=True,
                                     redirect_stdout=False, redirect_stderr=False)
            self._task = self._bar.add_task(label, total=total, item="")
            self._bar.start()
            for name in ("stdout", "stderr"):
                real = getattr(sys, name)  # the console above keeps the real stream, so the bar never loops back
                if _isatty(real):
                    self._proxies.append((name, real))
                    setattr(sys, name, _AboveTheBar(self, real))

    def advance(self, item: str = "", summary: str | None = None) -> None:
        """One more done; `item` names it, `summary` (e.g. counts so far) follows the label."""
        self.done += 1
        if self._bar is not None:
            description = f"{self.label} {summary}" if summary else self.label
            self._bar.update(self._task, advance=1, item=item[-60:], description=description)

    @contextmanager
    def paused(self) -> Iterator[None]:
        """The bar taken down (a transient bar leaves nothing behind) while the body writes to the
        terminal, and drawn again below what it wrote."""
        if self._bar is None:
            yield
            return
        self._bar.stop()
        try:
            yield
        finally:
            if self._bar is not None:
                self._bar.start()

    def close(self) -> None:
        for name, real in reversed(self._proxies):
            proxy = getattr(sys, name)
            if isinstance(proxy, _AboveTheBar):
                proxy.flush()
            setattr(sys, name, real)
        self._proxies = []
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class _AboveTheBar:
    """sys.stdout/sys.stderr on a terminal while the bar is drawn: whole lines go to the real stream
    with the bar paused, so they are neither drawn over nor taken into the bar's stream."""

    def __init__(self, progress: Progress, real: TextIO):
        self._progress, self._real, self._pending = progress, real, ""

    def write(self, text: str) -> int:
        self._pending += text
        if "\n" in self._pending:
            lines, _, self._pending = self._pending.rpartition("\n")
            with self._progress.paused():
                self._real.write(lines + "\n")
                self._real.flush()
        return len(text)

    def flush(self) -> None:
        if self._pending:
            with self._progress.paused():
                self._real.write(self._pending)
                self._real.flush()
            self._pending = ""
        self._real.flush()

    def __getattr__(self, name: str):
        return getattr(self._real, name)
