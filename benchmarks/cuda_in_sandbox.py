"""Whether CUDA starts inside the worker sandbox, in ten configurations (with or without the PID
namespace, Landlock, seccomp, the socket rules): the experiment behind the GPU worker creating its
context before it locks in (docs/eval.md, Sandbox).  Run on a GPU machine:

    python benchmarks/cuda_in_sandbox.py

H200, 2026-12-02: CUDA started without enforce() (with or without the namespace); every configuration
with enforce() failed with error 304, also with Landlock or seccomp left out alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from cudaperf.rewards.execution import sandbox

CHILD = r'''
import json, os, sys
from pathlib import Path
mode = sys.argv[1]
if "enforce" in mode:
    import pyseccomp
    original = pyseccomp.SyscallFilter.add_rule
    def add_rule(self, action, name, *args):
        if "connect" in mode and name in ("connect", "bind", "listen", "sendmsg", "sendmmsg", "sendto"):
            return None
        return original(self, action, name, *args)
    pyseccomp.SyscallFilter.add_rule = add_rule
    from cudaperf.rewards.execution import sandbox
    if "noseccomp" in mode:
        sandbox._seccomp = lambda policy, pid: "off"
    if "nolandlock" in mode:
        sandbox._landlock = lambda policy, abi, rules: {}
    sandbox.enforce(sandbox.Policy(private=Path(os.environ["HOME"])))
import torch
try:
    torch.zeros(1, device="cuda")
    print(json.dumps({"mode": mode, "cuda": True}))
except Exception as exc:
    print(json.dumps({"mode": mode, "cuda": False, "error": str(exc)[:300]}))
'''

MODES = ["plain", "ns", "enforce", "ns-enforce", "ns-enforce-connect", "enforce-connect", "ns-enforce-noseccomp",
         "ns-enforce-nolandlock", "enforce-noseccomp", "enforce-nolandlock"]


def main() -> None:
    namespace = sandbox.own_pid_namespace()
    for mode in MODES:
        private = Path(f"/tmp/cuda-in-sandbox-{mode}")
        private.mkdir(exist_ok=True)
        env = sandbox.scrubbed_env(private, {"PYTHONPATH": os.environ.get("PYTHONPATH", "")})
        prefix = namespace if mode.startswith("ns") else []
        done = subprocess.run([*prefix, sys.executable, "-c", CHILD, mode], env=env, capture_output=True, text=True,
                              timeout=60, cwd=private)
        print(mode, done.stdout.strip()[-400:], done.stderr.strip().splitlines()[-1:] if done.returncode else "",
              flush=True)


if __name__ == "__main__":
    main()
