"""Shared by the manifest generators of tests/corpus and tests/validation: locating lines in the
kernel sources, building case records in the manifest format, and writing manifest.json."""

from __future__ import annotations

import json
import os
import re


def buf(dtype, count, init="random"):
    return {"dtype": dtype, "count": int(count), "init": init}


def num(x):
    if x is None:
        return None
    return round(float(x), 6)


class ManifestBuilder:
    """Cases for kernels under `root`/kernels; `signature` matches the line that opens a function
    (formatted with the function name)."""

    def __init__(self, root: str, signature: str = r"\b{fn}\s*\(", skip_comments: bool = True):
        self.root = root
        self.signature = signature
        self.skip_comments = skip_comments
        self.cases: list[dict] = []
        self._src: dict[str, list[str]] = {}

    def src_lines(self, f):
        if f not in self._src:
            with open(os.path.join(self.root, f)) as fh:
                self._src[f] = fh.read().split("\n")
        return self._src[f]

    def find_line(self, f, fn, snippet, nth=1):
        """1-based line of the nth occurrence of snippet inside function fn (its first definition)."""
        lines = self.src_lines(f)
        pattern = self.signature.format(fn=re.escape(fn))
        start = next((k for k, line in enumerate(lines) if re.search(pattern, line)
                      and not (self.skip_comments and line.lstrip().startswith("//"))), None)
        assert start is not None, (f, fn)
        count = 0
        for k in range(start, len(lines)):
            if snippet in lines[k]:
                count += 1
                if count == nth:
                    return k + 1
            if k > start and lines[k].startswith("}"):
                break
        raise AssertionError("snippet not found: %s %s %r" % (f, fn, snippet))

    def case(self, id, file, kernel, grid, block, args, buffers, ld, st, sld=None, sst=None,
             acc=(), br=(), sh=(), deriv="", smem=0, targs=None):
        file = "kernels/" + file
        aps = []
        for fn, snip, arr, kind, pat, sec in acc:
            nth = 1
            if isinstance(snip, tuple):
                snip, nth = snip
            aps.append({"line": self.find_line(file, fn or kernel, snip, nth), "array": arr, "kind": kind,
                        "pattern": pat, "sectors_per_request": num(sec), "expr": snip.strip()})
        brs = [{"line": self.find_line(file, fn or kernel, snip), "uniformity": uni, "expr": snip.strip()}
               for fn, snip, uni in br]
        shs = [{"line": self.find_line(file, fn or kernel, snip), "array": arr, "kind": kind,
                "wavefronts_per_request": num(wf), "expr": snip.strip()} for fn, snip, arr, kind, wf in sh]
        c = {
            "id": id, "file": file, "kernel": kernel, "template_args": targs,
            "grid": list(grid) + [1] * (3 - len(grid)), "block": list(block) + [1] * (3 - len(block)),
            "smem": smem, "args": args, "buffers": buffers,
            "expect": {
                "global_load_sectors_per_request": num(ld),
                "global_store_sectors_per_request": num(st),
                "shared_load_wavefronts_per_request": num(sld),
                "shared_store_wavefronts_per_request": num(sst),
                "access_patterns": aps,
                "branches": brs,
            },
            "derivation": deriv,
        }
        if shs:
            c["expect"]["shared_accesses"] = shs
        assert all(x["id"] != id for x in self.cases), id
        self.cases.append(c)

    def write(self, path: str) -> None:
        """One case per block, short objects on one line (readable diffs)."""
        def leaf(v):
            return not isinstance(v, (dict, list)) or (
                isinstance(v, dict) and all(not isinstance(x, (dict, list)) for x in v.values())) or (
                isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v))

        def dump(v, ind):
            pad = "  " * ind
            if leaf(v):
                return json.dumps(v)
            if isinstance(v, dict):
                items = ["%s  %s: %s" % (pad, json.dumps(k), dump(x, ind + 1)) for k, x in v.items()]
                return "{\n" + ",\n".join(items) + "\n" + pad + "}"
            items = ["%s  %s" % (pad, dump(x, ind + 1)) for x in v]
            return "[\n" + ",\n".join(items) + "\n" + pad + "]"

        text = dump(self.cases, 0)
        assert json.loads(text) == json.loads(json.dumps(self.cases))
        with open(path, "w") as fh:
            fh.write(text + "\n")
