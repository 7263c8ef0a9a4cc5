"""Which GPU a measurement came from, stored with every measured report.

Counters mean little without the device (an L2 of 60 MB keeps what a 6 MB one evicts), so each
``cudaperf.profile/1`` document carries one identity: from NVML (nvidia-ml-py, imported here and
only here) and the CUDA device properties when a kernel ran, or from the ``device__attribute_*``
columns Nsight Compute writes when a CSV is imported.
"""

from __future__ import annotations

from collections.abc import Callable

from .ncu_csv import NcuRow

KEYS = ("name", "compute_capability", "sm_count", "sm_clock_mhz", "max_sm_clock_mhz", "memory_clock_mhz",
        "max_memory_clock_mhz", "memory_bytes", "l2_bytes", "driver", "source")


class GpuUnavailable(RuntimeError):
    """No usable GPU (or no GPU package): the message is one line saying what is missing."""


def _int(value: float | None, scale: float = 1.0) -> int | None:
    return None if value is None else round(value / scale)


def from_ncu(row: NcuRow) -> dict:
    """The identity Nsight Compute recorded with a launch (``--page raw`` always has these columns)."""
    major = row.text("device__attribute_compute_capability_major")
    minor = row.text("device__attribute_compute_capability_minor")
    return {
        "name": row.text("device__attribute_display_name"),
        "compute_capability": f"{major}.{minor}" if major is not None and minor is not None else row.text("CC"),
        "sm_count": _int(row.number("device__attribute_multiprocessor_count")),
        "sm_clock_mhz": None,
        "max_sm_clock_mhz": _int(row.number("device__attribute_max_gpu_frequency_khz"), 1000),
        "memory_clock_mhz": None,
        "max_memory_clock_mhz": _int(row.number("device__attribute_max_mem_frequency_khz"), 1000),
        "memory_bytes": _int(row.number("device__attribute_total_memory")),
        "l2_bytes": _int(row.number("device__attribute_l2_cache_size")),
        "driver": None,
        "source": "ncu",
    }


def _ask(call: Callable[[], object]) -> object | None:
    try:
        return call()
    except Exception:  # an NVML query a driver or board does not support: that field stays null
        return None


def _nvml(index: int) -> dict:
    try:
        import pynvml
    except ImportError:
        raise GpuUnavailable("nvidia-ml-py is not installed (pip install 'cudaperf[gpu]')") from None
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError as exc:
        raise GpuUnavailable(f"no NVIDIA driver answered NVML: {exc}") from None
    try:
        h = pynvml.nvmlDeviceGetHandleByIndex(index)
        name = _ask(lambda: pynvml.nvmlDeviceGetName(h))
        capability = _ask(lambda: pynvml.nvmlDeviceGetCudaComputeCapability(h))
        driver = _ask(pynvml.nvmlSystemGetDriverVersion)
        memory = _ask(lambda: pynvml.nvmlDeviceGetMemoryInfo(h).total)
        return {
            "name": name.decode() if isinstance(name, bytes) else name,
            "compute_capability": "{}.{}".format(*capability) if capability else None,
            "sm_clock_mhz": _ask(lambda: pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM)),
            "max_sm_clock_mhz": _ask(lambda: pynvml.nvmlDeviceGetMaxClockInfo(h, pynvml.NVML_CLOCK_SM)),
            "memory_clock_mhz": _ask(lambda: pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_MEM)),
            "max_memory_clock_mhz": _ask(lambda: pynvml.nvmlDeviceGetMaxClockInfo(h, pynvml.NVML_CLOCK_MEM)),
            "memory_bytes": memory,
            "driver": driver.decode() if isinstance(driver, bytes) else driver,
        }
    except pynvml.NVMLError as exc:
        raise GpuUnavailable(f"NVML has no device {index}: {exc}") from None
    finally:
        _ask(pynvml.nvmlShutdown)


def identify(index: int = 0, cuda_properties: dict | None = None) -> dict:
    """NVML's view of device ``index`` (name, capability, clocks, memory, driver); the CUDA device
    properties of the run, when given, add the SM count and L2 size NVML does not report and stand
    in for NVML when nvidia-ml-py is missing."""
    props = cuda_properties or {}
    try:
        nvml, source = _nvml(index), "nvml"
    except GpuUnavailable:
        if not props:
            raise
        nvml, source = {}, "cuda"
    name = props.get("name")
    from_cuda = {
        "name": name.decode() if isinstance(name, bytes) else name,
        "compute_capability": f"{props['major']}.{props['minor']}" if "major" in props else None,
        "sm_count": props.get("multiProcessorCount"),
        "memory_bytes": props.get("totalGlobalMem"),
        "l2_bytes": props.get("l2CacheSize"),
    }
    merged = {key: nvml.get(key) if nvml.get(key) is not None else from_cuda.get(key) for key in KEYS}
    merged["source"] = source + ("+cuda" if props and source == "nvml" else "")
    return merged
