"""A load_inline whose arguments the gate cannot read ahead (built inside a helper function): the
sandboxed worker cannot compile, so it asks the engine, which checks the flags against the gate's
allowlist and builds in a sandboxed builder.  CPU test mode, C++ only (the CPU build of torch links
it).  Needs torch and the sandbox libraries."""

from __future__ import annotations

import os
import textwrap

import pytest

from cudaperf.rewards.execution.api import Evaluator, Options
from cudaperf.rewards.execution.formats import candidate_from_source, task_from_source

pytest.importorskip("torch")
pytest.importorskip("pyseccomp")
pytest.importorskip("landlock")
pytestmark = pytest.mark.torch

REFERENCE = textwrap.dedent('''
    import torch, torch.nn as nn
    class Model(nn.Module):
        def forward(self, a, b):
            return 2.0 * a + b
    def get_inputs():
        return [torch.randn(1024), torch.randn(1024)]
    def get_init_inputs():
        return []
''')

CANDIDATE = textwrap.dedent('''
    import torch, torch.nn as nn
    from torch.utils.cpp_extension import load_inline

    SOURCE = """
    torch::Tensor scale_add(torch::Tensor a, torch::Tensor b) {
        auto out = torch::empty_like(a);
        auto pa = a.data_ptr<float>(); auto pb = b.data_ptr<float>(); auto po = out.data_ptr<float>();
        for (int64_t i = 0; i < a.numel(); ++i) po[i] = 2.0f * pa[i] + pb[i];
        return out;
    }
    """

    def build(name, flags):
        return load_inline(name=name, cpp_sources=SOURCE, functions=["scale_add"], extra_cflags=flags)

    class ModelNew(nn.Module):
        def __init__(self):
            super().__init__()
            self.ext = build("cudaperf_requested_FLAGNAME", [FLAGS])
        def forward(self, a, b):
            return self.ext.scale_add(a, b)
''')


def _candidate(flags: str, name: str):
    source = CANDIDATE.replace("FLAGS", flags).replace("FLAGNAME", name)
    return candidate_from_source(source, "python", path=f"{name}.py")


@pytest.fixture(autouse=True)
def _cache(tmp_path):
    os.environ["CUDAPERF_CACHE_DIR"] = str(tmp_path / "cache")


def test_a_requested_build_with_a_flag_outside_the_allowlist_is_refused():
    task = task_from_source(REFERENCE, "torch")
    with Evaluator(Options(device="cpu", gate=False, time=False, trials=1)) as evaluator:
        result = evaluator.evaluate(task, _candidate("'-fplugin=/tmp/evil.so'", "plugin"))
    assert result.status == "compile_error", result
    assert "build-flags" in result.reason and "-fplugin" in result.reason


@pytest.mark.slow
def test_a_load_inline_the_gate_could_not_read_ahead_is_built_on_request():
    task = task_from_source(REFERENCE, "torch")
    with Evaluator(Options(device="cpu", gate=False, time=False, trials=2, compile_timeout=300)) as evaluator:
        result = evaluator.evaluate(task, _candidate("'-O2'", "honest"))
    assert result.status == "correct", result
    assert any("not literals" in line for line in result.log)
