"""Reading the committed dataset: the H200 measurements and the analyzer features, one JSON line per
(task, implementation, configuration), joined into `Sample`s grouped by task and configuration.

    DATA/measurements.jsonl.gz   what the GPU measured (status, verified, times, seed)
    DATA/features.jsonl.gz       `ranking.describe` of the analysis under the same launch
    DATA/device.json             the GPU's identity

Both files load with HF datasets too: `hf_dataset(DATA)` (the `datasets` package)."""

from __future__ import annotations

import gzip
import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MEASUREMENTS, FEATURES, DEVICE = "measurements.jsonl.gz", "features.jsonl.gz", "device.json"


def measured() -> Path:
    """The committed H200 measurements: tests/data/h200 in a checkout, the `cudaperf.rl.measured` data
    package (the same files, pyproject's package-dir) where cudaperf is installed."""
    installed = Path(__file__).resolve().parents[1] / "measured"
    return installed if installed.is_dir() else Path(__file__).resolve().parents[3] / "tests" / "data" / "h200"


DEFAULT = measured() / "dataset"


def read_jsonl(path: str | Path) -> Iterator[dict]:
    path = Path(path)
    with (gzip.open(path, "rt") if path.suffix == ".gz" else path.open()) as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def family(task_id: str) -> str:
    return task_id.split("/", 1)[0]


@dataclass(frozen=True)
class Sample:
    """One verified, timed implementation under one configuration, with its analyzer inputs."""

    task_id: str
    config_id: int
    impl_id: str
    time_ms: float
    inputs: dict[str, float]

    @property
    def family(self) -> str:
        return family(self.task_id)

    @property
    def group(self) -> tuple[str, int]:
        return self.task_id, self.config_id


def samples(data: str | Path = DEFAULT) -> list[Sample]:
    """Verified and timed measurements joined with their features, in file order."""
    data = Path(data)
    features = {(r["task_id"], r["impl_id"], r["config_id"]): r["inputs"]
                for r in read_jsonl(data / FEATURES) if "inputs" in r}
    found = []
    for r in read_jsonl(data / MEASUREMENTS):
        key = (r["task_id"], r["impl_id"], r["config_id"])
        if r.get("verified") and r.get("time_ms") and key in features:
            found.append(Sample(r["task_id"], r["config_id"], r["impl_id"], r["time_ms"], features[key]))
    return found


def groups(items: list[Sample]) -> dict[tuple[str, int], list[Sample]]:
    """Samples by (task, configuration): the sets within which times are comparable."""
    by: dict[tuple[str, int], list[Sample]] = defaultdict(list)
    for s in items:
        by[s.group].append(s)
    return dict(by)


def hf_dataset(data: str | Path = DEFAULT, which: str = MEASUREMENTS):
    """The measurements (or features) as a `datasets.Dataset` (needs the `datasets` package)."""
    import datasets

    return datasets.load_dataset("json", data_files=str(Path(data) / which), split="train")
