"""Bounded child processes: each in its own session (process group), killed as a group at its time
limit, so a compiler's children (cicc, ptxas, cc1plus, ninja) never outlive it."""

from __future__ import annotations

import os
import resource
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


def bounded(proc: subprocess.Popen, timeout: float, input: str | None = None) -> Finished:
    """Feed `input` to a process started in its own session and wait for it; at the time limit its
    whole group is killed, and after a normal exit so are grandchildren a compiler left behind."""
    try:
        out, err = proc.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc.pid)
        out, err = proc.communicate()
        return Finished(None, out, err)
    kill_group(proc.pid)
    return Finished(proc.returncode, out, err)


def run_bounded(command: list[str], timeout: float, cwd: str | None = None,
                env: dict[str, str] | None = None, address_space: int | None = None) -> Finished:
    """`address_space`: an RLIMIT_AS cap in bytes for a child that runs untrusted code and no CUDA
    (CUDA reserves more address space than any useful cap; the GPU workers police RSS instead)."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                          text=True, errors="replace", cwd=cwd, env=env, start_new_session=True,
                          preexec_fn=cap if address_space else None) as proc:
        return bounded(proc, timeout)
