"""The static gate: rules a candidate must pass before anything is compiled or run, on the CPU.

Each rule names the hack it stops (numbers refer to shared/reference/reward-hacking.md).  Rules of
severity `reject` fail the candidate with status `rejected`; `flag` rules only annotate the result
(the runtime checks decide).  Python candidates are read with `ast`; CUDA sources (native candidates
and the CUDA strings of KernelBench candidates) with a comment- and string-blind scanner.
"""

from __future__ import annotations

from . import gate_cuda, gate_python
from .formats import Candidate, Task
from .gate_rules import RULES, Violation


def check(candidate: Candidate, task: Task | None = None) -> list[Violation]:
    """Every violation, rejecting ones first, each at most once per (rule, line).  Python syntax errors
    are not violations: they surface as `compile_error` (see api)."""
    if candidate.kind == "python":
        found = gate_python.check(candidate.source, task.source if task and task.kind == "torch" else None)
    else:
        names = None
        if task is not None and task.harness is not None:
            names = {a.name for a in task.harness.args}
        elif candidate.spec is not None and candidate.spec.inputs:
            names = set()  # the spec binds every name itself (inputs, init, params, buffers)
        found = gate_cuda.check_native(candidate, task.source if task else "", names)
    unique = list(dict.fromkeys(found))
    return sorted(unique, key=lambda v: (RULES[v.rule].severity != "reject", v.line))
