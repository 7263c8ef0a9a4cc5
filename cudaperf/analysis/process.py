"""Bounded child processes: each in its own session (process group), killed as a group at its time
limit, so a compiler's children (cicc, ptxas, cc1plus) never outlive it.  Children that start process
groups of their own (ninja does, for every compile) are held by a subreaper instead (`kill_tree`),
and `communicate_capped` reads a child's output without ever holding more than a cap of it."""

from __future__ import annotations

import ctypes
import os
import resource
import selectors
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Finished:
    returncode: int | None   # None: killed at the time limit
    stdout: str
    stderr: str


def kill_group(pid: int) -> None:
    if pid <= 0:   # killpg(0) would be the caller's own group
        return
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
    except BaseException:  # Ctrl-C: the child is in a session of its own, which the terminal's SIGINT misses
        kill_group(proc.pid)
        raise
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


# -- process trees that cannot escape --------------------------------------------------------------
# A process group is not a tree: ninja starts every compile in a group of its own, and anything may
# setsid() or double-fork.  A *child subreaper* (prctl PR_SET_CHILD_SUBREAPER) inherits every orphan
# of its subtree, so while it lives the whole tree hangs below it in /proc's parent links; killing is
# then: stop the subreaper, kill every live descendant until a scan finds none, kill the subreaper.

PR_SET_CHILD_SUBREAPER = 36
_libc = ctypes.CDLL(None, use_errno=True)


def become_subreaper() -> None:
    """Make this process the reaper of its subtree's orphans (no privileges needed; kept across exec)."""
    if _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def _parents() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state) of every process visible in /proc."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()   # the name may hold spaces and parentheses
        table[int(entry)] = (int(fields[1]), fields[0].decode())
    return table


def descendants(pid: int, live_only: bool = True) -> list[int]:
    """Every process below `pid` (zombies left out unless `live_only` is False)."""
    children: dict[int, list[int]] = {}
    table = _parents()
    for child, (parent, _) in table.items():
        children.setdefault(parent, []).append(child)
    found, stack = [], list(children.get(pid, ()))
    while stack:
        p = stack.pop()
        found.append(p)
        stack.extend(children.get(p, ()))
    return [p for p in found if not live_only or table[p][1] not in "ZX"]


def kill_tree(pid: int, include_root: bool = True, rounds: int = 10_000) -> None:
    """SIGKILL every descendant of `pid` (a subreaper, so orphans stay below it), scanning again until
    none is alive, then `pid` itself.  `pid` is stopped first so it starts nothing new meanwhile."""
    if include_root:
        _signal(pid, signal.SIGSTOP)
    for _ in range(rounds):
        alive = descendants(pid)
        if not alive:
            break
        for p in alive:
            _signal(p, signal.SIGKILL)
        time.sleep(0.001)
    if include_root:
        _signal(pid, signal.SIGKILL)


def kill_frozen(pids, settle: float = 5.0) -> None:
    """SIGKILL each process and every process below it.  Each tree is frozen first (SIGSTOP, root down,
    until a scan finds nothing new), so nothing in it starts a process that would escape the kill: for
    callers that are no subreaper (the CLI on Ctrl-C, analyze/lint workers), where `kill_tree`'s orphans
    would leave the tree.  Returns once every killed process is gone (or `settle` seconds passed): a
    SIGKILL is delivered asynchronously, and a compiler tearing down its memory on a loaded machine
    still runs after the caller has exited otherwise."""
    killed: list[int] = []
    for pid in pids:
        frozen: list[int] = []
        _signal(pid, signal.SIGSTOP)
        for _ in range(100):
            found = [p for p in descendants(pid) if p not in frozen]
            if not found:
                break
            for p in found:
                _signal(p, signal.SIGSTOP)
            frozen += found
        killed += [p for p in [*frozen, pid] if _signal(p, signal.SIGKILL)]
    _wait_gone(killed, settle)


def _wait_gone(pids: list[int], timeout: float) -> None:
    """Until none of `pids` runs any more (exited, or a zombie its parent has yet to reap)."""
    until = time.monotonic() + timeout
    while pids and time.monotonic() < until:
        table = _parents()
        pids = [p for p in pids if p in table and table[p][1] not in "ZX"]
        if pids:
            time.sleep(0.005)


def _signal(pid: int, sig: int) -> bool:
    """Whether the signal was sent (the process existed and was ours to signal)."""
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


# -- output that cannot flood memory ----------------------------------------------------------------

class _Capped:
    """The first `head` and the last `tail` bytes of a stream, and how many were dropped between."""

    def __init__(self, cap: int):
        self.head_cap, self.tail_cap = cap - cap // 4, cap // 4
        self.head, self.tail, self.dropped = bytearray(), bytearray(), 0

    def add(self, data: bytes) -> None:
        room = self.head_cap - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data:
            self.tail += data
            if len(self.tail) > 2 * self.tail_cap:
                cut = len(self.tail) - self.tail_cap
                self.dropped += cut
                del self.tail[:cut]

    def text(self) -> str:
        tail = self.tail[-self.tail_cap:] if self.tail_cap else b""
        dropped = self.dropped + len(self.tail) - len(tail)
        middle = f"\n... [{dropped} bytes of output dropped] ...\n".encode() if dropped else b""
        return bytes(self.head + middle + tail).decode(errors="replace")


def communicate_capped(proc: subprocess.Popen, timeout: float | None, input: bytes | None = None,
                       cap: int = 64 << 10) -> Finished:
    """Like `bounded` for a binary-pipe child that is a subreaper (`become_subreaper`): feed `input`,
    keep at most `cap` bytes of each of stdout and stderr (head and tail; the rest is read and
    dropped, so memory stays bounded whatever the child prints), and at the time limit kill its
    whole tree (`kill_tree`).  returncode None: killed at the limit.  Interrupted (Ctrl-C), it kills
    the tree before passing the interrupt on."""
    try:
        return _communicate_capped(proc, timeout, input, cap)
    except BaseException:
        kill_tree(proc.pid)
        raise


def _communicate_capped(proc: subprocess.Popen, timeout: float | None, input: bytes | None, cap: int) -> Finished:
    deadline = None if timeout is None else time.monotonic() + timeout
    kept: dict[int, _Capped] = {}
    in_fd, out_fd, err_fd = (s.fileno() if s is not None else -1 for s in (proc.stdin, proc.stdout, proc.stderr))
    with selectors.DefaultSelector() as sel:
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                os.set_blocking(stream.fileno(), False)
                sel.register(stream.fileno(), selectors.EVENT_READ)
                kept[stream.fileno()] = _Capped(cap)
        pending = memoryview(input or b"")
        if proc.stdin is not None:
            if pending:
                os.set_blocking(proc.stdin.fileno(), False)
                sel.register(proc.stdin.fileno(), selectors.EVENT_WRITE)
            else:
                proc.stdin.close()
        killed = False
        while sel.get_map():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                if killed:
                    break   # something outside the tree holds the pipes: stop reading
                kill_tree(proc.pid)
                killed, deadline = True, time.monotonic() + 2
                continue
            for key, _ in sel.select(left):
                fd = key.fd
                if fd == in_fd:
                    try:
                        pending = pending[os.write(fd, pending[:1 << 16]):]
                    except (BrokenPipeError, BlockingIOError) as exc:
                        pending = pending if isinstance(exc, BlockingIOError) else memoryview(b"")
                    if not pending:
                        sel.unregister(fd)
                        proc.stdin.close()
                    continue
                try:
                    data = os.read(fd, 1 << 16)
                except BlockingIOError:
                    continue
                if data:
                    kept[fd].add(data)
                else:
                    sel.unregister(fd)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None and not stream.closed:
            stream.close()
    if not killed:
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            proc.wait(left)
            kill_group(proc.pid)   # as `bounded` does; a subreaper child reaps its own subtree before exiting
        except subprocess.TimeoutExpired:
            killed = True
    if killed:
        kill_tree(proc.pid)
    proc.wait()
    out, err = (kept[fd].text() if fd in kept else "" for fd in (out_fd, err_fd))
    return Finished(None if killed else proc.returncode, out, err)


def subreaper_preexec(file_size: tuple[int, int] | None = None,
                      then: Callable[[], None] | None = None) -> Callable[[], None]:
    """A Popen preexec_fn: become a subreaper, cap every file the child and its descendants write
    (RLIMIT_FSIZE `file_size` = (soft, hard) bytes: a trusted step may raise its soft limit up to the
    hard one, e.g. to write a precompiled header), then run `then` (a sandbox's own preexec)."""
    def setup() -> None:
        become_subreaper()
        if file_size is not None:
            soft, hard = file_size
            old = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
            hard = hard if old == resource.RLIM_INFINITY else min(hard, old)
            resource.setrlimit(resource.RLIMIT_FSIZE, (min(soft, hard), hard))
        if then is not None:
            then()
    return setup
