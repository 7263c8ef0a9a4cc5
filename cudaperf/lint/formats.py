"""Text renderings of findings: the full form (severity, the source line with the smell underlined, the
fix), one line per finding (`concise`), GitHub Actions annotations, per-rule counts, the closing line."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ..colour import Paint
from .rules import Finding

_GITHUB_LEVEL = {"error": "error", "warning": "warning", "note": "notice"}
TAB = 4


def header(f: Finding, paint: Paint) -> str:
    return (f"{paint('bold', f'{f.path}:{f.line}:{f.column}:')} {paint(f.severity, f.severity + ':')} "
            f"{paint('code', f.code)} [{f.name}] {f.message}")


def concise(findings: list[Finding], paint: Paint | None = None) -> str:
    paint = paint or Paint(False)
    return "".join(header(f, paint) + "\n" for f in findings)


class Lines:
    """Source lines of the files findings point into, read once each (bytes: columns are byte offsets)."""

    def __init__(self):
        self._files: dict[str, list[bytes]] = {}

    def get(self, path: str, line: int) -> bytes | None:
        if path not in self._files:
            try:
                self._files[path] = Path(path).read_bytes().split(b"\n")
            except OSError:
                self._files[path] = []
        lines = self._files[path]
        return lines[line - 1].rstrip(b"\r") if 0 < line <= len(lines) else None


def snippet(f: Finding, source: bytes, paint: Paint) -> str:
    """The line with the expression underlined (to the end of the line when it goes on)."""
    start = max(0, f.column - 1)
    end = f.end_column - 1 if f.end_line == f.line and f.end_column > f.column else len(source)
    before = source[:start].decode(errors="replace").expandtabs(TAB)
    marked = source[start:max(end, start + 1)].decode(errors="replace")
    shown = source.decode(errors="replace").expandtabs(TAB)
    width = max(1, len((before + marked).expandtabs(TAB)) - len(before))
    gutter = len(str(f.line))
    bar = paint("dim", " " * gutter + " |")
    return (f"{bar}\n{paint('dim', f'{f.line} |')} {shown}\n"
            f"{bar} {' ' * len(before)}{paint(f.severity, '^' * width)}\n")


def text(findings: list[Finding], paint: Paint | None = None, lines: Lines | None = None) -> str:
    """Each finding: its header, the source line with a caret under the smell, and the fix."""
    paint, lines = paint or Paint(False), lines or Lines()
    out = []
    for f in findings:
        source = lines.get(f.path, f.line)
        body = snippet(f, source, paint) if source is not None else ""
        gutter = " " * len(str(f.line))
        out.append(f"{header(f, paint)}\n{body}{gutter} {paint('dim', '=')} {paint('fix', 'fix:')} {f.fix}\n\n")
    return "".join(out)


def summary(findings: list[Finding], kernels: int | None = None, files: int | None = None, notes: int = 0) -> str:
    """The closing line after the text findings: what was found, what was checked, what was not."""
    in_files = f"in {files} file{'s' if files != 1 else ''}"
    checked = "" if kernels is None else f"; no kernel checked {in_files}" if not kernels else \
        f"; {kernels} kernel{'s' if kernels != 1 else ''} checked {in_files}"
    tail = f"; {notes} note{'s' if notes != 1 else ''} on stderr {'say' if notes != 1 else 'says'} what was not " \
           "checked" if notes else ""
    if not findings:
        return f"Nothing checked: no kernel {in_files}{tail}.\n" if kernels == 0 else \
            f"All checks passed{checked}{tail}.\n"
    by = Counter(f.severity for f in findings)
    kinds = ", ".join(f"{by[s]} {s}{'s' if by[s] != 1 else ''}" for s in ("error", "warning", "note") if by[s])
    return f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''} ({kinds}){checked}{tail}.\n"


def _escape(value: str, property_value: bool = False) -> str:
    """Workflow-command escaping (actions/toolkit `escapeData` / `escapeProperty`)."""
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return value.replace(":", "%3A").replace(",", "%2C") if property_value else value


def github(findings: list[Finding]) -> str:
    """`::warning file=...,line=...::message` lines, which GitHub Actions shows on the pull request's diff."""
    out = []
    for f in findings:
        props = {"file": f.path, "line": f.line, "col": f.column, "endLine": f.end_line, "endColumn": f.end_column,
                 "title": f"{f.code} {f.name}"}
        joined = ",".join(f"{k}={_escape(str(v), True)}" for k, v in props.items())
        out.append(f"::{_GITHUB_LEVEL[f.severity]} {joined}::{_escape(f.message)}\n")
    return "".join(out)


def statistics(findings: list[Finding]) -> list[dict]:
    """Findings per rule, most frequent first (as `ruff --statistics`)."""
    counts = Counter((f.code, f.name) for f in findings)
    return [{"code": code, "name": name, "count": n}
            for (code, name), n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]


def statistics_text(rows: list[dict]) -> str:
    return "".join(f"{r['count']:>5}  {r['code']}  {r['name']}\n" for r in rows)


def rule_table(rules, defaults: set[str], paint: Paint | None = None) -> str:
    """`--list-rules`: code, name, severity, whether it runs by default, and what it finds."""
    paint = paint or Paint(False)
    width = max(len(r.name) for r in rules)
    head = f"{'code':<5}  {'name':<{width}}  {'severity':<8}  {'default':<7}  what it finds\n"
    return head + "".join(f"{paint('code', f'{r.code:<5}')}  {r.name:<{width}}  {r.severity:<8}  "
                          f"{'on' if r.code in defaults else 'off':<7}  {r.summary.split('.  ')[0]}\n" for r in rules)
