"""The static gate on the hack corpus (tests/hacks): every statically detectable hack is rejected by
the rule its file names, every honest candidate passes.  No torch, no GPU."""

from __future__ import annotations

from pathlib import Path

import pytest

from cudaperf.rewards.execution import gate, gate_cuda, gate_python
from cudaperf.rewards.execution.formats import candidate_from_source, load_candidate, load_task

HACKS = Path(__file__).parent / "hacks"
REFERENCE = load_task(HACKS / "reference.py")
SCALE_ADD = load_task(Path(__file__).parents[1] / "examples" / "eval" / "scale_add" / "reference.py")


def _expected(path: Path) -> str | None:
    first = path.read_text().splitlines()[0]
    return first.split(":", 1)[1].strip() if "expect:" in first else None


def _rejecting(path: Path, task) -> set[str]:
    return {v.rule for v in gate.check(load_candidate(path), task) if v.severity == "reject"}


PY_CASES = sorted(p for p in HACKS.glob("*.py") if p.name != "reference.py")
CU_CASES = sorted((HACKS / "native").glob("*.cu"))


@pytest.mark.parametrize("path", [p for p in PY_CASES if _expected(p)], ids=lambda p: p.stem)
def test_python_hack_is_rejected_by_its_rule(path):
    assert _expected(path) in _rejecting(path, REFERENCE)


@pytest.mark.parametrize("path", [p for p in PY_CASES if not _expected(p)], ids=lambda p: p.stem)
def test_honest_python_candidate_passes(path):
    assert _rejecting(path, REFERENCE) == set()


@pytest.mark.parametrize("path", [p for p in CU_CASES if _expected(p)], ids=lambda p: p.stem)
def test_native_hack_is_rejected_by_its_rule(path):
    assert _expected(path) in _rejecting(path, SCALE_ADD)


@pytest.mark.parametrize("path", [p for p in CU_CASES if not _expected(p)]
                         + sorted((Path(__file__).parents[1] / "examples" / "eval").rglob("candidate*")),
                         ids=lambda p: p.stem)
def test_honest_examples_pass(path):
    task = load_task(path.parent / "reference.c") if (path.parent / "reference.c").exists() else SCALE_ADD
    assert _rejecting(path, task) == set()


def test_corpus_covers_every_rejecting_rule():
    """Each rule of severity reject is exercised by at least one adversarial file."""
    covered = {_expected(p) for p in [*PY_CASES, *CU_CASES]}
    missing = {r.name for r in gate.RULES.values() if r.severity == "reject"} - covered
    assert missing == set()


def test_comments_and_strings_do_not_fire():
    code = '// cudaStreamCreate(&s); std::thread t;\n/* cublasSgemm( */\nprintf("torch::matmul(");\n'
    assert gate_cuda.scan(code) == []


def test_line_numbers_point_into_the_python_file():
    source = (HACKS / "side_stream_cpp.py").read_text()
    line = next(v.line for v in gate.check(candidate_from_source(source), REFERENCE) if v.rule == "side-stream")
    assert "cudaStreamCreate" in source.splitlines()[line - 1]


def test_precision_downgrade_is_a_flag_not_a_rejection():
    path = HACKS / "runtime" / "native_half.cu"
    found = gate.check(load_candidate(path), SCALE_ADD)
    assert {v.rule for v in found} == {"precision-downgrade"}
    assert all(v.severity == "flag" for v in found)


def test_low_precision_is_fine_when_the_reference_uses_it():
    half_task = load_task(HACKS / "reference.py")
    text = half_task.source.replace("torch.randn(64, 256)", "torch.randn(64, 256, dtype=torch.float16)")
    found = gate_cuda.scan("__half x;", reference=text)
    assert found == []


def test_unlaunched_kernel_beside_launched_ones_is_only_flagged():
    code = (HACKS / "honest_linear_relu.py").read_text().replace(
        "torch::Tensor linear_relu(", "__global__ void spare(float* p) { p[0] = 0; }\n\ntorch::Tensor linear_relu(", 1)
    found = gate.check(candidate_from_source(code), REFERENCE)
    assert [v.rule for v in found] == ["unlaunched-kernel"]


def test_kernel_names_come_from_all_strings():
    source = (HACKS / "honest_two_kernels.py").read_text()
    import ast

    names = {n for text, _ in gate_python.cuda_strings(ast.parse(source))
             for n in gate_cuda.kernels(gate_cuda.blank(text))}
    assert names == {"matmul_bias", "relu_inplace"}


@pytest.mark.parametrize("head", ["__launch_bounds__(512) ", "__launch_bounds__(256, 2)\n",
                                  "__launch_bounds__((BM * BN) / TM)\n", "__launch_bounds__(((BM * BN) / TM), (2))\n",
                                  "__cluster_dims__(8, 1, 1) ", "__launch_bounds__(256) __cluster_dims__(2, 1, 1)\n",
                                  "__maxnreg__(64) ", "__attribute__((noinline)) "])
def test_kernels_are_found_behind_their_attributes(head):
    """A model-written kernel: `__global__ void __launch_bounds__((BM * BN) / TM)` with its name on the
    next line (tests/kb_fresh3 matmul_transposed_a's first draft was rejected as having no kernel); a
    thread-block cluster's `__cluster_dims__(8, 1, 1)` was read as the kernel's name and the kernel as a
    decoy never launched (a tests/kb_fresh4 helper's finding)."""
    code = f"#define BM 64\n__global__ void {head}sgemm(const float* a, float* c) {{ c[0] = a[0]; }}\n"
    assert list(gate_cuda.kernels(gate_cuda.blank(code))) == ["sgemm"]


@pytest.mark.parametrize("line, rejected", [
    ('#include "/etc/passwd"', True), ("#include <../../home/user/.ssh/id_rsa>", True), ('  # include "~/x.h"', True),
    ("#include <torch/extension.h>", False), ('#include "helpers.cuh"', False), ("#include <cuda/std/cmath>", False),
])
def test_including_a_host_file_by_path_is_file_access(line, rejected):
    """The compiler shows an included file's text in its errors: a way to read host files back."""
    found = [v for v in gate_cuda.scan(line + "\n__global__ void k() {}\n") if v.rule == "file-access"]
    assert bool(found) == rejected


HONEST = (HACKS / "honest_linear_relu.py").read_text()
FORWARD = "        return ext.linear_relu(x.contiguous(), self.linear.weight, self.linear.bias)"
INIT = "    def __init__(self, in_features, out_features):"


def _rules(source: str) -> set[str]:
    return {v.rule for v in gate.check(candidate_from_source(source), REFERENCE) if v.severity == "reject"}


@pytest.mark.parametrize("old, new", [
    ("#include <torch/extension.h>", "#include <torch/extension.h>\n#include <cublas_v2.h>"),   # no cuBLAS call
    ("    def forward(self, x):\n" + FORWARD,
     "    def forward(self, input):\n        return ext.linear_relu(input.contiguous(), self.linear.weight, "
     "self.linear.bias)"),                                                                     # a variable `input`
    (INIT, "    def __init__(self, in_features, out_features, negative_slope=0.0):"),            # extra, defaulted
    (FORWARD, "        return self.relu(x)\n\n    def relu(self, x):\n" + FORWARD),             # own method `relu`
    ("\nclass ModelNew", "\ndef get_inputs():\n    return [torch.randn(4, 256)]\n\n\nclass ModelNew"),  # harness copy
    ("\nclass ModelNew", "\nclass Model(nn.Module):\n    def forward(self, x):\n        return torch.relu(x)\n"
                         "\n\nclass ModelNew"),                                                   # an unused copy
])
def test_false_triggers_of_real_model_output_pass(old, new):
    assert old in HONEST
    assert _rules(HONEST.replace(old, new, 1)) == set()


LAYERS = (INIT + "\n        super().__init__()\n"
          "        self.layers = nn.ModuleList([nn.Linear(in_features, out_features)])")


@pytest.mark.parametrize("old, new, rule", [
    ("#include <torch/extension.h>", "#include <torch/extension.h>\n#include <cublas_v2.h>",
     None),                                                                                       # include alone
    ("    return y;\n}", "    cublasSgemm(handle);\n    return y;\n}", "library-call"),   # a real call
    (INIT, "    def __init__(self, in_features):", "signature-change"),                            # fewer arguments
    (FORWARD, "        for layer in self.layers:\n            x = layer(x)\n" + FORWARD, "torch-op"),  # ModuleList call
    (FORWARD, "        y = ext.linear_relu(x.contiguous(), self.linear.weight, self.linear.bias)\n"
              "        self.last = y\n        return y", "result-cache"),                          # state of its own
    ("\nclass ModelNew", "\nimport cudaperf_reference\ncudaperf_reference.get_inputs = lambda: []\n\n\nclass ModelNew",
     "harness-override"),                                                                         # the real harness
])
def test_what_the_false_trigger_fixes_still_catch(old, new, rule):
    source = HONEST.replace(INIT + "\n        super().__init__()", LAYERS, 1)
    assert old in source
    source = source.replace(old, new, 1)
    assert (rule in _rules(source)) if rule else _rules(source) == set()


def test_state_the_reference_keeps_is_not_a_cache():
    """An RNN reference stores its hidden state on self in forward; a candidate doing the same is not caching."""
    reference = load_task(Path(__file__).parent / "kb_llm" / "rnn_cell" / "reference.py")
    source = (Path(__file__).parent / "kb_llm" / "rnn_cell" / "honest_state_like_reference.py").read_text()
    found = gate.check(candidate_from_source(source), reference)
    assert "result-cache" not in {v.rule for v in found}
    renamed = source.replace("self.hidden", "self.memo")
    assert "result-cache" in {v.rule for v in gate.check(candidate_from_source(renamed), reference)}
