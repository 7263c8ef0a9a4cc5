"""Reductions: sum, mean, sum of squares, L1, max and min of each row, of each column, or (sum-like
ops) of the whole array.  Implementations: a thread, a warp or a block per output (shared-memory
tree or warp shuffles, vectorised loads), a column tile, and for whole-array sums one block, block
partials or warp partials combined with atomics."""

from __future__ import annotations

from collections.abc import Iterator

from .. import snippets
from ..kit import C_FLOATS, Impl, Signature, Task, Tensor, both_kinds, build
from .regimes import CHECK, ROWS

# op -> (map of v, combine, mean?)
OPS = {"sum": ("v", snippets.SUM, False), "mean": ("v", snippets.SUM, True),
       "sumsq": ("v * v", snippets.SUM, False), "l1": ("fabs(v)", snippets.SUM, False),
       "max": ("v", snippets.MAX, False), "min": ("v", snippets.MIN, False)}
TORCH = {"sum": "x.float().sum({dim})", "mean": "x.float().mean({dim})", "sumsq": "(x.float() * x.float()).sum({dim})",
         "l1": "x.float().abs().sum({dim})", "max": "x.float().amax({dim})", "min": "x.float().amin({dim})"}
C_IDENTITY = {snippets.SUM: "0.0", snippets.MAX: "-HUGE_VAL", snippets.MIN: "HUGE_VAL"}
COLS = {
    "tall": {"c2cuda": [{"rows": 8192, "cols": 128}, {"rows": 16384, "cols": 256}, {"rows": 32768, "cols": 128}],
             "torch2cuda": [{"rows": 32768, "cols": 256}, {"rows": 65536, "cols": 256}, {"rows": 65536, "cols": 512}]},
    "square": {"c2cuda": [{"rows": 512, "cols": 512}, {"rows": 1024, "cols": 1024}, {"rows": 2048, "cols": 1024}],
               "torch2cuda": [{"rows": 1024, "cols": 1024}, {"rows": 2048, "cols": 2048},
                              {"rows": 4096, "cols": 4096}]},
    "wide": {"c2cuda": [{"rows": 64, "cols": 16384}, {"rows": 128, "cols": 16384}, {"rows": 64, "cols": 65536}],
             "torch2cuda": [{"rows": 64, "cols": 65536}, {"rows": 256, "cols": 65536},
                            {"rows": 128, "cols": 131072}]},
}
ALL = {"c2cuda": [{"n": 1 << 18}, {"n": 1 << 20}, {"n": 1 << 22}],
       "torch2cuda": [{"n": 1 << 20}, {"n": 1 << 22}, {"n": 1 << 24}]}

FNS = ("__device__ __forceinline__ ACC mapv(ACC v) { return $MAP; }\n"
       "__device__ __forceinline__ ACC comb(ACC a, ACC b) { return $COMB; }\n")
HEAD = "extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, T* __restrict__ out, int rows, int cols) {\n"


def _helpers(combine: str) -> str:
    return FNS + snippets.block_reduce("red", combine) + snippets.tree_reduce("red", combine)


def row_impls(combine: str) -> list[Impl]:
    h, args = _helpers(combine) + HEAD, ["x", "out", "rows", "cols"]
    return [
        Impl("thread_row", ("naive", "uncoalesced"), "one thread loops over a whole row",
             h + "    int r = blockIdx.x * blockDim.x + threadIdx.x;\n    if (r >= rows) return;\n"
                 "    const T* row = x + (size_t)r * cols;\n    ACC acc = $IDENT;\n"
                 "    for (int j = 0; j < cols; ++j) acc = comb(acc, mapv(ld(row[j])));\n    out[r] = st($FINAL);\n}\n",
             "cdiv(rows, 128)", "128", args),
        Impl("block_tree", ("shared-memory", "tree-reduction", "coalesced"),
             "a block per row, strided loads, shared-memory tree",
             h + "    __shared__ ACC sh[256];\n    const T* row = x + (size_t)blockIdx.x * cols;\n    ACC acc = $IDENT;\n"
                 "    for (int j = threadIdx.x; j < cols; j += blockDim.x) acc = comb(acc, mapv(ld(row[j])));\n"
                 "    acc = tree_red(acc, sh);\n    if (threadIdx.x == 0) out[blockIdx.x] = st($FINAL);\n}\n",
             "rows", "256", args),
        Impl("warp_row", ("warp-shuffle", "coalesced"), "a warp per row, butterfly shuffles",
             h + "    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;\n"
                 "    if (w >= rows) return;\n    const T* row = x + (size_t)w * cols;\n    ACC acc = $IDENT;\n"
                 "    for (int j = lane; j < cols; j += 32) acc = comb(acc, mapv(ld(row[j])));\n"
                 "    acc = warp_red(acc);\n    if (lane == 0) out[w] = st($FINAL);\n}\n",
             "cdiv(rows, 8)", "256", args),
        Impl("block_vec", ("vectorised", "warp-shuffle", "coalesced"),
             "a block per row, 16-byte loads, warp shuffles then one partial per warp",
             h + "    __shared__ ACC sh[32];\n    const T* row = x + (size_t)blockIdx.x * cols;\n    ACC acc = $IDENT;\n"
                 "    int nv = cols / VEC;\n"
                 "    for (int q = threadIdx.x; q < nv; q += blockDim.x) {\n"
                 "        uint4 raw = reinterpret_cast<const uint4*>(row)[q];\n"
                 "        const T* e = reinterpret_cast<const T*>(&raw);\n#pragma unroll\n"
                 "        for (int k = 0; k < VEC; ++k) acc = comb(acc, mapv(ld(e[k])));\n    }\n"
                 "    for (int j = nv * VEC + threadIdx.x; j < cols; j += blockDim.x) acc = comb(acc, mapv(ld(row[j])));\n"
                 "    acc = block_red(acc, sh);\n    if (threadIdx.x == 0) out[blockIdx.x] = st($FINAL);\n}\n",
             "rows", "256", args),
    ]


def col_impls(combine: str) -> list[Impl]:
    h, args = _helpers(combine) + HEAD, ["x", "out", "rows", "cols"]
    return [
        Impl("thread_col", ("naive", "coalesced"), "one thread loops down a column",
             h + "    int j = blockIdx.x * blockDim.x + threadIdx.x;\n    if (j >= cols) return;\n    ACC acc = $IDENT;\n"
                 "    for (int r = 0; r < rows; ++r) acc = comb(acc, mapv(ld(x[(size_t)r * cols + j])));\n"
                 "    out[j] = st($FINAL);\n}\n",
             "cdiv(cols, 256)", "256", args),
        Impl("block_col", ("shared-memory", "tree-reduction", "uncoalesced"),
             "a block per column, shared-memory tree",
             h + "    __shared__ ACC sh[256];\n    int j = blockIdx.x;\n    ACC acc = $IDENT;\n"
                 "    for (int r = threadIdx.x; r < rows; r += blockDim.x) acc = comb(acc, mapv(ld(x[(size_t)r * cols + j])));\n"
                 "    acc = tree_red(acc, sh);\n    if (threadIdx.x == 0) out[j] = st($FINAL);\n}\n",
             "cols", "256", args),
        Impl("tile_col", ("coalesced", "shared-memory", "2d-block"),
             "32 columns x 8 row slices per block, partials combined in shared memory",
             h + "    __shared__ ACC sh[8][33];\n    int j = blockIdx.x * 32 + threadIdx.x;\n    ACC acc = $IDENT;\n"
                 "    if (j < cols)\n"
                 "        for (int r = threadIdx.y; r < rows; r += 8) acc = comb(acc, mapv(ld(x[(size_t)r * cols + j])));\n"
                 "    sh[threadIdx.y][threadIdx.x] = acc;\n    __syncthreads();\n"
                 "    if (threadIdx.y == 0 && j < cols) {\n"
                 "        for (int k = 1; k < 8; ++k) acc = comb(acc, sh[k][threadIdx.x]);\n"
                 "        out[j] = st($FINAL);\n    }\n}\n",
             "cdiv(cols, 32)", ["32", "8"], args),
        Impl("warp_col", ("warp-shuffle", "uncoalesced"), "a warp per column, butterfly shuffles",
             h + "    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;\n"
                 "    if (w >= cols) return;\n    ACC acc = $IDENT;\n"
                 "    for (int r = lane; r < rows; r += 32) acc = comb(acc, mapv(ld(x[(size_t)r * cols + w])));\n"
                 "    acc = warp_red(acc);\n    if (lane == 0) out[w] = st($FINAL);\n}\n",
             "cdiv(cols, 8)", "256", args),
    ]


def all_impls() -> list[Impl]:
    h = _helpers(snippets.SUM) + ("extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, T* __restrict__ out, "
                                  "int n) {\n")
    args = ["x", "out", "n"]
    return [
        Impl("single_block", ("naive", "tree-reduction", "shared-memory"), "one block of 1024 threads does it all",
             h + "    __shared__ ACC sh[1024];\n    ACC acc = CA(0);\n"
                 "    for (int i = threadIdx.x; i < n; i += blockDim.x) acc += mapv(ld(x[i]));\n"
                 "    acc = tree_red(acc, sh);\n    if (threadIdx.x == 0) out[0] = st(acc * $SCALE);\n}\n",
             "1", "1024", args),
        Impl("block_atomic", ("shared-memory", "tree-reduction", "atomics"),
             "a shared-memory tree per block of 256 elements, one atomicAdd per block",
             h + "    __shared__ ACC sh[256];\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    ACC acc = i < n ? mapv(ld(x[i])) : CA(0);\n    acc = tree_red(acc, sh);\n"
                 "    if (threadIdx.x == 0) atomicAdd(out, acc * $SCALE);\n}\n",
             "cdiv(n, 256)", "256", args),
        Impl("warp_atomic", ("grid-stride", "warp-shuffle", "atomics"),
             "one wave of blocks, grid-stride sums, warp shuffles, one atomicAdd per warp",
             h + "    ACC acc = CA(0);\n"
                 "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n"
                 "        acc += mapv(ld(x[i]));\n    acc = warp_red(acc);\n"
                 "    if ((threadIdx.x & 31) == 0) atomicAdd(out, acc * $SCALE);\n}\n",
             "min(cdiv(n, 256), 1056)", "256", args),
        Impl("vec_block", ("vectorised", "grid-stride", "warp-shuffle", "atomics"),
             "16-byte grid-stride loads, block reduction by shuffles, one atomicAdd per block",
             h + "    __shared__ ACC sh[32];\n    ACC acc = CA(0);\n    int nv = n / VEC;\n"
                 "    for (int q = blockIdx.x * blockDim.x + threadIdx.x; q < nv; q += gridDim.x * blockDim.x) {\n"
                 "        uint4 raw = reinterpret_cast<const uint4*>(x)[q];\n"
                 "        const T* e = reinterpret_cast<const T*>(&raw);\n#pragma unroll\n"
                 "        for (int k = 0; k < VEC; ++k) acc += mapv(ld(e[k]));\n    }\n"
                 "    if (blockIdx.x == 0)\n        for (int i = nv * VEC + threadIdx.x; i < n; i += blockDim.x) "
                 "acc += mapv(ld(x[i]));\n"
                 "    acc = block_red(acc, sh);\n    if (threadIdx.x == 0) atomicAdd(out, acc * $SCALE);\n}\n",
             "min(cdiv(n, 2048), 1056)", "256", args),
    ]


def _c_fns(op: str) -> str:
    m, combine, _ = OPS[op]
    return f"static ACC mapv(ACC v) {{ return {m}; }}\nstatic ACC comb(ACC a, ACC b) {{ return {combine}; }}\n"


def tasks() -> Iterator[Task]:
    for op, (m, combine, mean) in OPS.items():
        init = "normal(0, 1)" if combine != snippets.SUM else "uniform(0, 1)"
        values = {"MAP": m, "COMB": combine, "IDENT": snippets.IDENTITY[combine]}
        for kind, dtype in both_kinds():
            for regime, sizes in ROWS.items():
                sig = Signature(("rows", "cols"), (Tensor("x", ("rows", "cols"), init=init),), (Tensor("out", ("rows",)),))
                yield build(family="reduction", variant=f"{op}-rows-{regime}", kind=kind, dtype=dtype,
                            description=f"out[r] = {op} of row r of a {dtype} matrix (rows, cols), {regime} rows",
                            sig=sig, configs=sizes[kind], check=CHECK[regime], impls=row_impls(combine),
                            c_body=f"    for (int r = 0; r < rows; ++r) {{\n        ACC acc = {C_IDENTITY[combine]};\n"
                                   "        for (int j = 0; j < cols; ++j) acc = comb(acc, mapv(CA(x[r * cols + j])));\n"
                                   f"        out[r] = (T)({'acc / cols' if mean else 'acc'});\n    }}",
                            c_helpers=_c_fns(op), torch_forward=f"return {TORCH[op].format(dim='dim=1')}.to(x.dtype)",
                            values={**values, "FINAL": "acc / CA(cols)" if mean else "acc"})
            for regime, sizes in COLS.items():
                sig = Signature(("rows", "cols"), (Tensor("x", ("rows", "cols"), init=init),), (Tensor("out", ("cols",)),))
                yield build(family="reduction", variant=f"{op}-cols-{regime}", kind=kind, dtype=dtype,
                            description=f"out[j] = {op} of column j of a {dtype} matrix (rows, cols), {regime} shape",
                            sig=sig, configs=sizes[kind], check={"rows": 300, "cols": 70}, impls=col_impls(combine),
                            c_body=f"    for (int j = 0; j < cols; ++j) {{\n        ACC acc = {C_IDENTITY[combine]};\n"
                                   "        for (int r = 0; r < rows; ++r) acc = comb(acc, mapv(CA(x[r * cols + j])));\n"
                                   f"        out[j] = (T)({'acc / rows' if mean else 'acc'});\n    }}",
                            c_helpers=_c_fns(op), torch_forward=f"return {TORCH[op].format(dim='dim=0')}.to(x.dtype)",
                            values={**values, "FINAL": "acc / CA(rows)" if mean else "acc"})
        if combine != snippets.SUM:
            continue
        for kind, dtype in both_kinds(C_FLOATS, ("float32",)):
            sig = Signature(("n",), (Tensor("x", ("n",), init=init),), (Tensor("out", (), init="zeros"),))
            yield build(family="reduction", variant=f"{op}-all", kind=kind, dtype=dtype,
                        description=f"out = {op} of all n elements of a {dtype} array (a scalar)",
                        sig=sig, configs=ALL[kind], check={"n": 20011}, impls=all_impls(),
                        c_body="    ACC acc = 0.0;\n    for (int i = 0; i < n; ++i) acc = comb(acc, mapv(CA(x[i])));\n"
                               f"    out[0] = (T)({'acc / n' if mean else 'acc'});",
                        c_helpers=_c_fns(op), torch_forward=f"return {TORCH[op].format(dim='')}.to(x.dtype)",
                        values={**values, "SCALE": "(CA(1) / CA(n))" if mean else "CA(1)"})
