"""The ``cudaperf`` command.  Subcommands parse options and delegate; they hold no analysis logic.

Exit codes: 0 success (``analyze``: files with parse problems still report, with diagnostics), 1 lint
findings (``profile``/``crosscheck``: the kernel failed to compile or run, or ncu failed; ``eval``: a
candidate is not correct), 2 usage error or no readable input (``lint``: also nothing checked at all,
see lint/command.py; ``rank``: nothing ranked), 3 no usable GPU (``profile``, ``crosscheck`` without a
measurement, and ``eval`` when every candidate not correct is ``no_gpu``), 130 interrupted (Ctrl-C:
everything the command started is killed).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__, config
from .analysis import arch as arch_table
from .analysis.analyzer import Options, find_sources
from .analysis.arch import UnknownArch
from .analysis.launch import LaunchError
from .analysis.occupancy import occupancy
from .analysis.report import SCHEMA, FileReport
from .analysis.source import SourceError
from .analyze_run import analyze_one, analyze_rendered, json_document
from .args_check import check_args
from .cli_common import (
    EXIT_FINDINGS,
    EXIT_NO_GPU,
    EXIT_OK,
    EXIT_USAGE,
    NoGpu,
    Parser,
    RunFailed,
    UsageError,
    dims,
    jobs,
    launch_options,
    nonnegative,
    options_from,
    os_error,
    processes,
    strict_option,
)
from .lint import command as lint_command
from .textout import render_crosscheck, render_occupancy, render_profile


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="cudaperf", description="Read CUDA kernels the way a performance engineer does.")
    parser.add_argument("--version", action="version", version=f"cudaperf {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=Parser)
    analyze = sub.add_parser("analyze", help="per-kernel memory, divergence and access report",
                             description="Analyse CUDA files or directories (searched for .cu/.cuh).")
    analyze.add_argument("paths", nargs="+", metavar="PATH")
    launch_options(analyze)
    strict_option(analyze)
    analyze.add_argument("--format", choices=("text", "json"), default="text")
    analyze.add_argument("-j", "--jobs", type=jobs, default=0, metavar="N",
                         help="files analysed in parallel (default 0: one per CPU core)")
    analyze.set_defaults(handler=cmd_analyze)

    calc = sub.add_parser("occupancy", help="occupancy calculator (cudaOccupancyMaxActiveBlocksPerMultiprocessor)",
                          description="Blocks per SM and theoretical occupancy of one launch configuration.")
    calc.add_argument("--arch", metavar="sm_XX",
                      help="default sm_90, or tool.cudaperf.arch of the nearest pyproject.toml")
    calc.add_argument("--block", type=dims, required=True, metavar="X[,Y[,Z]]",
                      help="block dimensions (threads), as for analyze")
    calc.add_argument("--registers", type=int, required=True, metavar="N", help="registers per thread (ptxas)")
    calc.add_argument("--static-smem", type=nonnegative, default=0, metavar="BYTES")
    calc.add_argument("--smem", type=nonnegative, default=0, metavar="BYTES", help="dynamic shared memory per block")
    calc.add_argument("--dynamic-smem", dest="smem", type=nonnegative, help=argparse.SUPPRESS)  # the old spelling
    calc.add_argument("--max-dynamic-smem", type=nonnegative, metavar="BYTES",
                      help="cudaFuncAttributeMaxDynamicSharedMemorySize, when raised above 48 KB")
    calc.add_argument("--carveout", type=int, metavar="PERCENT", help="preferred shared-memory carveout (0..100)")
    calc.add_argument("--barriers", type=int, default=1, metavar="N", help="named barriers per block (ptxas)")
    calc.add_argument("--format", choices=("text", "json"), default="text")
    calc.set_defaults(handler=cmd_occupancy)

    lint_command.add_parsers(sub)

    roof = sub.add_parser("roofline", help="draw kernels on the architecture's roofline (PNG/SVG/PDF)",
                          description="Measured kernels (--measured or --from-ncu-csv) where they ran, and the "
                                      "static estimates of PATHs hollow at their ceiling, under the CUDA-core and "
                                      "tensor-core roofs (needs matplotlib).  Exit 2 when nothing can be drawn.")
    roof.add_argument("paths", nargs="*", metavar="PATH")
    roof.add_argument("-o", "--output", default="roofline.png", metavar="FILE", help=".png, .svg or .pdf")
    measured = roof.add_mutually_exclusive_group()
    measured.add_argument("--measured", metavar="PROFILE.json", help="a cudaperf profile document (-o of profile)")
    measured.add_argument("--from-ncu-csv", metavar="CSV", help="an ncu --csv --page raw file")
    launch_options(roof)
    roof.set_defaults(handler=cmd_roofline)

    prof = sub.add_parser("profile", help="run one kernel on the GPU: time it and read Nsight Compute counters",
                          description="Measure a kernel (needs CuPy, a GPU and ncu), or import an existing "
                                      "`ncu --csv --page raw` file (no GPU).  Exit 0: measured, 1: the kernel or "
                                      "ncu failed, 2: usage error, 3: no usable GPU.")
    prof.add_argument("path", nargs="?", metavar="FILE.cu")
    prof.add_argument("--from-ncu-csv", metavar="CSV", help="import this ncu --csv --page raw file instead of running")
    launch_options(prof)
    _run_options(prof)
    prof.set_defaults(handler=cmd_profile)

    cross = sub.add_parser("crosscheck", help="static estimates beside measurements, per feature and kernel",
                           description="Analyse FILE.cu under each measured launch and compare.  The measurement "
                                       "comes from --from-ncu-csv, --measured or, without either, a run on the GPU.")
    cross.add_argument("path", metavar="FILE.cu")
    measured = cross.add_mutually_exclusive_group()
    measured.add_argument("--from-ncu-csv", metavar="CSV", help="an ncu --csv --page raw file")
    measured.add_argument("--measured", metavar="PROFILE.json", help="a cudaperf.profile/1 document")
    launch_options(cross)
    _run_options(cross)
    cross.set_defaults(handler=cmd_crosscheck)

    ev = sub.add_parser("eval", help="compile, verify and time candidate kernels against a reference",
                        description="Evaluate candidates (KernelBench .py, native .cu + launch spec, or C-to-CUDA) "
                                    "against a reference (.py or .c).  Directories are batches (JSON lines).  Exit 0: "
                                    "every candidate correct, 1: some are not (or the engine failed: infra_error), "
                                    "2: usage error, 3: no GPU to run the rest.  See docs/eval.md.")
    ev.add_argument("--reference", metavar="REF", help="Model/get_inputs .py, or a C file (required)")
    ev.add_argument("--candidate", nargs="+", metavar="CAND", help="files or directories (required)")
    ev.add_argument("--self-test", action="store_true",
                    help="try to escape the sandbox candidates run in and report each probe (exit 0: all blocked)")
    ev.add_argument("--plan", action="store_true",
                    help="only say which path each candidate would take (fast: NVRTC + translated wrapper, full: "
                         "load_inline build, none: the gate rejects it) and why; no GPU, nothing built or run")
    ev.add_argument("--fast-path", choices=("on", "off", "check"), default="on",
                    help="KernelBench on a GPU: NVRTC + translated wrapper where it applies (on), always the full "
                         "load_inline build (off), or both with differences flagged (check)")
    ev.add_argument("--launch", metavar="SPEC", help="launch spec (JSON/YAML) for .cu candidates without their own")
    ev.add_argument("--harness", metavar="SPEC", help="harness spec of a C reference without its own")
    ev.add_argument("--format", choices=("text", "json", "jsonl"), default="text")
    ev.add_argument("-o", "--output", metavar="FILE", help="write results here instead of stdout")
    ev.add_argument("--trials", type=int, default=5, metavar="N", help="correctness trials (default 5)")
    ev.add_argument("--timing-trials", type=int, default=30, metavar="N", help="timed calls per side (>= 30)")
    ev.add_argument("--atol", type=float, metavar="X", help="absolute tolerance (default per dtype)")
    ev.add_argument("--rtol", type=float, metavar="X", help="relative tolerance (default per dtype)")
    ev.add_argument("--seed", type=int, default=0)
    ev.add_argument("--no-time", action="store_true", help="check correctness only")
    ev.add_argument("--compile", action="store_true", help="also time torch.compile(reference)")
    ev.add_argument("--build-without-gpu", action="store_true",
                    help="without a GPU, still build KernelBench extensions so compile errors show (20-40 s each)")
    ev.add_argument("--allow-tf32", action="store_true",
                    help="the task allows TF32 on both sides (fp32 outputs then get fp16 tolerances)")
    ev.add_argument("--compile-timeout", type=float, default=300.0, metavar="S")
    ev.add_argument("--timeout", type=float, default=120.0, metavar="S", help="run limit per candidate")
    ev.add_argument("--arch", metavar="sm_XX", help="compile for this architecture (default: the GPU's)")
    ev.add_argument("--gpus", metavar="I[,J...]",
                    help="GPU indices to use (default: all visible; an index given twice gets twice the slots)")
    ev.add_argument("--per-gpu", type=int, metavar="N",
                    help="candidates run at once on each GPU (default 3); each takes the GPU alone for its timing")
    ev.add_argument("--ray", metavar="ADDRESS",
                    help="evaluate on a Ray cluster (auto, host:6379, ray://host:10001): one engine per GPU of every "
                         "node; needs the ray extra")
    ev.set_defaults(handler=cmd_eval)

    rank = sub.add_parser("rank", help="order candidate kernels by predicted speed (static pairwise ranker)",
                          description="Rank the kernels of FILEs, fastest first, with the pairwise ranker trained on "
                                      "H200 measurements (docs/ranking.md); --train DATASET retrains it.")
    rank.add_argument("paths", nargs="*", metavar="FILE", help="CUDA sources whose kernels compete")
    rank.set_defaults(launch_actions=launch_options(rank))  # what `rank --reference` names as ignored
    rank.add_argument("--reference", metavar="REF.py", help="rank whole KernelBench candidate FILEs (Python with "
                      "load_inline) at this reference's get_inputs() shapes")
    rank.add_argument("--model", metavar="MODEL.json", help="a ranker model instead of the packaged default")
    rank.add_argument("--train", nargs="?", const="", metavar="DATASET",
                      help="retrain from DATASET (measurements + features; default: the H200 dataset the package "
                           "ships; needs .[ml])")
    rank.add_argument("-o", "--output", metavar="MODEL.json", help="with --train: write the model here")
    rank.add_argument("--format", choices=("text", "json"), default="text")
    rank.set_defaults(handler=cmd_rank)

    tr = sub.add_parser("train", help="GRPO training with cudaperf's rewards (needs the rl extra)",
                        description="Train a local model on a task dataset with TRL's GRPOTrainer.  "
                                    "See docs/rewards.md.")
    tr.add_argument("--dataset", required=True, metavar="TASKS", help="JSON lines or parquet: kind, reference")
    tr.add_argument("--model", required=True, metavar="PATH|ID",
                    help="a local model directory, or a Hugging Face id already in the local cache (never downloaded)")
    tr.add_argument("-o", "--output-dir", required=True, metavar="DIR")
    _reward_options(tr)
    tr.add_argument("--lora-r", type=int, default=0, metavar="R", help="train LoRA adapters of rank R (peft)")
    tr.add_argument("--num-generations", type=int, default=8, metavar="G")
    tr.add_argument("--batch-size", type=int, default=8, metavar="B", help="per device, a multiple of G")
    tr.add_argument("--max-completion-length", type=int, default=1024, metavar="TOKENS")
    tr.add_argument("--max-steps", type=int, default=-1, metavar="N")
    tr.add_argument("--epochs", type=float, default=1.0)
    tr.add_argument("--learning-rate", type=float, default=1e-6)
    tr.add_argument("--temperature", type=float, default=1.0)
    tr.add_argument("--cpu", action="store_true", help="train on the CPU")
    tr.add_argument("--seed", type=int, default=0)
    tr.add_argument("--report-to", default="none", metavar="BACKEND", help="wandb, tensorboard, ... (default none)")
    tr.set_defaults(handler=cmd_train)

    rf = sub.add_parser("refine", help="refine a kernel over several turns with execution feedback",
                        description="Generate, score, feed back compiler errors, mismatches, lint findings and a "
                                    "profile, and generate again.  Trajectories as JSON lines.  See docs/rewards.md.")
    tasks = rf.add_mutually_exclusive_group(required=True)
    tasks.add_argument("--reference", metavar="REF", help="one task: a KernelBench .py or a C file")
    tasks.add_argument("--tasks", metavar="TASKS.jsonl", help="many tasks: kind, reference per line")
    rf.add_argument("--harness", metavar="SPEC", help="harness spec of a C reference without its own")
    rf.add_argument("--model", metavar="PATH|ID|NAME",
                    help="as for train: a local model directory or cached Hugging Face id; with --endpoint, the "
                         "model name the server knows (default 'default')")
    rf.add_argument("--model-dir", dest="model", help=argparse.SUPPRESS)  # the old spelling of a local --model
    rf.add_argument("--endpoint", "--api-base", dest="endpoint", metavar="URL",
                    help="generate with this OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1")
    rf.add_argument("--api-key-env", metavar="VAR", help="environment variable holding the endpoint's API key")
    _reward_options(rf)
    rf.add_argument("--keep-going", action="store_true", help="use every turn, also after a correct answer")
    rf.add_argument("--temperature", type=float, default=0.7)
    rf.add_argument("--max-tokens", type=int, default=4096)
    rf.add_argument("-o", "--output", metavar="FILE", help="trajectories here instead of stdout")
    rf.set_defaults(handler=cmd_refine)
    return parser


def _reward_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--reward", choices=("unified", "execution", "structural"), default="unified")
    p.add_argument("--preset", default="default", help="reward preset: default, milestone, speedup, execution_only")
    p.add_argument("--format", dest="answer_format", choices=("native", "kernelbench"), default="native",
                   help="answer format asked for torch2cuda tasks")
    p.add_argument("--turns", type=int, default=None, metavar="K", help="answers per episode (train 1, refine 4)")
    p.add_argument("--gamma", type=float, default=0.4, help="discount of later turns' rewards")


def _run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--buffer", action="append", default=[], metavar="NAME=COUNT[:DTYPE[:INIT]]",
                   help="size (elements, or an expression over --arg names), type and fill of a pointer argument")
    p.add_argument("--warmup", type=int, default=3, metavar="N", help="untimed launches first (default 3)")
    p.add_argument("--repeats", type=int, default=20, metavar="N", help="timed launches, median reported (default 20)")
    p.add_argument("--no-ncu", action="store_true", help="time only; no Nsight Compute counters")
    p.add_argument("--timeout", type=float, default=300.0, metavar="S", help="limit for the ncu run (default 300)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("-o", "--output", metavar="FILE", help="also write the JSON document to FILE")



def analyze_paths(paths: Sequence[str], options: Options) -> tuple[list[FileReport], list[str]]:
    """Reports for every readable file, and one-line errors for the rest."""
    found = [analyze_one(str(path), options) for path in find_sources(paths)]
    return [report for report, _ in found], [error for _, error in found if error]


def _require_kernel(ns: argparse.Namespace, reports: list[FileReport]) -> None:
    """--kernel that matched nothing is a usage error naming what there is."""
    if ns.kernel and reports and not any(f.kernels for f in reports):
        available = list(dict.fromkeys(name for f in reports for name in f.defined))
        raise UsageError(f"no kernel named {ns.kernel}; available: {', '.join(available) or 'none'}")


def cmd_analyze(ns: argparse.Namespace) -> int:
    options = options_from(ns)
    missing = [p for p in ns.paths if not os.path.exists(p)]
    for p in missing:
        print(f"cudaperf: error: {p}: no such file or directory", file=sys.stderr)
    present = [p for p in ns.paths if p not in missing]
    if ns.arg:
        try:
            check_args(dict(ns.arg), [str(f) for f in find_sources(present)])
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    files = analyze_rendered(present, options, ns.format == "text", processes(ns.jobs)) if present else []
    errors = [f.error for f in files if f.error]
    for e in errors:
        print(f"cudaperf: error: {e}", file=sys.stderr)
    if present and not files:
        print(f"cudaperf: error: no CUDA files (.cu, .cuh, or C++ files defining kernels) in {', '.join(present)}",
              file=sys.stderr)
    if len(files) == len(errors):
        return EXIT_USAGE
    if ns.kernel and files and not any(f.reported for f in files):
        available = list(dict.fromkeys(name for f in files for name in f.defined))
        raise UsageError(f"no kernel named {ns.kernel}; available: {', '.join(available) or 'none'}")
    if ns.format == "json":
        sys.stdout.write(json_document({"schema": SCHEMA, "arch": options.arch}, files) + "\n")
    else:
        sys.stdout.write("\n".join(f.rendered for f in files))  # render_analysis: a blank line between files
    return EXIT_OK


def cmd_occupancy(ns: argparse.Namespace) -> int:
    try:
        found = config.Finder().for_path(os.getcwd())
    except config.ConfigError as exc:
        raise UsageError(str(exc)) from None
    ns.arch = ns.arch or found.get("arch", "sm_90")
    try:
        target = arch_table.get(ns.arch)
    except UnknownArch as exc:
        raise UsageError(f"{found.path}: {exc}" if found.get("arch") == ns.arch else str(exc)) from None
    threads = ns.block[0] * ns.block[1] * ns.block[2]
    if not 1 <= threads <= target.max_threads_per_block:
        raise UsageError(f"--block {'x'.join(map(str, ns.block))} is {threads} threads; "
                         f"{target.name} allows 1 to {target.max_threads_per_block}")
    if not 0 <= ns.registers <= target.max_registers_per_thread:
        raise UsageError(f"--registers {ns.registers}: {target.name} allows 0 to "
                         f"{target.max_registers_per_thread} per thread")
    dynamic = max(ns.smem, ns.max_dynamic_smem or 0)
    if ns.static_smem + dynamic > target.shared_memory_per_block_optin:
        raise UsageError(f"{ns.static_smem + dynamic} bytes of shared memory per block: {target.name} allows at most "
                         f"{target.shared_memory_per_block_optin}")
    fit = occupancy(ns.arch, threads, ns.registers, ns.static_smem, ns.smem, ns.carveout,
                    ns.max_dynamic_smem, ns.barriers)
    if ns.format == "json":
        json.dump({"arch": fit.arch, "block_size": fit.block_size, **fit.to_json()}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render_occupancy(fit))
    return EXIT_OK


def cmd_roofline(ns: argparse.Namespace) -> int:
    from .analysis.dynamic.document import import_ncu_csv, select
    from .roofline import PlotUnavailable, check_output, draw, measured_points, points

    options = options_from(ns)
    if not ns.paths and not (ns.measured or ns.from_ncu_csv):
        raise UsageError("give PATHs to analyse, --measured PROFILE.json or --from-ncu-csv CSV")
    try:
        output = check_output(ns.output)
    except (ValueError, OSError) as exc:
        raise UsageError(str(exc)) from None
    for p in ns.paths:
        if not os.path.exists(p):
            raise UsageError(f"{p}: no such file or directory")
    reports, errors = analyze_paths(ns.paths, options)
    for e in errors:
        print(f"cudaperf: error: {e}", file=sys.stderr)
    _require_kernel(ns, reports)
    target = arch_table.get(options.arch)
    static, skipped = points([(k.kernel.name, k) for f in reports for k in f.kernels], target)
    measured: list = []
    if ns.measured or ns.from_ncu_csv:
        try:
            doc = import_ncu_csv(ns.from_ncu_csv) if ns.from_ncu_csv else json.loads(Path(ns.measured).read_text())
            measured, not_measured = measured_points(select(doc, ns.kernel))
        except OSError as exc:
            raise UsageError(os_error(exc)) from None
        except (ValueError, KeyError, TypeError) as exc:
            raise UsageError(f"{ns.measured or ns.from_ncu_csv}: not a profile document or ncu CSV ({exc})") from None
        skipped += not_measured
    if not static and not measured:
        raise UsageError("no kernel to draw: FLOPs or DRAM bytes unknown or zero"
                         + (f" for {', '.join(skipped)}" if skipped else ""))
    try:
        draw(static, measured, target, output)
    except PlotUnavailable as exc:
        raise UsageError(str(exc)) from None
    print(f"wrote {output}: {len(measured)} measured, {len(static)} static estimates" +
          (f"; not drawn (FLOPs or DRAM bytes unknown or zero): {', '.join(skipped)}" if skipped else ""))
    if not measured:
        print("static estimates are ceilings, not achieved rates: add --measured PROFILE.json or --from-ncu-csv CSV")
    return EXIT_OK


def _measure(ns: argparse.Namespace, options: Options) -> dict:
    """A profile/1 document: imported from --from-ncu-csv, read from --measured, or measured now."""
    from .analysis.dynamic.buffers import parse_request
    from .analysis.dynamic.device import GpuUnavailable
    from .analysis.dynamic.document import import_ncu_csv, select
    from .analysis.dynamic.nsight import NcuFailed
    from .analysis.dynamic.profile import ProfileError, Settings, profile

    try:
        if ns.from_ncu_csv:
            return select(import_ncu_csv(ns.from_ncu_csv), ns.kernel)
        if getattr(ns, "measured", None):
            return select(json.loads(Path(ns.measured).read_text()), ns.kernel)
        if ns.repeats < 1 or ns.warmup < 0:
            raise UsageError("--repeats must be at least 1 and --warmup at least 0")
        requests = {r.name: r for r in map(parse_request, ns.buffer)}
        return profile(ns.path, options, requests, Settings(ns.warmup, ns.repeats, not ns.no_ncu, ns.timeout))
    except OSError as exc:  # an unreadable measurement
        raise UsageError(os_error(exc)) from None
    except ValueError as exc:  # bad CSV or JSON, buffer specs, launches
        raise UsageError(str(exc)) from None
    except GpuUnavailable as exc:
        raise NoGpu(str(exc)) from None
    except (ProfileError, NcuFailed) as exc:
        raise RunFailed(str(exc)) from None


def _emit(doc: dict, ns: argparse.Namespace, render) -> None:
    if ns.output:
        with open(ns.output, "w") as fh:
            json.dump(doc, fh, indent=2)
            fh.write("\n")
    if ns.format == "json":
        json.dump(doc, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render(doc))


def cmd_profile(ns: argparse.Namespace) -> int:
    if not ns.from_ncu_csv and not ns.path:
        raise UsageError("give FILE.cu with --kernel, --grid and --block, or --from-ncu-csv CSV")
    options = options_from(ns)
    doc = _measure(ns, options)
    if not doc["kernels"]:
        raise UsageError("no profiled kernel" + (f" named {ns.kernel}" if ns.kernel else ""))
    _emit(doc, ns, render_profile)
    return EXIT_OK


def cmd_crosscheck(ns: argparse.Namespace) -> int:
    from .analysis.dynamic.crosscheck import crosscheck

    options = options_from(ns)
    if not os.path.isfile(ns.path):
        raise UsageError(f"{ns.path}: no such file")
    doc = _measure(ns, options)
    try:
        result = crosscheck(ns.path, doc, options)
    except SourceError as exc:
        raise UsageError(str(exc)) from None
    _emit(result, ns, render_crosscheck)
    return EXIT_OK


def cmd_eval(ns: argparse.Namespace) -> int:
    if ns.self_test:
        from .rewards.execution import selftest

        return selftest.main(ns.format)
    missing = [flag for flag, value in (("--reference", ns.reference), ("--candidate", ns.candidate)) if not value]
    if missing:
        raise UsageError(f"eval: the following arguments are required: {', '.join(missing)}")
    from .rewards.execution.formats import FormatError

    if ns.plan:
        from .rewards.execution.fastpath import report

        try:
            report.run(ns.reference, ns.candidate, ns.format, ns.output)
        except FormatError as exc:
            raise UsageError(str(exc)) from None
        return EXIT_OK
    from .rewards.execution import batch
    from .rewards.execution.api import Options

    try:
        gpus = [int(g) for g in ns.gpus.split(",")] if ns.gpus else None
    except ValueError:
        raise UsageError(f"--gpus expects comma-separated indices, got {ns.gpus!r}") from None
    if ns.per_gpu is not None and ns.per_gpu < 1:
        raise UsageError(f"--per-gpu must be at least 1, got {ns.per_gpu}")
    options = Options(trials=ns.trials, timing_trials=ns.timing_trials, atol=ns.atol, rtol=ns.rtol, seed=ns.seed,
                      time=not ns.no_time, compare_compile=ns.compile, allow_tf32=ns.allow_tf32,
                      build_without_gpu=ns.build_without_gpu, compile_timeout=ns.compile_timeout,
                      run_timeout=ns.timeout, arch=ns.arch, gpus=gpus, fast_path=ns.fast_path,
                      candidates_per_gpu=ns.per_gpu)
    try:
        results = batch.run(ns.reference, ns.candidate, ns.launch, ns.harness, options, ns.format, ns.output,
                            ray_address=ns.ray)
    except FormatError as exc:
        raise UsageError(str(exc)) from None
    except (ImportError, ConnectionError) as exc:   # no ray installed, no cluster at the address
        raise UsageError(f"--ray {ns.ray}: {exc}") from None
    statuses = {r.status for r in results}
    if statuses == {"correct"}:
        return EXIT_OK
    return EXIT_NO_GPU if statuses <= {"correct", "no_gpu"} else EXIT_FINDINGS


def cmd_train(ns: argparse.Namespace) -> int:
    from .rl import commands

    try:
        return commands.train(ns)
    except (ValueError, OSError) as exc:
        raise UsageError(str(exc)) from None


def cmd_refine(ns: argparse.Namespace) -> int:
    from .rl import commands

    try:
        return commands.refine(ns)
    except (ValueError, OSError) as exc:
        raise UsageError(str(exc)) from None


def _warn_h200_rates(arch: str | None) -> None:
    """The time model's rates were measured on an H200 only: another --arch does not reprice the kernels."""
    if arch not in (None, "sm_90"):
        print(f"cudaperf: warning: --arch {arch}: kernel times are priced at the H200's measured rates (the only "
              "GPU the time model is calibrated on), so the order is the one predicted for an H200", file=sys.stderr)


def cmd_rank(ns: argparse.Namespace) -> int:
    from .rl import rank_cli

    if ns.train is not None:
        try:
            rank_cli.train(ns.train or None, ns.output)
        except ImportError as exc:
            raise UsageError(f"--train needs scipy (pip install 'cudaperf[ml]'): {exc}") from None
        except OSError as exc:
            raise UsageError(f"--train {ns.train or '(the packaged dataset)'}: {os_error(exc)}") from None
        return EXIT_OK
    if not ns.paths:
        raise UsageError("rank needs FILEs (or --train DATASET)")
    if ns.reference:
        ignored = [a.option_strings[0] for a in ns.launch_actions
                   if a.dest != "arch" and getattr(ns, a.dest) != a.default]  # --arch: _warn_h200_rates
        if ignored:
            print(f"cudaperf: warning: rank --reference ignores {', '.join(ignored)}: the reference's "
                  "get_inputs() sets the shapes, and each candidate's own code its launches", file=sys.stderr)
        _warn_h200_rates(ns.arch)
        if not Path(ns.reference).is_file():
            raise UsageError(f"{ns.reference}: no such file")  # candidates that cannot be read rank last, saying so
        try:
            ranked = rank_cli.order_candidates(ns.reference, ns.paths, ns.model, ns.format)
        except ValueError as exc:
            raise UsageError(f"{ns.reference}: {exc}") from None
        if ranked == 0:
            raise UsageError("no candidate could be ranked (the reasons are above)")
        return EXIT_OK
    options = options_from(ns)
    _warn_h200_rates(options.arch)
    try:
        count = rank_cli.order(ns.paths, options, ns.model, ns.format)
    except SourceError as exc:
        raise UsageError(str(exc)) from None
    if count == 0:
        raise UsageError("no kernel to rank" + (f" named {ns.kernel}" if ns.kernel else ""))
    return EXIT_OK


def _collect_less() -> None:
    """The collector settings of a `cudaperf` process (not of a host that imports cudaperf or calls
    `main` with arguments): what was imported is frozen out of every collection, and collections come
    about 7x less often.  The analysis makes many short-lived objects and few cycles, so this cuts the
    collector's CPU by more than half for a few MiB of peak memory."""
    gc.freeze()
    gc.set_threshold(5_000, 20, 100)


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        _collect_less()
    parser = build_parser()
    ns = parser.parse_args(argv)
    if ns.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return ns.handler(ns)
    except (UsageError, LaunchError) as exc:
        print(f"cudaperf: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except NoGpu as exc:
        print(f"cudaperf: no GPU: {exc}", file=sys.stderr)
        return EXIT_NO_GPU
    except RunFailed as exc:
        print(f"cudaperf: error: {exc}", file=sys.stderr)
        return EXIT_FINDINGS
    except KeyboardInterrupt:
        return _interrupted()
    except BrokenPipeError:
        return EXIT_OK


def _interrupted() -> int:
    """After Ctrl-C the workers, compilers and builds started for this command go with it.  A second
    Ctrl-C meanwhile (the kill waits, up to seconds, for them to be gone) is ignored: it would cut the
    cleanup short and end in a traceback."""
    from .workers import kill_descendants

    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: signals reach that thread, not this one
        previous = None
    try:
        kill_descendants()
        print("cudaperf: interrupted", file=sys.stderr)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    return 130


if __name__ == "__main__":
    sys.exit(main())
