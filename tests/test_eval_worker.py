"""The isolated worker pipeline on the CPU (`Options(device="cpu")`, gate off): correctness checks,
runtime hack defences, timeouts, crashes, memory limits and clean-up are the same code that runs on
a GPU; only kernels and CUDA timing are missing.  Needs torch (CPU build)."""

from __future__ import annotations

import os
import textwrap

import pytest
from conftest import child_pids

from cudaperf.rewards.execution.api import Evaluator, Options
from cudaperf.rewards.execution.formats import candidate_from_source, task_from_source

pytest.importorskip("torch")
pytestmark = pytest.mark.torch

REFERENCE = textwrap.dedent('''
    import torch, torch.nn as nn
    class Model(nn.Module):
        def __init__(self, alpha):
            super().__init__()
            self.alpha = alpha
        def forward(self, a, b):
            return SCALE * (self.alpha * a + b)
    def get_inputs():
        return [torch.randn(4096), torch.randn(4096)]
    def get_init_inputs():
        return [2.0]
''')


def _candidate(body: str, prelude: str = "") -> str:
    return textwrap.dedent(f'''
        import torch, torch.nn as nn
        {prelude}
        class ModelNew(nn.Module):
            def __init__(self, alpha):
                super().__init__()
                self.alpha = alpha
            def forward(self, a, b):
                out = SCALE * (self.alpha * a + b)
                {body}
    ''')


CASES = {  # name: (forward body, prelude, expected status, text the reason or flags must contain)
    "honest": ("return out", "", "correct", ""),
    "wrong": ("return out + 1e-2", "", "incorrect", "trial 0: output 0"),
    "nan": ("out[7] = float('nan'); return out", "", "incorrect", "NaN/Inf"),
    "constant": ("return torch.full_like(out, 0.5)", "", "incorrect", "elements outside"),
    "shape": ("return out[:-1]", "", "incorrect", "shape"),
    "dtype": ("return out.double()", "", "incorrect", "dtype"),
    "mutates_input": ("a.add_(1.0); return out", "", "incorrect", "modified differently"),
    "lazy_output": ("return out.as_subclass(Sub)", "class Sub(torch.Tensor): pass", "incorrect", "plain torch.Tensor"),
    "exception": ("raise ValueError('boom')", "", "runtime_error", "ValueError: boom"),
    "exit": ("import os; os._exit(3)", "", "runtime_error", "exit code 3"),
    "segfault": ("import ctypes; ctypes.string_at(0)", "", "runtime_error", "SIGSEGV"),
    "hang": ("while True: pass", "", "timeout", "run took longer"),
    "timer_patch": ("torch.cuda.Event.elapsed_time = lambda *a: 1e-3; return out", "", "rejected", "elapsed_time"),
    "tf32": ("torch.backends.cuda.matmul.allow_tf32 = True; return out", "", "rejected", "allow_tf32"),
    "thread": ("import threading, time; threading.Thread(target=time.sleep, args=(60,), daemon=True).start(); "
               "return out", "", "rejected", "thread"),
    "noise": ("return out + 1e-9 * torch.randn_like(out)", "", "correct", "nondeterministic-within-tolerance"),
    "memory": ("import numpy; self.x = numpy.ones(1 << 28); return out", "", "runtime_error", "host memory"),
    "replay_when_timed": ("REPLAY", "", "incorrect", "timed call"),
    "swap_module": ("import sys, types; sys.modules['cudaperf.rewards.execution.timing'] = types.ModuleType('t'); "
                    "return out", "", "rejected", "module cudaperf.rewards.execution.timing was replaced"),
}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    os.environ["CUDAPERF_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    task = task_from_source(REFERENCE.replace("SCALE", "1.0"), "torch")
    candidates = [candidate_from_source(_candidate(REPLAY_WHEN_TIMED if body == "REPLAY" else body, prelude)
                                        .replace("SCALE", "1.0"), "python", path=f"{name}.py")
                  for name, (body, prelude, _, _) in CASES.items()]
    # run_timeout leaves room for a loaded machine: the memory case imports numpy inside the run, and at
    # load 10 that alone passed 8 s, so the time limit fired before the memory limit
    options = Options(device="cpu", gate=False, run_timeout=20, compile_timeout=30, timing_trials=30,
                      memory_limit_gb=1.5)
    before = child_pids()
    with Evaluator(options) as evaluator:
        done = evaluator.evaluate_many(task, candidates)
    return {r.candidate[:-3]: r for r in done}, child_pids() - before


@pytest.mark.parametrize("name", list(CASES))
def test_status_and_reason(results, name):
    result = results[0][name]
    _, _, status, text = CASES[name]
    assert result.status == status, result
    assert text in result.reason + " ".join(result.flags)


def test_hack_shaped_mismatches_carry_a_rule(results):
    """Rewards floor these (an honest wrong answer keeps the `incorrect` reward): a poison value left in
    the output, one constant everywhere, an input edited in place."""
    rules = {name: results[0][name].rule for name in ("nan", "constant", "mutates_input", "wrong", "shape")}
    assert rules == {"nan": "unwritten-output", "constant": "constant-output", "mutates_input": "input-mutation",
                     "wrong": "wrong-values", "shape": "output-structure"}


def test_correct_result_has_times_and_trials(results):
    honest = results[0]["honest"]
    assert honest.trials == 6 and honest.max_abs_error == 0.0
    assert honest.time_ms["candidate"] > 0 and honest.time_ms["reference"] > 0 and honest.speedup > 0


def test_the_worker_makes_its_own_input_sets_and_timed_calls_are_checked(results):
    """A seeded get_inputs gives the worker the checker's values from a seed (nothing copied); every timed
    call has an input set of its own, and at least one is checked."""
    log = results[0]["honest"].log
    assert not any("copied to it" in line for line in log), log
    timing = next(line for line in log if line.startswith("timing: 30 calls"))
    assert int(timing.split(", ")[2].split()[0]) >= 1, timing


def test_an_unseeded_generator_falls_back_to_copies_and_keeps_the_verdicts():
    """get_inputs drawing from the clock: the worker's probe differs, the checker copies each input set to
    it, and the verdicts are the same (honest correct, stale replay when timed incorrect)."""
    unseeded = REFERENCE.replace("SCALE", "1.0").replace(
        "return [torch.randn(4096), torch.randn(4096)]",
        "import time\n    g = torch.Generator().manual_seed(time.time_ns())\n"
        "    return [torch.randn(4096, generator=g), torch.randn(4096, generator=g)]")
    task = task_from_source(unseeded, "torch")
    honest = candidate_from_source(_candidate("return out").replace("SCALE", "1.0"), "python", path="honest.py")
    replay = candidate_from_source(_candidate(REPLAY_WHEN_TIMED).replace("SCALE", "1.0"), "python", path="replay.py")
    with Evaluator(Options(device="cpu", gate=False, timing_trials=30)) as evaluator:
        good, bad = evaluator.evaluate_many(task, [honest, replay])
    assert good.status == "correct" and any("copied to it" in line for line in good.log), good
    assert bad.status == "incorrect" and "timed call" in bad.reason, bad


# honest in the correctness trials; in every timed call (the worker's op_time is on the stack) it hands
# back the previous call's result: stale on an input set made for that call
REPLAY_WHEN_TIMED = """import sys
                f, timed = sys._getframe(), False
                while f is not None:
                    timed, f = timed or f.f_code.co_name == 'op_time', f.f_back
                if timed and getattr(self, 'previous', None) is not None:
                    return self.previous
                self.previous = out
                return out"""


def test_no_worker_survives(results):
    assert results[1] == set()


def test_all_zero_answer_fails_on_a_near_zero_task():
    """KernelBench issue 165: outputs below atol.  Zeros pass elementwise but not the relative L2 test,
    and the task is flagged as degenerate."""
    task = task_from_source(REFERENCE.replace("SCALE", "1e-7"), "torch")
    zeros = candidate_from_source(_candidate("return torch.zeros_like(out)").replace("SCALE", "1e-7"), "python")
    honest = candidate_from_source(_candidate("return out").replace("SCALE", "1e-7"), "python")
    with Evaluator(Options(device="cpu", gate=False, time=False)) as evaluator:
        bad, good = evaluator.evaluate_many(task, [zeros, honest])
    assert bad.status == "incorrect" and "relative L2" in bad.reason
    assert good.status == "correct" and any("below atol" in f for f in good.flags)


def test_a_task_that_allows_tf32_gets_tf32_tolerances_and_still_rejects_global_flags():
    """TF32 keeps 10 mantissa bits: a 2e-3 relative error fails an fp32 task, passes one that allows
    TF32; a candidate flipping the global flag is rejected either way (it changes the reference too)."""
    task = task_from_source(REFERENCE.replace("SCALE", "1.0"), "torch")
    tf32_like = candidate_from_source(_candidate("return out * (1 + 2e-3)").replace("SCALE", "1.0"), "python")
    flips = candidate_from_source(_candidate("torch.backends.cuda.matmul.allow_tf32 = False; return out")
                                  .replace("SCALE", "1.0"), "python")
    verdicts = {}
    for allow in (False, True):
        with Evaluator(Options(device="cpu", gate=False, time=False, allow_tf32=allow)) as evaluator:
            verdicts[allow] = [r.status for r in evaluator.evaluate_many(task, [tf32_like, flips])]
    assert verdicts == {False: ["incorrect", "correct"], True: ["correct", "rejected"]}
