"""Suppression comments, and the ones that are misspelt or suppress nothing.

    x = in[i * 32];   // cudaperf: ignore[CP101]          this line (codes or names, comma-separated)
    // cudaperf: ignore-next-line[uncoalesced-access]     the line below
    // cudaperf: ignore-begin[CP4]                        every line down to the next ignore-end
    // cudaperf: ignore-end
    // cudaperf: ignore-file[CP501]                       the whole file

Without `[...]` a directive suppresses every rule.  Directives are read in `//` and `/* */`
comments; a rule is named by its code, a code prefix (`CP4`: the synchronisation rules) or its name.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from .rules import REGISTRY, Finding

DIRECTIVES = ("ignore", "ignore-next-line", "ignore-begin", "ignore-end", "ignore-file")
OTHER_DIRECTIVES = ("launch",)  # `/* cudaperf:launch ... */` launch specs of `cudaperf eval`
_DIRECTIVE = re.compile(r"cudaperf:\s*([A-Za-z][\w-]*)(\s*\[([^\]\n]*)(\]?))?")
_COMMENT = re.compile(r"//|/\*")


@dataclass
class Suppression:
    line: int
    column: int
    directive: str
    tokens: tuple[str, ...] | None  # None: every rule
    first: int  # lines covered, inclusive
    last: int
    used: set[str] = field(default_factory=set)  # tokens that suppressed a finding ("*": the blanket form)

    def covers(self, finding: Finding) -> list[str]:
        """The tokens that suppress `finding` (["*"] for the blanket form), none when it is not covered."""
        if not self.first <= finding.line <= self.last:
            return []
        if self.tokens is None:
            return ["*"]
        return [t for t in self.tokens if _matches(t, finding.code, finding.name)]


def _matches(token: str, code: str, name: str) -> bool:
    return token == name or code.startswith(token.upper())


def _known(token: str) -> bool:
    return any(_matches(token, r.code, r.name) for r in REGISTRY.values())


def _hint(word: str, choices) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean `{close[0]}`?" if close else ""


class Suppressions:
    """The directives of one file's text, which findings they cover, and what is wrong with them."""

    def __init__(self, text: str):
        self.items: list[Suppression] = []
        self.problems: list[tuple[int, int, str]] = []  # (line, column, message): invalid-suppression
        lines = text.splitlines()
        opened: list[Suppression] = []
        for number, line in enumerate(lines, start=1):
            comment = _COMMENT.search(line)
            if comment is None:
                continue
            for m in _DIRECTIVE.finditer(line, comment.start()):
                column = m.start() + 1
                word = m.group(1)
                if word not in DIRECTIVES:
                    if word not in OTHER_DIRECTIVES:
                        hint = _hint(word, DIRECTIVES)
                        if hint or word.startswith("ignore"):
                            self.problems.append((number, column, f"unknown directive `cudaperf: {word}`{hint}"))
                    continue
                tokens = self._tokens(m, number, column, word)
                if word == "ignore-end":
                    if not opened:
                        self.problems.append((number, column, "`ignore-end` without an `ignore-begin` above it"))
                    else:
                        opened.pop().last = number
                    continue
                first, last = {"ignore": (number, number), "ignore-next-line": (number + 1, number + 1),
                               "ignore-begin": (number, len(lines)), "ignore-file": (1, len(lines))}[word]
                item = Suppression(number, column, word, tokens, first, last)
                self.items.append(item)
                if word == "ignore-begin":
                    opened.append(item)
        for item in opened:
            self.problems.append((item.line, item.column, "`ignore-begin` without an `ignore-end`: it runs to the "
                                                          "end of the file"))

    def _tokens(self, m: re.Match, number: int, column: int, word: str) -> tuple[str, ...] | None:
        if m.group(2) is None:
            return None
        if not m.group(4):
            self.problems.append((number, column, f"`cudaperf: {word}[` without its closing `]`"))
        tokens = tuple(t.strip() for t in m.group(3).split(",") if t.strip())
        if not tokens:
            self.problems.append((number, column, f"`cudaperf: {word}[]` names no rule (leave out the brackets "
                                                  "to suppress every rule)"))
        known = []
        for t in tokens:
            if _known(t):
                known.append(t)
            else:
                names = [r.name for r in REGISTRY.values()] + list(REGISTRY)
                self.problems.append((number, column, f"unknown rule `{t}` in `cudaperf: {word}`{_hint(t, names)}"))
        return tuple(known)

    def suppressed(self, finding: Finding, blanket: bool = True) -> bool:
        """Is `finding` suppressed?  Every directive covering it counts as used.  `blanket` False: only
        directives naming its rule count (a blanket directive must not hide the report that it is unused)."""
        hit = False
        for item in self.items:
            if item.tokens is None and not blanket:
                continue
            tokens = item.covers(finding)
            if tokens:
                item.used.update(tokens)
                hit = True
        return hit

    def unused(self, ran: set[str], unjudged: set[tuple[int, str]], blanket_judged: bool) -> list[tuple[int, int, str]]:
        """(line, column, message) for each directive, or code in one, that suppressed nothing although
        its rule ran; rules that could not judge a covered line (`unjudged`: (line, code)) keep theirs.
        A blanket directive counts only when every default rule ran (`blanket_judged`)."""
        out = []
        for item in self.items:
            if item.tokens is None:
                if not item.used and blanket_judged and not any(item.first <= line <= item.last
                                                                  for line, _ in unjudged):
                    out.append((item.line, item.column, f"unused suppression: `cudaperf: {item.directive}` "
                                                        "suppresses nothing here"))
                continue
            idle = []
            for token in item.tokens:
                if token in item.used:
                    continue
                codes = {r.code for r in REGISTRY.values() if _matches(token, r.code, r.name)}
                if codes <= {"CP002", "CP003"} or not codes <= ran:
                    continue  # a rule that did not run here, or one about suppressions themselves
                if any(item.first <= line <= item.last and code in codes for line, code in unjudged):
                    continue
                idle.append(token)
            if idle:
                out.append((item.line, item.column, f"unused suppression: no {', '.join(idle)} finding "
                                                    f"{_where(item)} to suppress"))
        return out


def _where(item: Suppression) -> str:
    return {"ignore": "on this line", "ignore-next-line": "on the next line", "ignore-begin": "in this block",
            "ignore-file": "in this file"}[item.directive]
