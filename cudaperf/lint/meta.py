"""Rules about the linted file rather than its kernels: text the parser could not read, and
suppression comments that are misspelt or suppress nothing (ruff's RUF100).  `lint.run` reports
them; the classes carry their documentation like every rule."""

from __future__ import annotations

from .rules import Rule, rule


class FileRule(Rule):
    scope = "file"

    def check(self, report):  # findings come from the file's diagnostics and comments (lint.run)
        return iter(())


@rule
class UnreadableSyntax(FileRule):
    code, name, severity = "CP001", "syntax-error", "error"
    summary = "Text the parser could not read: the code around it was analysed in part or not at all."
    why = ("A syntax error, an unterminated comment or a kernel body the grammar cannot parse leaves the "
           "enclosing code out of the analysis: no rule can report what is in it, so a file that does not parse "
           "must not look clean.  Often it is a macro the file uses without defining (pass -D or -I), or a "
           "construct the grammar does not know.")
    example = "__global__ void k(float* x) { x[threadIdx.x = ; }"
    fix = ("Fix the syntax, or give the macros and include directories the compiler would see (-D, -I).  If nvcc "
           "compiles it, ignore the rule for that file (`per-file-ignores`) and report the construct.")


@rule
class UnusedSuppression(FileRule):
    code, name, severity = "CP002", "unused-suppression", "warning"
    summary = "A `cudaperf: ignore` comment that suppresses nothing."
    why = ("A suppression outlives the code it was written for: once the smell is fixed, or the line moved, it "
           "silently hides the next finding of that rule on the line.  Only rules that ran on the file count; a "
           "rule that could not judge the line (a launch it had to guess) keeps its suppressions.")
    example = "out[i] = in[i];   // cudaperf: ignore[uncoalesced-access]   (the access is coalesced)"
    fix = "Delete the suppression, or the codes in it that match nothing."


@rule
class InvalidSuppression(FileRule):
    code, name, severity = "CP003", "invalid-suppression", "warning"
    summary = ("A suppression comment cudaperf cannot read: a misspelt directive, an unknown rule, a missing `]`, "
               "or an `ignore-begin` without its `ignore-end`.")
    why = "A suppression that does not parse suppresses nothing, or more than was meant, without saying so."
    example = "x[i * 32] = v;   // cudaperf: ignroe[CP101]"
    fix = ("Write `// cudaperf: ignore[CODE or name, ...]` (this line), `ignore-next-line[...]`, "
           "`ignore-begin[...]` ... `ignore-end` or `ignore-file[...]`; `cudaperf lint --list-rules` lists the codes.")
