"""The linter: planted smells and their clean twins, suppressions, selection, formats, exit codes."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT
from test_cli import run

from cudaperf.analysis.analyzer import Options, analyze_file, analyze_source
from cudaperf.analysis.resources import nvcc
from cudaperf.lint.catalogue import pages
from cudaperf.lint.rules import REGISTRY, select
from cudaperf.lint.run import lint_file

PAIRS = {  # rule name: (smelly kernel, clean twin), both analysed with a 256-thread 1-D launch
    "uncoalesced-access": (
        "__global__ void k(const float* in, float* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;"
        " out[i] = in[i * 32]; }",
        "__global__ void k(const float* in, float* out) { int i = blockIdx.x * blockDim.x + threadIdx.x;"
        " out[i] = in[i]; }"),
    "bank-conflict": (
        "__global__ void k(float* out) { __shared__ float t[32][32]; t[threadIdx.y][threadIdx.x] = 1.f;"
        " __syncthreads(); out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y]; }",
        "__global__ void k(float* out) { __shared__ float t[32][33]; t[threadIdx.y][threadIdx.x] = 1.f;"
        " __syncthreads(); out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y]; }"),
    "divergent-branch": (  # loops on both sides: more than nvcc predicates
        "__global__ void k(const float* in, float* out) { int i = blockIdx.x * blockDim.x + threadIdx.x; float a = 0;"
        " if (threadIdx.x % 2) { for (int k = 0; k < 8; ++k) a += in[i + k]; }"
        " else { for (int k = 0; k < 8; ++k) a *= in[i + k]; } out[i] = a; }",
        "__global__ void k(const float* in, float* out) { int i = blockIdx.x * blockDim.x + threadIdx.x; float a = 0;"
        " if ((threadIdx.x / 32) % 2) { for (int k = 0; k < 8; ++k) a += in[i + k]; }"
        " else { for (int k = 0; k < 8; ++k) a *= in[i + k]; } out[i] = a; }"),
}


def lint(code: str, block=(256, 1, 1), **kw) -> list:
    options = Options(grid=(64, 1, 1), block=block, resources="estimate", **kw)
    return lint_file(analyze_source(code, "t.cu", options), list(REGISTRY.values()), code)


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_planted_smell_is_named_and_clean_twin_is_not(name):
    smelly, clean = PAIRS[name]
    block = (32, 32, 1) if name == "bank-conflict" else (256, 1, 1)
    assert name in {f.name for f in lint(smelly, block)}
    assert name not in {f.name for f in lint(clean, block)}


FIELDS = """
__global__ void shade(uchar4* dst, int frame, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        dst[i].x = (dst[i].x * frame + 1) / (frame + 1);
        dst[i].y = (dst[i].y * frame + 1) / (frame + 1);
        dst[i].z = (dst[i].z * frame + 1) / (frame + 1);
    }
}
__global__ void lone(const float4* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i].x;
}
__global__ void copy(const double4* in, double4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { double4 v = in[i]; out[i] = v; }
}
"""


def test_fields_of_one_aligned_element_are_judged_together():
    # the three byte loads of a uchar4 are one 4-byte load; a double4 copy is two 16-byte moves
    # using every byte they fetch; three byte stores stay partial, one float of a float4 is strided
    found = {(f.line, f.message.split(" ")[0]) for f in lint(FIELDS, args={"n": 16384, "frame": 2})
             if f.code == "CP101"}
    assert found == {(5, "store"), (6, "store"), (7, "store"), (12, "load")}


def test_low_occupancy_names_its_limiter():
    # 48,000 B of static shared memory + 1 KB reserved per block: 233,472 // 49,024 = 4 blocks of
    # 4 warps per SM = 16 of 64 warps, 25%, limited by shared memory.  5,000 floats: 11 blocks, 69%.
    code = "__global__ void k(float* a) { __shared__ float s[SIZE];" \
           " s[threadIdx.x] = a[threadIdx.x]; __syncthreads(); a[threadIdx.x] = s[127 - threadIdx.x]; }"
    found = [f for f in lint(code.replace("SIZE", "12000"), block=(128, 1, 1)) if f.name == "low-occupancy"]
    assert len(found) == 1 and "25%" in found[0].message and "shared_memory" in found[0].message
    assert not [f for f in lint(code.replace("SIZE", "5000"), block=(128, 1, 1)) if f.name == "low-occupancy"]


def test_suppressions_line_and_file():
    smelly = PAIRS["uncoalesced-access"][0]
    assert not [f for f in lint(smelly + "  // cudaperf: ignore[CP101]") if f.code == "CP101"]
    assert not [f for f in lint(smelly + "  // cudaperf: ignore[uncoalesced-access]") if f.code == "CP101"]
    assert [f for f in lint(smelly + "  // cudaperf: ignore[CP102]") if f.code == "CP101"]
    assert not lint("// cudaperf: ignore-file\n" + smelly)


def test_selection_by_code_prefix_and_name():
    assert {r.code for r in select(["CP1"])} == {"CP101", "CP102"}
    assert "CP501" not in {r.code for r in select(None, ["memory-bound"])}
    with pytest.raises(ValueError):
        select(["CP999"])


def test_every_rule_is_documented_and_docs_are_generated():
    for r in REGISTRY.values():
        assert r.code.startswith("CP") and r.name == r.name.lower() and " " not in r.name
        assert all([r.summary, r.why, r.example, r.fix])
    generated = pages()
    on_disk = {p.name: p.read_text() for p in (ROOT / "docs" / "rules").glob("*.md")}
    assert on_disk == generated


def test_cli_formats_and_exit_codes(tmp_path):
    smelly, clean = PAIRS["uncoalesced-access"]
    (tmp_path / "bad.cu").write_text(smelly + "\n")
    (tmp_path / "good.cu").write_text(clean + "\n")
    bad = run("lint", str(tmp_path / "bad.cu"), "--resources", "estimate", "--grid", "64", "--block", "256")
    assert bad.returncode == 1 and f"{tmp_path / 'bad.cu'}:1:" in bad.stdout
    assert "CP101 [uncoalesced-access]" in bad.stdout
    good = run("lint", str(tmp_path / "good.cu"), "--resources", "estimate", "--ignore", "CP5")
    assert good.returncode == 0 and good.stdout == ("All checks passed; 1 kernel checked in 1 file; 1 note on stderr "
                                                    "says what was not checked.\n")
    # register-spill needs ptxas's count: under the estimate the run says it checked nothing
    assert good.stderr.strip() == ("cudaperf: note: register-spill did not check any kernel: their registers were "
                                   "estimated, not counted by ptxas (lint's default is --resources estimate; "
                                   "--resources auto or ptxas compiles with nvcc where it is found)")
    spills_left_out = run("lint", str(tmp_path / "good.cu"), "--resources", "estimate", "--ignore", "CP5,CP202")
    assert spills_left_out.stdout == "All checks passed; 1 kernel checked in 1 file.\n" and not spills_left_out.stderr
    doc = json.loads(run("lint", str(tmp_path), "--format", "json", "--resources", "estimate",
                         "--select", "CP101").stdout)
    assert doc["schema"] == "cudaperf.lint/1" and sorted(doc["files"]) == sorted(str(p) for p in tmp_path.glob("*.cu"))
    assert [(f["code"], f["name"], f["kernel"]) for f in doc["findings"]] == [("CP101", "uncoalesced-access", "k")]
    assert set(doc["findings"][0]) == {"path", "line", "column", "end_line", "end_column", "code", "name", "kernel",
                                       "severity", "message", "url"}
    unknown = run("lint", str(tmp_path), "--select", "no-such-rule")
    assert unknown.returncode == 2 and "unknown rule" in unknown.stderr


@pytest.mark.skipif(nvcc() is None, reason="needs nvcc for ptxas")
def test_register_spill_is_reported_from_ptxas():
    path = ROOT / "tests" / "kernels" / "register_spill.cu"  # 48 live floats under a 32-register cap
    proc = run("lint", str(path), "--grid", "1", "--block", "1024", "--select", "register-spill", "--resources", "auto")
    assert proc.returncode == 1 and "CP202 [register-spill]" in proc.stdout and "spill stores" in proc.stdout
    twin = path.read_text().replace("__launch_bounds__(1024, 2)", "__launch_bounds__(256)")  # registers to spare
    report = analyze_source(twin, "twin.cu", Options(grid=(1, 1, 1), block=(256, 1, 1), resources="ptxas"))
    resources = report.kernels[0].resources
    assert resources.source == "ptxas" and resources.spill_stores == 0
    assert not lint_file(report, [REGISTRY["CP202"]], twin)


def test_sync_smells_and_clean_twins():
    """`bad` plants barrier divergence, a back-to-back barrier, a single-address atomic and a
    kernel-ending barrier; `good` is its clean twin; `tiled` keeps the second barrier of a tiled
    loop, which orders the next iteration's stores after this iteration's reads."""
    path = ROOT / "tests" / "kernels" / "sync_smells.cu"
    options = Options(grid=(4, 1, 1), block=(256, 1, 1), resources="estimate")
    report = analyze_file(path, options)
    found = lint_file(report, select(["CP4"]), path.read_text())
    by_kernel = {}
    for f in found:
        by_kernel.setdefault(f.kernel, []).append((f.line, f.name))
    assert by_kernel == {"bad": [(6, "barrier-divergence"), (10, "redundant-barrier"), (11, "atomic-contention"),
                                 (12, "redundant-barrier")]}


@pytest.fixture(scope="session")
def sarif_schema(tmp_path_factory) -> dict:
    """The official SARIF 2.1.0 schema, fetched at set-up time from the npm package that ships it."""
    import subprocess
    import tarfile

    where = tmp_path_factory.mktemp("sarif")
    try:
        subprocess.run(["npm", "pack", "@microsoft/jest-sarif@1.0.0-beta.0", "--silent"], cwd=where,
                       capture_output=True, timeout=120, check=True)
        archive = next(where.glob("*.tgz"))
        with tarfile.open(archive) as tar:
            member = tar.extractfile("package/lib/schemas/sarif-2.1.0-rtm.5.json")
            return json.loads(member.read())
    except (OSError, subprocess.SubprocessError, StopIteration, KeyError) as exc:
        pytest.skip(f"SARIF schema not obtainable here: {exc}")


def test_sarif_output_validates_against_the_official_schema(tmp_path, sarif_schema):
    import jsonschema

    (tmp_path / "bad.cu").write_text((ROOT / "tests" / "kernels" / "sync_smells.cu").read_text())
    proc = run("lint", str(tmp_path / "bad.cu"), "--format", "sarif", "--resources", "estimate",
               "--grid", "4", "--block", "256")
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    jsonschema.validate(doc, sarif_schema)
    results = doc["runs"][0]["results"]
    assert {r["ruleId"] for r in results} >= {"CP401", "CP402", "CP403"}
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in results)
    assert results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1


def test_pyproject_configuration(tmp_path):
    (tmp_path / "k.cu").write_text((ROOT / "tests" / "kernels" / "sync_smells.cu").read_text())
    (tmp_path / "pyproject.toml").write_text(
        '[tool.cudaperf]\nresources = "estimate"\nselect = ["CP4"]\nignore = ["redundant-barrier"]\n')
    doc = json.loads(run("lint", "k.cu", "--grid", "4", "--block", "256", "--format", "json", cwd=tmp_path).stdout)
    assert {f["name"] for f in doc["findings"]} == {"barrier-divergence", "atomic-contention"}
    cli_wins = json.loads(run("lint", "k.cu", "--grid", "4", "--block", "256", "--format", "json",
                              "--select", "CP402", cwd=tmp_path).stdout)
    assert {f["name"] for f in cli_wins["findings"]} == {"redundant-barrier"}  # the command line's select wins
    (tmp_path / "pyproject.toml").write_text('[tool.cudaperf]\ncolour = "red"\n')
    bad = run("lint", "k.cu", cwd=tmp_path)
    assert bad.returncode == 2 and "unknown key tool.cudaperf.colour" in bad.stderr


def test_pre_commit_hook_definition():
    """The hook runs the installed command on CUDA files only (read as text: no YAML dependency)."""
    import re

    text = (ROOT / ".pre-commit-hooks.yaml").read_text()
    fields = dict(re.findall(r"^\s*-?\s*(\w+):\s*(.+)$", text, re.MULTILINE))
    assert fields["id"] == "cudaperf-lint" and fields["entry"] == "cudaperf lint" and fields["language"] == "python"
    files = re.compile(fields["files"])
    assert files.search("kernels/a.cu") and files.search("b.cuh") and not files.search("a.py")


def test_shared_races_planted_and_clean():
    """Two planted races (a neighbour read without a barrier; a tiled loop without its second
    barrier) and their clean twins; a thread re-reading its own slot is no race."""
    path = ROOT / "tests" / "kernels" / "shared_races.cu"
    report = analyze_file(path, Options(grid=(4, 1, 1), block=(256, 1, 1), resources="estimate", args={"n": 1024}))
    found = {(f.kernel, f.line) for f in lint_file(report, select(["shared-race"]), path.read_text())}
    assert found == {("neighbour_no_sync", 4), ("tiled_missing_second", 18)}


def test_no_shared_race_on_kernels_racecheck_passed():
    """compute-sanitizer racecheck found no hazard in the corpus's shared-memory launches on the H200; the
    validation set (checked with memcheck only) holds correct tiled products and reductions."""
    from ncu_data import SETS, case_options

    assert "0 hazards" in (SETS["corpus"][1] / "sanitizer_racecheck.log").read_text()
    flagged = []
    for root, _ in SETS.values():
        for case in json.loads((root / "manifest.json").read_text()):
            options = case_options(case, "estimate")
            report = analyze_file(root / case["file"], options)
            text = (root / case["file"]).read_text()
            flagged += [case["id"] for _ in lint_file(report, select(["shared-race"]), text)]
    assert not flagged


def test_parallel_lint_matches_serial_and_draws_progress_on_terminals_only():
    import io

    from cudaperf.lint.run import lint_paths
    from cudaperf.progress import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    paths = [str(ROOT / "tests" / "kernels"), str(ROOT / "examples")]
    options = Options(resources="estimate")
    terminal, pipe = Terminal(), io.StringIO()
    serial = lint_paths(paths, options, select(), jobs=1, progress=Progress(6, "lint", pipe, minimum=1))
    parallel = lint_paths(paths, options, select(), jobs=2, progress=Progress(6, "lint", terminal, minimum=1))
    assert serial == parallel and len(serial[0]) >= 5 and serial[1]
    assert pipe.getvalue() == ""
    assert f"{len(serial[0])}/6" in terminal.getvalue()


def test_read_modify_writes_without_a_thread_index_race_unless_one_lane_or_atomic():
    source = """
__global__ void shared_hist(const int* keys, int* out) {
    __shared__ int h[16];
    int t = threadIdx.x;
    if (t < 16) h[t] = 0;
    __syncthreads();
    h[keys[blockIdx.x * blockDim.x + t] & 15] += 1;
    __syncthreads();
    if (t < 16) atomicAdd(&out[t], h[t]);
}
__global__ void private_hist(const int* keys, int* hist) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    hist[i * 16 + (keys[i] & 15)] += 1;
}
__global__ void atomic_hist(const int* keys, int* hist) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&hist[keys[i] & 15], 1);
}
__global__ void one_writer(const int* keys, int* hist) {
    if (threadIdx.x == 0 && blockIdx.x == 0) hist[keys[0] & 15] += 1;
}
__global__ void running_max(const int* keys, int* m) {
    int v = keys[blockIdx.x * blockDim.x + threadIdx.x];
    if (v > m[0]) m[0] = v;
}
__global__ void block_partials(const float* x, float* out) {
    if (threadIdx.x == 0) out[blockIdx.x] += x[blockIdx.x];
}
__global__ void block_strided(const float* x, float* out, int n) {
    for (int k = blockIdx.x; k < n; k += gridDim.x)
        if (threadIdx.x == 0) out[k] += x[k];
}
__global__ void one_per_block_to_one_total(const float* x, float* total) {
    if (threadIdx.x == 0) total[0] += x[blockIdx.x];
}
"""
    report = analyze_source(source, "hist.cu", Options(grid=(4, 1, 1), block=(128, 1, 1), resources="estimate"))
    found = {(f.kernel, f.name) for f in lint_file(report, select(["shared-race", "global-race"]), source)}
    assert found == {("shared_hist", "shared-race"), ("running_max", "global-race"),
                     ("one_per_block_to_one_total", "global-race")}
