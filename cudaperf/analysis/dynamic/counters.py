"""What Nsight Compute is asked to count, and what those counters mean in ``analyze``'s keys.

The one place that turns counters into measured values (the tests, ``benchmarks/accuracy.py`` and
``cudaperf profile`` all read them through ``measurements``).  Definitions, from
shared/reference/nsight-compute.md:

* sectors per request: ``l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum`` over
  ``l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}.sum``;
* wavefronts per request: ``l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum`` over
  ``smsp__inst_executed_op_shared_{ld,st}.sum`` (every issued LDS/STS, as the analyzer counts);
* FLOPs as ncu's roofline counts them: add + mul + 2 x fma of the thread-level, predicated-on SASS
  counters.  ncu's half-precision counters (``hadd/hmul/hfma``) count fp16 and bf16 instructions
  alike, so ``flops_fp16`` holds both and ``flops_bf16`` is null;
* occupancy as fractions 0..1 (ncu prints percentages);
* branch uniformity: ``smsp__sass_average_branch_targets_threads_uniform.pct`` / 100, null when the
  kernel executed no branch (ncu then prints 0).
"""

from __future__ import annotations

METRICS = (
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "smsp__inst_executed_op_shared_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smsp__sass_average_branch_targets_threads_uniform.pct",
    "smsp__sass_branch_targets_threads_divergent.sum",
    "smsp__sass_branch_targets.sum",
    "smsp__thread_inst_executed_per_inst_executed.ratio",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "sm__maximum_warps_per_active_cycle_pct",
    "smsp__sass_inst_executed_op_global_ld.sum",
    "smsp__sass_inst_executed_op_global_st.sum",
    "gpu__time_duration.sum",
    # Warp instructions with at least one predicated-on thread, and atomic/reduction traffic that
    # the ld/st counters leave out (kept for the record; no key reads them yet).
    "smsp__inst_executed_op_shared_ld_pred_on_any.sum",
    "smsp__inst_executed_op_shared_st_pred_on_any.sum",
    "smsp__inst_executed_op_global_ld_pred_on_any.sum",
    "smsp__inst_executed_op_global_st_pred_on_any.sum",
    "smsp__inst_executed_op_shared_atom.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
)
# Always present on --page raw: the launch the driver saw.
LAUNCH_COUNTERS = (
    "launch__registers_per_thread",
    "launch__shared_mem_per_block_static",
    "launch__shared_mem_per_block_dynamic",
)

Counters = dict[str, float | None]


def _count(value: float | None) -> float | int | None:
    return int(value) if value is not None and float(value).is_integer() else value


def _ratio(c: Counters, numerator: str, denominator: str) -> float | None:
    num, den = c.get(numerator), c.get(denominator)
    return None if num is None or not den else num / den


def _fraction(value: float | None) -> float | None:
    return None if value is None else value / 100.0


def _flops(c: Counters, prefix: str) -> float | int | None:
    """add + mul + 2 x fma for one of ncu's precisions (f, d, h); null unless all three were counted."""
    add, mul, fma = (c.get(f"smsp__sass_thread_inst_executed_op_{prefix}{op}_pred_on.sum")
                     for op in ("add", "mul", "fma"))
    return None if add is None or mul is None or fma is None else _count(add + mul + 2 * fma)


def measurements(c: Counters) -> dict:
    """One launch's counters (base units, as ``NcuRow.number`` returns them) -> the measured sections."""
    flops = {"flops_fp16": _flops(c, "h"), "flops_bf16": None, "flops_fp32": _flops(c, "f"),
             "flops_fp64": _flops(c, "d")}
    known = [flops[k] for k in ("flops_fp16", "flops_fp32", "flops_fp64")]
    targets = c.get("smsp__sass_branch_targets.sum")
    duration = c.get("gpu__time_duration.sum")
    return {
        "memory": {
            "global_load_sectors_per_request": _ratio(c, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                                      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
            "global_store_sectors_per_request": _ratio(c, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                                                       "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
            "shared_load_wavefronts_per_request": _ratio(c, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                                         "smsp__inst_executed_op_shared_ld.sum"),
            "shared_store_wavefronts_per_request": _ratio(c, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                                                          "smsp__inst_executed_op_shared_st.sum"),
            "dram_bytes_read": _count(c.get("dram__bytes_read.sum")),
            "dram_bytes_write": _count(c.get("dram__bytes_write.sum")),
        },
        "occupancy": {
            "theoretical": _fraction(c.get("sm__maximum_warps_per_active_cycle_pct")),
            "achieved": _fraction(c.get("sm__warps_active.avg.pct_of_peak_sustained_active")),
        },
        "resources": {
            "registers_per_thread": _count(c.get("launch__registers_per_thread")),
            "static_smem": _count(c.get("launch__shared_mem_per_block_static")),
        },
        "compute": {**flops, "flops": None if None in known else sum(known)},
        "branches": {
            "uniform_fraction": _fraction(c.get("smsp__sass_average_branch_targets_threads_uniform.pct"))
            if targets else None,
            "targets": _count(targets),
            "divergent_targets": _count(c.get("smsp__sass_branch_targets_threads_divergent.sum")),
        },
        "time": {"ncu_duration_us": None if duration is None else duration / 1000.0},
    }
