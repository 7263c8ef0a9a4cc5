"""Bounded child processes: each in its own session (process group), killed as a group at its time
limit, so a compiler's children (cicc, ptxas, cc1plus, ninja) never outlive it."""

from __future__ import annotations

import os
import signal
import subprocess
from dataclasses import dataclass


@dataclass(frozen=True)
class Finished:
    returncode: int | None   # None: killed at the time limit
    stdout: str
    stderr: str


def kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_bounded(command: list[str], timeout: float, cwd: str | None = None,
                env: dict[str, str] | None = None) -> Finished:
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                          text=True, errors="replace", cwd=cwd, env=env, start_new_session=True) as proc:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill_group(proc.pid)
            out, err = proc.communicate()
            return Finished(None, out, err)
        kill_group(proc.pid)  # grandchildren left behind by a compiler that exited
    return Finished(proc.returncode, out, err)
