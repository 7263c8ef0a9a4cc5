"""Check lint's race findings against compute-sanitizer racecheck on the same programs.

    python benchmarks/racecheck_compare.py FINDINGS.jsonl OUT_DIR

FINDINGS.jsonl is `cudaperf lint --format jsonl` output over the HeCBench / cuda-samples copies (paths
like hecbench/src/<name>-cuda/... and cuda-samples/Samples/<category>/<sample>/...); OUT_DIR is what
benchmarks/racecheck_corpus.sh wrote.  Every shared-race / implicit-warp-sync finding of a program
in OUT_DIR gets a verdict: confirmed (racecheck reports a hazard with that source line as one side),
not seen (racecheck ran to its summary and no hazard touches the line) or not run (skipped, build
failed, timed out, or no racecheck summary).  Prints a markdown table and counts per rule.
Exit codes: 0 done, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

RULES = ("shared-race", "implicit-warp-sync")
VERDICTS = ("confirmed", "not seen", "not run")

# A report starts with a severity and either the analysis form ("Race reported between Write access
# ... and Read access ...", sides on this line and the next) or the hazard form ("Potential WAW hazard
# detected at __shared__ ...", sides on the following "Write Thread (x,y,z) at ..." lines).
_START = re.compile(
    r"\b(?P<severity>error|warning|warn|info)\s*:\s*"
    r"(?:race reported between|potential (?P<kind>\w+) hazard detected)",
    re.IGNORECASE,
)
_SIDE = re.compile(r"\b(?P<access>read|write|atomic)\s+(?:access\b|thread\s*\()", re.IGNORECASE)
_LOCATION = re.compile(r"(?P<file>[^\s():]+\.(?:cu|cuh|c|cc|cpp|cxx|h|hh|hpp|hxx|inl|inc)):(?P<line>\d+)\b")
_SUMMARY = re.compile(r"RACECHECK SUMMARY", re.IGNORECASE)
# racecheck_corpus.sh's own calibration program (control.cu): what racecheck makes of known cases.
CONTROLS = (
    ("race between two warps, no barrier", "race", (4, 5)),
    ("race between lanes of one warp, no __syncwarp", "race", (9, 10)),
    ("one value stored by every thread, then a barrier", "benign", (14,)),
    ("barrier between write and read", "no race", (20, 22)),
)
_PROGRAM = (
    re.compile(r"(?:^|/)src/(?P<name>[^/]+)-cuda/(?P<rel>.+)$"),  # hecbench/src/<name>-cuda/<rel>
    re.compile(r"(?:^|/)Samples/[^/]+/(?P<name>[^/]+)/(?P<rel>.+)$"),  # cuda-samples/Samples/<cat>/<name>/<rel>
)


@dataclass(frozen=True)
class Side:
    access: str  # Read / Write / Atomic
    file: str | None  # as racecheck printed it; None without -lineinfo
    line: int | None


@dataclass(frozen=True)
class Hazard:
    severity: str  # Error / Warning / Info
    kind: str  # RAW/WAR/WAW from the hazard form; "Write-Read" style from the analysis form
    sides: tuple[Side, ...]


def _sides(text: str) -> list[Side]:
    """Every access named in one line, each with the first file:line after it (None without -lineinfo)."""
    accesses = list(_SIDE.finditer(text))
    sides = []
    for access, following in zip(accesses, accesses[1:] + [None]):
        location = _LOCATION.search(text, access.end(), following.start() if following else len(text))
        sides.append(Side(access["access"].capitalize(), location["file"] if location else None,
                          int(location["line"]) if location else None))
    return sides


def parse_racecheck(text: str) -> tuple[list[Hazard], bool]:
    """Hazards in one racecheck log, and whether the log reached racecheck's summary."""
    hazards: list[Hazard] = []
    current: dict | None = None

    def close() -> None:
        if current and current["sides"]:
            sides = tuple(current["sides"])
            kind = current["kind"] or "-".join(s.access for s in sides)
            hazards.append(Hazard(current["severity"], kind, sides))

    for raw in text.splitlines():
        line = re.sub(r"^=+\s*", "", raw.strip())
        start = _START.search(line)
        if start:
            close()
            severity = start["severity"].capitalize()
            current = {"severity": "Warning" if severity == "Warn" else severity,
                       "kind": (start["kind"] or "").upper(), "sides": []}
            current["sides"] += _sides(line[start.end():])
            continue
        if current is not None and len(current["sides"]) < 2:
            current["sides"] += _sides(line)
    close()
    return hazards, bool(_SUMMARY.search(text))


def program_of(path: str) -> tuple[str, str] | None:
    """(program name, path relative to its directory) for a finding's path, None if not a known layout."""
    for pattern in _PROGRAM:
        match = pattern.search(path)
        if match:
            return match["name"], match["rel"]
    return None


def same_file(printed: str | None, rel: str) -> bool:
    if printed is None:
        return False
    printed = printed.removeprefix("./")
    return printed == rel or printed.endswith("/" + rel)


@dataclass
class ProgramRun:
    status: str  # the status file's line
    hazards: list[Hazard]
    complete: bool  # built, ran and racecheck printed its summary before exiting

    @property
    def why_not_run(self) -> str:
        if self.status.startswith("skipped="):
            return "skipped: " + self.status.removeprefix("skipped=")
        fields = dict(f.split("=", 1) for f in self.status.split() if "=" in f)
        if fields.get("build_rc", "0") != "0":
            return f"build failed (rc {fields['build_rc']})"
        if fields.get("run_rc") in ("124", "137"):
            return "timed out"
        return f"no racecheck summary (rc {fields.get('run_rc', '?')})"


def load_run(directory: Path) -> ProgramRun:
    status_file = directory / "status"
    status = status_file.read_text().strip() if status_file.exists() else "run_rc=missing-status"
    log = directory / "racecheck.log"
    hazards, complete = parse_racecheck(log.read_text(errors="replace")) if log.exists() else ([], False)
    return ProgramRun(status, hazards, complete and "build_rc=0 run_rc=" in status)


def verdict(finding: dict, rel: str, run: ProgramRun) -> tuple[str, str]:
    """(verdict, evidence) for one finding."""
    line = finding["line"]
    evidence = []
    for hazard in run.hazards:
        for index, side in enumerate(hazard.sides):
            if side.line == line and same_file(side.file, rel):
                others = [f"{o.access} {Path(o.file).name if o.file else '?'}:{o.line}"
                          for j, o in enumerate(hazard.sides) if j != index]
                evidence.append(f"{hazard.severity} {hazard.kind} {side.access} vs {', '.join(others) or '?'}")
    if evidence:
        return "confirmed", "; ".join(sorted(set(evidence)))
    if not run.complete:
        return "not run", run.why_not_run
    in_file = sorted({s.line for h in run.hazards for s in h.sides if same_file(s.file, rel) and s.line})
    return "not seen", ("hazards in this file at lines " + ", ".join(map(str, in_file))) if in_file else ""


def load_findings(path: Path) -> list[dict]:
    findings = []
    for number, text in enumerate(path.read_text().splitlines(), 1):
        if not text.strip():
            continue
        try:
            finding = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}:{number}: not a JSON line ({error.msg})") from None
        if not isinstance(finding, dict) or not {"path", "line", "name"} <= finding.keys():
            raise ValueError(f"{path}:{number}: a finding needs path, line and name")
        findings.append(finding)
    return findings


def compare(findings: list[dict], out_dir: Path) -> tuple[list[tuple], dict[str, dict[str, int]], int]:
    """Table rows, counts per rule and verdict, and how many findings had no program in out_dir."""
    runs: dict[str, ProgramRun] = {}
    rows, absent = [], 0
    counts = {rule: dict.fromkeys(VERDICTS, 0) for rule in RULES}
    for finding in sorted(findings, key=lambda f: (f["path"], f["line"], f["name"])):
        if finding.get("name") not in RULES:
            continue
        located = program_of(finding["path"])
        if located is None or not (out_dir / located[0]).is_dir():
            absent += 1
            continue
        name, rel = located
        if name not in runs:
            runs[name] = load_run(out_dir / name)
        result, evidence = verdict(finding, rel, runs[name])
        counts[finding["name"]][result] += 1
        rows.append((name, f"{rel}:{finding['line']}", finding["name"], finding.get("kernel") or "", result, evidence))
    return rows, counts, absent


def controls(out_dir: Path) -> list[tuple[str, str, str]]:
    """(case, expected, what racecheck reported) for the calibration program; empty if it is not in out_dir."""
    if not (out_dir / "control").is_dir():
        return []
    run = load_run(out_dir / "control")
    result = []
    for case, expected, lines in CONTROLS:
        seen = sorted({f"{h.severity} {h.kind}" for h in run.hazards
                       if any(same_file(side.file, "control.cu") and side.line in lines for side in h.sides)})
        nothing = "nothing" if run.complete else "not run: " + run.why_not_run
        result.append((case, expected, ", ".join(seen) or nothing))
    return result


def render(rows: list[tuple], counts: dict[str, dict[str, int]], absent: int,
           calibration: list[tuple[str, str, str]] = ()) -> str:
    lines = []
    if calibration:
        lines += ["| control case | expected | racecheck reported |", "|---|---|---|"]
        lines += [f"| {case} | {expected} | {seen} |" for case, expected, seen in calibration] + [""]
    lines += ["| program | location | rule | kernel | racecheck | evidence |", "|---|---|---|---|---|---|"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    lines += ["", "| rule | " + " | ".join(VERDICTS) + " |", "|---|" + "---|" * len(VERDICTS)]
    lines += [f"| {rule} | " + " | ".join(str(counts[rule][v]) for v in VERDICTS) + " |" for rule in RULES]
    if absent:
        lines += ["", f"{absent} findings belong to programs not in the racecheck output and are left out."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("findings", type=Path, help="lint findings, JSON lines")
    parser.add_argument("out_dir", type=Path, help="the OUT directory of racecheck_corpus.sh")
    args = parser.parse_args(argv)
    if not args.findings.is_file():
        print(f"error: findings file {args.findings} not found", file=sys.stderr)
        return 2
    if not args.out_dir.is_dir():
        print(f"error: racecheck output directory {args.out_dir} not found", file=sys.stderr)
        return 2
    try:
        findings = load_findings(args.findings)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(render(*compare(findings, args.out_dir), controls(args.out_dir)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
