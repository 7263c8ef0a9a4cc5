"""The rule catalogue: one stable code and kebab-case name per rule, with its documentation.

Each rule is a small class with the facts a user needs (what it finds, why it matters, an
example and the fix) and a `check` that turns a kernel report into findings.  The docs in
docs/rules/ are generated from these classes (`python -m cudaperf.lint.catalogue`), so code and
documentation cannot drift.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .. import __repository__
from ..analysis.report import KernelReport

DOCS_URL = f"{__repository__}/blob/main/docs/rules"


def rule_url(name: str) -> str:
    """The rule's page in the repository (docs/rules/<name>.md, generated from the rule class)."""
    return f"{DOCS_URL}/{name}.md"


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    column: int
    code: str
    name: str
    kernel: str
    severity: str  # error | warning | note
    message: str
    fix: str
    end_line: int = 0  # where the expression ends (exclusive column); lint_file fills them from the source
    end_column: int = 0

    def to_json(self) -> dict:
        return {"path": self.path, "line": self.line, "column": self.column, "end_line": self.end_line,
                "end_column": self.end_column, "code": self.code, "name": self.name, "kernel": self.kernel,
                "severity": self.severity, "message": self.message, "url": rule_url(self.name)}


# how the Measured figures of the rules' pages were obtained
JUDGED_ON_PUBLIC_CODE = ('Judged by reading the code of every finding on 305 public files (HeCBench '
                         '`*-cuda` and NVIDIA cuda-samples: a random 100, a random 160 and 45 that '
                         'use cooperative-groups barriers, inline PTX, wmma, cub or lane broadcasts),'
                         ' with launches and arguments inferred or guessed as `cudaperf lint` does; '
                         'the analysis was tuned on these files, so the figures are not held out.')


class Rule:
    code: str
    name: str
    severity: str
    summary: str  # what it finds
    why: str  # why it matters
    example: str  # code that fires
    fix: str  # what to do
    measured: str = ""  # precision judged on public code, and on what (rendered on the rule's page)
    needs: tuple[str, ...] = ()  # analyses `check` reads (analysis.passes.names()): lint runs those the rules need
    scope = "kernel"  # "file": about the file itself (syntax, suppressions); lint.run reports those

    def check(self, report: KernelReport) -> Iterator[tuple[int, int, str]]:
        """(line, column, message) for every occurrence in one kernel."""
        raise NotImplementedError

    def unchecked(self, report: KernelReport) -> list[tuple[int, int]]:
        """Places in one kernel this rule could not judge (lint names them in a note, never as clean)."""
        return []

    def findings(self, path: str, report: KernelReport) -> Iterator[Finding]:
        """One finding per source location: inlined helpers, macros and recursion put one line at
        many places of the IR."""
        seen: set[tuple[int, int]] = set()
        caveat = guessed_launch(report, LAUNCH_DEPENDENT.get(self.name, ()))
        for line, column, message in self.check(report):
            if (line, column) not in seen:
                seen.add((line, column))
                yield Finding(path, line, column, self.code, self.name, report.kernel.name, self.severity,
                              message + caveat, self.fix)


# Rules whose verdict changes with the launch shape, and the parts it depends on: which lanes share
# a warp or a block and whether a threadIdx condition splits a block (block), how many blocks fit
# on an SM (block), whether two blocks touch one address (grid too).
LAUNCH_DEPENDENT = {"shared-race": ("block",), "implicit-warp-sync": ("block",), "barrier-divergence": ("block",),
                    "divergent-full-mask": ("block",), "low-occupancy": ("block",), "global-race": ("grid", "block"),
                    # which lanes share a warp, and the share of warps split; FLOPs and bytes scale with the launch
                    "divergent-branch": ("block",), "memory-bound": ("grid", "block"),
                    "compute-bound": ("grid", "block")}


def guessed_launch(report: KernelReport, parts: tuple[str, ...]) -> str:
    """A message suffix naming the launch parts, among `parts`, that are defaults rather than given
    or found in host code."""
    launch = report.launch
    guessed = [part for part in parts if part in launch.guessed]
    if not guessed:
        return ""
    return f" (under a guessed launch: {guess(report, guessed)})"


def guess(report: KernelReport, parts: list[str]) -> str:
    """`block 256x1x1 is a default, no launch of `k` gave it; give --block`."""
    launch = report.launch
    spelled = " and ".join(f"{part} {'x'.join(map(str, getattr(launch, part)))}" for part in parts)
    why = f"the launch at {launch.host_site} sizes it at run time" if launch.host_site else \
        f"no launch of `{report.kernel.name}` gave it"
    return f"{spelled} is a default, {why}; give {'/'.join('--' + part for part in parts)}"


REGISTRY: dict[str, Rule] = {}


def rule(cls: type[Rule]) -> type[Rule]:
    """Register a rule class (codes and names are unique and never reused)."""
    instance = cls()
    assert instance.code not in REGISTRY and all(r.name != instance.name for r in REGISTRY.values())
    REGISTRY[instance.code] = instance
    return cls


def select(select: list[str] | None = None, ignore: list[str] | None = None) -> list[Rule]:
    """Rules by code, code prefix (`CP1`) or name; unknown selectors raise ValueError."""
    def matches(r: Rule, token: str) -> bool:
        return r.name == token or r.code.startswith(token.upper())

    for token in [*(select or []), *(ignore or [])]:
        if not any(matches(r, token) for r in REGISTRY.values()):
            raise ValueError(f"unknown rule {token!r}")
    chosen = [r for r in REGISTRY.values() if not select or any(matches(r, t) for t in select)]
    return [r for r in chosen if not any(matches(r, t) for t in (ignore or []))]
