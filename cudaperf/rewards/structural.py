"""The structural reward: how well a candidate's kernels use the memory system and the GPU, read
statically from the analyzer's features (docs/features.md) in milliseconds, no GPU.

Per kernel, each component is in [0, 1] (None where it does not apply; weights renormalise):

- coalescing = ideal over actual global sectors: the harmonic mean of the load and store
  efficiencies present (the sector-weighted ratio when loads and stores move the same bytes);
- shared = ideal over actual shared-memory wavefronts (bank conflicts), when shared memory is used;
- occupancy = theoretical occupancy over what the launch needs, capped at 1: the need is the
  smaller of `occupancy_target` and the share of the GPU's warp slots the launch can fill at all;
- roofline = log2(1 + AI) / log2(1 + ridge), capped at 1: where the arithmetic intensity sits
  between no reuse and the fp32 ridge point of the arch's roofline (None without FLOPs);

and the sync hygiene factor 1 / (1 + sum of penalty x count) over races, barriers some threads
never reach and redundant barriers multiplies their weighted mean: a racy kernel's speed is moot.
A candidate scores the mean over its kernels; unreadable code or no kernel scores the floor.  At the
task's real shapes (`score_launches`, `score_at_shapes`) the kernels are weighted by their estimated
seconds, and the candidate's speed-up over the reference as the ranker estimates it (the trained time
model, `costmodel.model.Ranker.speedup`) counts beside them with `RewardConfig.speed_weight`: where the time
goes, not only how well each kernel uses the memory system."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache

from ..analysis import arch as arch_table
from ..analysis import passes
from ..analysis.analyzer import Options, analyze_source
from ..analysis.launch import LaunchError
from ..analysis.passes import features
from ..analysis.report import FileReport, KernelReport
from ..analysis.source import SourceError
from ..costmodel.model import Ranker
from .config import STRUCTURAL_COMPONENTS, RewardConfig
from .execution.gate_python import cuda_strings
from .execution.pysource import parse as parse_python
from .execution.spec import embedded_spec

_UNREADABLE = ("syntax error", "missing ", "kernel body could not be parsed")
PARITY = 0.5    # `speed` of a candidate exactly as fast as its reference


class Unreadable(ValueError):
    """The code cannot be scored (the message says why); it earns the floor."""


@dataclass(frozen=True)
class KernelScore:
    name: str
    score: float
    components: dict[str, float | None]


@dataclass(frozen=True)
class StructuralScore:
    """`components` are means over the kernels (with `hygiene`); `reason` says why the floor."""

    score: float
    components: dict[str, float | None]
    kernels: tuple[KernelScore, ...] = ()
    reason: str | None = None


def _coalescing(f: Mapping[str, float]) -> float | None:
    present = [f[f"global_{kind}_efficiency"] for kind in ("load", "store")
               if f[f"global_{kind}_sectors_per_request"] > 0]
    return len(present) / sum(1 / max(e, 1e-6) for e in present) if present else None


def _occupancy(f: Mapping[str, float], config: RewardConfig) -> float | None:
    if f["block_threads"] <= 0:
        return None
    arch = arch_table.get(config.arch)
    warps = f["grid_blocks"] * math.ceil(f["block_threads"] / 32)
    needed = min(config.occupancy_target, warps / (arch.sm_count * arch.max_warps_per_sm))
    return min(1.0, f["occupancy_theoretical"] / needed) if needed > 0 else 1.0


def _roofline(f: Mapping[str, float], config: RewardConfig) -> float | None:
    intensity = f["arithmetic_intensity"]
    if intensity <= 0:
        return None
    return min(1.0, math.log2(1 + intensity) / math.log2(1 + arch_table.get(config.arch).ridge_point))


def components(f: Mapping[str, float], config: RewardConfig) -> dict[str, float | None]:
    """The four components of one kernel's features (formulas in the module docstring)."""
    shared = f["shared_efficiency"] if f["shared_requests_per_thread"] > 0 else None
    return {"coalescing": _coalescing(f), "shared": shared, "occupancy": _occupancy(f, config),
            "roofline": _roofline(f, config)}


def hygiene(f: Mapping[str, float], config: RewardConfig) -> float:
    return 1.0 / (1.0 + sum(weight * f[name] for name, weight in config.penalties.items()))


def kernel_score(name: str, f: Mapping[str, float], config: RewardConfig) -> KernelScore:
    parts = components(f, config)
    weighted = [(config.weights.get(c, 0.0), v) for c, v in parts.items() if v is not None]
    total = sum(w for w, _ in weighted)
    quality = sum(w * v for w, v in weighted) / total if total > 0 else 1.0
    factor = hygiene(f, config)
    return KernelScore(name, factor * quality, {**parts, "hygiene": factor})


def _literal_dims(spec: Mapping | None, key: str) -> dict[str, tuple[int, int, int]]:
    """Kernel -> grid or block of the launches where it is a literal (expressions need the inputs)."""
    found: dict[str, tuple[int, int, int]] = {}
    launches = spec.get("launches") if isinstance(spec, Mapping) else None
    for entry in launches if isinstance(launches, list) else []:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("kernel"), str):
            continue
        value = entry.get(key)
        dims = [value] if isinstance(value, int) else value
        if isinstance(dims, list) and 1 <= len(dims) <= 3 and all(isinstance(d, int) and d > 0 for d in dims):
            found[entry["kernel"]] = (*dims, *[1] * (3 - len(dims)))
    return found


def _spec_kernels(spec: Mapping | None) -> set[str] | None:
    launches = spec.get("launches") if isinstance(spec, Mapping) else None
    if not isinstance(launches, list):
        return None
    return {e["kernel"] for e in launches if isinstance(e, Mapping) and isinstance(e.get("kernel"), str)}


# the analyses (passes.names()) each component reads; a penalty reads the pass declaring its feature
_READS = {"coalescing": ("memory",), "shared": ("memory",), "occupancy": (), "roofline": ("memory", "work")}


def analyses_read(config: RewardConfig) -> frozenset[str] | None:
    """The analyses the score reads: a component or penalty weighted zero costs nothing (None: all,
    for a penalty on a name no pass declares as a feature)."""
    reads = dict(_READS)
    for name, w in config.penalties.items():
        found = passes.declaring(name)
        if w and found is None:
            return None
        reads[name] = () if found is None or found.always else (found.name,)
    return frozenset(a for table in (config.weights, config.penalties) for name, w in table.items() if w
                     for a in reads[name])


def kernel_reports(source: str, language: str, spec: Mapping | None, config: RewardConfig,
                   analyses: frozenset[str] | None = None) -> list[tuple[KernelReport, str]]:
    """(report, CUDA text) for every kernel the candidate defines (a spec, when there is one, names
    the kernels that count and may fix their grids and blocks), with `analyses` run (Options.analyses;
    None: all).  Raises Unreadable."""
    if language == "python":
        try:
            texts = [text for text, _ in cuda_strings(parse_python(source))]
        except SyntaxError as exc:
            raise Unreadable(f"python does not parse: line {exc.lineno}: {exc.msg}") from None
    else:
        texts = [source]
        spec = spec if spec is not None else _embedded(source)
    grids, blocks, launched = _literal_dims(spec, "grid"), _literal_dims(spec, "block"), _spec_kernels(spec)
    base = Options(arch=config.arch, resources=config.resources, analyses=analyses)
    fixed = {name: {"grid": grids.get(name), "block": blocks.get(name)} for name in (launched or ())}
    found = []
    for text in texts:
        try:
            if fixed and all(any(dims.values()) for dims in fixed.values()):  # each launch analysed once, as run
                kernels = [k for name, dims in sorted(fixed.items())
                           for k in _readable(analyze_source(text, options=replace(base, kernel=name, **dims)))]
            else:
                kernels = [_relaunched(k, text, base, fixed.get(k.kernel.name)) for k in
                           _readable(analyze_source(text, options=base))
                           if launched is None or k.kernel.name in launched]
        except (SourceError, LaunchError) as exc:
            raise Unreadable(str(exc)) from None
        found += [(k, text) for k in kernels]
    return found


def _readable(report: FileReport) -> list[KernelReport]:
    bad = next((d for d in report.diagnostics if d.message.startswith(_UNREADABLE)), None)
    if bad is not None:
        raise Unreadable(f"line {bad.line}: {bad.message.split(';')[0]}")
    return report.kernels


def _relaunched(k: KernelReport, text: str, base: Options, dims: dict | None) -> KernelReport:
    """The kernel again under the spec's literal grid and block, where they differ from the analysis."""
    if not dims or all(v is None or v == getattr(k.launch, d) for d, v in dims.items()):
        return k
    again = analyze_source(text, options=replace(base, kernel=k.kernel.name, **dims)).kernels
    return again[0] if again else k


def kernel_features(source: str, language: str, spec: Mapping | None, config: RewardConfig
                    ) -> list[tuple[str, dict[str, float]]]:
    """(kernel, features) for kernel_reports, of the analyses the score reads (features of the
    others are zero); raises Unreadable."""
    return [(k.kernel.name, features(k)) for k, _ in kernel_reports(source, language, spec, config,
                                                                     analyses_read(config))]


def _embedded(source: str) -> dict | None:
    try:
        return embedded_spec(source)
    except ValueError:  # a malformed spec is the engine's business; structure is read without it
        return None


def launched_name(seen: str) -> str:
    """The bare kernel name in what a profiler reports: `void ns::k<float>(float*, int)` -> `k`."""
    head = seen.split("(", 1)[0].split("<", 1)[0].strip()
    return head.split()[-1].rsplit("::", 1)[-1] if head else ""


def floor(config: RewardConfig, reason: str) -> StructuralScore:
    return StructuralScore(config.structural_floor, {}, (), reason)


def score_kernels(found: list[tuple[str, dict[str, float]]], config: RewardConfig,
                  launched: Sequence[str] | None = None) -> StructuralScore:
    """Score kernel features (from kernel_features); with `launched` (names the engine saw run),
    only kernels that ran count."""
    if launched is not None:
        ran = {launched_name(seen) for seen in launched}
        found = [(name, f) for name, f in found if name in ran]
    if not found:
        return floor(config, "no kernel" if launched is None else "none of its kernels was launched")
    kernels = tuple(kernel_score(name, f, config) for name, f in found)
    means: dict[str, float | None] = {}
    for c in (*STRUCTURAL_COMPONENTS, "hygiene"):
        values = [k.components[c] for k in kernels if k.components[c] is not None]
        means[c] = sum(values) / len(values) if values else None
    return StructuralScore(sum(k.score for k in kernels) / len(kernels), means, kernels)


def score_launches(estimate, config: RewardConfig) -> StructuralScore:
    """The structural score at the task's real shapes: the kernels a candidate launches on the
    reference's inputs (`costmodel.candidates.Estimate.launches`, analysed under the grid and block its
    wrapper computes for them), weighted by where the time goes, and its estimated speed-up over the
    reference (`score_at_shapes`)."""
    if not estimate.launches:
        return floor(config, estimate.reason or "no kernel launched")
    return score_at_shapes([(k.kernel, k.report["features"], k.count * k.terms["total"]) for k in estimate.launches],
                           estimate.terms, estimate.reference_terms, config)


@cache
def _ranker() -> Ranker:
    return Ranker.default()


def speed(terms: Mapping[str, float] | None, reference_terms: Mapping[str, float] | None) -> float | None:
    """The speed-up s of a whole candidate over its reference (summed time terms, torch operators and host
    time included) as the ranker estimates it, mapped to [0, 1): sqrt(s) / (1 + sqrt(s)), 0.5 at parity
    with the reference and symmetric in log s (4x faster 2/3, 4x slower 1/3), so candidates all far faster
    (or all far slower) than the reference are still told apart; None without both."""
    if not terms or not reference_terms:
        return None
    root = math.sqrt(_ranker().speedup(terms, reference_terms))
    return root / (1.0 + root)


def score_at_shapes(found: list[tuple[str, Mapping[str, float], float]], terms: Mapping[str, float] | None,
                    reference_terms: Mapping[str, float] | None, config: RewardConfig) -> StructuralScore:
    """Kernels (name, features, estimated seconds) at the task's shapes: their components weighted by
    their seconds (`score_weighted`), and beside them with `config.speed_weight` (against 1 for the
    kernel components together) the candidate's estimated speed-up over the reference (`speed`, from the
    summed terms of both), under the same sync hygiene factor.  Within a task this is what orders
    candidates by where their time goes: two kernels that use the memory system equally well but do 30x
    different work do not tie."""
    base = score_weighted(found, config)
    fast = speed(terms, reference_terms)
    return base if fast is None else with_speed(base, fast, config)


def score_untraced(base: StructuralScore, config: RewardConfig) -> StructuralScore:
    """A candidate whose launches at the task's shapes could not be followed where its task's could: its
    kernels as the file declares them (`score_kernels`) beside a speed-up taken as parity with the reference,
    so it lands among the traced candidates by what the analyzer reads of it, neither last nor above them
    all (the file-level score alone, without the speed term, sits on another scale: a wrapper made
    untraceable would earn more)."""
    return with_speed(base, PARITY, config)


def with_speed(base: StructuralScore, fast: float, config: RewardConfig) -> StructuralScore:
    """`base` beside the speed term `fast` (`speed`), weighted `config.speed_weight` against 1, under base's
    sync hygiene factor; `base` itself where it is floored or the speed weight is off."""
    if base.reason is not None or config.speed_weight <= 0:
        return base
    hygiene_ = base.components.get("hygiene")
    factor = 1.0 if hygiene_ is None else hygiene_
    w = config.speed_weight
    return StructuralScore((base.score + w * factor * fast) / (1.0 + w), {**base.components, "speed": fast},
                           base.kernels)


def score_weighted(found: list[tuple[str, Mapping[str, float], float]], config: RewardConfig) -> StructuralScore:
    """Kernels (name, features, weight) scored and averaged with the weights: the launches' estimated
    seconds, so the kernel where the time goes decides."""
    scored = [(kernel_score(name, f, config), w) for name, f, w in found]
    total = sum(w for _, w in scored)
    if not scored or total <= 0:
        return floor(config, "no kernel launched")
    means: dict[str, float | None] = {}
    for c in (*STRUCTURAL_COMPONENTS, "hygiene"):
        present = [(k.components[c], w) for k, w in scored if k.components[c] is not None]
        weight = sum(w for _, w in present)
        means[c] = sum(v * w for v, w in present) / weight if present and weight > 0 else None
    return StructuralScore(sum(k.score * w for k, w in scored) / total, means, tuple(k for k, _ in scored))
