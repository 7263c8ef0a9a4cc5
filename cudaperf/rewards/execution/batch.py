"""`cudaperf eval`'s work: load the task, evaluate one candidate or a batch, print text, JSON or JSON
lines as each candidate finishes, and show progress on stderr.  The CLI only parses arguments and calls `run`."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import TextIO

from ...progress import Progress
from .api import Evaluator, Options
from .formats import FormatError, candidate_files, load_candidate, load_task
from .result import ExecResult, render_text


class StatusProgress:
    """The shared progress bar (a terminal only), with the statuses so far beside it."""

    def __init__(self, total: int, stream: TextIO | None = None):
        self.bar, self.counts = Progress(total, "eval", stream, minimum=2), Counter()

    def __call__(self, done: int, total: int, result: ExecResult) -> None:
        self.counts[result.status] += 1
        self.bar.advance(result.candidate or "", " ".join(f"{k} {v}" for k, v in sorted(self.counts.items())))


def run(reference: str, candidates: list[str], launch: str | None, harness: str | None, options: Options,
        fmt: str, output: str | None, ray_address: str | None = None) -> list[ExecResult]:
    """Evaluate (on the Ray cluster at `ray_address` if given) and write the results; FormatError (bad
    task or paths) propagates to the caller."""
    task = load_task(reference, harness)
    found = candidate_files(candidates)
    files = [f for f in found if f.resolve() != Path(reference).resolve()]
    if not files:
        raise FormatError(f"{reference} is the reference; give candidates other than it" if found else
                          f"no candidate files in {', '.join(candidates)}")
    batch = len(files) > 1 or any(Path(c).is_dir() for c in candidates)
    loaded = [load_candidate(f, launch) for f in files]
    backend = {"backend": "ray", "address": ray_address} if ray_address else {}
    stream = open(output, "w") if output else sys.stdout  # noqa: SIM115 -- closed below unless stdout
    try:
        with Evaluator(options, **backend) as evaluator:
            if not batch:
                results = [evaluator.evaluate(task, c) for c in loaded]
                if fmt == "json":
                    json.dump(results[0].to_json(), stream, indent=2)
                    stream.write("\n")
                else:
                    _write(results[0], fmt, stream)
                return results
            progress = StatusProgress(len(loaded))

            def finished(done: int, total: int, result: ExecResult) -> None:
                _write(result, fmt, stream)   # as each candidate finishes: a crash later loses nothing
                progress(done, total, result)

            try:
                return evaluator.evaluate_many(task, loaded, progress=finished)
            finally:
                progress.bar.close()
    finally:
        if output:
            stream.close()


def _write(result: ExecResult, fmt: str, stream: TextIO) -> None:
    stream.write(render_text(result) if fmt == "text" else json.dumps(result.to_json()) + "\n")
    stream.flush()
