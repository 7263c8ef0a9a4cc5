"""Issue 30, item 4: settings as ruff finds and resolves them.  `[tool.cudaperf]` of the pyproject.toml
nearest each linted file, `--config FILE`, `exclude`, `per-file-ignores`, `extend-select`, the command
line's `--select` over the project's `ignore`, specificity, and `occupancy` reading `arch`."""

from __future__ import annotations

import json

import pytest
from test_cli import run

from cudaperf.lint.selection import Layer, resolve

STRIDED = ("__global__ void k(const float* in, float* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;"
           " out[i] = 2.f * in[i * 32]; }\n")
LAUNCH = ("--grid", "4096", "--block", "256", "--format", "json")  # 1 M threads: not overhead-bound


def codes(proc) -> list[tuple[str, str]]:
    return sorted((f["path"], f["code"]) for f in json.loads(proc.stdout)["findings"])


@pytest.fixture
def tree(tmp_path):
    """root/pyproject.toml ignores CP101; root/sub/pyproject.toml selects it back; root/sub/plain has a
    pyproject.toml without [tool.cudaperf], which does not count."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n[tool.cudaperf]\nignore = ["CP101"]\n')
    for folder in ("", "sub", "sub/plain", "third_party"):
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / "k.cu").write_text(STRIDED)
    (tmp_path / "sub" / "pyproject.toml").write_text('[tool.cudaperf]\nselect = ["uncoalesced-access"]\n')
    (tmp_path / "sub" / "plain" / "pyproject.toml").write_text('[project]\nname = "y"\n')
    return tmp_path


def test_each_file_takes_the_nearest_settings(tree):
    proc = run("lint", ".", *LAUNCH, cwd=tree)
    assert codes(proc) == [("sub/k.cu", "CP101"), ("sub/plain/k.cu", "CP101")]
    from_inside = run("lint", "k.cu", *LAUNCH, cwd=tree / "sub" / "plain")  # the working directory does not matter
    assert codes(from_inside) == [("k.cu", "CP101")]


def test_config_file_replaces_discovery(tree):
    (tree / "strict.toml").write_text('select = ["CP1"]\n')
    proc = run("lint", ".", "--config", "strict.toml", *LAUNCH, cwd=tree)
    assert [code for _, code in codes(proc)] == ["CP101"] * 4
    missing = run("lint", ".", "--config", "nope.toml", cwd=tree)
    assert missing.returncode == 2 and missing.stderr.strip().endswith("nope.toml: no such file")
    (tree / "bad.toml").write_text('selects = ["CP1"]\n')
    bad = run("lint", ".", "--config", "bad.toml", cwd=tree)
    assert bad.returncode == 2 and "unknown key selects" in bad.stderr


def test_exclude_and_per_file_ignores(tree):
    (tree / "pyproject.toml").write_text('[tool.cudaperf]\nexclude = ["third_party"]\n'
                                         'per-file-ignores = { "sub/plain/*.cu" = ["uncoalesced-access"] }\n')
    (tree / "sub" / "pyproject.toml").unlink()
    proc = run("lint", ".", *LAUNCH, cwd=tree)
    assert codes(proc) == [("k.cu", "CP101"), ("sub/k.cu", "CP101")]
    named = run("lint", "third_party/k.cu", *LAUNCH, cwd=tree)  # named on the command line: linted, as ruff does
    assert codes(named) == [("third_party/k.cu", "CP101")]
    forced = run("lint", "third_party/k.cu", "--force-exclude", *LAUNCH, cwd=tree)
    assert forced.returncode == 2 and "nothing checked" in forced.stderr


def test_extend_select_and_the_command_line_over_the_project(tree):
    (tree / "sub" / "pyproject.toml").write_text('[tool.cudaperf]\nextend-select = ["CP5"]\nignore = ["CP101"]\n')
    project = run("lint", "sub/k.cu", *LAUNCH, cwd=tree)
    assert [c for _, c in codes(project)] == ["CP501"]  # the note is on, CP101 off
    cli = run("lint", "sub/k.cu", *LAUNCH, "--select", "CP101", cwd=tree)
    assert [c for _, c in codes(cli)] == ["CP101"]  # --select replaces the project's set, ignore included


def test_selection_takes_the_most_specific_selector():
    def chosen(**layer) -> set[str]:
        return {r.code for r in resolve([Layer(**layer)])}

    assert "CP402" not in chosen(select=("CP4",), ignore=("CP402",))
    assert "CP402" in chosen(select=("CP402",), ignore=("CP4",))
    assert "CP402" in chosen(select=("redundant-barrier",), ignore=("CP4",))
    assert "CP402" not in chosen(select=("CP402",), ignore=("redundant-barrier",))  # a tie: ignore wins
    assert "CP501" not in chosen() and "CP501" in chosen(extend_select=("CP5",))
    assert {r.code for r in resolve([Layer(ignore=("CP1",)), Layer(select=("CP101",))])} == {"CP101"}
    assert "CP101" not in {r.code for r in resolve([], per_file_ignores=["CP1"])}


def test_unknown_selectors_in_settings_name_the_file(tree):
    (tree / "sub" / "pyproject.toml").write_text('[tool.cudaperf]\nignore = ["uncoalesced-acess"]\n')
    proc = run("lint", "sub/k.cu", cwd=tree)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "sub/pyproject.toml: unknown rule 'uncoalesced-acess'; did you mean uncoalesced-access?" in proc.stderr
    (tree / "sub" / "pyproject.toml").write_text('[tool.cudaperf]\nper-file-ignores = { "*.cu" = "CP101" }\n')
    wrong_type = run("lint", "sub/k.cu", cwd=tree)
    assert wrong_type.returncode == 2 and "per-file-ignores.'*.cu' must be a list of strings" in wrong_type.stderr


def test_occupancy_and_analyze_honour_the_project_arch(tmp_path):
    args = ("occupancy", "--block", "1024", "--registers", "32", "--format", "json")
    assert json.loads(run(*args, cwd=tmp_path).stdout)["active_blocks_per_sm"] == 2  # sm_90: 64 warps per SM
    (tmp_path / "pyproject.toml").write_text('[tool.cudaperf]\narch = "sm_120"\n')
    doc = json.loads(run(*args, cwd=tmp_path).stdout)
    assert doc["arch"] == "sm_120" and doc["active_blocks_per_sm"] == 1  # 48 warps per SM
    assert json.loads(run(*args, "--arch", "sm_90", cwd=tmp_path).stdout)["active_blocks_per_sm"] == 2
