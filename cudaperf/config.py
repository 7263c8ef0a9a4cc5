"""`[tool.cudaperf]` in pyproject.toml: project defaults the command line overrides, found as ruff
finds its settings.

```toml
[tool.cudaperf]
arch = "sm_90"
resources = "estimate"
frontend = "auto"                        # tree-sitter (default), clang, auto (docs/architecture.md, Frontends)
select = ["CP1", "barrier-divergence"]   # replaces the default rule set
extend-select = ["memory-bound"]         # adds to it (notes are off by default)
ignore = ["CP5"]
exclude = ["third_party", "build/*.cu"]  # paths relative to this file's directory; a name alone matches anywhere
per-file-ignores = { "tests/*.cu" = ["CP101"], "legacy.cu" = ["CP4"] }
```

`cudaperf lint` takes, for each file it lints, the nearest pyproject.toml at or above the file's
directory that has a `[tool.cudaperf]` table (`--config FILE` names one for every file instead: a
pyproject.toml, or a TOML file holding these keys at its top level).  The other commands read the one
nearest the working directory.  Unknown keys and wrong types are errors, in one line.
"""

from __future__ import annotations

import fnmatch
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

KEYS = {"arch": str, "resources": str, "frontend": str, "select": list, "extend-select": list, "ignore": list,
        "exclude": list, "per-file-ignores": dict}
FILE = "pyproject.toml"


class ConfigError(ValueError):
    pass


@dataclass(frozen=True)
class Config:
    """One `[tool.cudaperf]` table and the directory its relative paths start from (None: no file)."""

    path: Path | None = None
    table: dict = field(default_factory=dict)

    @property
    def root(self) -> Path:
        return self.path.parent if self.path is not None else Path.cwd().resolve()

    def get(self, key: str, default=None):
        return self.table.get(key, default)

    def excluded(self, path: str | Path) -> bool:
        """Does an `exclude` pattern match the file, or a directory it lies in?"""
        return any(matches(pattern, path, self.root) for pattern in self.get("exclude", []))

    def ignored_for(self, path: str | Path) -> list[str]:
        """The rule selectors `per-file-ignores` switches off for this file."""
        return [token for pattern, tokens in self.get("per-file-ignores", {}).items()
                if matches(pattern, path, self.root) for token in tokens]


def matches(pattern: str, path: str | Path, root: Path) -> bool:
    """A glob against the path relative to `root`, or against any leading part of it (a directory);
    a pattern without `/` against each name in the path (`build` excludes every build directory)."""
    absolute = Path(path).resolve()
    try:
        parts = absolute.relative_to(root).parts
    except ValueError:
        parts = absolute.parts[1:]
    pattern = pattern.strip("/")
    if "/" not in pattern:
        return any(fnmatch.fnmatchcase(part, pattern) for part in parts)
    return any(fnmatch.fnmatchcase("/".join(parts[:n]), pattern) for n in range(1, len(parts) + 1))


def _read(path: Path, nested: bool) -> dict | None:
    """The table of a settings file (None: a pyproject.toml without `[tool.cudaperf]`), checked."""
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: {getattr(exc, 'strerror', None) or exc}") from None
    table = data.get("tool", {}).get("cudaperf") if nested else data
    if table is None:
        return None
    prefix = "tool.cudaperf." if nested else ""
    for key, value in table.items():
        if key not in KEYS:
            raise ConfigError(f"{path}: unknown key {prefix}{key} (known: {', '.join(KEYS)})")
        if not isinstance(value, KEYS[key]):
            raise ConfigError(f"{path}: {prefix}{key} must be a {'table' if KEYS[key] is dict else KEYS[key].__name__}")
        strings = value.items() if isinstance(value, dict) else [(None, value)]
        for name, items in strings:
            items = items if isinstance(items, list) or name is not None else [items]
            if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
                where = f"{prefix}{key}" + (f".{name!r}" if name is not None else "")
                raise ConfigError(f"{path}: {where} must be a list of strings")
    return table


class Finder:
    """Nearest settings per directory, each directory looked at once (one Finder per command run:
    files may change between runs of one process)."""

    def __init__(self):
        self._seen: dict[Path, Config] = {}

    def nearest(self, directory: Path) -> Config:
        if directory not in self._seen:
            candidate = directory / FILE
            table = _read(candidate, nested=True) if candidate.is_file() else None
            self._seen[directory] = Config(candidate, table) if table is not None else \
                Config() if directory.parent == directory else self.nearest(directory.parent)
        return self._seen[directory]

    def for_path(self, path: str | Path) -> Config:
        """The settings of the nearest pyproject.toml with `[tool.cudaperf]` at or above `path` (a file
        or a directory); an empty Config when there is none."""
        path = Path(path).resolve()
        return self.nearest(path if path.is_dir() else path.parent)


def from_file(path: str | Path) -> Config:
    """`--config FILE`: a pyproject.toml (its `[tool.cudaperf]`) or a TOML file of these keys."""
    path = Path(path).resolve()
    if not path.is_file():
        raise ConfigError(f"{path}: no such file")
    nested = path.name == FILE
    table = _read(path, nested)
    if table is None:
        raise ConfigError(f"{path}: no [tool.cudaperf] table")
    return Config(path, table)


def find(start: Path) -> Path | None:
    """The nearest pyproject.toml with a `[tool.cudaperf]` table at or above `start`."""
    return Finder().for_path(start).path


def load(start: Path | None = None) -> dict:
    """The `[tool.cudaperf]` table nearest `start` (default: the working directory); {} when none."""
    return dict(Finder().for_path(start or Path.cwd()).table)
