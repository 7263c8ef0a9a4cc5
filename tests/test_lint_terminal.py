"""Issue 30, items 1 and 3: lint on a terminal.  Findings always reach stdout (a pseudo-terminal run with
stdout redirected keeps every one), the progress bar only a terminal's stderr; each text finding shows
its severity, the source line with a caret under the smell, and colour as NO_COLOR/FORCE_COLOR ask;
notes are off by default; `cudaperf rule` and `--list-rules`."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys

from conftest import ROOT
from test_cli import run

PLANTED = ROOT / "tests" / "planted"  # 9 files: enough for the progress bar (8 or more)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
SMELLY = ("__global__ void k(const float* in, float* out) {\n"
          "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "\tout[i] = in[i * 32];\n"
          "}\n")


def on_terminal(args: list[str], stdout=None, env: dict | None = None) -> tuple[int, str]:
    """Run cudaperf with stderr (and stdout, unless given) on a pseudo-terminal: (exit code, what the
    terminal received)."""
    main, secondary = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "cudaperf", *args], stdin=secondary, stderr=secondary,
                            stdout=stdout if stdout is not None else secondary, env={**os.environ, **(env or {})})
    os.close(secondary)
    received = b""
    while True:
        try:
            chunk = os.read(main, 1 << 16)
        except OSError:  # the terminal closed: the process is gone
            break
        if not chunk:
            break
        received += chunk
    os.close(main)
    return proc.wait(timeout=120), received.decode(errors="replace")


def test_findings_redirected_from_a_terminal_keep_every_finding(tmp_path):
    piped = run("lint", str(PLANTED), "--format", "concise", "-j", "2", timeout=120)
    assert piped.returncode == 1 and len(piped.stdout.splitlines()) > 20
    with open(tmp_path / "out.txt", "w") as out:
        code, terminal = on_terminal(["lint", str(PLANTED), "--format", "concise", "-j", "2"], stdout=out)
    assert code == 1
    assert (tmp_path / "out.txt").read_text() == piped.stdout  # every finding, nothing of the bar
    assert "9/9" in terminal and "lint" in terminal  # the bar was drawn, on the terminal's stderr
    assert not re.search(r"^\S+:\d+:\d+: ", ANSI.sub("", terminal), re.MULTILINE)  # and no finding went there


def test_findings_and_the_bar_share_a_terminal_without_losing_a_line():
    piped = run("lint", str(PLANTED), "--format", "concise", "-j", "2", timeout=120)
    code, terminal = on_terminal(["lint", str(PLANTED), "--format", "concise", "-j", "2"], env={"NO_COLOR": "1"})
    shown = ANSI.sub("", terminal).replace("\r", "").splitlines()
    assert code == 1 and "9/9" in terminal
    assert all(line in shown for line in piped.stdout.splitlines())


def test_notes_written_while_the_bar_is_drawn_come_out_whole(tmp_path):
    for i in range(9):  # 2-D kernels without a launch whose conflict depends on the block's shape: a note each
        (tmp_path / f"k{i}.cu").write_text(f"__global__ void k{i}(float* out) {{\n"
                                           "  __shared__ float t[32][32];\n"
                                           "  t[threadIdx.y][threadIdx.x] = out[0];\n}\n")
    piped = run("lint", str(tmp_path), "-j", "2", timeout=120)
    notes = [line for line in piped.stderr.splitlines() if ": note: " in line]
    assert len(notes) == 10 and notes[-1].startswith("cudaperf: note: register-spill did not check any kernel")
    code, terminal = on_terminal(["lint", str(tmp_path), "-j", "2"], env={"NO_COLOR": "1"})
    shown = ANSI.sub("", terminal).replace("\r", "").splitlines()
    assert code == 0 and "9/9" in terminal and all(line in shown for line in notes)


def test_no_bar_when_stderr_is_no_terminal():
    proc = run("lint", str(PLANTED), "--format", "concise", timeout=120)
    assert "9/9" not in proc.stderr and "\x1b" not in proc.stderr + proc.stdout


def test_text_findings_show_severity_source_line_caret_and_fix(tmp_path):
    (tmp_path / "k.cu").write_text(SMELLY)
    proc = run("lint", "k.cu", "--grid", "64", "--block", "256", "--select", "CP101", cwd=tmp_path)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 1
    head = next(i for i, line in enumerate(lines) if line.startswith("k.cu:3:"))
    assert "warning: CP101 [uncoalesced-access] load of `in`" in lines[head]
    column = int(lines[head].split(":")[2])
    source, caret = lines[head + 2], lines[head + 3]
    assert source == "3 |     out[i] = in[i * 32];"  # the tab shown as 4 spaces
    shown = source[len("3 | "):]
    start = caret.index("^") - len("  | ")
    assert shown[start:start + caret.count("^")] == "in[i * 32]" and column == 11  # byte column 11: the tab is one
    assert lines[head + 4].startswith("  = fix: Make consecutive threads")
    assert lines[-1] == "Found 1 finding (1 warning); 1 kernel checked in 1 file."


def test_colour_follows_the_terminal_and_the_conventions(tmp_path):
    (tmp_path / "k.cu").write_text(SMELLY)
    args = ["lint", str(tmp_path / "k.cu"), "--grid", "64", "--block", "256", "--select", "CP101"]
    assert "\x1b[" not in run(*args).stdout  # a pipe: plain
    with_colour = subprocess.run([sys.executable, "-m", "cudaperf", *args], capture_output=True, text=True,
                                 env={**os.environ, "FORCE_COLOR": "1"})
    assert "\x1b[1;33mwarning:\x1b[0m" in with_colour.stdout  # severity in yellow, even into a pipe
    both = subprocess.run([sys.executable, "-m", "cudaperf", *args], capture_output=True, text=True,
                          env={**os.environ, "FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b[" not in both.stdout  # NO_COLOR wins
    _, terminal = on_terminal(args, env={"NO_COLOR": "", "FORCE_COLOR": ""})
    assert "\x1b[1;33mwarning:" in terminal  # a terminal: colour
    _, plain = on_terminal(args, env={"NO_COLOR": "1"})
    assert "\x1b[" not in plain


def test_notes_are_off_by_default_and_listed_as_such(tmp_path):
    (tmp_path / "k.cu").write_text("__global__ void copy(const float* a, float* b) {\n"
                                   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  b[i] = 2.f * a[i];\n}\n")
    default = run("lint", "k.cu", "--grid", "4096", "--block", "256", "--format", "concise", cwd=tmp_path)
    assert default.returncode == 0 and "CP501" not in default.stdout
    extended = run("lint", "k.cu", "--grid", "4096", "--block", "256", "--format", "concise",
                   "--extend-select", "memory-bound", cwd=tmp_path)
    assert extended.returncode == 0 and "note: CP501 [memory-bound]" in extended.stdout  # notes never fail a run
    table = run("lint", "--list-rules").stdout.splitlines()
    rows = {line.split()[0]: line.split() for line in table[1:]}
    assert rows["CP501"][3] == "off" and rows["CP101"][3] == "on" and table[0].split()[:5] == \
        ["code", "name", "severity", "default", "what"]
    assert run("rule").stdout == run("lint", "--list-rules").stdout


def test_rule_prints_the_rule_page():
    proc = run("rule", "CP101")
    assert proc.returncode == 0
    assert proc.stdout == (ROOT / "docs" / "rules" / "uncoalesced-access.md").read_text()
    assert run("rule", "barrier-divergence").stdout.startswith("# CP401 `barrier-divergence` (error)")
    wrong = run("rule", "barier-divergence")
    assert wrong.returncode == 2 and wrong.stderr.strip() == \
        "cudaperf: error: unknown rule 'barier-divergence'; did you mean barrier-divergence?"
    prefix = run("rule", "CP4")
    assert prefix.returncode == 2 and "name one rule" in prefix.stderr
