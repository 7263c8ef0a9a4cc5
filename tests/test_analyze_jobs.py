"""`cudaperf analyze -j N`: files analysed in worker processes give the output one process gives,
in file order, text and JSON, errors included."""

from __future__ import annotations

import json

import pytest

from cudaperf.cli import main

KERNEL = """
__global__ void k{i}(const float* in, float* out, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i * {i}] = in[i];
}}
void run(const float* in, float* out) {{ k{i}<<<{i} * 64, 128>>>(in, out, 1000); }}
"""


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_workers_give_what_one_process_gives(tmp_path, capsys, fmt):
    for i in range(1, 6):
        (tmp_path / f"f{i}.cu").write_text(KERNEL.format(i=i))
    (tmp_path / "broken.cu").write_bytes(b"\x00\x01binary")
    outputs = []
    for jobs in ("1", "2"):
        assert main(["analyze", str(tmp_path), "--format", fmt, "-j", jobs, "--resources", "estimate"]) == 0
        captured = capsys.readouterr()
        outputs.append((captured.out, captured.err))
    assert outputs[0] == outputs[1]
    assert "binary file" in outputs[0][1]
    where = [outputs[0][0].find(f"kernel k{i}" if fmt == "text" else f'"name": "k{i}"') for i in range(1, 6)]
    assert -1 not in where and where == sorted(where)  # file order


@pytest.mark.parametrize("files", [0, 1, 3])
def test_json_joined_from_workers_is_what_json_dumps_writes(tmp_path, capsys, files):
    """Each worker encodes its file; the joined document must be the one json.dumps(indent=2) gives
    (0: one file that defines no kernel)."""
    for i in range(1, files + 1):
        (tmp_path / f"f{i}.cu").write_text(KERNEL.format(i=i))
    if not files:
        (tmp_path / "empty.cu").write_text("// no kernels here\nint x;\n")
    main(["analyze", str(tmp_path), "--format", "json", "-j", "2", "--resources", "estimate"])
    out = capsys.readouterr().out
    assert out == json.dumps(json.loads(out), indent=2) + "\n"
    assert len(json.loads(out)["files"]) == max(files, 1)
