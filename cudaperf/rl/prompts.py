"""Prompt templates: what a model is asked for each task kind, and how feedback is phrased on the
next turn.  The answer formats are the engine's (docs/eval.md): native CUDA with a launch spec, or
a KernelBench `ModelNew` module."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SYSTEM = ("You are an expert CUDA performance engineer. You write correct, fast CUDA kernels: coalesced global "
          "memory access, shared memory without bank conflicts, enough parallelism to fill the GPU, and no races.")

_NATIVE_EXAMPLE = """```cuda
/* cudaperf:launch
{"inputs": ["a", "b"], "init": ["alpha"], "outputs": [{"name": "out", "like": "a"}],
 "launches": [{"kernel": "scale_add", "grid": "cdiv(a.numel, 256)", "block": 256,
               "args": ["a", "b", "out", "float32(alpha)", "int32(a.numel)"]}]}
*/
extern "C" __global__ void scale_add(const float* a, const float* b, float* out, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = alpha * a[i] + b[i];
}
```"""

_NATIVE = """Write CUDA kernels that compute the same result as this PyTorch module.

```python
{reference}
```

Answer with one ```cuda block of `extern "C" __global__` kernels that starts with a launch spec in a
`/* cudaperf:launch {{...}} */` comment: `inputs` names forward()'s arguments in order, `init` the
constructor's arguments, `outputs` the result tensors (`{{"name": ..., "like": INPUT}}`, or `shape` and
`dtype`), and `launches` the kernel launches in order, with `grid` and `block` as expressions of the
inputs (`x.numel`, `x.shape[i]`, `cdiv(a, b)`) and `args` naming tensors or typed scalars
(`float32(alpha)`, `int32(x.numel)`). For example, for `alpha * a + b`:

{example}"""

_KERNELBENCH = """Write a faster version of this PyTorch module with custom CUDA kernels.

```python
{reference}
```

Answer with one ```python block defining `class ModelNew(nn.Module)` with the same constructor and
forward() arguments as `Model`. Build the kernels with `torch.utils.cpp_extension.load_inline` and launch
them from forward(); do not call the PyTorch operators you replace."""

_C2CUDA = """Port this C function to CUDA.

```c
{reference}
```

Answer with one ```cuda block of `extern "C" __global__` kernels that starts with a launch spec in a
`/* cudaperf:launch {{...}} */` comment whose `launches` give `kernel`, `grid` and `block` as expressions
of the C function's scalar arguments (`cdiv(n, 256)`), and `args` in the kernel's parameter order using
the C function's argument names. For example, for `void saxpy(int n, float a, const float* x, float* y)`:

```cuda
/* cudaperf:launch
{{"launches": [{{"kernel": "saxpy", "grid": "cdiv(n, 256)", "block": 256, "args": ["n", "a", "x", "y"]}}]}}
*/
extern "C" __global__ void saxpy(int n, float a, const float* x, float* y) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}}
```"""

FEEDBACK = """Your answer was evaluated.

{feedback}

Write an improved, complete answer in the same format."""

FORMATS = ("native", "kernelbench")


def task_prompt(task: Mapping[str, Any], answer_format: str = "native") -> str:
    """The user message for one task (dataset columns `kind` and `reference`)."""
    kind, reference = task["kind"], task["reference"].strip()
    if kind in ("c2cuda", "c"):
        return _C2CUDA.format(reference=reference)
    if kind not in ("torch2cuda", "torch"):
        raise ValueError(f"task kind must be torch2cuda or c2cuda, got {kind!r}")
    if answer_format not in FORMATS:
        raise ValueError(f"answer format must be one of {', '.join(FORMATS)}, got {answer_format!r}")
    if answer_format == "kernelbench":
        return _KERNELBENCH.format(reference=reference)
    return _NATIVE.format(reference=reference, example=_NATIVE_EXAMPLE)


def messages(task: Mapping[str, Any], answer_format: str = "native") -> list[dict[str, str]]:
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": task_prompt(task, answer_format)}]


def feedback_message(feedback: str) -> dict[str, str]:
    return {"role": "user", "content": FEEDBACK.format(feedback=feedback)}


def plain_text(conversation: list[dict[str, str]]) -> str:
    """A conversation as text, for models without a chat template (ends where the answer begins)."""
    parts = [f"{m['role'].capitalize()}: {m['content']}" for m in conversation if m["role"] != "system"]
    system = [m["content"] for m in conversation if m["role"] == "system"]
    return "\n\n".join([*system, *parts, "Assistant:"])
