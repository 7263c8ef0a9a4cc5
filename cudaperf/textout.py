"""Human-readable rendering of analysis reports (the ``text`` format)."""

from __future__ import annotations

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
