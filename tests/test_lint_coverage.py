"""Issue 30, item 2: lint never looks clean when nothing was checked.  It says what it could not check
(stderr, and `notes` in JSON), reports text it could not parse (CP001), and exits 2 when no kernel was
checked at all."""

from __future__ import annotations

import json

from conftest import ROOT
from test_cli import run

TRANSPOSE = ROOT / "examples" / "transpose.cu"
TWO_D = ("__global__ void k(float* out, const float* in, int w) {\n"
         "  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
         "  out[x * w + y] = in[y * w + x];\n}\n")
# which lanes share a warp decides this one: `t[threadIdx.y][threadIdx.x]` is a 2-way conflict under a
# 16x16 block (rows y and y + 1 of the warp fall in the same banks) and none under a 32-wide one
MIXED = ("__global__ void k(float* out, int w) {\n"
         "  __shared__ float t[32][32];\n"
         "  t[threadIdx.y][threadIdx.x] = out[blockIdx.x];\n"
         "  __syncthreads();\n"
         "  out[(blockIdx.x * 32 + threadIdx.y) * w + threadIdx.x] = t[threadIdx.y][threadIdx.x];\n}\n")


def one_line(stderr: str) -> str:
    assert len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr, stderr
    return stderr.strip()


def test_a_kernel_name_that_matches_nothing_is_an_error():
    proc = run("lint", str(TRANSPOSE), "--kernel", "nope")
    assert proc.returncode == 2
    assert one_line(proc.stderr) == ("cudaperf: error: nothing checked: no kernel named nope; available: "
                                     "transpose_naive, transpose_shared, transpose_padded")
    assert proc.stdout == "Nothing checked: no kernel in 1 file.\n"
    assert run("lint", str(TRANSPOSE), "--kernel", "transpose_padded").returncode == 0


def test_files_without_kernels_are_not_clean(tmp_path):
    (tmp_path / "notes.txt").write_text("hello world\n")
    (tmp_path / "main.c").write_text("int main(void) { return 0; }\n")
    text = run("lint", "notes.txt", cwd=tmp_path)
    assert text.returncode == 2 and "CP001 [syntax-error]" in text.stdout  # what analyze shows is reported
    assert "cudaperf: error: nothing checked: no kernels in notes.txt" in text.stderr
    c = run("lint", "main.c", cwd=tmp_path)
    assert c.returncode == 2
    assert c.stderr.splitlines() == ["main.c:1:1: warning: no kernels in this file: nothing checked",
                                     "cudaperf: error: nothing checked: no kernels in main.c"]
    assert c.stdout.startswith("Nothing checked")
    both = run("lint", "main.c", str(TRANSPOSE), "--select", "CP102", cwd=tmp_path)  # one file checked: findings decide
    assert both.returncode == 1 and "main.c:1:1: warning: no kernels in this file" in both.stderr
    assert "3 kernels checked in 2 files; 1 note on stderr says what was not checked" in both.stdout


def test_garbage_and_empty_directories_exit_2_with_a_message(tmp_path):
    (tmp_path / "garbage.cu").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "README.md").write_text("no CUDA here\n")
    garbage = run("lint", "garbage.cu", cwd=tmp_path)
    assert garbage.returncode == 2 and one_line(garbage.stderr) == \
        "cudaperf: error: garbage.cu: binary file, not CUDA source"
    empty = run("lint", "empty", cwd=tmp_path)
    assert empty.returncode == 2 and one_line(empty.stderr) == \
        "cudaperf: error: nothing checked: no CUDA files (.cu, .cuh, or C++ files defining kernels) in empty"


def test_syntax_errors_are_findings(tmp_path):
    (tmp_path / "broken.cu").write_text("__global__ void k(float* x) {\n  x[threadIdx.x = ;\n}\n")
    proc = run("lint", "broken.cu", "--format", "json", cwd=tmp_path)
    doc = json.loads(proc.stdout)
    assert proc.returncode == 1 and doc["kernels"] == 1
    assert [(f["code"], f["name"], f["severity"], f["line"]) for f in doc["findings"]] == \
        [("CP001", "syntax-error", "error", 2)]
    ignored = run("lint", "broken.cu", "--ignore", "syntax-error", cwd=tmp_path)
    assert ignored.returncode == 0


def test_rules_skipped_under_a_guessed_block_are_named(tmp_path):
    (tmp_path / "k.cu").write_text(MIXED)
    guessed = run("lint", "k.cu", "--format", "json", "--ignore", "register-spill", cwd=tmp_path)
    doc = json.loads(guessed.stdout)
    assert guessed.returncode == 0 and not doc["findings"]
    (note,) = doc["notes"]
    assert note["severity"] == "note" and note["line"] == 1
    assert note["message"].startswith("kernel k: 2 accesses reading threadIdx.y/z not checked by bank-conflict: "
                                      "which threads share a warp depends on the block's shape")
    assert "block 16x16x1 is a default, no launch of `k` gave it; give --block" in note["message"]
    text = run("lint", "k.cu", "--ignore", "register-spill", cwd=tmp_path)
    assert text.stderr.startswith("k.cu:1:1: note: kernel k: 2 accesses reading threadIdx.y/z not checked")
    assert text.stdout == "All checks passed; 1 kernel checked in 1 file; 1 note on stderr says what was not checked.\n"
    given = run("lint", "k.cu", "--block", "16,16", "--grid", "8,8", "--arg", "w=128", "--format", "json",
                "--ignore", "CP202", cwd=tmp_path)
    checked = json.loads(given.stdout)
    assert given.returncode == 1 and not checked["notes"]
    assert {f["line"] for f in checked["findings"] if f["name"] == "bank-conflict"} == {3, 5}
    wide = run("lint", "k.cu", "--block", "32,8", "--grid", "8,8", "--format", "json", cwd=tmp_path)
    assert not [f for f in json.loads(wide.stdout)["findings"] if f["name"] == "bank-conflict"]


def test_a_pattern_every_block_shape_shares_is_reported_under_a_guessed_block(tmp_path):
    """Issue 26, class 7: the naive transpose's `out[x * w + y]` is strided whatever blockDim.x >= 2
    is, so a guessed block does not silence it; the message says it held for every shape tried.
    Its read `in[y * w + x]` is coalesced under every shape: checked, no note."""
    (tmp_path / "k.cu").write_text(TWO_D)
    proc = run("lint", "k.cu", "--format", "json", "--ignore", "register-spill", cwd=tmp_path)
    doc = json.loads(proc.stdout)
    assert proc.returncode == 1 and not doc["notes"]
    (finding,) = doc["findings"]
    assert (finding["name"], finding["line"], finding["column"]) == ("uncoalesced-access", 3, 3)
    assert finding["message"].startswith("store of `out` is strided under every block shape tried "
                                         "(16x16, 32x8, 32x32; no launch gives the block): ")
    assert "(assuming w = 1024)" in finding["message"]


def test_the_sarif_log_carries_what_was_not_checked(tmp_path):
    (tmp_path / "k.cu").write_text(MIXED)
    log = json.loads(run("lint", "k.cu", "--format", "sarif", cwd=tmp_path).stdout)
    (invocation,) = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is True
    notification, spills = invocation["toolExecutionNotifications"]
    assert notification["level"] == "note" and "give --block" in notification["message"]["text"]
    assert spills["level"] == "note" and "register-spill did not check" in spills["message"]["text"]
    assert "locations" not in spills  # about the run, not a place in a file


def test_a_cuda_header_of_device_helpers_warns_and_exits_0(tmp_path):
    """What pre-commit passes when a commit touches only a header: no kernel to check is not a failure."""
    (tmp_path / "helpers.cuh").write_text("__device__ float twice(float x) { return 2.0f * x; }\n")
    proc = run("lint", "helpers.cuh", cwd=tmp_path)
    assert proc.returncode == 0
    assert "cudaperf: warning: no kernels in the files linted: nothing checked" in proc.stderr
    assert proc.stdout.startswith("Nothing checked")
