"""KernelBench-style tasks with candidates written the way language models write them: a Python
module whose `ModelNew` calls a `load_inline` extension (a C++ wrapper computing grid and block from
tensor sizes, one or several kernels), sometimes leaving part of the work to torch (a "torch tail")
or fusing only part of it.  The tasks' sizes are upper-case module globals of the reference; each
configuration assigns them.  Measured on the H200 by `measure_styles`; ranked by
`cudaperf.costmodel.candidates`."""

from __future__ import annotations

from dataclasses import dataclass, field

from ....costmodel.trace import configured  # noqa: F401  (the reference with a configuration's sizes assigned)

SCHEMA = "cudaperf.styles/1"


@dataclass(frozen=True)
class Candidate:
    cand_id: str
    tags: tuple[str, ...]
    source: str


@dataclass(frozen=True)
class StyleTask:
    task_id: str                       # family/name
    reference: str                     # KernelBench module (Model, get_inputs, get_init_inputs)
    configs: tuple[dict, ...]          # {config_id, sizes: {GLOBAL: value}}
    candidates: tuple[Candidate, ...] = field(default_factory=tuple)

    @property
    def family(self) -> str:
        return self.task_id.split("/", 1)[0]


HEAD = '''import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

'''


def candidate(name: str, cuda: str, functions: list[str], model: str, signatures: str | None = None) -> str:
    """A candidate module as models write them: the CUDA text, the C++ declarations, one load_inline
    call and the ModelNew class (`model`, calling `ext.<function>`)."""
    decls = signatures if signatures is not None else "\n".join(_declarations(cuda, functions))
    return (HEAD + f'cuda_source = r"""\n{cuda.strip()}\n"""\n\ncpp_source = """\n{decls}\n"""\n\n'
            f'ext = load_inline(\n    name="{name}",\n    cpp_sources=cpp_source,\n    cuda_sources=cuda_source,\n'
            f'    functions={functions!r},\n    verbose=False,\n)\n\n\n{model.strip()}\n')


def _declarations(cuda: str, functions: list[str]) -> list[str]:
    import re

    found = []
    for fn in functions:
        m = re.search(r"^(torch::Tensor\s+" + fn + r"\s*\([^)]*\))\s*\{", cuda, re.M)
        if m is None:
            raise ValueError(f"no wrapper {fn} in the CUDA text")
        found.append(" ".join(m.group(1).split()) + ";")
    return found


def all_tasks() -> list[StyleTask]:
    from . import gemm, more, pointwise, rows, spatial

    return [t for module in (pointwise, rows, gemm, spatial, more) for t in module.TASKS]
