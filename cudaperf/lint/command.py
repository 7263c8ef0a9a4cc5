"""`cudaperf lint` and `cudaperf rule`: arguments and settings -> jobs, output and the exit code.

Exit codes of lint: 0 every kernel found was checked and nothing worse than a note turned up; 1
findings (warnings or errors: a rule's, a syntax error's or a suppression's); 2 a usage or settings
error, a path that does not exist or cannot be read, a kernel the analysis failed on, or nothing
checked at all (no CUDA file found, no kernel in the files, `--kernel` matching none).  What was
not checked in a run that checked something is named on stderr, and the closing line says so."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .. import colour, config
from ..analysis.analyzer import find_sources
from ..cli_common import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    jobs,
    launch_options,
    options_for,
    processes,
    strict_option,
)
from ..progress import Progress
from . import formats
from .catalogue import page
from .rules import REGISTRY, Rule
from .run import Job, Linted, lint_jobs, spills_unchecked, with_analyses
from .selection import Layer, check, default_rules, resolve


def add_parsers(sub) -> None:
    lint = sub.add_parser("lint", help="report performance smells as path:line:col: severity: CODE [name] message",
                          description=__doc__.split("\n\n", 1)[1].replace("\n", " ") + "  Registers are estimated "
                          "unless --resources auto or ptxas asks for ptxas (register-spill needs it).")
    lint.add_argument("paths", nargs="*", metavar="PATH")
    lint.add_argument("--select", action="append", default=[], metavar="CODE|NAME",
                      help="only these rules (codes, code prefixes or names; repeatable, comma-separated); "
                           "wins over the project's select and ignore")
    lint.add_argument("--extend-select", action="append", default=[], metavar="CODE|NAME",
                      help="these rules too (e.g. the notes CP5, off by default)")
    lint.add_argument("--ignore", action="append", default=[], metavar="CODE|NAME", help="skip these rules")
    lint.add_argument("--config", metavar="FILE",
                      help="settings for every file from FILE (a pyproject.toml, or TOML with the tool.cudaperf keys) "
                           "instead of the nearest pyproject.toml")
    lint.add_argument("--force-exclude", action="store_true",
                      help="apply exclude to files named on the command line too (for pre-commit)")
    lint.add_argument("--format", choices=("text", "concise", "json", "sarif", "github"), default="text",
                      help="text: each finding with its source line and fix; concise: one line each; github: "
                           "workflow-command annotations that GitHub Actions shows on the diff")
    lint.add_argument("--statistics", action="store_true",
                      help="counts per rule instead of the findings (text or json)")
    lint.add_argument("--exit-zero", action="store_true", help="exit 0 even when warnings are found")
    lint.add_argument("--list-rules", action="store_true", help="list the rules (and which run by default), then exit")
    lint.add_argument("-j", "--jobs", type=jobs, default=0, metavar="N",
                      help="files analysed in parallel (default 0: one per CPU core)")
    launch_options(lint)
    strict_option(lint)
    lint.set_defaults(handler=cmd_lint)

    rule = sub.add_parser("rule", help="print a rule's documentation (or list the rules)",
                          description="Print the page of a rule given by code or name, as docs/rules has it; "
                                      "without one, list every rule.")
    rule.add_argument("rule", nargs="?", metavar="CODE|NAME")
    rule.set_defaults(handler=cmd_rule)


def _tokens(values: list[str]) -> list[str]:
    return [t.strip() for v in values for t in v.split(",") if t.strip()]


def _find(token: str) -> Rule:
    found = [r for r in REGISTRY.values() if r.name == token or r.code == token.upper()]
    if not found:
        try:
            check([token])
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        prefixed = sorted(c for c in REGISTRY if c.startswith(token.upper()))
        raise UsageError(f"{token} is a prefix of {', '.join(prefixed)}: name one rule")
    return found[0]


def cmd_rule(ns: argparse.Namespace) -> int:
    if ns.rule is None:
        return _list_rules()
    sys.stdout.write(page(_find(ns.rule)))
    return EXIT_OK


def _list_rules() -> int:
    paint = colour.Paint(colour.wanted(sys.stdout))
    defaults = {r.code for r in default_rules()}
    sys.stdout.write(formats.rule_table(sorted(REGISTRY.values(), key=lambda r: r.code), defaults, paint))
    return EXIT_OK


class Plan:
    """Settings, rules and options per file, each settings file read and checked once."""

    def __init__(self, ns: argparse.Namespace):
        self.ns = ns
        try:
            self.fixed = config.from_file(ns.config) if ns.config else None
        except config.ConfigError as exc:
            raise UsageError(str(exc)) from None
        self.finder = config.Finder()
        self.cli = Layer(tuple(_tokens(ns.select)) or None, tuple(_tokens(ns.extend_select)), tuple(_tokens(ns.ignore)))
        try:
            check([*(self.cli.select or ()), *self.cli.extend_select, *self.cli.ignore])
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        self._options: dict = {}
        self._layers: dict = {}

    def settings(self, path: Path) -> config.Config:
        try:
            return self.fixed or self.finder.for_path(path)
        except config.ConfigError as exc:
            raise UsageError(str(exc)) from None

    def job(self, path: Path, named: bool) -> Job:
        found = self.settings(path)
        where = f"{found.path}: " if found.path else ""
        if found.path not in self._layers:
            try:
                self._layers[found.path] = Layer.of(found.table, where)
                check([t for tokens in found.get("per-file-ignores", {}).values() for t in tokens],
                      f"{where}per-file-ignores: ")
            except ValueError as exc:
                raise UsageError(str(exc)) from None
        rules = resolve([self._layers[found.path], self.cli], found.ignored_for(path))
        key = (found.path, tuple(r.code for r in rules))
        if key not in self._options:
            self._options[key] = with_analyses(options_for(self.ns, found.table, "estimate", where), rules)
        return Job(str(path), self._options[key], key[1], named)

    def excluded(self, path: Path) -> bool:
        return self.settings(path).excluded(path)


def cmd_lint(ns: argparse.Namespace) -> int:
    if ns.list_rules:
        return _list_rules()
    if not ns.paths:
        raise UsageError("lint needs PATHs (files or directories), or --list-rules")
    if ns.statistics and ns.format not in ("text", "json"):
        raise UsageError("--statistics prints text or json")
    plan = Plan(ns)
    missing = [p for p in ns.paths if not os.path.exists(p)]
    for p in missing:
        print(f"cudaperf: error: {p}: no such file or directory", file=sys.stderr)
    todo: list[Job] = []
    for given in (Path(p) for p in ns.paths if p not in missing):
        if given.is_dir():
            todo += [plan.job(f, False) for f in find_sources([given], plan.excluded)]
        elif not (ns.force_exclude and plan.excluded(given)):
            todo.append(plan.job(given, True))
    if ns.arg:
        from ..args_check import check_args

        try:
            check_args(dict(ns.arg), [j.path for j in todo])
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    results = _run(ns, todo)
    return _finish(ns, todo, results, missing)


def _run(ns: argparse.Namespace, todo: list[Job]) -> list[Linted]:
    paint = colour.Paint(colour.wanted(sys.stdout))
    lines = formats.Lines()
    streamed = None if ns.statistics else {
        "text": lambda found: formats.text(found, paint, lines), "concise": lambda found: formats.concise(found, paint),
        "github": formats.github}.get(ns.format)

    def emit(result: Linted) -> None:  # findings stream out file by file on stdout, notes on stderr
        for note in result.notes:
            print(note.text(), file=sys.stderr)
        if streamed is not None and result.findings:
            sys.stdout.write(streamed(result.findings))
            sys.stdout.flush()

    return lint_jobs(todo, processes(ns.jobs), Progress(len(todo), "lint"), emit)


def _finish(ns: argparse.Namespace, todo: list[Job], results: list[Linted], missing: list[str]) -> int:
    errors = [r.error for r in results if r.error]
    for e in errors:
        print(f"cudaperf: error: {e}", file=sys.stderr)
    findings = [f for r in results for f in r.findings]
    notes = [n for r in results for n in r.notes]
    spills = spills_unchecked(results)
    if spills is not None:
        print(spills.text(), file=sys.stderr)
        notes.append(spills)
    kernels = sum(r.kernels for r in results)
    linted = [r.path for r in results if r.error is None]
    nothing = _nothing_checked(ns, todo, results, kernels)
    if nothing:
        print(f"cudaperf: error: {nothing}", file=sys.stderr)
    elif not kernels and any(r.error is None for r in results):   # headers of device helpers: nothing to lint
        print("cudaperf: warning: no kernels in the files linted: nothing checked", file=sys.stderr)
    _write(ns, findings, notes, linted, kernels, {c for job in todo for c in job.codes})
    if missing or errors or nothing or any(n.severity == "error" for n in notes):
        return EXIT_USAGE
    if ns.exit_zero:
        return EXIT_OK
    return EXIT_FINDINGS if any(f.severity != "note" for f in findings) else EXIT_OK


def _nothing_checked(ns: argparse.Namespace, todo: list[Job], results: list[Linted], kernels: int) -> str | None:
    """Why no kernel was checked, when none was."""
    if kernels:
        return None
    if not todo:
        return f"nothing checked: no CUDA files (.cu, .cuh, or C++ files defining kernels) in {', '.join(ns.paths)}" \
            if ns.paths else None
    defined = list(dict.fromkeys(name for r in results for name in r.defined))
    if ns.kernel and defined:
        return f"nothing checked: no kernel named {ns.kernel}; available: {', '.join(defined)}"
    others = [r.path for r in results if r.error is None and not str(r.path).endswith((".cu", ".cuh"))]
    if others:   # a .c, .cpp or text file named: not CUDA, so not clean either
        return f"nothing checked: no kernels in {others[0]}" if len(others) == 1 else \
            f"nothing checked: no kernels in the {len(others)} files linted"
    return None   # .cu/.cuh files without kernels (device helpers, as pre-commit passes them): a warning, exit 0


def _write(ns: argparse.Namespace, findings, notes, linted: list[str], kernels: int, ran: set[str]) -> None:
    if ns.statistics:
        rows = formats.statistics(findings)
        sys.stdout.write(json.dumps(rows, indent=2) + "\n" if ns.format == "json" else formats.statistics_text(rows))
    elif ns.format == "json":
        json.dump({"schema": "cudaperf.lint/1", "files": linted, "kernels": kernels,
                   "findings": [f.to_json() for f in findings], "notes": [n.to_json() for n in notes]},
                  sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif ns.format == "sarif":
        from .sarif import sarif

        codes = sorted(ran | {f.code for f in findings})
        json.dump(sarif(findings, [REGISTRY[c] for c in codes], notes=notes), sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif ns.format in ("text", "concise"):
        sys.stdout.write(formats.summary(findings, kernels, len(linted), len(notes)))

