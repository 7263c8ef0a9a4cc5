"""Launch specs, C harnesses, format detection and the result object: pure Python, no torch."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cudaperf.rewards.execution import ExecResult, render_text
from cudaperf.rewards.execution.formats import (
    FormatError,
    candidate_files,
    candidate_from_source,
    load_candidate,
    load_task,
    task_format,
)
from cudaperf.rewards.execution.harness import make_inputs, parse_harness
from cudaperf.rewards.execution.spec import Expr, Scalar, SpecError, parse_spec

EXAMPLES = Path(__file__).parents[1] / "examples" / "eval"


class FakeTensor:
    def __init__(self, *shape: int):
        self.shape = shape
        self.itemsize = 4


def test_expressions_evaluate_shapes_and_typed_scalars():
    env = {"a": FakeTensor(64, 1000), "alpha": 2.5}
    assert Expr("cdiv(a.numel, 256)")(env) == 250
    assert Expr("a.shape[1] // 8 + a.ndim")(env) == 127
    assert Expr("[a.shape[0], 10]")(env) == [64, 10]
    assert Expr("int64(a.numel)")(env) == Scalar("q", 64000)
    assert Expr("float64(alpha * 2)")(env) == Scalar("d", 5.0)


@pytest.mark.parametrize("text", ["__import__('os')", "a.__class__", "open('x')", "lambda: 1", "'s'", "a if 1 else 2",
                                  "[x for x in a]"])
def test_expressions_refuse_anything_but_arithmetic(text):
    with pytest.raises(SpecError):
        Expr(text)


def test_expression_runtime_errors_are_spec_errors():
    with pytest.raises(SpecError, match="unknown name"):
        Expr("b + 1")({})
    with pytest.raises(SpecError, match="exponent"):
        Expr("2 ** 100000")({})
    with pytest.raises(SpecError):
        Expr("1 // 0")({})


def test_spec_parsing_and_name_checks():
    spec = parse_spec({"inputs": ["a"], "outputs": [{"name": "out", "like": "a"}],
                       "launches": [{"kernel": "k", "grid": ["cdiv(a.numel, 128)", 2], "block": 128,
                                     "args": ["a", "out", "a.numel"]}]})
    assert spec.kernels == ["k"] and len(spec.launches[0].grid) == 2
    spec.check_names(set())
    bad = parse_spec({"inputs": ["a"], "launches": [{"kernel": "k", "grid": 1, "block": 1, "args": ["b"]}]})
    with pytest.raises(SpecError, match="unknown name"):
        bad.check_names(set())


@pytest.mark.parametrize("data, message", [
    ({}, "non-empty"),
    ({"launches": [{"kernel": "k", "grid": 1}]}, "needs 'kernel', 'grid' and 'block'"),
    ({"launches": [{"kernel": "k", "grid": [1, 1, 1, 1], "block": 1}]}, "1 to 3"),
    ({"oops": 1, "launches": []}, "unknown key"),
    ({"outputs": [{"name": "o", "dtype": "float32"}], "launches": [{"kernel": "k", "grid": 1, "block": 1}]},
     "'like' or both"),
    ({"inputs": ["a", "a"], "launches": [{"kernel": "k", "grid": 1, "block": 1}]}, "bound twice"),
])
def test_spec_errors_say_what_is_wrong(data, message):
    with pytest.raises(SpecError, match=message):
        parse_spec(data)


def test_embedded_and_sidecar_specs(tmp_path):
    native = load_candidate(EXAMPLES / "scale_add" / "candidate_native.cu")
    assert native.spec is not None and native.spec.kernels == ["scale_add"]
    (tmp_path / "k.cu").write_text('extern "C" __global__ void k(float* p) {}')
    assert load_candidate(tmp_path / "k.cu").spec_error.startswith("no launch spec")
    (tmp_path / "k.launch.json").write_text(json.dumps({"launches": [{"kernel": "k", "grid": 1, "block": 1,
                                                                      "args": ["p"]}]}))
    assert load_candidate(tmp_path / "k.cu").spec.kernels == ["k"]
    (tmp_path / "k.launch.json").write_text("{broken")
    assert "bad JSON" in load_candidate(tmp_path / "k.cu").spec_error


def test_yaml_spec(tmp_path):
    pytest.importorskip("yaml")
    (tmp_path / "k.cu").write_text('extern "C" __global__ void k(float* p) {}')
    (tmp_path / "s.yaml").write_text("launches:\n  - kernel: k\n    grid: 1\n    block: 32\n    args: [p]\n")
    assert load_candidate(tmp_path / "k.cu", tmp_path / "s.yaml").spec.kernels == ["k"]


def test_formats_are_detected_from_the_pair():
    torch_task = load_task(EXAMPLES / "scale_add" / "reference.py")
    c_task = load_task(EXAMPLES / "saxpy_c" / "reference.c")
    assert task_format(torch_task, load_candidate(EXAMPLES / "scale_add" / "candidate_kernelbench.py")) == "kernelbench"
    assert task_format(torch_task, load_candidate(EXAMPLES / "scale_add" / "candidate_native.cu")) == "native"
    assert task_format(c_task, load_candidate(EXAMPLES / "saxpy_c" / "candidate.cu")) == "c"
    with pytest.raises(FormatError):
        task_format(c_task, candidate_from_source("class ModelNew: pass"))


def test_bad_references_are_usage_errors(tmp_path):
    (tmp_path / "ref.py").write_text("x = 1\n")
    with pytest.raises(FormatError, match="Model"):
        load_task(tmp_path / "ref.py")
    (tmp_path / "ref.c").write_text("void f(void) {}\n")
    with pytest.raises(FormatError, match="no harness"):
        load_task(tmp_path / "ref.c")
    with pytest.raises(FormatError):
        load_task(tmp_path / "missing.py")


def test_candidate_files_expand_directories(tmp_path):
    for name in ("b.cu", "a.py", "a.launch.json", "notes.txt"):
        (tmp_path / name).write_text("")
    assert [p.name for p in candidate_files([tmp_path])] == ["a.py", "b.cu"]


def test_harness_generates_fresh_inputs_per_seed():
    harness = load_task(EXAMPLES / "saxpy_c" / "reference.c").harness
    one, two = make_inputs(harness, harness.configs[1], 1), make_inputs(harness, harness.configs[1], 2)
    assert one["x"].shape == (1000,) and one["x"].dtype == np.float32 and one["n"] == 1000
    assert not np.array_equal(one["x"], two["x"])
    assert one["x"].min() >= -1 and one["x"].max() <= 1


@pytest.mark.parametrize("data, message", [
    ({"function": "f", "args": [{"name": "y", "type": "float*", "shape": "4"}]}, "at least one output"),
    ({"function": "f", "args": [{"name": "y", "type": "bogus*", "shape": "4", "output": True}]}, "unsupported"),
    ({"function": "f", "args": [{"name": "n", "type": "int"}, {"name": "y", "type": "float*", "shape": "n",
                                                                "output": True}], "configs": [{}]}, "every scalar"),
    ({"function": "f", "args": [{"name": "y", "type": "float*", "shape": "4", "init": "gauss", "output": True}]},
     "generator"),
])
def test_harness_errors(data, message):
    with pytest.raises(SpecError, match=message):
        parse_harness(data)


def test_result_json_has_the_documented_keys():
    doc = ExecResult("correct", time_ms={"candidate": 1.0, "reference": 2.0}, speedup=2.0).to_json()
    for key in ("status", "reason", "compiled", "correct", "max_abs_error", "max_rel_error", "trials", "time_ms",
                "speedup", "kernels_launched", "log"):
        assert key in doc
    assert doc["correct"] is True and doc["schema"] == "cudaperf.eval/1"
    assert ExecResult.from_json(doc) == ExecResult("correct", time_ms={"candidate": 1.0, "reference": 2.0},
                                                   speedup=2.0)
    assert ExecResult("incorrect").correct is False
    with pytest.raises(ValueError):
        ExecResult("fine")


def test_text_rendering_shows_rule_and_log_on_failure():
    text = render_text(ExecResult("rejected", "line 3: uses torch.cuda.Stream", rule="side-stream", candidate="c.py",
                                  log=["side-stream: line 3"]))
    assert "c.py: rejected (side-stream: line 3: uses torch.cuda.Stream)" in text and "| side-stream" in text
