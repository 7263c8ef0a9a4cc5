"""Issue 30, items 6 and 7: rewards that cannot be measured say so, `train` without a GPU points to
--cpu, and the rest of a newcomer's list: `--arg` typos and non-numbers, `--smem` beyond the device,
`-j -3`, crosscheck's raw errno, `rank` exiting 0 with nothing ranked, and Ctrl-C leaving ptxas and
worker processes behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import warnings

import pytest
from conftest import ROOT

from cudaperf.analysis.process import descendants
from cudaperf.analysis.resources import nvcc
from cudaperf.cli import main
from cudaperf.rewards.execution import compile as cc

TRANSPOSE = ROOT / "examples" / "transpose.cu"
SCALE_ADD = (ROOT / "examples" / "eval" / "scale_add" / "reference.py").read_text()
NATIVE = (ROOT / "examples" / "eval" / "scale_add" / "candidate_native.cu").read_text()


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


# item 6 -------------------------------------------------------------------------------------------

@pytest.mark.skipif(cc.available_backend() is None, reason="neither NVRTC nor nvcc")
def test_a_batch_of_unmeasurable_rewards_warns_once(tmp_path, monkeypatch):
    """On this machine (no GPU) a candidate that compiles gets None: a batch of those must not pass silently."""
    from cudaperf.rewards import RewardConfig, make_reward

    monkeypatch.setenv("CUDAPERF_CACHE_DIR", str(tmp_path / "cache"))
    answer = f"```cuda\n{NATIVE}\n```\n"
    broken = f"```cuda\n{NATIVE.replace('alpha * x.x', 'alpha * x.q')}\n```\n"
    reward = make_reward("unified", RewardConfig())
    columns = {"reference": [SCALE_ADD] * 2, "kind": ["torch2cuda"] * 2}
    with pytest.warns(RuntimeWarning) as caught:
        assert reward(prompts=["p"] * 2, completions=[answer, answer], **columns) == [None, None]
    (warning,) = caught
    assert str(warning.message).startswith("cudaperf unified_reward: every completion of the batch got None (no_gpu 2")
    assert "loss 0" in str(warning.message) and "structural_reward" in str(warning.message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once: the next batch of Nones says nothing more
        assert reward(prompts=["p"] * 2, completions=[answer, answer], **columns) == [None, None]
    mixed = make_reward("unified", RewardConfig())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a batch with one measured reward is no cause for alarm
        assert mixed(prompts=["p"] * 2, completions=[answer, broken], **columns) == [None, RewardConfig().compile_error]


def test_train_without_a_gpu_points_to_cpu(capsys):
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("a GPU is visible")
    assert main(["train", "--dataset", "t.jsonl", "--model", "m", "-o", "out"]) == 2
    assert "add --cpu to train on the CPU" in one_line_error(capsys)


# item 7 -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["analyze", "lint"])
@pytest.mark.parametrize("args, message", [
    (["--arg", "nn=4"], "--arg nn=4: no parameter or variable named nn in the sources"),
    (["--arg", "ROW=4"], "no parameter or variable named ROW in the sources; did you mean ROWS?"),
    (["--arg", "n=abc"], "--arg n=abc: not a number, and n is no template type parameter"),
    (["--smem", "300000"], "--smem 300000: sm_90 allows at most 232448 bytes of shared memory per block"),
    (["-j", "-3"], "argument -j/--jobs: must be 0 (one per CPU core) or more, got -3"),
])
def test_bad_launch_options_are_one_line_errors(capsys, command, args, message):
    try:
        code = main([command, str(TRANSPOSE), *args])
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    assert code == 2
    assert message in one_line_error(capsys)


def test_good_arguments_still_pass(capsys, tmp_path):
    assert main(["analyze", str(TRANSPOSE), "--arg", "n=2048", "--kernel", "transpose_naive"]) == 0
    template = tmp_path / "t.cu"
    template.write_text("template <typename T, int B>\n__global__ void k(T* x) { x[threadIdx.x * B] = 0; }\n")
    assert main(["analyze", str(template), "--arg", "T=float", "--arg", "B=2"]) == 0
    launcher = tmp_path / "main.cu"  # a host variable beside the kernel's file counts
    launcher.write_text("int main() { int size = 1 << 20; }\n")
    assert main(["analyze", str(template), "--arg", "size=4096"]) == 0
    capsys.readouterr()


def test_occupancy_refuses_more_shared_memory_than_the_device_has(capsys):
    assert main(["occupancy", "--block", "256", "--registers", "32", "--smem", "240000",
                 "--max-dynamic-smem", "240000"]) == 2
    assert "sm_90 allows at most 232448" in one_line_error(capsys)


@pytest.mark.parametrize("flag", ["--measured", "--from-ncu-csv"])
def test_crosscheck_names_a_missing_measurement_without_errno(capsys, flag):
    assert main(["crosscheck", str(TRANSPOSE), flag, "nope.json"]) == 2
    assert one_line_error(capsys) == "cudaperf: error: nope.json: no such file or directory"


def test_rank_with_nothing_ranked_is_not_a_success(tmp_path, capsys):
    (tmp_path / "a.c").write_text("int main(void) { return 0; }\n")
    assert main(["rank", str(tmp_path / "a.c")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.strip() == "cudaperf: error: no kernel to rank"
    pytest.importorskip("torch")   # ranking against a KernelBench reference traces it with torch
    reference = ROOT / "tests" / "kb_llm" / "conv_relu_bias" / "reference.py"
    assert main(["rank", "--reference", str(reference), str(tmp_path / "a.c")]) == 2
    captured = capsys.readouterr()
    assert "not ranked" in captured.out and captured.err.strip().endswith("no candidate could be ranked (the reasons "
                                                                          "are above)")
    assert main(["rank", "--reference", str(reference), str(tmp_path / "missing.py")]) == 2
    captured = capsys.readouterr()
    assert "missing.py  not ranked: unreadable: no such file or directory" in captured.out
    assert "no candidate could be ranked" in captured.err


@pytest.mark.skipif(nvcc() is None, reason="needs nvcc (ptxas runs for --resources ptxas)")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_the_workers_and_their_compilers(tmp_path, jobs):
    env = {**os.environ, "CUDAPERF_CACHE_DIR": str(tmp_path / "cache")}  # nothing cached: ptxas must run
    proc = subprocess.Popen([sys.executable, "-m", "cudaperf", "lint", str(ROOT / "tests" / "planted"),
                             "--resources", "ptxas", "-j", jobs], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env, start_new_session=True, text=True,
                            preexec_fn=_takes_interrupts)
    deadline, seen = time.monotonic() + 60, {}
    while time.monotonic() < deadline and not any(_compiler(p) for p in seen):
        seen |= _identified(descendants(proc.pid))
        time.sleep(0.05)
    assert any(_compiler(p) for p in seen), "no compiler started"
    seen |= _identified(descendants(proc.pid))
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C on a terminal does: the whole foreground group
    start = time.monotonic()
    assert proc.wait(timeout=30) == 130
    assert time.monotonic() - start < 10, "the interrupt waited for the queue"
    assert "cudaperf: interrupted" in proc.stderr.read()
    time.sleep(0.2)
    assert not [p for p, started in seen.items() if _alive(p, started)]


@pytest.mark.slow
@pytest.mark.torch
@pytest.mark.skipif(nvcc() is None, reason="needs nvcc to build the extension")
def test_ctrl_c_stops_an_extension_build(tmp_path):
    """`eval --build-without-gpu` builds through ninja, which starts every compile in a group of its own: on
    main before this change the whole build ran on, orphaned, for a minute after Ctrl-C."""
    pytest.importorskip("torch")
    example = ROOT / "examples" / "eval" / "scale_add"
    env = {**os.environ, "CUDAPERF_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.Popen([sys.executable, "-m", "cudaperf", "eval", "--reference", str(example / "reference.py"),
                             "--candidate", str(example / "candidate_kernelbench.py"), "--build-without-gpu"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, start_new_session=True,
                            text=True, preexec_fn=_takes_interrupts)
    deadline, seen = time.monotonic() + 120, {}
    while time.monotonic() < deadline and not any(_compiler(p) for p in seen):
        seen |= _identified(descendants(proc.pid))
        time.sleep(0.05)
    assert any(_compiler(p) for p in seen), "no compiler started"
    time.sleep(0.5)
    seen |= _identified(descendants(proc.pid))
    os.killpg(proc.pid, signal.SIGINT)
    assert proc.wait(timeout=30) == 130
    time.sleep(0.5)
    assert not [p for p, started in seen.items() if _alive(p, started)]


def _takes_interrupts() -> None:
    """Run in the child before exec: SIGINT back to its default, as for a command typed at a terminal.  A
    background job of a non-interactive shell (`bash .ci/run &`) inherits SIGINT ignored (POSIX), and a
    CLI that inherits it ignored rightly ignores the Ctrl-C these tests send."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _compiler(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return any(tool in f.read() for tool in (b"nvcc", b"ptxas", b"cicc", b"cudafe", b"cc1plus"))
    except OSError:
        return False


def _stat(pid: int) -> list[bytes] | None:
    """/proc/PID/stat's fields after the command name (state first, start time at index 19)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None


def _identified(pids) -> dict[int, bytes]:
    """Each process with its start time: a PID the kernel hands to a new process later (a busy CI
    machine wraps around) is not the one seen."""
    return {pid: fields[19] for pid in pids if (fields := _stat(pid)) is not None}


def _alive(pid: int, started: bytes) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[19] == started and fields[0] not in (b"Z", b"X")


def test_a_second_ctrl_c_during_the_cleanup_is_no_traceback(monkeypatch, capsys):
    """The first Ctrl-C kills what the command started, which waits until it is gone; an impatient
    second one meanwhile must neither cut that short nor end in a traceback."""
    import cudaperf.cli as cli
    import cudaperf.workers as workers

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    killed = []

    def second_ctrl_c() -> None:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.2)  # a SIGINT not ignored raises KeyboardInterrupt here
        killed.append(True)

    monkeypatch.setattr(cli, "analyze_rendered", interrupted)
    monkeypatch.setattr(workers, "kill_descendants", second_ctrl_c)
    # as a terminal starts it (a job put in the background by a shell starts with SIGINT ignored)
    found = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        assert main(["analyze", str(TRANSPOSE)]) == 130
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Ctrl-C works again afterwards
    finally:
        signal.signal(signal.SIGINT, found)
    assert killed == [True]
    assert capsys.readouterr().err.strip() == "cudaperf: interrupted"
