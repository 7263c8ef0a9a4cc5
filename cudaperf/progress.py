"""A one-line progress bar on stderr for long runs over many files (silent when stderr is not a
terminal, so logs and CI output stay clean)."""

from __future__ import annotations

import shutil
import sys
from typing import TextIO


class Progress:
    def __init__(self, total: int, label: str, stream: TextIO | None = None, minimum: int = 8):
        self.total, self.label, self.done = total, label, 0
        self.stream = stream or sys.stderr
        self.enabled = total >= minimum and self.stream.isatty()

    def advance(self, item: str = "") -> None:
        self.done += 1
        if not self.enabled:
            return
        width = shutil.get_terminal_size((80, 20)).columns
        bar = 24
        filled = bar * self.done // max(1, self.total)
        line = f"{self.label} [{'#' * filled}{'.' * (bar - filled)}] {self.done}/{self.total} {item}"
        self.stream.write("\r" + line[:width - 1].ljust(width - 1))
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * (shutil.get_terminal_size((80, 20)).columns - 1) + "\r")
            self.stream.flush()
