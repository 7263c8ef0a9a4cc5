"""Human-readable rendering of analysis reports (the ``text`` format)."""

from __future__ import annotations

from .analysis.occupancy import Occupancy
from .analysis.report import FileReport


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
                out.append(f"    resources {r['registers_per_thread']} registers, {r['static_smem']} B static smem, "
                           f"{r['barriers']} barriers{spills} [{r['source']}]")
                out.append(f"    occupancy {o['theoretical']:.0%} ({o['active_blocks_per_sm']} blocks/SM, "
                           f"limited by {o['limiter']})" + (f": {o['error']}" if o["error"] else ""))
            m = j["memory"]
            out.append(f"    global   load {_fmt(m['global_load_sectors_per_request'])} sectors/request   "
                       f"store {_fmt(m['global_store_sectors_per_request'])}")
            out.append(f"    shared   load {_fmt(m['shared_load_wavefronts_per_request'])} wavefronts/request   "
                       f"store {_fmt(m['shared_store_wavefronts_per_request'])}")
            for a in m["accesses"]:
                metric = a["sectors_per_request"] if a["space"] == "global" else a["wavefronts_per_request"]
                unit = " sectors/req" if a["space"] == "global" else " wavefronts/req" if a["space"] == "shared" else ""
                per_thread = a["executions_per_thread"]
                out.append(f"      {f.path}:{a['line']}:{a['column']}: {a['space']:<8} {a['kind']:<6} "
                           f"{a['text'][:40]:<40} {a['bytes']:>2} B  {a['pattern']:<10} "
                           f"{_fmt(metric, unit) if metric is not None else '':<18}"
                           f"x{per_thread if per_thread is not None else '?'}/thread")
            for b in j["branches"]:
                frac = b["divergent_fraction"]
                out.append(f"      {f.path}:{b['line']}: branch {b['uniformity']:<6} {b['condition'][:50]}"
                           + (f"  (divergent in {frac:.0%} of warps)" if frac else ""))
        out.append("")
    return "\n".join(out)


def render_occupancy(fit: Occupancy) -> str:
    lines = [f"{fit.arch}, {fit.block_size} threads per block",
             f"  active blocks per SM  {fit.active_blocks_per_sm}",
             f"  active warps per SM   {fit.active_warps_per_sm}",
             f"  theoretical occupancy {fit.theoretical:.1%}",
             f"  limiter               {fit.limiter or '-'}"]
    if fit.error:
        lines.append(f"  cannot launch: {fit.error}")
    lines.append("  blocks per SM by limit:")
    for name, value in fit.limits.items():
        lines.append(f"    {name:<14} {'unlimited' if value is None else value}")
    return "\n".join(lines) + "\n"
