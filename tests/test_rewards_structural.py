"""The structural reward on held-out candidate families (tests/reward_families/): better shapes earn
more than worse ones in every family, whether the completion is plain text or chat messages, and
code that cannot be read earns the floor.  Static, no GPU."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest

from cudaperf.rewards import RewardConfig, structural_reward
from cudaperf.rewards.extract import completion_text, extract
from cudaperf.rewards.structural import components, kernel_features, kernel_score

FAMILIES = Path(__file__).parent / "reward_families"
ORDERED = ("coalescing", "bank_conflicts", "races")


def _completions(family: str, prefix: str) -> dict[str, str]:
    return {p.stem: p.read_text() for p in sorted((FAMILIES / family).glob(f"{prefix}*.md"))}


def _rewards(texts: list[str], chat: bool = False) -> list[float]:
    completions = [[{"role": "assistant", "content": t}] for t in texts] if chat else texts
    return structural_reward(prompts=["write the kernel"] * len(texts), completions=completions)


@pytest.mark.parametrize("family", ORDERED)
@pytest.mark.parametrize("chat", [False, True])
def test_better_candidates_outscore_worse_ones(family, chat):
    better, worse = _completions(family, "better_"), _completions(family, "worse_")
    assert len(better) >= 2 and len(worse) >= 2
    scores = dict(zip([*better, *worse], _rewards([*better.values(), *worse.values()], chat)))
    for b, w in product(better, worse):
        assert scores[b] > scores[w] + 0.1, (b, scores[b], w, scores[w])


def test_chat_and_plain_completions_score_the_same():
    texts = [p.read_text() for p in sorted(FAMILIES.glob("*/*.md"))]
    assert _rewards(texts) == _rewards(texts, chat=True)


def test_unreadable_code_gets_the_floor_and_everything_else_more():
    floor = RewardConfig().structural_floor
    bad = _completions("unparsable", "")
    assert len(bad) >= 4
    assert _rewards(list(bad.values())) == [floor] * len(bad)
    readable = [p.read_text() for family in ORDERED for p in (FAMILIES / family).glob("*.md")]
    assert min(_rewards(readable)) > floor


def test_racy_kernels_lose_to_hygiene_not_to_memory_components():
    config = RewardConfig()

    def features(name: str) -> dict[str, float]:
        code = extract((FAMILIES / "races" / f"{name}.md").read_text())
        return kernel_features(code.source, code.language, code.spec, config)[0][1]

    good, bad = features("better_synced"), features("worse_missing_sync")
    assert bad["races"] >= 1 and good["races"] == 0
    assert kernel_score("k", bad, config).components["hygiene"] < 1
    assert kernel_score("k", good, config).components["hygiene"] == 1
    assert components(bad, config)["coalescing"] == components(good, config)["coalescing"]


def _features(**over: float) -> dict[str, float]:
    base = {"global_load_sectors_per_request": 4.0, "global_store_sectors_per_request": 4.0,
            "global_load_efficiency": 1.0, "global_store_efficiency": 1.0, "shared_requests_per_thread": 0.0,
            "shared_efficiency": 1.0, "block_threads": 256.0, "grid_blocks": 4096.0, "occupancy_theoretical": 1.0,
            "arithmetic_intensity": 0.25, "races": 0.0, "divergent_synchronisation": 0.0, "redundant_barriers": 0.0}
    return {**base, **over}


def test_component_formulas():
    config = RewardConfig()
    c = components(_features(global_store_efficiency=0.125), config)
    assert c["coalescing"] == pytest.approx(2 / (1 + 8))          # harmonic mean of 1 and 1/8
    assert c["shared"] is None                                     # no shared memory: not applicable
    assert components(_features(arithmetic_intensity=0.0), config)["roofline"] is None
    assert components(_features(arithmetic_intensity=1e6), config)["roofline"] == 1.0
    # 4 blocks of 64 threads need 8 warps of 132 x 64 slots: a quarter occupancy is plenty
    assert components(_features(grid_blocks=4, block_threads=64, occupancy_theoretical=0.25), config)["occupancy"] == 1
    assert components(_features(occupancy_theoretical=0.25), config)["occupancy"] == pytest.approx(0.5)
    racy = kernel_score("k", _features(races=1.0, divergent_synchronisation=1.0), config)
    clean = kernel_score("k", _features(), config)
    assert racy.components["hygiene"] == pytest.approx(1 / 3)
    assert racy.score == pytest.approx(clean.score / 3)


def test_extraction():
    assert extract("no code here") is None
    fenced = "Prose.\n```cuda\n__global__ void k(float* x) { x[0] = 1; }\n```\nMore prose."
    assert extract(fenced).source.startswith("__global__") and extract(fenced).language == "cuda"
    assert "Prose" not in extract(fenced).source
    unclosed = "```cuda\n__global__ void k(float* x) { x[0] ="
    assert extract(unclosed).source.endswith("x[0] =")
    spec = '```cuda\n__global__ void k() {}\n```\n```json\n{"launches": [{"kernel": "k", "grid": 1, "block": 32}]}\n```'
    assert extract(spec).spec["launches"][0]["kernel"] == "k"
    python = "```python\nimport torch\nsrc = '__global__ void k() {}'\nclass ModelNew: pass\n```"
    assert extract(python).language == "python"
    messages = [{"role": "user", "content": "```cuda\n__global__ void u() {}\n```"},
                {"role": "assistant", "content": [{"type": "text", "text": fenced}]}]
    assert completion_text(messages) == fenced and extract(messages).source == extract(fenced).source
