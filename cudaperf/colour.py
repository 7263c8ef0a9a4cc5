"""Colour on terminals only, as the conventions ask: `NO_COLOR` set (to anything but "") turns it off,
`FORCE_COLOR` set turns it on even into a pipe or a file; `NO_COLOR` wins when both are set; else
colour when the stream is a terminal (and TERM is not "dumb")."""

from __future__ import annotations

import os
from typing import TextIO

STYLES = {"error": "1;31", "warning": "1;33", "note": "1;36", "bold": "1", "dim": "2", "code": "1;35",
          "fix": "1;32", "caret": "1;31"}


def wanted(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):
        return False


class Paint:
    """`paint("error", text)`: the text in that style when colour is on, else as it is."""

    def __init__(self, enabled: bool):
        self.enabled = enabled

    def __call__(self, style: str, text: str) -> str:
        return f"\x1b[{STYLES[style]}m{text}\x1b[0m" if self.enabled and text else text
