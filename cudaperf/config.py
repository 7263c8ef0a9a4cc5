"""`[tool.cudaperf]` in the nearest pyproject.toml: project defaults the command line overrides.

```toml
[tool.cudaperf]
arch = "sm_90"
resources = "estimate"
select = ["CP1", "barrier-divergence"]
ignore = ["CP5"]
```
"""

from __future__ import annotations

import tomllib
from pathlib import Path

KEYS = {"arch": str, "resources": str, "select": list, "ignore": list}


class ConfigError(ValueError):
    pass


def find(start: Path) -> Path | None:
    for directory in [start, *start.parents]:
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load(start: Path | None = None) -> dict:
    """The `[tool.cudaperf]` table of the nearest pyproject.toml above `start` (default: the working
    directory); {} when there is none.  Unknown keys and wrong types are errors, in one line."""
    path = find((start or Path.cwd()).resolve())
    if path is None:
        return {}
    try:
        table = tomllib.loads(path.read_text()).get("tool", {}).get("cudaperf", {})
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from None
    for key, value in table.items():
        if key not in KEYS:
            raise ConfigError(f"{path}: unknown key tool.cudaperf.{key} (known: {', '.join(KEYS)})")
        if not isinstance(value, KEYS[key]):
            raise ConfigError(f"{path}: tool.cudaperf.{key} must be a {KEYS[key].__name__}")
    return table
