"""Analyses as registered passes, the way `lint/rules.py` registers rules.

A pass is one analysis of a lowered kernel under its launch.  It declares its name, the passes
whose results it reads (`requires`), `run(ctx)`, the key of the kernel's JSON object it fills
(with that key's schema) and the features it adds to the flat vector that rewards and the ranker
read.  `analyzer.analyse` runs the passes the requested outputs need, in dependency order, under
one time budget; the feature table (docs/features.md), the schema's pass fragments and the cost
model's inputs are read from the passes.  Every module of this package is imported when the
registry is first read, so an analysis is one new file here (docs/architecture.md shows one).
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from ..graph import loops
from ..predication import tail_branches
from ..sampling import Sampler

if TYPE_CHECKING:
    from ..report import KernelReport


@dataclass(frozen=True)
class Feature:
    name: str
    meaning: str  # docs/features.md: what it counts, and its value when the analysis has nothing to say
    value: Callable[[KernelReport], float]
    ranked: bool = False  # an input of the cost model (costmodel.terms.describe)


class Pass:
    """One analysis.  Subclasses set the class attributes and override `run` (and `to_json` with a key)."""

    name: str
    phase: str = ""  # how a note names the pass that ran past the time budget (default: its name)
    requires: tuple[str, ...] = ()
    always: bool = False  # runs for every report, before the asked passes (cheap: no sampling, no budget check)
    key: str | None = None  # the kernel object's key that `to_json` fills
    schema: ClassVar[dict] = {}  # {"property": <the key's JSON schema>, "$defs": {...}} when `key` is set
    features: tuple[Feature, ...] = ()

    def run(self, ctx: Context) -> Any:
        """Fill the report (or return a result, kept in `report.results[name]`)."""
        return None

    def to_json(self, report: KernelReport) -> Any:
        raise NotImplementedError


_REGISTRY: dict[str, Pass] = {}
_loaded = False
_loading = threading.RLock()


def register(cls: type[Pass]) -> type[Pass]:
    """Class decorator: one instance of the pass in the registry."""
    _REGISTRY[cls.name] = cls()
    return cls


def registry() -> dict[str, Pass]:
    """Every pass by name (the package's modules imported on first use, once, whichever thread asks)."""
    global _loaded
    with _loading:
        if not _loaded:
            for module in pkgutil.iter_modules(__path__):
                importlib.import_module(f"{__name__}.{module.name}")
            _loaded = True
    return _REGISTRY


def ordered() -> tuple[Pass, ...]:
    """The passes in the order they run: the `always` ones first, each after those it requires,
    ties by name (so the order does not depend on the order modules are found in)."""
    passes = registry()
    return _ordered(tuple(passes.values()))


@lru_cache(maxsize=4)
def _ordered(passes: tuple[Pass, ...]) -> tuple[Pass, ...]:
    done, out = set(), []
    left = sorted(passes, key=lambda p: (not p.always, p.name))
    while left:
        ready = next((p for p in left if done >= set(p.requires)), None)
        if ready is None:
            raise ValueError(f"passes requiring unknown or circular passes: {[p.name for p in left]}")
        out.append(ready)
        done.add(ready.name)
        left.remove(ready)
    return tuple(out)


def names() -> tuple[str, ...]:
    """The passes a caller may ask for (Options.analyses, lint's Rule.needs): those that do not always run."""
    return tuple(p.name for p in ordered() if not p.always)


def wanted(analyses: Iterable[str] | None) -> frozenset[str]:
    """The passes to run for the results asked for (None: all), with those they require."""
    passes = registry()
    if analyses is None:
        return frozenset(names())
    unknown = set(analyses) - set(names())
    if unknown:
        raise ValueError(f"unknown analyses {sorted(unknown)}; known: {', '.join(names())}")
    out, todo = set(), list(analyses)
    while todo:
        name = todo.pop()
        if name not in out:
            out.add(name)
            todo += passes[name].requires
    return frozenset(out)


def feature_table() -> dict[str, str]:
    """Every feature's name and meaning, in pass order (docs/features.md is generated from it)."""
    return {f.name: f.meaning for p in ordered() for f in p.features}


def features(report: KernelReport) -> dict[str, float]:
    """The flat, named vector rewards and the ranker consume (feature_table says what each is)."""
    return {f.name: f.value(report) for p in ordered() for f in p.features}


def ranked() -> tuple[str, ...]:
    """The features the cost model reads (costmodel.terms.describe)."""
    return tuple(f.name for p in ordered() for f in p.features if f.ranked)


def declaring(feature: str) -> Pass | None:
    """The pass whose features include `feature`."""
    return next((p for p in ordered() if any(f.name == feature for f in p.features)), None)


def fragments(report: KernelReport) -> dict[str, Any]:
    """The kernel object's keys the passes fill, in pass order."""
    return {p.key: p.to_json(report) for p in ordered() if p.key}


def schema_fragments() -> tuple[dict[str, dict], dict[str, dict]]:
    """The kernel object's properties the passes fill, and the `$defs` those refer to."""
    properties, defs = {}, {}
    for p in ordered():
        if p.key:
            properties[p.key] = p.schema["property"]
            defs.update(p.schema.get("$defs", {}))
    return properties, defs


@dataclass
class Context:
    """What the passes of one kernel share: the report they fill, the sampled warp executions of
    the launch, and which passes run."""

    report: KernelReport
    sampler: Sampler
    running: frozenset[str]

    @property
    def kernel(self):
        return self.report.kernel

    @property
    def launch(self):
        return self.report.launch

    @property
    def graph(self):
        return self.report.graph

    @property
    def arch(self):
        return self.report.arch

    @cached_property
    def tails(self) -> set[int]:
        """Branches that end the kernel for the lanes that take them (predication.tail_branches)."""
        return tail_branches(self.kernel.body)

    @cached_property
    def counters(self) -> dict:
        """Each loop's counter variable -> the loop."""
        return {loop.counter: loop for loop, _ in loops(self.graph)}

    @property
    def threads(self) -> int:
        return self.launch.threads_per_block * self.launch.blocks
