"""Sandbox for processes that run candidate code: Landlock + seccomp, applied to the calling process.

`enforce(Policy(private=DIR, ...))` applies, irreversibly and fail-closed (`SandboxUnavailable` when any
part cannot be applied; nothing is half-applied silently):

- `PR_SET_NO_NEW_PRIVS` (no setuid/file-capability gains across exec).
- Landlock (any ABI >= 1), every filesystem right of the running ABI handled: read + execute on
  `default_readable()` and `Policy.readable`; every right but making device nodes on `private`; read,
  write, truncate and ioctl on the device files CUDA uses (/dev/null, zero, full, random, urandom,
  /dev/nvidia*, /dev/dxg); listing /dev.  Nothing else is writable, and /proc is readable (CUDA
  needs more of it than any narrower grant tried on the H200), but Landlock confines ptrace, and so
  other processes' /proc/<pid>/environ, mem and maps, to the process's own domain: their command
  lines and status stay visible.  ABI >= 4: TCP bind and connect handled, none
  allowed.  ABI >= 6: scopes SIGNAL (no signal to a process outside the domain) and ABSTRACT_UNIX_SOCKET.
- seccomp (default allow, on all threads of the process: TSYNC), EPERM for: socket of every family but
  AF_UNIX (CUDA's initialisation needs one), connect (ENOENT), bind, listen, sendmsg, sendmmsg, sendto
  with an address (so a unix socket reaches nothing; socketpair stays), ptrace, process_vm_readv/writev,
  pidfd_open/getfd/send_signal, mount family, pivot_root, chroot, unshare, setns, bpf, perf_event_open,
  key syscalls, userfaultfd, io_uring, kexec, module loading, reboot, swap, clock setting, iopl/ioperm,
  syslog, open_by_handle_at, personality
  except the query, prlimit64 on another process, ioctl TIOCSTI/TIOCLINUX (typing into a terminal).
  Other architectures' system calls (32-bit int 0x80) kill the process.
- `processes=False` (workers): execve/execveat/fork/vfork and clone without CLONE_THREAD are EPERM,
  clone3 is ENOSYS (glibc falls back to clone for threads), so threads work and nothing else starts;
  kill/tgkill/rt_sigqueueinfo/rt_tgsigqueueinfo only to the process itself, tkill never (this works on
  every ABI; the Landlock signal scope is on top where it exists).
- `processes=True` (builders: nvcc, ninja, gcc must start): exec and fork allowed, signals confined by
  the Landlock scope alone, so this needs ABI >= 6 (SandboxUnavailable below).

Landlock before ABI 8 restricts the calling thread only (threads it starts later inherit the domain):
`enforce()` therefore refuses a process that already runs other threads (importing torch starts one,
creating a CUDA context several, and CUDA runs host callbacks on its own threads).  Workers call
`enforce()` first thing, before importing torch, then import it and create their context inside the
sandbox (the readable trees cover Python, torch, CUDA and the driver's /dev, /proc and /sys files).
Builders are started with `subprocess.Popen(..., preexec_fn=preexec(policy), env=scrubbed_env(...))`:
the child is single-threaded between fork and exec, and the process it execs (and its compilers)
inherit everything.  A worker that loads a built extension needs its directory in `Policy.readable`.
"""

from __future__ import annotations

import ctypes
import errno
import glob
import importlib.util
import os
import platform
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

_MACHINES = {"x86_64", "aarch64", "arm64"}        # Landlock syscalls 444-446 on both
_LANDLOCK_CREATE_RULESET, _LANDLOCK_RESTRICT_SELF = 444, 446
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1
_SCOPE_ABSTRACT_UNIX, _SCOPE_SIGNAL = 1 << 0, 1 << 1
_CLONE_THREAD = 0x00010000
_TIOCSTI, _TIOCLINUX = 0x5412, 0x541C
_AF_UNIX = 1


@dataclass(frozen=True)
class Policy:
    private: Path                       # the only tree it may write (created by the caller)
    readable: tuple[Path, ...] = ()     # read-only trees on top of default_readable()
    processes: bool = False             # True for builders; False for workers: threads only


class SandboxUnavailable(RuntimeError):
    """The kernel or the libraries cannot enforce some part of the policy."""


def _existing(paths) -> list[Path]:
    seen: dict[Path, None] = {}
    for p in paths:
        p = Path(p)
        if p.exists():
            seen.setdefault(p, None)
    return list(seen)


def _sensitive(p: Path) -> bool:
    """A sys.path entry that would open a home directory or the whole tree (e.g. the cwd of `-m`)."""
    try:
        p = p.resolve()
        home = Path.home().resolve()
    except (OSError, RuntimeError):
        return True
    return p in {Path("/"), Path("/root"), Path("/home"), home} or home.is_relative_to(p)


def default_readable() -> list[Path]:
    """Trees Python, torch, CUDA and the compilers read.  Not /etc/passwd or shadow, /root, /home, /tmp."""
    paths: list[Path | str] = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
                               Path(__file__).resolve().parents[2]]
    paths += [Path(e) for e in sys.path if e and e != os.curdir and not _sensitive(Path(e))]
    spec = importlib.util.find_spec("torch")
    if spec and spec.origin:
        paths.append(Path(spec.origin).parent)
    paths += [os.environ[v] for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)]
    paths += sorted(glob.glob("/usr/local/cuda*"))
    paths += ["/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/opt"]
    paths += ["/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives", "/etc/localtime",
              "/etc/nsswitch.conf", "/etc/nvidia", "/etc/OpenCL"]
    paths += ["/sys/devices", "/sys/bus", "/sys/class", "/sys/module", "/sys/fs/cgroup", "/sys/kernel/mm"]
    # all of /proc: CUDA fails to start (error 304) with any narrower grant tried on the H200, and
    # builders list it to kill their compilers.  Other processes' environ, mem and maps stay closed:
    # they need ptrace access, which Landlock denies outside the domain (self-test: /proc/1/environ).
    paths += ["/proc"]
    return [p for p in _existing(paths) if not _sensitive(p)]


def _devices() -> list[Path]:
    return _existing(["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/dxg",
                      *sorted(glob.glob("/dev/nvidia*"))])


# the engine's own settings a sandboxed process reads; any other CUDAPERF_* value stays outside
_CUDAPERF_SETTINGS = ("CUDAPERF_DEVICE", "CUDAPERF_EXT_ROOT", "CUDAPERF_CACHE_DIR", "CUDAPERF_GPU_MEMORY_FRACTION")


def own_pid_namespace() -> list[str]:
    """A command prefix that starts the sandboxed process in a PID namespace of its own with its own /proc
    (util-linux `unshare`; a user namespace too when not root): it sees no other process, so no other
    process's environment, command line or memory map, and none outlives it (`--kill-child`).  Landlock
    alone leaves a parent's /proc/<pid>/environ readable to a same-user child.  SandboxUnavailable when
    `unshare` is missing."""
    import shutil

    unshare = shutil.which("unshare")
    if unshare is None:
        raise SandboxUnavailable("util-linux unshare not found: no PID namespace for the sandboxed process")
    user = [] if os.geteuid() == 0 else ["--user", "--map-root-user"]
    return [unshare, *user, "--pid", "--fork", "--mount-proc", "--kill-child"]


def scrubbed_env(private: Path, keep: Mapping[str, str] = {}) -> dict[str, str]:
    """A minimal environment: no tokens, no user values; toolchain and GPU settings from os.environ."""
    names = ("PATH", "CUDA_VISIBLE_DEVICES", "CUDA_HOME", "CUDA_PATH", "LD_LIBRARY_PATH", "TORCH_CUDA_ARCH_LIST",
             "MAX_JOBS", "PYTHONPATH", "CXX", "CC")
    env = {k: os.environ[k] for k in names if k in os.environ}
    env.update({k: os.environ[k] for k in _CUDAPERF_SETTINGS if k in os.environ})
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    # USER and LOGNAME: getpass.getuser() (torch's cache paths) falls back to the password database,
    # which the sandbox does not let a worker read (KeyError on the H200)
    env.update(LANG="C.UTF-8", LC_ALL="C.UTF-8", HOME=str(private), TMPDIR=str(private), USER="cudaperf",
               LOGNAME="cudaperf",
               PYTHONDONTWRITEBYTECODE="1", PYTHONUNBUFFERED="1")
    env.update(keep)
    return env


# ---- Landlock (the landlock package for FS rules; ctypes for the ruleset's net and scope fields)

class _RulesetAttr(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


def _landlock_abi() -> int:
    """The running Landlock ABI, 0 when there is none."""
    if platform.machine() not in _MACHINES:
        return 0
    try:
        from landlock.plumbing import landlock_abi_version
    except ImportError:
        return 0
    try:
        return int(landlock_abi_version())
    except OSError:
        return 0


def _seccomp_ok() -> bool:
    try:
        import pyseccomp
        pyseccomp.SyscallFilter(pyseccomp.ALLOW)
    except (ImportError, OSError, AttributeError):
        return False
    return True


def status() -> dict:
    """What this kernel and these libraries can enforce; enforces nothing."""
    abi = _landlock_abi()
    return {"landlock_abi": abi, "landlock": abi >= 1, "network_rules": abi >= 4, "ioctl_rules": abi >= 5,
            "scopes": abi >= 6, "seccomp": _seccomp_ok(), "machine": platform.machine(),
            "kernel": platform.release()}


def _fs_rights(abi: int):
    from landlock.plumbing import FSAccess

    rights = FSAccess.EXECUTE | FSAccess.WRITE_FILE | FSAccess.READ_FILE | FSAccess.READ_DIR
    for flag in ("REMOVE_DIR", "REMOVE_FILE", "MAKE_CHAR", "MAKE_DIR", "MAKE_REG", "MAKE_SOCK", "MAKE_FIFO",
                 "MAKE_BLOCK", "MAKE_SYM"):
        rights |= FSAccess[flag]
    if abi >= 2:
        rights |= FSAccess.REFER
    if abi >= 3:
        rights |= FSAccess.TRUNCATE
    if abi >= 5:
        rights |= FSAccess.IOCTL_DEV
    file_only = rights & (FSAccess.EXECUTE | FSAccess.WRITE_FILE | FSAccess.READ_FILE | FSAccess.TRUNCATE
                          | FSAccess.IOCTL_DEV)
    read = FSAccess.EXECUTE | FSAccess.READ_FILE | FSAccess.READ_DIR
    device = rights & (FSAccess.READ_FILE | FSAccess.WRITE_FILE | FSAccess.TRUNCATE | FSAccess.IOCTL_DEV
                       | FSAccess.READ_DIR)
    private = rights & ~(FSAccess.MAKE_CHAR | FSAccess.MAKE_BLOCK | FSAccess.IOCTL_DEV)
    return rights, file_only, read, device, private


def _rules(policy: Policy, abi: int, pid: int) -> list[tuple[str, int]]:
    from landlock.plumbing import FSAccess

    _, _, read, device, private = _fs_rights(abi)
    own = [f"/proc/{pid}"]
    rules = [(str(p), read) for p in [*default_readable(), *_existing(policy.readable), *_existing(own)]]
    rules += [(str(p), device) for p in _devices()]
    rules += [("/dev", FSAccess.READ_DIR), (str(policy.private), private)]
    return rules


def _landlock(policy: Policy, abi: int, rules: list[tuple[str, int]]) -> dict:
    from landlock.plumbing import PathBeneathAttr, get_add_rule, get_libc, get_restrict_self

    handled, file_only, *_ = _fs_rights(abi)
    attr = _RulesetAttr(int(handled), _NET_BIND_TCP | _NET_CONNECT_TCP if abi >= 4 else 0,
                        _SCOPE_ABSTRACT_UNIX | _SCOPE_SIGNAL if abi >= 6 else 0)
    size = 8 if abi < 4 else 16 if abi < 6 else 24
    syscall = get_libc().syscall
    syscall.restype = ctypes.c_long
    fd = syscall(ctypes.c_long(_LANDLOCK_CREATE_RULESET), ctypes.byref(attr), ctypes.c_size_t(size),
                 ctypes.c_uint32(0))
    if fd < 0:
        raise SandboxUnavailable(f"landlock_create_ruleset failed: {os.strerror(ctypes.get_errno())}")
    try:
        add_rule = get_add_rule()
        for path, rights in rules:
            try:
                target = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue                                    # vanished since it was listed: nothing to allow
            try:
                if not os.path.isdir(f"/proc/self/fd/{target}"):
                    rights &= file_only
                add_rule(fd, 1, ctypes.byref(PathBeneathAttr(int(rights), target)), 0)
            finally:
                os.close(target)
        if not os.path.exists(policy.private):
            raise SandboxUnavailable(f"private directory {policy.private} does not exist")
        get_restrict_self()(fd, 0)
    finally:
        os.close(fd)
    return {"filesystem": f"Landlock ABI {abi}: read-only {len(rules)} trees, writes only under {policy.private}",
            "network": "Landlock: no TCP bind/connect" if abi >= 4 else "Landlock: no network rules (ABI < 4)",
            "scopes": "signals and abstract unix sockets confined to the domain" if abi >= 6 else "none (ABI < 6)"}


# ---- seccomp

_DENY_ALWAYS = ("ptrace", "process_vm_readv", "process_vm_writev", "pidfd_open", "pidfd_getfd",
                "pidfd_send_signal", "mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "bpf",
                "perf_event_open", "keyctl", "add_key", "request_key", "userfaultfd", "io_uring_setup",
                "io_uring_enter", "io_uring_register", "kexec_load", "kexec_file_load", "init_module",
                "finit_module", "delete_module", "reboot", "swapon", "swapoff", "acct", "settimeofday",
                "clock_settime", "clock_adjtime", "sethostname", "setdomainname", "iopl", "ioperm", "syslog",
                "open_by_handle_at", "name_to_handle_at", "fanotify_init", "quotactl", "move_mount",
                "open_tree", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr", "lookup_dcookie",
                "vhangup", "nfsservctl")
_DENY_NO_PROCESSES = ("execve", "execveat", "fork", "vfork", "tkill")


def _seccomp(policy: Policy, pid: int) -> str:
    import pyseccomp as sc

    flt = sc.SyscallFilter(sc.ALLOW)
    flt.set_attr(sc.Attr.CTL_TSYNC, 1)
    eperm = sc.ERRNO(errno.EPERM)
    names = list(_DENY_ALWAYS) + (list(_DENY_NO_PROCESSES) if not policy.processes else [])
    for name in names:
        try:
            flt.add_rule(eperm, name)
        except (OSError, ValueError) as exc:     # a name unknown to this libseccomp or architecture
            if name in {"fork", "vfork"} and platform.machine() != "x86_64":
                continue                         # aarch64 has neither: clone covers them
            if name in {"ioperm", "iopl"} and platform.machine() != "x86_64":
                continue
            raise SandboxUnavailable(f"seccomp: cannot add a rule for {name}: {exc}") from None
    # CUDA's initialisation fails unless socket(AF_UNIX) succeeds (it then tries nvidia-persistenced's
    # socket): AF_UNIX sockets may be made, but never connected (ENOENT, as if the path did not exist),
    # bound, listened on or sent to an address; every other family is EPERM.
    flt.add_rule(eperm, "socket", sc.Arg(0, sc.NE, _AF_UNIX))
    flt.add_rule(sc.ERRNO(errno.ENOENT), "connect")
    for name in ("bind", "listen", "sendmsg", "sendmmsg"):
        flt.add_rule(eperm, name)
    flt.add_rule(eperm, "sendto", sc.Arg(4, sc.NE, 0))
    flt.add_rule(eperm, "personality", sc.Arg(0, sc.NE, 0xFFFFFFFF))
    flt.add_rule(eperm, "prlimit64", sc.Arg(0, sc.NE, 0))
    flt.add_rule(eperm, "ioctl", sc.Arg(1, sc.EQ, _TIOCSTI))
    flt.add_rule(eperm, "ioctl", sc.Arg(1, sc.EQ, _TIOCLINUX))
    if not policy.processes:
        flt.add_rule(eperm, "clone", sc.Arg(0, sc.MASKED_EQ, _CLONE_THREAD, 0))
        flt.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
        for name in ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo"):
            flt.add_rule(eperm, name, sc.Arg(0, sc.NE, pid))
    flt.load()
    return ("no network (AF_UNIX sockets only, never connected or bound); no ptrace, namespaces, mounts, bpf, "
            "perf, io_uring, module/kexec/reboot" +
            ("; no exec, fork or processes (threads only); signals only to itself" if not policy.processes
             else ""))


def _check(policy: Policy, st: dict) -> None:
    if not st["landlock"]:
        raise SandboxUnavailable(f"Landlock unavailable on {st['machine']} kernel {st['kernel']} "
                                 f"(needs Linux >= 5.13 with landlock in lsm=, and the landlock package)")
    if not st["seccomp"]:
        raise SandboxUnavailable("seccomp unavailable (needs libseccomp.so.2 and the pyseccomp package)")
    if policy.processes and not st["scopes"]:
        raise SandboxUnavailable(f"Landlock ABI {st['landlock_abi']} < 6 cannot confine the signals of a "
                                 f"policy that starts processes")


def _threads() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 0


def enforce(policy: Policy, running_threads: bool = False) -> dict:
    """Sandbox the calling process, irreversibly; SandboxUnavailable (nothing applied) when it cannot.
    `running_threads`: accept threads started before (CUDA's, in a worker that had to create its context
    first: CUDA's initialisation fails inside the sandbox on the H200); they get the seccomp filter
    (TSYNC) but not Landlock, which the report says."""
    st = status()
    _check(policy, st)
    if (n := _threads()) != 1 and running_threads:
        report = _apply(policy, st, os.getpid(), _rules(policy, st["landlock_abi"], os.getpid()))
        report["filesystem"] += f"; {n - 1} thread(s) started before the sandbox keep seccomp only"
        return report
    if n != 1:
        raise SandboxUnavailable(f"{n} threads already run; Landlock ABI {st['landlock_abi']} confines only the "
                                 f"calling thread: call enforce() before importing torch or starting threads")
    pid = os.getpid()
    return _apply(policy, st, pid, _rules(policy, st["landlock_abi"], pid))


def _apply(policy: Policy, st: dict, pid: int, rules: list[tuple[str, int]]) -> dict:
    from landlock.plumbing import get_prctl

    try:
        get_prctl()(38, 1, 0, 0, 0)                         # PR_SET_NO_NEW_PRIVS
        report = _landlock(policy, st["landlock_abi"], rules)
        seccomp = _seccomp(policy, pid)
    except OSError as exc:
        raise SandboxUnavailable(f"sandbox not applied: {str(exc).splitlines()[0]}") from None
    signals = ("seccomp: only to itself" if not policy.processes else "") + \
              ("; Landlock scope: none outside the domain" if st["scopes"] else "")
    return {"landlock_abi": st["landlock_abi"], **report, "signals": signals.strip("; "), "seccomp": seccomp,
            "processes": "threads only" if not policy.processes else "exec and fork allowed (builders)",
            "no_new_privs": True}


def preexec(policy: Policy) -> Callable[[], None]:
    """A Popen preexec_fn that sandboxes the child before it execs (builders: processes=True).

    Checks the kernel and lists the paths in the parent (SandboxUnavailable there, with the reason,
    rather than Popen's bare "Exception occurred in preexec_fn"); the child only makes system calls.
    Workers cannot be started this way with processes=False (the child could not exec Python): they
    call enforce() first thing themselves.
    """
    if not policy.processes:
        raise ValueError("preexec() needs Policy(processes=True): without it the child cannot exec")
    st = status()
    _check(policy, st)
    rules = _rules(policy, st["landlock_abi"], 0)
    rules = [r for r in rules if r[0] != "/proc/0"]

    def child() -> None:
        pid = os.getpid()
        _apply(policy, st, pid, [*rules, (f"/proc/{pid}", _fs_rights(st["landlock_abi"])[2])])

    return child
