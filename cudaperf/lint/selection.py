"""Which rules run, resolved as ruff resolves them.

Start from the default set (every rule but the notes, `memory-bound` and `compute-bound`), then apply
each layer in turn, the project's `[tool.cudaperf]` first and the command line last: a layer's
`select` replaces the set, `extend-select` adds to it, `ignore` takes away.  Within a layer the most
specific selector decides (a full code or a name over a prefix, a longer prefix over a shorter one;
`ignore` wins a tie), so `select = ["CP4"]` with `ignore = ["CP402"]` leaves CP402 out and
`--select CP402` on the command line brings it back whatever the project ignores.  `per-file-ignores`
applies last, per file.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .rules import REGISTRY, Rule

NAME_SPECIFICITY = 100  # a name (or a whole code) names one rule: nothing is more specific


def _default() -> frozenset[str]:
    return frozenset(code for code, r in REGISTRY.items() if r.severity != "note")


def matches(r: Rule, token: str) -> bool:
    return r.name == token or r.code.startswith(token.upper())


def specificity(r: Rule, token: str) -> int:
    return NAME_SPECIFICITY if r.name == token or r.code == token.upper() else len(token)


def check(tokens: Iterable[str], where: str = "") -> None:
    """Unknown selectors are errors (ValueError), with the nearest known names."""
    import difflib

    for token in tokens:
        if not any(matches(r, token) for r in REGISTRY.values()):
            names = [r.name for r in REGISTRY.values()] + list(REGISTRY)
            close = difflib.get_close_matches(token, names, n=2)
            hint = f"; did you mean {' or '.join(close)}?" if close else " (cudaperf lint --list-rules lists them)"
            raise ValueError(f"{where}unknown rule {token!r}{hint}")


@dataclass(frozen=True)
class Layer:
    """One source of selectors: the project's settings or the command line."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    @classmethod
    def of(cls, table, where: str = "") -> Layer:
        """A layer from a settings table (`select`, `extend-select`, `ignore`), checked."""
        select = table.get("select")
        layer = cls(tuple(select) if select is not None else None, tuple(table.get("extend-select", ())),
                    tuple(table.get("ignore", ())))
        check([*(layer.select or ()), *layer.extend_select, *layer.ignore], where)
        return layer

    def apply(self, chosen: frozenset[str]) -> frozenset[str]:
        out = set(chosen if self.select is None else ())
        for code, r in REGISTRY.items():
            picked = [specificity(r, t) for t in (*(self.select or ()), *self.extend_select) if matches(r, t)]
            dropped = [specificity(r, t) for t in self.ignore if matches(r, t)]
            if dropped and (not picked or max(dropped) >= max(picked)):
                out.discard(code)
            elif picked:
                out.add(code)
        return frozenset(out)


def resolve(layers: Iterable[Layer], per_file_ignores: Iterable[str] = ()) -> list[Rule]:
    """The rules that run, in code order."""
    chosen = _default()
    for layer in layers:
        chosen = layer.apply(chosen)
    off = list(per_file_ignores)
    return [REGISTRY[c] for c in sorted(chosen) if not any(matches(REGISTRY[c], t) for t in off)]


def default_rules() -> list[Rule]:
    return resolve([])
