"""Which atomics does nvcc turn into one update per warp?  Reads the SASS that
benchmarks/atomic_aggregation_h200.sh compiled from benchmarks/atomic_aggregation.cu (committed as
tests/data/h200/atomic_aggregation/atomic_aggregation.tar.gz) and prints, per architecture, each
kernel's atomic and the warp-level instructions the compiler put before it.  A kernel is
aggregated when its SASS reduces the lanes' values first (REDUX/CREDUX), counts the lanes
(POPC) or scans them (SHFL.UP) before the one atomic: the per-lane forms hold none of these.

    python benchmarks/atomic_aggregation.py [--json]
"""

from __future__ import annotations

import argparse
import io
import json
import re
import tarfile
from pathlib import Path

ARCHIVE = Path(__file__).resolve().parents[1] / "tests/data/h200/atomic_aggregation/atomic_aggregation.tar.gz"
_OPCODE = re.compile(r"\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]+)")
_ATOMIC = re.compile(r"(ATOMG|REDG|RED|ATOMS|ATOM)\.")
_AGGREGATING = re.compile(r"^(REDUX|CREDUX|POPC|SHFL\.UP)")


def kernels(sass: str) -> dict[str, list[str]]:
    """Opcodes of each function of one cuobjdump -sass listing."""
    parts = re.split(r"\n\s*Function : (\w+)\n", sass)
    return {name: _OPCODE.findall(body) for name, body in zip(parts[1::2], parts[2::2])}


def table(archive: Path = ARCHIVE) -> dict[str, dict[str, dict]]:
    """{arch: {kernel: {"atomics": [...], "aggregated": bool}}} from the committed SASS."""
    out: dict[str, dict[str, dict]] = {}
    with tarfile.open(archive) as tar:
        for member in sorted(tar.getmembers(), key=lambda m: m.name):
            name = Path(member.name).name
            if not name.endswith(".sass"):
                continue
            sass = io.TextIOWrapper(tar.extractfile(member)).read()
            out[name.removesuffix(".sass")] = {
                kernel: {"atomics": [o for o in ops if _ATOMIC.match(o)],
                         "aggregated": any(_AGGREGATING.match(o) for o in ops)}
                for kernel, ops in kernels(sass).items()}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    found = table()
    if parser.parse_args().json:
        print(json.dumps(found, indent=1, sort_keys=True))
        return
    names = sorted(next(iter(found.values())))
    archs = sorted(found, key=lambda a: int(a.removeprefix("sm_")))
    print(f"{'kernel':24s} " + " ".join(f"{a:>7s}" for a in archs))
    for kernel in names:
        print(f"{kernel:24s} " + " ".join(f"{'agg' if found[a][kernel]['aggregated'] else '-':>7s}" for a in archs))


if __name__ == "__main__":
    main()
