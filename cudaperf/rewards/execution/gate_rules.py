"""The gate's rules and what a check finds (`Violation`), apart from the checks themselves: gate.py and
the scanners it runs (gate_cuda, gate_python, gate_flags) all import them from here."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    name: str
    severity: str   # reject | flag
    hack: str       # what it defends against
    fix: str


RULES = {r.name: r for r in [
    Rule("missing-modelnew", "reject", "harness contract", "define class ModelNew(nn.Module)"),
    Rule("no-cuda-kernel", "reject", "16: PyTorch instead of a kernel", "write at least one __global__ kernel"),
    Rule("decoy-kernel", "reject", "16: kernel defined but never launched",
         "launch the kernels you define and call the compiled extension from forward"),
    Rule("torch-op", "reject", "16: calling the operator the kernel should replace",
         "compute the task's operations in your own kernels; torch may only allocate, reshape, and finish "
         "small tails on your kernels' results"),
    Rule("library-call", "reject", "16: cuBLAS/cuDNN instead of a kernel", "write the kernel"),
    Rule("inherits-reference", "reject", "16: inheriting or calling the reference", "do not use Model"),
    Rule("try-fallback", "reject", "16: try/except falling back to PyTorch", "let errors propagate"),
    Rule("side-stream", "reject", "1: work on a stream the timer does not see", "use the current stream"),
    Rule("cuda-graph", "reject", "6, 7: graph capture skipping or batching work", "launch kernels directly"),
    Rule("threads", "reject", "2: work continuing after the timed call", "no threads, processes or host callbacks"),
    Rule("monkey-patch", "reject", "3: patching timers, torch or the harness", "assign only to your own names"),
    Rule("precision-flags", "reject", "15: enabling TF32 or lower precision globally",
         "leave torch.backends and default dtypes alone"),
    Rule("persisting-l2", "reject", "5: persisting-L2 carveout keeping inputs warm", "do not set access policies"),
    Rule("result-cache", "reject", "8: caching results across calls",
         "keep no state between calls; use local variables or scratch buffers from the launch spec"),
    Rule("device-global-state", "reject", "8: mutable __device__ globals surviving across launches",
         "use a scratch buffer (launch spec 'buffers') or __constant__ data"),
    Rule("lazy-output", "reject", "9: tensor subclasses computing inside the checker", "return plain tensors"),
    Rule("harness-override", "reject", "14, 17: redefining get_inputs, get_init_inputs or Model",
         "define only ModelNew and helpers"),
    Rule("signature-change", "reject", "14: different init arguments than the reference",
         "ModelNew.__init__ takes exactly the arguments of Model.__init__"),
    Rule("dynamic-code", "reject", "17: code the gate cannot read (eval, exec, getattr tricks)",
         "write plain code"),
    Rule("process-escape", "reject", "17: subprocesses, ctypes, sockets, signals", "no system access"),
    Rule("file-access", "reject", "8, 17: reading or writing files (harness edits, replayed outputs)",
         "no file access"),
    Rule("torch-compiler", "reject", "16: torch.compile / TorchScript instead of a kernel", "write the kernel"),
    Rule("launch-spec", "reject", "14: a launch spec that cannot be honoured", "fix the launch spec"),
    Rule("build-flags", "reject", "17: compiler or linker flags that run programs or swap the toolchain",
         "pass only optimisation, -D/-U, -std, warning and nvcc code-generation flags, as literal lists"),
    Rule("precision-downgrade", "flag", "15: lower-precision arithmetic than the reference",
         "keep the reference's precision unless the task allows otherwise"),
    Rule("unlaunched-kernel", "flag", "16: some kernels are never launched", "remove dead kernels"),
    Rule("torch-tail", "flag", "16: torch finishing part of the work (the worker measures how much)",
         "keep torch to small tails: own kernels must do at least 80% of the GPU time (torch-fallback)"),
]}


@dataclass(frozen=True)
class Violation:
    rule: str
    line: int
    message: str

    @property
    def severity(self) -> str:
        return RULES[self.rule].severity

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"
