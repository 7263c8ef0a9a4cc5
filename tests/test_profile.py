"""`cudaperf profile` on a GPU: planning (CPU), the no-GPU path, device identity, and (marked `gpu`)
real runs checked against the committed H200 measurements of the same corpus launches."""

from __future__ import annotations

import json
import subprocess
import sys
import types

import jsonschema
import numpy as np
import pytest
from conftest import ROOT
from ncu_data import SETS, case_options, measured

from cudaperf.analysis.dynamic import device
from cudaperf.analysis.dynamic.buffers import BufferError, BufferRequest, BufferSpec, host_array, parse_request
from cudaperf.analysis.dynamic.counters import METRICS
from cudaperf.analysis.dynamic.document import SCHEMA_FILE
from cudaperf.analysis.dynamic.nsight import command
from cudaperf.analysis.dynamic.profile import Settings, plan, profile
from cudaperf.cli import main

CORPUS, CORPUS_DATA = SETS["corpus"]
CASES = {c["id"]: c for c in json.loads((CORPUS / "manifest.json").read_text())}


def requests(case: dict) -> dict[str, BufferRequest]:
    """The manifest's buffers as --buffer NAME=COUNT:DTYPE:INIT would give them."""
    return {n: BufferRequest(n, str(b["count"]), b["dtype"], b["init"]) for n, b in case["buffers"].items()}


def test_plan_types_arguments_and_sizes_buffers_from_the_kernel():
    case = CASES["vec_float4"]
    p = plan(CORPUS / case["file"], case_options(case, "estimate"), {})
    threads = case["grid"][0] * case["block"][0]
    assert [(q["name"], q["kind"], q["dtype"]) for q in p["params"]] == [
        ("in", "buffer", "float32"), ("out", "buffer", "float32"), ("n", "scalar", "int32")]
    assert p["params"][0]["count"] == 4 * threads  # float4: four scalars per element, one element per thread
    assert p["params"][2]["value"] == case["args"]["n"]
    sized = plan(CORPUS / case["file"], case_options(case, "estimate"),
                 {"in": parse_request("in=n+32"), "out": parse_request("out=2*(n//2):float64:zeros")})
    assert sized["params"][0]["count"] == 4 * (case["args"]["n"] + 32)
    assert sized["params"][1] == {"kind": "buffer", "name": "out", "dtype": "float64",
                                  "count": case["args"]["n"], "init": "zeros"}


def test_plan_refuses_what_it_cannot_run():
    case = CASES["copy_contiguous"]
    with pytest.raises(BufferError, match="no pointer parameter: inn"):
        plan(CORPUS / case["file"], case_options(case, "estimate"), {"inn": parse_request("inn=4")})
    with pytest.raises(BufferError, match="no scalar argument m"):
        plan(CORPUS / case["file"], case_options(case, "estimate"), {"in": parse_request("in=m*2")})
    for bad in ("in", "in=", "in=4:float8", "in=4:float32:ones", "in=4:float32:random_index:0"):
        with pytest.raises(BufferError):
            parse_request(bad)


def test_every_measured_launch_can_be_planned_from_its_manifest():
    for root, _ in SETS.values():
        for case in json.loads((root / "manifest.json").read_text()):
            p = plan(root / case["file"], case_options(case, "estimate"), requests(case))
            buffers = {q["name"]: q for q in p["params"] if q["kind"] == "buffer"}
            assert {n: (q["dtype"], q["count"]) for n, q in buffers.items()} == {
                n: (b["dtype"], b["count"]) for n, b in case["buffers"].items()}, case["id"]
            assert p["grid"] == case["grid"] and p["smem"] == case["smem"]


def test_host_buffers_are_seeded_and_follow_the_manifest_conventions():
    floats = host_array(BufferSpec("x", "float32", 1000, "random"))
    assert np.array_equal(floats, host_array(BufferSpec("x", "float32", 1000, "random")))
    assert floats.min() >= -1 and floats.max() <= 1 and floats.std() > 0.3
    ints = host_array(BufferSpec("i", "int32", 1000, "random"))
    assert ints.min() >= 0 and ints.max() < 16
    index = host_array(BufferSpec("i", "int64", 1000, "random_index:7"))
    assert set(np.unique(index)) == set(range(7))
    assert list(host_array(BufferSpec("a", "uint8", 300, "arange"))[254:258]) == [254, 255, 0, 1]
    bf16 = host_array(BufferSpec("b", "bfloat16", 100, "random"))
    back = (bf16.astype(np.uint32) << 16).view(np.float32)
    assert bf16.dtype == np.uint16 and np.all(np.abs(back) <= 1) and back.std() > 0.3


def test_ncu_command_collects_the_curated_metrics_at_unlocked_clocks(tmp_path):
    cmd = command("ncu", tmp_path / "plan.json", tmp_path / "plan.csv")
    assert cmd[:7] == ["ncu", "--csv", "--page", "raw", "--clock-control", "none", "--metrics"]
    assert cmd[7].split(",") == list(METRICS)
    assert cmd[cmd.index("--log-file") + 1] == str(tmp_path / "plan.csv")
    assert cmd[-3:] == ["-m", "cudaperf.analysis.dynamic.gpu", str(tmp_path / "plan.json")]


def test_without_cupy_profile_says_so_in_one_line(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "cupy", None)  # import cupy -> ImportError
    case = CASES["copy_contiguous"]
    code = main(["profile", str(CORPUS / case["file"]), "--kernel", "copy_float", "--grid", "4096",
                 "--block", "256", "--arg", "n=1048576"])
    err = capsys.readouterr().err
    assert code == 3 and err.startswith("cudaperf: no GPU: CuPy is not installed") and err.count("\n") == 1
    assert main(["crosscheck", str(CORPUS / case["file"]), "--kernel", "copy_float", "--grid", "4096",
                 "--block", "256"]) == 3


def test_usage_errors_come_before_the_gpu(capsys):
    assert main(["profile"]) == 2
    path = str(CORPUS / CASES["copy_contiguous"]["file"])
    assert main(["profile", path, "--kernel", "copy_float", "--grid", "4", "--block", "256",
                 "--buffer", "nope=4"]) == 2
    assert "no pointer parameter" in capsys.readouterr().err


def test_gpu_packages_are_not_imported_with_the_cli():
    code = ("import sys, cudaperf.cli, cudaperf.analysis.dynamic.profile, cudaperf.analysis.dynamic.crosscheck;"
            "print(sorted(m for m in ('cupy', 'pynvml', 'torch') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.strip() == "[]"


def fake_nvml(fail_init: bool = False) -> types.ModuleType:
    nvml = types.ModuleType("pynvml")

    class NVMLError(Exception):
        pass

    def init():
        if fail_init:
            raise NVMLError("Driver Not Loaded")

    nvml.NVMLError, nvml.NVML_CLOCK_SM, nvml.NVML_CLOCK_MEM = NVMLError, 0, 1
    nvml.nvmlInit, nvml.nvmlShutdown = init, lambda: None
    nvml.nvmlDeviceGetHandleByIndex = lambda i: i
    nvml.nvmlDeviceGetName = lambda h: b"NVIDIA H200"
    nvml.nvmlDeviceGetCudaComputeCapability = lambda h: (9, 0)
    nvml.nvmlSystemGetDriverVersion = lambda: "580.159.04"
    nvml.nvmlDeviceGetMemoryInfo = lambda h: types.SimpleNamespace(total=150_109_880_320)
    nvml.nvmlDeviceGetClockInfo = lambda h, clock: [1980, 3201][clock]
    nvml.nvmlDeviceGetMaxClockInfo = lambda h, clock: [1980, 3201][clock]
    return nvml


def test_device_identity_from_nvml_and_cuda(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", fake_nvml())
    ident = device.identify(0, {"name": b"NVIDIA H200", "major": 9, "minor": 0, "multiProcessorCount": 132,
                                "l2CacheSize": 62914560, "totalGlobalMem": 1})
    assert ident == {"name": "NVIDIA H200", "compute_capability": "9.0", "sm_count": 132, "sm_clock_mhz": 1980,
                     "max_sm_clock_mhz": 1980, "memory_clock_mhz": 3201, "max_memory_clock_mhz": 3201,
                     "memory_bytes": 150_109_880_320, "l2_bytes": 62914560, "driver": "580.159.04",
                     "source": "nvml+cuda"}
    monkeypatch.setitem(sys.modules, "pynvml", fake_nvml(fail_init=True))
    with pytest.raises(device.GpuUnavailable, match="Driver Not Loaded"):
        device.identify(0)
    assert device.identify(0, {"name": "X", "major": 8, "minor": 6})["source"] == "cuda"
    monkeypatch.setitem(sys.modules, "pynvml", None)
    with pytest.raises(device.GpuUnavailable, match="nvidia-ml-py is not installed"):
        device.identify(0)


# ---------------------------------------------------------------- on a GPU

GPU_CASES = ["copy_contiguous", "copy_strided_32", "smem_column_pad0", "matmul_tiled_16", "divergence_odd_even"]


@pytest.fixture(scope="module")
def gpu_ready():
    from cudaperf.analysis.dynamic.gpu import cupy
    from cudaperf.analysis.dynamic.nsight import ncu_executable

    try:
        cupy()
        ncu_executable()
    except device.GpuUnavailable as exc:
        pytest.skip(str(exc))


@pytest.mark.gpu
@pytest.mark.parametrize("case_id", GPU_CASES)
def test_profile_reproduces_the_committed_measurement(gpu_ready, case_id):
    case = CASES[case_id]
    doc = profile(CORPUS / case["file"], case_options(case, "estimate"), requests(case), Settings(repeats=5))
    jsonschema.validate(doc, json.loads(SCHEMA_FILE.read_text()))
    got, want = doc["kernels"][0]["measured"], measured(CORPUS_DATA)[case_id]["measured"]
    for key in (k for k in want["memory"] if k.endswith("per_request")):
        expected = want["memory"][key]
        assert got["memory"][key] == (None if expected is None else pytest.approx(expected, abs=0.02))
    assert got["resources"] == want["resources"]
    assert got["occupancy"]["theoretical"] == want["occupancy"]["theoretical"]
    assert got["compute"]["flops_fp32"] == want["compute"]["flops_fp32"]
    assert got["time"]["median_us"] > 0 and got["time"]["repeats"] == 5 and got["time"]["l2_flushed"]
    assert doc["device"]["name"] and doc["device"]["sm_count"] > 0


@pytest.mark.gpu
def test_cli_profile_and_crosscheck_on_the_gpu(gpu_ready, tmp_path, capsys):
    path = str(CORPUS / "kernels" / "coalescing.cu")
    out = tmp_path / "p.json"
    assert main(["profile", path, "--kernel", "copy_strided", "--grid", "4096", "--block", "256",
                 "--arg", "n=1048576", "--arg", "stride=32", "--buffer", "in=n*stride", "-o", str(out)]) == 0
    assert "load 32 sectors/request" in capsys.readouterr().out
    assert main(["crosscheck", path, "--measured", str(out), "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    rows = {c["feature"]: c for c in result["kernels"][0]["comparisons"]}
    assert rows["memory.global_load_sectors_per_request"]["within"] is True


@pytest.mark.gpu
def test_a_kernel_that_does_not_compile_fails_with_exit_1(gpu_ready, tmp_path, capsys):
    src = tmp_path / "bad.cu"
    src.write_text("__global__ void k(float* x) { x[threadIdx.x] = undefined_name; }\n")
    assert main(["profile", str(src), "--kernel", "k", "--grid", "1", "--block", "32", "--no-ncu"]) == 1
    assert capsys.readouterr().err.startswith("cudaperf: error: ")


# ---------------------------------------------------------------- what the H200 returned

H200_PROFILE = json.loads((ROOT / "tests" / "data" / "h200" / "profile" / "profile.json").read_text())


def manifest_case(kernel: dict) -> dict:
    """The corpus case a committed profile entry ran: same kernel, launch and arguments."""
    return next(c for c in CASES.values() if c["kernel"] + (c["template_args"] or "") == kernel["name"]
                and c["grid"] == kernel["launch"]["grid"] and c["block"] == kernel["launch"]["block"]
                and {k: float(v) for k, v in c["args"].items()} == kernel["launch"]["args"])


def test_the_h200_profile_run_reproduces_the_calibration_measurements():
    """`cudaperf profile` on the H200 (tests/data/h200/profile) against the separate ncu run of the
    calibration corpus: the same counts, hence the same ratios, registers and FLOPs."""
    jsonschema.validate(H200_PROFILE, json.loads(SCHEMA_FILE.read_text()))
    assert H200_PROFILE["device"]["name"] == "NVIDIA H200" and H200_PROFILE["device"]["source"] == "nvml+cuda"
    assert len(H200_PROFILE["kernels"]) == 9
    for kernel in H200_PROFILE["kernels"]:
        case = manifest_case(kernel)
        got, want = kernel["measured"], measured(CORPUS_DATA)[case["id"]]["measured"]
        for key in (k for k in want["memory"] if k.endswith("per_request")):
            expected = want["memory"][key]
            assert got["memory"][key] == (None if expected is None else pytest.approx(expected, abs=0.05)), key
        assert got["resources"] == want["resources"] and got["compute"] == want["compute"]
        assert got["occupancy"]["theoretical"] == want["occupancy"]["theoretical"]
        assert kernel["attributes"]["num_regs"] <= got["resources"]["registers_per_thread"]
        assert 0 < got["time"]["min_us"] <= got["time"]["median_us"] and got["time"]["l2_flushed"]


def test_crosscheck_of_the_h200_profile(capsys):
    """Static estimates beside the measured run, through the command (args come from the profile)."""
    path = str(CORPUS / "kernels" / "shared.cu")
    assert main(["crosscheck", path, "--measured", str(ROOT / "tests/data/h200/profile/profile.json"),
                 "--resources", "estimate", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    analysed = [k for k in result["kernels"] if not k["error"]]
    assert [k["name"] for k in analysed] == ["smem_strided"]
    rows = {c["feature"]: c for c in analysed[0]["comparisons"]}
    assert rows["memory.shared_load_wavefronts_per_request"]["static"] == 32
    assert rows["memory.shared_load_wavefronts_per_request"]["measured"] == pytest.approx(32.19, abs=0.01)
    assert rows["memory.shared_load_wavefronts_per_request"]["within"] is True
    assert rows["memory.global_load_sectors_per_request"]["error"] == 0
    summary = {s["feature"]: s for s in result["summary"]}
    assert summary["memory.shared_store_wavefronts_per_request"]["compared"] == 1
    assert len(result["kernels"]) - len(analysed) == 8  # defined in other files
