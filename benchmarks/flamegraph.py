"""A flame graph (SVG) of where a profiled run spends its time, from py-spy's collapsed stacks.

    py-spy record -r 200 -f raw -o prof.txt -- python -m cudaperf analyze DIRS --resources estimate \\
        --format json -j 1 > /dev/null
    python benchmarks/flamegraph.py prof.txt docs/flamegraph.svg [--min 0.3] [--title TEXT]

py-spy's own SVG keeps every stack and line number (megabytes for a corpus run); this one merges frames
by function (a frame's line number dropped), folds recursion (a function already on the stack is not
repeated), leaves out what the threads spent waiting (a thread joining the analysis thread, lock and
condition waits), the interpreter's own frames and those above the first of `--root` in each stack,
and prunes every frame under `--min` percent of the samples, so the picture stays small enough to
commit and read.  Each box's tooltip gives its share of the samples.  The widest boxes at the bottom are
the phases; what stands on them is what they call.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import re
from pathlib import Path

IDLE = {"_wait_for_tstate_lock", "wait", "acquire"}  # a leaf function so named: a thread waiting
WIDTH, ROW, FONT_PX, CHAR_PX = 1200.0, 17, 11, 6.4


def read_stacks(path: Path, root: str | None) -> dict[tuple[str, ...], int]:
    """Collapsed stacks (`frame;frame;... count`) with line numbers dropped, idle leaves left out and,
    given `root`, only what stands on its first frame."""
    stacks: dict[tuple[str, ...], int] = {}
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = [re.sub(r":\d+\)$", ")", f) for f in stack.split(";")]
        if frames[-1].split(" (")[0].rsplit(".", 1)[-1] in IDLE:
            continue
        if root is not None:
            starts = [i for i, f in enumerate(frames) if f.startswith(root)]
            if not starts:
                continue
            frames = frames[starts[0]:]
        key = _folded(frames)
        stacks[key] = stacks.get(key, 0) + int(count)
    return stacks


def _folded(frames: list[str]) -> tuple[str, ...]:
    """The stack without the interpreter's own frames (thread start-up, runpy, importlib) and with
    recursion folded: a function already on the stack is not repeated, so the lowering's walk down
    nested statements and expressions stands as one column per function, its work on top."""
    seen: set[str] = set()
    kept = []
    for frame in frames:
        if frame in seen or frame.endswith(("(threading.py)", "(<frozen runpy>)")) or "(<frozen importlib" in frame:
            continue
        seen.add(frame)
        kept.append(frame)
    return tuple(kept)


def tree(stacks: dict[tuple[str, ...], int]) -> dict:
    """The stacks merged into a tree of {name, count, children}."""
    top: dict = {"name": "all", "count": 0, "children": {}}
    for frames, count in stacks.items():
        node = top
        node["count"] += count
        for frame in frames:
            node = node["children"].setdefault(frame, {"name": frame, "count": 0, "children": {}})
            node["count"] += count
    return top


def _colour(name: str) -> str:
    """A warm colour per source file, so one module's frames look alike."""
    source = name[name.rfind("(") + 1:-1] if name.endswith(")") else name
    h = int(hashlib.sha1(source.encode()).hexdigest()[:6], 16)
    return f"rgb({205 + h % 50},{90 + (h >> 8) % 120},{40 + (h >> 16) % 50})"


def svg(top: dict, minimum: float, title: str) -> str:
    total = top["count"]
    boxes: list[str] = []
    depth_max = 0

    def place(node: dict, x: float, depth: int) -> None:
        nonlocal depth_max
        width = WIDTH * node["count"] / total
        depth_max = max(depth_max, depth)
        y = -(depth + 1) * ROW
        share = 100.0 * node["count"] / total
        label = node["name"].replace("(cudaperf/analysis/", "(").replace("(cudaperf/", "(")
        fits = int((width - 6) / CHAR_PX)
        text = label if len(label) <= fits else (label[:fits - 2] + ".." if fits > 3 else "")
        boxes.append(f'<g><title>{html.escape(node["name"])}: {share:.1f}%</title>'
                     f'<rect x="{x:.1f}" y="{y}" width="{max(width - 0.5, 0.5):.1f}" height="{ROW - 1}" '
                     f'fill="{_colour(label)}" rx="2"/>'
                     + (f'<text x="{x + 3:.1f}" y="{y + ROW - 5}">{html.escape(text)}</text>' if text else "")
                     + "</g>")
        for child in sorted(node["children"].values(), key=lambda c: -c["count"]):
            if 100.0 * child["count"] / total >= minimum:
                place(child, x, depth + 1)
            x += WIDTH * child["count"] / total

    place(top, 0.0, 0)
    height = (depth_max + 1) * ROW + 40
    offset = height - 10
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH:.0f}" height="{height}" '
            f'font-family="monospace" font-size="{FONT_PX}px">\n'
            f'<rect width="100%" height="100%" fill="#fdfaf6"/>\n'
            f'<text x="4" y="16" font-size="13px">{html.escape(title)}</text>\n'
            f'<g transform="translate(0,{offset})">\n' + "\n".join(boxes) + "\n</g>\n</svg>\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("collapsed", type=Path, help="py-spy record -f raw output")
    parser.add_argument("out", type=Path, help="the SVG to write")
    parser.add_argument("--min", type=float, default=0.3, help="prune frames under this percent of samples")
    parser.add_argument("--root", default=None, help="keep only what stands on the first frame starting so")
    parser.add_argument("--title", default="", help="a line of text above the graph")
    parser.add_argument("--top", type=int, default=25, help="how many of the widest functions to print")
    args = parser.parse_args(argv)
    top = tree(read_stacks(args.collapsed, args.root))
    if not top["count"]:
        parser.error(f"{args.collapsed}: no samples")
    args.out.write_text(svg(top, args.min, args.title or f"{top['count']} samples"))
    print(f"{args.out}: {top['count']} samples; the widest functions (share of samples under them):")
    for name, count in widest(top, args.top):
        print(f"{100.0 * count / top['count']:6.1f}%  {name}")
    return 0


def widest(top: dict, n: int) -> list[tuple[str, int]]:
    """The `n` functions with the most samples under them (each counted once per stack: recursion is folded)."""
    totals: dict[str, int] = {}

    def walk(node: dict) -> None:
        for child in node["children"].values():
            totals[child["name"]] = totals.get(child["name"], 0) + child["count"]
            walk(child)
    walk(top)
    return sorted(totals.items(), key=lambda item: -item[1])[:n]


if __name__ == "__main__":
    raise SystemExit(main())
