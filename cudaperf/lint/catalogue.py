"""Render the rule catalogue (docs/rules/) from the rule classes: one page per rule and an index."""

from __future__ import annotations

import sys
from pathlib import Path

from . import meta, performance, sync  # noqa: F401  (registers the rules)
from .rules import REGISTRY, Rule


def page(r: Rule) -> str:
    return (f"# {r.code} `{r.name}` ({r.severity})\n\n"
            f"## What it does\n\n{r.summary}\n\n## Why it matters\n\n{r.why}\n\n"
            f"## Example\n\n```cuda\n{r.example}\n```\n\n## Fix\n\n{r.fix}\n" +
            (f"\n## Measured\n\n{r.measured}\n" if r.measured else ""))


def index() -> str:
    rows = "".join(f"| {r.code} | [`{r.name}`]({r.name}.md) | {r.severity} | "
                   f"{'off' if r.severity == 'note' else 'on'} | {r.summary} |\n"
                   for r in sorted(REGISTRY.values(), key=lambda r: r.code))
    return ("# Rules\n\nGenerated from `cudaperf/lint/` by `python -m cudaperf.lint.catalogue docs/rules`; "
            "a test keeps them equal (`cudaperf rule CODE` prints a page, `cudaperf lint --list-rules` this "
            "table).  Every rule but the notes runs by default; select or ignore by code, code prefix or name "
            "(`--select`, `--extend-select`, `--ignore`, or `[tool.cudaperf]`: [lint.md](../lint.md#configuration)).  "
            "Suppress a line with `// cudaperf: ignore[CODE or name]`, the next line with `ignore-next-line[...]`, "
            "a block with `ignore-begin[...]` ... `ignore-end`, a whole file with `ignore-file[...]`; a suppression "
            "that is misspelt or suppresses nothing is itself reported (CP002, CP003).\n\n"
            "| code | name | severity | default | what it finds |\n| --- | --- | --- | --- | --- |\n" + rows)


def pages() -> dict[str, str]:
    return {"index.md": index(), **{f"{r.name}.md": page(r) for r in REGISTRY.values()}}


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/rules")
    out.mkdir(parents=True, exist_ok=True)
    for name, text in pages().items():
        (out / name).write_text(text)
