"""docs/architecture.md stays drawn from the code: every module of the package is named in it (a
module in a directory the document names as a whole, `families/*.py`, `styles/*.py` or `passes/*.py`, counts as
named), so a new module cannot land without its place on the map."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAMED_AS_A_WHOLE = ("cudaperf/rl/dataset/families/", "cudaperf/rl/dataset/styles/", "cudaperf/analysis/passes/")


def test_every_module_has_its_place_in_the_architecture_document():
    doc = (ROOT / "docs/architecture.md").read_text()
    missing = [str(path.relative_to(ROOT)) for path in sorted((ROOT / "cudaperf").rglob("*.py"))
               if path.name not in ("__init__.py", "__main__.py")
               and not str(path.relative_to(ROOT)).startswith(NAMED_AS_A_WHOLE)
               and path.name not in doc and path.stem not in doc.split("`")]
    assert not missing, f"modules docs/architecture.md does not name: {missing}"
