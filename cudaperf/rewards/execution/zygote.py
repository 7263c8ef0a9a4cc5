"""Candidate workers forked from a process that has already imported torch and the harness.

A worker started as `python -m ...worker` spends seconds importing torch, torch._dynamo and the
profiler's modules before it can create its context, and every KernelBench candidate uses up its
worker.  The zygote pays the imports once:

    python -m cudaperf.rewards.execution.zygote CONTROL_FD

imports what a worker imports (`worker.preload`), never creates a CUDA context (a forked child could
not use it), and forks a worker for each request on its unix socket: the worker's environment and
directory in JSON, its request pipe, message pipe and log file passed as descriptors (SCM_RIGHTS).
The fork gets what `unshare --pid --fork --mount-proc --kill-child` gave a worker started the other
way: a session of its own, every other descriptor closed, then an intermediate process that enters new
PID and mount namespaces (and a user namespace when not root) and forks the worker as PID 1 with its
own /proc, killed when the intermediate dies; the intermediate exits as the worker did.  The worker then
runs `worker.main` exactly as a fresh one would: context, sandbox, hello.  The zygote runs no candidate
code and is never reachable from a worker (its socket is closed in the fork).  It reports each
intermediate's exit status, which only it can collect.  `Zygote` is the engine's side.
"""

from __future__ import annotations

import ctypes
import gc
import itertools
import json
import os
import select
import signal
import socket
import subprocess
import sys
import time
import traceback
from pathlib import Path

_CLONE_NEWNS, _CLONE_NEWUSER, _CLONE_NEWPID = 0x00020000, 0x10000000, 0x20000000
_MS_NOSUID, _MS_NODEV, _MS_NOEXEC, _MS_REC, _MS_PRIVATE = 2, 4, 8, 1 << 14, 1 << 18
_PR_SET_PDEATHSIG = 1
_MESSAGE = 1 << 16
_CUDA_ERROR_NOT_INITIALIZED = 3
CUDA_INITIALISED = 3   # the zygote's exit status when its imports initialised CUDA: fork no workers


# -- the zygote process --
def _libc():
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        raise OSError(ctypes.get_errno(), f"{what}: {os.strerror(ctypes.get_errno())}")


def _enter_namespaces(libc) -> None:
    """New PID and mount namespaces for this process's next child (and a user namespace mapping this
    user to root in it when not root, as `unshare --map-root-user`)."""
    uid, gid = os.geteuid(), os.getegid()
    user = _CLONE_NEWUSER if uid != 0 else 0
    _check(libc.unshare(_CLONE_NEWPID | _CLONE_NEWNS | user), "unshare")
    if user:
        Path("/proc/self/setgroups").write_text("deny")
        Path("/proc/self/uid_map").write_text(f"0 {uid} 1")
        Path("/proc/self/gid_map").write_text(f"0 {gid} 1")


def _own_proc(libc) -> None:
    """In the new namespaces: mounts stop propagating out, and /proc shows only this namespace."""
    _check(libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None), "making / private")
    _check(libc.mount(b"proc", b"/proc", b"proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC, None), "mounting /proc")


def _run_worker(jobs: int, messages: int) -> int:
    from . import worker

    try:
        return int(worker.main([str(jobs), str(messages)]) or 0)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()


def _become_worker(request: dict, jobs: int, messages: int, log: int) -> int:
    """In the fork: detach, keep only the worker's descriptors, then the intermediate's part."""
    import tempfile

    os.setsid()
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    keep = {0, 1, 2, jobs, messages}
    for fd in [int(f) for f in os.listdir("/proc/self/fd")]:
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    tempfile.tempdir = None
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD):
        signal.signal(sig, signal.SIG_DFL)
    libc = _libc()
    try:
        _enter_namespaces(libc)
    except OSError as exc:   # the worker then finds it is not PID 1 and reports the sandbox unavailable
        print(f"zygote: no namespaces for the worker ({exc})", flush=True)
        return _run_worker(jobs, messages)
    child = os.fork()
    if child == 0:
        try:
            _check(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "prctl")
            _own_proc(libc)
            code = _run_worker(jobs, messages)
        except BaseException:
            traceback.print_exc()
            code = 1
        os._exit(code)
    os.close(jobs)
    os.close(messages)
    _, status = os.waitpid(child, 0)
    if os.WIFSIGNALED(status):   # die as the worker did, so the engine reads the same cause
        sig = os.WTERMSIG(status)
        if sig not in (signal.SIGKILL, signal.SIGSTOP):
            signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
    return os.waitstatus_to_exitcode(status)


def _fork(request: dict, fds: list[int]) -> int:
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            code = _become_worker(request, *fds)
        except BaseException:
            traceback.print_exc()
            code = 1
        os._exit(code)
    return pid


def _cuda_initialised() -> bool:
    """Whether something imported called cuInit: a forked child could then not create a context."""
    try:
        lib = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int()
    return lib.cuDeviceGetCount(ctypes.byref(count)) != _CUDA_ERROR_NOT_INITIALIZED


def _send(control: socket.socket, message: dict) -> None:
    control.send(json.dumps(message).encode())


def serve(control: socket.socket) -> None:
    """Fork a worker per request until the engine closes its end; report each one's exit status."""
    from . import worker

    worker.preload()
    gc.freeze()   # what was imported stays out of every fork's collections: no copy-on-write of its pages
    if _cuda_initialised():
        print("zygote: the CUDA driver was initialised while preloading: workers start fresh instead", flush=True)
        sys.exit(CUDA_INITIALISED)
    while True:
        ready, _, _ = select.select([control], [], [], 0.05)
        while True:   # collect the intermediates that exited
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            _send(control, {"exited": pid, "code": os.waitstatus_to_exitcode(status)})
        if not ready:
            continue
        data, fds, _, _ = socket.recv_fds(control, _MESSAGE, 3)
        if not data:
            return
        request = json.loads(data)
        try:
            if len(fds) != 3:
                raise OSError(f"expected 3 descriptors, got {len(fds)}")
            _send(control, {"spawned": request["id"], "pid": _fork(request, fds)})
        except OSError as exc:
            _send(control, {"spawned": request["id"], "error": str(exc)})
        finally:
            for fd in fds:
                os.close(fd)


def main(argv: list[str]) -> int:
    _check(_libc().prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "prctl")   # goes with the engine
    control = socket.socket(fileno=int(argv[0]))
    try:
        serve(control)
    except (BrokenPipeError, ConnectionResetError):
        pass
    return 0


# -- the engine's side --
class ZygoteGone(Exception):
    pass


class Zygote:
    """The engine's handle on a zygote: `spawn` a worker, ask after its exit status."""

    def __init__(self, env: dict[str, str], log: Path, cwd: Path):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with open(log, "wb") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", __name__, str(theirs.fileno())],
                                         pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=out,
                                         stderr=subprocess.STDOUT, env=env, cwd=str(cwd), start_new_session=True)
        theirs.close()
        self.sock = ours   # SOCK_SEQPACKET: each send and recv is one whole message, whichever thread
        self.serial = itertools.count()
        self.spawned: dict[int, int | str] = {}   # request id -> pid, or why it failed
        self.codes: dict[int, int] = {}           # pid -> exit status, as Popen.returncode gives it

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def spawn(self, env: dict[str, str], cwd: Path, fds: tuple[int, int, int]) -> Forked:
        """Ask for a worker; it is forked once the zygote has finished its imports (the answer is read
        when the worker's pid is first needed).  ZygoteGone when the zygote cannot take it."""
        request = next(self.serial)
        try:
            socket.send_fds(self.sock, [json.dumps({"id": request, "env": env, "cwd": str(cwd)}).encode()], list(fds))
        except OSError as exc:
            raise ZygoteGone(str(exc)) from None
        return Forked(self, request)

    def pump(self, until: float) -> None:
        """Read what the zygote said, waiting until `until` (monotonic) for the first message."""
        while True:
            ready, _, _ = select.select([self.sock], [], [], max(0.0, until - time.monotonic()))
            if not ready:
                return
            try:
                data = self.sock.recv(_MESSAGE, socket.MSG_DONTWAIT)
            except BlockingIOError:   # another thread took it
                continue
            except OSError:
                data = b""
            if not data:
                raise ZygoteGone("the zygote exited")
            message = json.loads(data)
            if "exited" in message:
                self.codes[message["exited"]] = message["code"]
            else:
                self.spawned[message["spawned"]] = message.get("pid") or str(message.get("error"))
            until = 0.0   # then only what is already there

    def close(self) -> None:
        self.sock.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Forked:
    """A worker the zygote forked, with what `Child` uses of a Popen: `pid`, `poll()`, `wait()`."""

    def __init__(self, zygote: Zygote, request: int):
        self.zygote, self.request = zygote, request

    @property
    def pid(self) -> int:
        """The intermediate's pid (the worker's session leader); 0 when the zygote could not fork it."""
        until = time.monotonic() + 60
        while self.request not in self.zygote.spawned and time.monotonic() < until:
            try:
                self.zygote.pump(min(until, time.monotonic() + 0.5))
            except ZygoteGone:
                break
        pid = self.zygote.spawned.get(self.request)
        return pid if isinstance(pid, int) else 0

    @property
    def returncode(self) -> int | None:
        pid = self.zygote.spawned.get(self.request)
        if not isinstance(pid, int):
            return -signal.SIGKILL if self.request in self.zygote.spawned else None
        if pid in self.zygote.codes:
            return self.zygote.codes[pid]
        if not self.zygote.alive and not os.path.exists(f"/proc/{pid}"):
            return -signal.SIGKILL   # orphaned when the zygote died, and gone since: no status to read
        return None

    def poll(self) -> int | None:
        try:
            self.zygote.pump(time.monotonic())
        except ZygoteGone:
            pass
        if self.request not in self.zygote.spawned and not self.zygote.alive:
            return -signal.SIGKILL
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        until = time.monotonic() + (timeout if timeout is not None else 1e9)
        while (code := self.poll()) is None:
            if time.monotonic() >= until:
                raise subprocess.TimeoutExpired("zygote worker", timeout or 0)
            try:
                self.zygote.pump(min(until, time.monotonic() + 0.1))
            except ZygoteGone:
                time.sleep(0.05)
        return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
