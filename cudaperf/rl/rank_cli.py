"""`cudaperf rank`'s work: order candidate kernels by the ranker (each analysed under the launch the
command line gives or the file implies), or retrain the model from a measured dataset.  The CLI
parses arguments and calls `order` or `train`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TextIO

from ..costmodel.model import Ranker


def order(paths: list[str], options, model: str | None, fmt: str, stream: TextIO | None = None) -> int:
    """Analyse every file, rank all their kernels together (fastest first) and print them."""
    from ..analysis import analyze_file

    stream = stream or sys.stdout
    ranker = Ranker.load(model) if model else Ranker.default()
    kernels, labels = [], []
    for path in paths:
        for kernel in analyze_file(path, options).kernels:
            kernels.append(kernel.to_json())
            labels.append(f"{path}:{kernels[-1]['name']}")
    if not kernels:
        return 0
    ranked = ranker.order(kernels)
    rows = []
    for place, i in enumerate(ranked, 1):
        nxt = ranked[place] if place < len(ranked) else None
        p_next = round(ranker.prefer(kernels[i], kernels[nxt]), 4) if nxt is not None else None
        rows.append({"rank": place, "kernel": labels[i], "score": round(ranker.score(kernels[i]), 4),
                     "p_faster_than_next": p_next})
    if fmt == "json":
        json.dump({"schema": "cudaperf.rank/1", "kernels": rows}, stream, indent=2)
        stream.write("\n")
    else:
        from ..textout import table

        stream.write(table([[f"{r['rank']}.", r["kernel"], f"{r['score']:+.3f}",
                             "" if r["p_faster_than_next"] is None else f"{r['p_faster_than_next']:.2f}"]
                            for r in rows], ["rank", "kernel", "score", "P(faster than next)"], right=(0, 2, 3)) + "\n")
    return len(rows)


def order_candidates(reference: str, paths: list[str], model: str | None, fmt: str,
                     stream: TextIO | None = None) -> int:
    """Rank whole KernelBench candidate files at the reference's input shapes (fastest first;
    unreadable ones last, with the reason) and print them; the number ranked."""
    stream = stream or sys.stdout
    ranker = Ranker.load(model) if model else Ranker.default()
    codes, unreadable = [], {}
    for path in paths:
        try:
            codes.append(Path(path).read_text())
        except (OSError, UnicodeDecodeError) as exc:
            why = (exc.strerror or str(exc)).lower() if isinstance(exc, OSError) else exc.reason
            unreadable[path] = f"unreadable: {why}"
            codes.append(f"# {unreadable[path]}\n")
    rows = ranker.rank_candidates(Path(reference), codes, labels=paths)
    for r in rows:
        if r["score"] is None and r["label"] in unreadable:
            r["reason"] = unreadable[r["label"]]
    if fmt == "json":
        json.dump({"schema": "cudaperf.rank-candidates/1", "reference": reference, "candidates": rows}, stream,
                  indent=2)
        stream.write("\n")
        return sum(r["score"] is not None for r in rows)
    for r in rows:
        if r["placed"]:
            stream.write(f"{r['rank']:>3}. {r['label']}  placed at the middle, not estimated: {r['reason']}\n")
            continue
        if r["score"] is None:
            stream.write(f"{r['rank']:>3}. {r['label']}  not ranked: {r['reason']}\n")
            continue
        p = f"  P(faster than next) {r['p_faster_than_next']:.2f}" if r["p_faster_than_next"] is not None else ""
        launches = ", ".join(f"{k['kernel']}<<<{_dims(k['grid'])}, {_dims(k['block'])}>>>" +
                             (f" x{k['count']}" if k["count"] > 1 else "") for k in r["launches"])
        more = len(r["torch_ops"]) - 8
        ops = ", ".join(r["torch_ops"][:8]) + (f" and {more} more" if more > 0 else "")
        tail = f" + torch {ops}" if r["torch_ops"] else ""
        if r["torch_only"]:
            launches, tail = f"torch only ({r['torch_only']}):", f" {ops}"
        guess = " (a guess)" if r["guess"] else ""
        stream.write(f"{r['rank']:>3}. {r['label']}  score {r['score']:+.3f}  est. {1e3 * r['seconds']:.3f} ms"
                     f"{guess}{p}\n"
                     f"       {launches}{tail}\n")
        for line in ([r["note"]] if r["note"] else []) + [f"unknown: {u}" for u in r["unknown"]]:
            stream.write(f"       {line}\n")
    return sum(r["score"] is not None or bool(r["placed"]) for r in rows)


def _dims(d: list[int]) -> str:
    return ",".join(str(v) for v in (d[:2] if d[2] == 1 else d) if v) if d[1:] != [1, 1] else str(d[0])


def train(dataset: str | None, output: str | None, stream: TextIO | None = None) -> None:
    """Fit on every sample of `dataset` (default: the dataset the package ships; needs scipy, the `ml`
    extra), print the held-out-family table."""
    from . import rank_train
    from .dataset.load import DEFAULT, samples

    dataset = dataset or str(DEFAULT)
    stream = stream or sys.stdout
    stream.write(rank_train.markdown(rank_train.held_out(samples(Path(dataset)))))
    if output:
        rank_train.fit(rank_train.all_samples(dataset)).save(output)
        stream.write(f"model written to {output}\n")
