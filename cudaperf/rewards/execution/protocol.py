"""The engine's children (checker, worker) answer in JSON lines on a pipe of their own: one message a line."""

from __future__ import annotations

import json
import os


def send(fd: int, message: dict) -> None:
    """Write one message whole, however small the pipe's buffer."""
    data = (json.dumps(message) + "\n").encode()
    while data:
        data = data[os.write(fd, data):]
