"""What an engine is asked to do: `Options`, shared by the local engine (api.py) and the Ray one
(cluster.py), which each import it from here rather than from one another."""

from __future__ import annotations

from dataclasses import asdict, dataclass

DEFAULT_PER_GPU = 3          # candidates at once on a GPU: one times while the others load and run trials
WORKERS_GPU_MEMORY = 0.85    # of a GPU's memory, for its slots' workers together (CUDAPERF_GPU_MEMORY_FRACTION each)


@dataclass
class Options:
    trials: int = 5                   # correctness trials (fresh inputs each); one more re-check after timing
    timing_trials: int = 30           # timed calls per side (median); at least 30
    warmup: int = 3
    atol: float | None = None         # None: per dtype (fp32 1e-4, fp16/bf16 1e-2)
    rtol: float | None = None
    seed: int = 0
    time: bool = True
    compare_compile: bool = False     # also time torch.compile(reference)
    allow_tf32: bool = False          # the task allows TF32 (both sides; fp32 then gets fp16 tolerances)
    build_without_gpu: bool = False   # no GPU: still build KernelBench extensions (nvcc, 20-40 s each)
    compile_timeout: float = 300.0    # load_inline builds inside the worker, and prebuilds
    run_timeout: float = 120.0        # from the end of compilation to the result
    arch: str | None = None           # sm_XX for NVRTC/nvcc; default: the GPU's, else sm_90
    gpus: list[int] | None = None     # indices of visible GPUs; default all (one named twice: twice the slots)
    device: str = "cuda"              # "cpu": exercise the harness on CPU tensors (tests only)
    memory_limit_gb: float = 32.0     # worker resident memory
    spare_workers: int = 4            # per GPU, warming while candidates run (0: start each on demand)
    candidates_per_gpu: int | None = None   # run at once on each GPU (None: 3 with a GPU, else 1); the kernel
                                      # record and timing take the GPU alone (pool.GpuLock)
    fork_workers: bool = True         # workers forked from a process with torch imported (zygote.py), not fresh
    gate: bool = True
    fast_path: str = "on"             # KernelBench on a GPU: "on" (NVRTC + translated wrappers where the subset
                                      # allows, else the full build), "off", or "check" (both; differences flagged)

    def job_options(self) -> dict:
        keys = ("trials", "timing_trials", "warmup", "atol", "rtol", "seed", "time", "compare_compile", "allow_tf32")
        return {k: v for k, v in asdict(self).items() if k in keys}
