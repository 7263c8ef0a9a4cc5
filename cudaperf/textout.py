"""Human-readable rendering of analysis reports (the ``text`` format)."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table

from .analysis.occupancy import Occupancy
from .analysis.report import FileReport
from .analysis.work import PRECISIONS


def table(rows: list[list[str]], headers: list[str] | None = None, indent: int = 0,
          right: tuple[int, ...] = ()) -> str:
    """Aligned columns through rich, as plain text (no colour, no wrapping, no trailing blanks)."""
    grid = Table(box=None, show_header=headers is not None, header_style=None, pad_edge=False, padding=(0, 2, 0, 0))
    for i, name in enumerate(headers or [""] * max((len(r) for r in rows), default=0)):
        grid.add_column(name, justify="right" if i in right else "left", no_wrap=True)
    for row in rows:
        grid.add_row(*row)
    console = Console(file=io.StringIO(), width=100_000, color_system=None, highlight=False, markup=False,
                      emoji=False)
    with console.capture() as captured:
        console.print(grid)
    return "\n".join(" " * indent + line.rstrip() for line in captured.get().splitlines() if line.strip())


def _fmt(x: float | None, unit: str = "") -> str:
    return "-" if x is None else f"{x:.2f}{unit}"


def render_analysis(reports: list[FileReport]) -> str:
    out: list[str] = []
    for f in reports:
        out.append(f.path)
        for d in f.diagnostics:
            out.append(f"  {f.path}:{d.line}:{d.column}: {d.severity}: {d.message}")
        if not f.kernels and not f.diagnostics:
            out.append("  no kernels")
        for k in f.kernels:
            j = k.to_json()
            launch = j["launch"]
            args = ", ".join(f"{n}={a['value']} ({a['source']})" for n, a in launch["args"].items())
            out.append(f"  kernel {j['name']} (line {j['line']})")
            out.append(f"    launch   grid {tuple(launch['grid'])} block {tuple(launch['block'])} "
                       f"smem {launch['dynamic_smem']} [{launch['source']}]" + (f"  args: {args}" if args else ""))
            r, o = j["resources"], j["occupancy"]
            if r and o:
                spills = f", {r['spill_stores']} B spilled" if r["spill_stores"] else ""
                why = f": {r['note']}" if r["note"] else ""
                out.append(f"    resources {r['registers_per_thread']} registers, {r['static_smem']} B static smem, "
                           f"{r['barriers']} barriers{spills} [{r['source']}{why}]")
                out.append(f"    occupancy {o['theoretical']:.0%} ({o['active_blocks_per_sm']} blocks/SM, "
                           f"limited by {o['limiter']})" + (f": {o['error']}" if o["error"] else ""))
            m = j["memory"]
            out.append(_work_line(j["compute"], m, k))
            out.append(f"    global   load {_fmt(m['global_load_sectors_per_request'])} sectors/request   "
                       f"store {_fmt(m['global_store_sectors_per_request'])}")
            out.append(f"    shared   load {_fmt(m['shared_load_wavefronts_per_request'])} wavefronts/request   "
                       f"store {_fmt(m['shared_store_wavefronts_per_request'])}")
            rows = []
            for a in m["accesses"]:
                metric = a["sectors_per_request"] if a["space"] == "global" else a["wavefronts_per_request"]
                unit = " sectors/req" if a["space"] == "global" else " wavefronts/req" if a["space"] == "shared" else ""
                per_thread = a["executions_per_thread"]
                rows.append([f"{f.path}:{a['line']}:{a['column']}: {a['space']}", a["kind"], a["text"][:40],
                             f"{a['bytes']} B", a["pattern"], _fmt(metric, unit) if metric is not None else "",
                             f"x{per_thread if per_thread is not None else '?'}/thread"])
            for b in j["branches"]:
                frac = b["divergent_fraction"]
                rows.append([f"{f.path}:{b['line']}: branch", b["uniformity"], b["condition"][:50], "", "",
                             f"divergent in {frac:.0%} of warps" if frac else "", ""])
            if rows:
                out.append(table(rows, indent=6, right=(3,)))
        out.append("")
    return "\n".join(out)


def _bytes(n: float | None) -> str:
    return "?" if n is None else f"{n / 1e6:,.2f} MB" if n >= 1e5 else f"{n:,.0f} B"


def _work_line(compute: dict | None, memory: dict, report) -> str:
    """FLOPs, DRAM bytes, arithmetic intensity and the roofline bound, or why each is unknown."""
    if compute is None:
        return "    work     not estimated"
    flops = compute["flops"]
    spent = ", ".join(f"{p} {compute[f'flops_{p}']:,}" for p in PRECISIONS if compute[f"flops_{p}"])
    flop_text = f"{flops:,} FLOPs" + (f" ({spent})" if spent else "") if flops is not None \
        else f"FLOPs unknown ({compute['reason']})"
    read, write = memory["dram_bytes_read"], memory["dram_bytes_write"]
    later = report.dram.written - write if read is not None else 0  # written back after the kernel
    dram_text = f"DRAM {_bytes(read)} read + {_bytes(write)} written" + (
        f" (+ {_bytes(later)} after the kernel, counted in FLOP/B)" if later >= 1 else "") if read is not None \
        else f"DRAM bytes unknown ({report.dram.reason if report.dram else 'not estimated'})"
    intensity = compute["arithmetic_intensity"]
    bound = f", {intensity:,.2f} FLOP/B, {compute['bound']}-bound" if intensity is not None else ""
    return f"    work     {flop_text}; {dram_text}{bound}"


def render_occupancy(fit: Occupancy) -> str:
    lines = [f"{fit.arch}, {fit.block_size} threads per block",
             f"  active blocks per SM  {fit.active_blocks_per_sm}",
             f"  active warps per SM   {fit.active_warps_per_sm}",
             f"  theoretical occupancy {fit.theoretical:.1%}",
             f"  limiter               {fit.limiter or '-'}"]
    if fit.error:
        lines.append(f"  cannot launch: {fit.error}")
    lines.append("  blocks per SM by limit:")
    lines.append(table([[name, "unlimited" if value is None else str(value)] for name, value in fit.limits.items()],
                       indent=4))
    return "\n".join(lines) + "\n"


def _num(x: float | None) -> str:
    """Counts with thousands separators, other values to three decimals, '-' for not measured."""
    if x is None:
        return "-"
    return f"{int(x):,}" if float(x).is_integer() else f"{x:,.3f}"


def render_profile(doc: dict) -> str:
    """A ``cudaperf.profile/1`` document: the device, then each measured kernel."""
    d = doc["device"] or {}
    out = [f"device {d.get('name') or '?'} (compute capability {d.get('compute_capability') or '?'}, "
           f"{d.get('sm_count') or '?'} SMs, max clocks {d.get('max_sm_clock_mhz') or '?'} / "
           f"{d.get('max_memory_clock_mhz') or '?'} MHz, driver {d.get('driver') or '?'}) [{d.get('source', '-')}]"]
    for k in doc["kernels"]:
        launch, m = k["launch"], k["measured"]
        args = ", ".join(f"{n}={_num(v)}" for n, v in launch.get("args", {}).items())
        out.append(f"  kernel {k['name']}")
        out.append(f"    launch    grid {tuple(launch['grid'])} block {tuple(launch['block'])} "
                   f"smem {launch['dynamic_smem']}" + (f"  args: {args}" if args else ""))
        t = m["time"]
        if "median_us" in t:
            out.append(f"    time      median {_num(t['median_us'])} us (min {_num(t['min_us'])}, {t['repeats']} runs "
                       f"after {t['warmup']} warm-up{', L2 flushed' if t['l2_flushed'] else ''})"
                       f"   ncu {_num(t['ncu_duration_us'])} us")
        else:
            out.append(f"    time      ncu {_num(t['ncu_duration_us'])} us")
        mem, occ, res, c, b = m["memory"], m["occupancy"], m["resources"], m["compute"], m["branches"]
        out.append(f"    global    load {_num(mem['global_load_sectors_per_request'])} sectors/request   "
                   f"store {_num(mem['global_store_sectors_per_request'])}")
        out.append(f"    shared    load {_num(mem['shared_load_wavefronts_per_request'])} wavefronts/request   "
                   f"store {_num(mem['shared_store_wavefronts_per_request'])}")
        out.append(f"    dram      read {_num(mem['dram_bytes_read'])} B   write {_num(mem['dram_bytes_write'])} B")
        out.append(f"    occupancy theoretical {_num(occ['theoretical'])}   achieved {_num(occ['achieved'])}   "
                   f"registers {_num(res['registers_per_thread'])}   static smem {_num(res['static_smem'])} B")
        out.append(f"    flops     fp16 {_num(c['flops_fp16'])}   fp32 {_num(c['flops_fp32'])}   "
                   f"fp64 {_num(c['flops_fp64'])}")
        out.append(f"    branches  uniform {_num(b['uniform_fraction'])}   divergent targets "
                   f"{_num(b['divergent_targets'])} of {_num(b['targets'])}")
    return "\n".join(out) + "\n"


def render_crosscheck(result: dict) -> str:
    """Per kernel the static estimate beside the measurement, then the per-feature summary."""
    out = []
    for k in result["kernels"]:
        if k["error"]:
            continue
        out.append(f"kernel {k['name']}  grid {tuple(k['launch']['grid'])} block {tuple(k['launch']['block'])}")
        out.append(table([[c["feature"], _num(c["static"]), _num(c["measured"]), _num(c["error"]),
                           {True: "ok", False: "OFF", None: "not estimated"}[c["within"]]] for c in k["comparisons"]],
                         ["feature", "static", "measured", "error", ""], indent=2, right=(1, 2, 3)))
    skipped: dict[str, list[str]] = {}
    for k in result["kernels"]:
        if k["error"]:
            skipped.setdefault(k["error"], []).append(k["name"])
    for why, names in skipped.items():
        out.append(f"not analysed ({why}): {', '.join(dict.fromkeys(names))}")
    out.append("")
    out.append(table([[s["feature"], str(s["measured"]), str(s["compared"]), str(s["within"]),
                       _num(s["mean_abs_error"]), _num(s["max_abs_error"]),
                       "-" if s["median_relative_error"] is None else f"{s['median_relative_error']:.1%}"]
                      for s in result["summary"]],
                     ["feature", "measured", "compared", "within", "mean |err|", "max |err|", "median rel"],
                     right=(1, 2, 3, 4, 5, 6)))
    return "\n".join(out) + "\n"
