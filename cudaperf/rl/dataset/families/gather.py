"""Gathers and scatters through int32 indices: embedding lookup (rows of a table), 1-D gather,
column selection, and 1-D scatter-add.  Implementations: a thread per element, per-thread chunks
(uncoalesced), a thread per row, a warp per row (plain and with 16-byte copies), grid-stride loops."""

from __future__ import annotations

from collections.abc import Iterator

from ..kit import Impl, Signature, Task, Tensor, both_kinds, build

EMBEDDING = {"c2cuda": [(10000, 64, 4096), (10000, 128, 8192), (50000, 256, 8192)],
             "torch2cuda": [(50000, 128, 16384), (50000, 256, 32768), (100000, 512, 16384)]}
GATHER = {"c2cuda": [(1 << 20, 1 << 18), (1 << 20, 1 << 20), (1 << 22, 1 << 22)],
          "torch2cuda": [(1 << 22, 1 << 20), (1 << 22, 1 << 22), (1 << 24, 1 << 24)]}
SCATTER = {"c2cuda": [(1 << 16, 1 << 18), (1 << 18, 1 << 20), (1 << 20, 1 << 22)],
           "torch2cuda": [(1 << 18, 1 << 20), (1 << 20, 1 << 22), (1 << 20, 1 << 24)]}
SELECT = {"c2cuda": [(1024, 1024, 256), (2048, 1024, 512), (4096, 1024, 512)],
          "torch2cuda": [(4096, 1024, 512), (8192, 2048, 1024), (16384, 1024, 512)]}


def _smallest(sizes: dict, index: int) -> int:
    return min(s[index] for kind in sizes.values() for s in kind)


def embedding_impls() -> list[Impl]:
    head = ("extern \"C\" __global__ void $KERNEL(const T* __restrict__ table, const int* __restrict__ idx, "
            "T* __restrict__ out, int N, int D) {\n")
    args = ["table", "idx", "out", "n", "d"]
    return [
        Impl("flat", ("naive", "coalesced"), "a thread per output element",
             head + "    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;\n    if (t >= (size_t)N * D) return;\n"
                    "    int i = t / D, j = t % D;\n    out[t] = table[(size_t)idx[i] * D + j];\n}\n",
             "cdiv(n * d, 256)", "256", args),
        Impl("thread_row", ("naive", "uncoalesced"), "a thread copies a whole row",
             head + "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i >= N) return;\n"
                    "    const T* src = table + (size_t)idx[i] * D;\n    T* dst = out + (size_t)i * D;\n"
                    "    for (int j = 0; j < D; ++j) dst[j] = src[j];\n}\n",
             "cdiv(n, 128)", "128", args),
        Impl("warp_row", ("warp-per-row", "coalesced"), "a warp copies a row",
             head + "    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;\n    if (w >= N) return;\n"
                    "    const T* src = table + (size_t)idx[w] * D;\n    T* dst = out + (size_t)w * D;\n"
                    "    for (int j = lane; j < D; j += 32) dst[j] = src[j];\n}\n",
             "cdiv(n, 8)", "256", args),
        Impl("warp_row_vec", ("warp-per-row", "vectorised", "coalesced"), "a warp copies a row in 16-byte pieces",
             head + "    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;\n    if (w >= N) return;\n"
                    "    const uint4* src = reinterpret_cast<const uint4*>(table + (size_t)idx[w] * D);\n"
                    "    uint4* dst = reinterpret_cast<uint4*>(out + (size_t)w * D);\n"
                    "    for (int q = lane; q < D / VEC; q += 32) dst[q] = src[q];\n}\n",
             "cdiv(n, 8)", "256", args),
    ]


def gather_impls() -> list[Impl]:
    head = ("extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, const int* __restrict__ idx, "
            "T* __restrict__ out, int N) {\n")
    args = ["x", "idx", "out", "n"]
    return [
        Impl("naive", ("naive", "coalesced"), "a thread per output",
             head + "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < N) out[i] = x[idx[i]];\n}\n",
             "cdiv(n, 256)", "256", args),
        Impl("chunked", ("naive", "uncoalesced"), "eight consecutive outputs per thread",
             head + "    int base = (blockIdx.x * blockDim.x + threadIdx.x) * 8;\n"
                    "    for (int k = 0; k < 8; ++k) { int i = base + k; if (i < N) out[i] = x[idx[i]]; }\n}\n",
             "cdiv(n, 2048)", "256", args),
        Impl("grid_stride", ("grid-stride", "coalesced"), "one wave of blocks looping over the outputs",
             head + "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)\n"
                    "        out[i] = x[idx[i]];\n}\n",
             "min(cdiv(n, 256), 1056)", "256", args),
        Impl("vec_index", ("vectorised", "coalesced"), "four indices per 16-byte load, four gathers per thread",
             head + "    int q = blockIdx.x * blockDim.x + threadIdx.x;\n    if (4 * q + 3 < N) {\n"
                    "        int4 k = reinterpret_cast<const int4*>(idx)[q];\n"
                    "        out[4 * q] = x[k.x];\n        out[4 * q + 1] = x[k.y];\n"
                    "        out[4 * q + 2] = x[k.z];\n        out[4 * q + 3] = x[k.w];\n"
                    "    } else {\n        for (int i = 4 * q; i < N; ++i) out[i] = x[idx[i]];\n    }\n}\n",
             "cdiv(n, 1024)", "256", args),
    ]


def scatter_impls() -> list[Impl]:
    head = ("extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, const int* __restrict__ idx, "
            "T* __restrict__ out, int N) {\n")
    args = ["x", "idx", "out", "n"]
    return [
        Impl("naive", ("naive", "atomics", "coalesced"), "a thread per input, one atomicAdd each",
             head + "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < N) atomicAdd(&out[idx[i]], x[i]);\n}\n",
             "cdiv(n, 256)", "256", args),
        Impl("chunked", ("naive", "atomics", "uncoalesced"), "eight consecutive inputs per thread",
             head + "    int base = (blockIdx.x * blockDim.x + threadIdx.x) * 8;\n"
                    "    for (int k = 0; k < 8; ++k) { int i = base + k; if (i < N) atomicAdd(&out[idx[i]], x[i]); }\n}\n",
             "cdiv(n, 2048)", "256", args),
        Impl("grid_stride", ("grid-stride", "atomics", "coalesced"), "one wave of blocks looping over the inputs",
             head + "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)\n"
                    "        atomicAdd(&out[idx[i]], x[i]);\n}\n",
             "min(cdiv(n, 256), 1056)", "256", args),
    ]


def select_impls() -> list[Impl]:
    head = ("extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, const int* __restrict__ idx, "
            "T* __restrict__ out, int R, int C, int K) {\n")
    args = ["x", "idx", "out", "rows", "cols", "k"]
    return [
        Impl("flat", ("naive", "coalesced"), "a thread per output element",
             head + "    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;\n    if (t >= (size_t)R * K) return;\n"
                    "    int r = t / K, j = t % K;\n    out[t] = x[(size_t)r * C + idx[j]];\n}\n",
             "cdiv(rows * k, 256)", "256", args),
        Impl("column_major", ("naive", "uncoalesced"), "consecutive threads walk down an output column",
             head + "    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;\n    if (t >= (size_t)R * K) return;\n"
                    "    int r = t % R, j = t / R;\n    out[(size_t)r * K + j] = x[(size_t)r * C + idx[j]];\n}\n",
             "cdiv(rows * k, 256)", "256", args),
        Impl("shared_index", ("shared-memory", "2d-block", "coalesced"),
             "a 32x8 block, the block's 32 indices staged in shared memory",
             head + "    __shared__ int sidx[32];\n    int j = blockIdx.x * 32 + threadIdx.x;\n"
                    "    if (threadIdx.y == 0) sidx[threadIdx.x] = j < K ? idx[j] : 0;\n    __syncthreads();\n"
                    "    if (j >= K) return;\n"
                    "    for (int r = blockIdx.y * 8 + threadIdx.y; r < R; r += gridDim.y * 8)\n"
                    "        out[(size_t)r * K + j] = x[(size_t)r * C + sidx[threadIdx.x]];\n}\n",
             ["cdiv(k, 32)", "min(cdiv(rows, 8), 256)"], ["32", "8"], args),
    ]


def tasks() -> Iterator[Task]:
    for kind, dtype in both_kinds():
        v_max = _smallest(EMBEDDING, 0)
        sig = Signature(("v", "d", "n"), (Tensor("table", ("v", "d")), Tensor("idx", ("n",), "int32", f"randint(0, {v_max})")),
                        (Tensor("out", ("n", "d")),))
        yield build(family="gather", variant="embedding", kind=kind, dtype=dtype,
                    description=f"out[i, :] = table[idx[i], :] for a {dtype} table (v, d) and n int32 indices",
                    sig=sig, configs=[dict(zip(("v", "d", "n"), s)) for s in EMBEDDING[kind]],
                    check={"v": v_max, "d": 64, "n": 50}, impls=embedding_impls(),
                    c_body="    for (int i = 0; i < n; ++i) for (int j = 0; j < d; ++j) "
                           "out[(size_t)i * d + j] = table[(size_t)idx[i] * d + j];",
                    torch_forward="return F.embedding(idx.long(), table)")
        m_max = _smallest(GATHER, 0)
        sig = Signature(("m", "n"), (Tensor("x", ("m",)), Tensor("idx", ("n",), "int32", f"randint(0, {m_max})")),
                        (Tensor("out", ("n",)),))
        yield build(family="gather", variant="gather1d", kind=kind, dtype=dtype,
                    description=f"out[i] = x[idx[i]] for a {dtype} array x (m) and n int32 indices",
                    sig=sig, configs=[dict(zip(("m", "n"), s)) for s in GATHER[kind]],
                    check={"m": m_max, "n": 5001}, impls=gather_impls(),
                    c_body="    for (int i = 0; i < n; ++i) out[i] = x[idx[i]];", torch_forward="return x[idx.long()]")
        c_max = _smallest(SELECT, 1)
        sig = Signature(("rows", "cols", "k"), (Tensor("x", ("rows", "cols")),
                                                Tensor("idx", ("k",), "int32", f"randint(0, {c_max})")),
                        (Tensor("out", ("rows", "k")),))
        yield build(family="gather", variant="index_select_cols", kind=kind, dtype=dtype,
                    description=f"out[r, j] = x[r, idx[j]]: k columns of a {dtype} matrix (rows, cols) chosen by index",
                    sig=sig, configs=[dict(zip(("rows", "cols", "k"), s)) for s in SELECT[kind]],
                    check={"rows": 30, "cols": c_max, "k": 40}, impls=select_impls(),
                    c_body="    for (int r = 0; r < rows; ++r) for (int j = 0; j < k; ++j) "
                           "out[(size_t)r * k + j] = x[(size_t)r * cols + idx[j]];",
                    torch_forward="return torch.index_select(x, 1, idx.long())")
        if dtype in ("float16", "bfloat16"):
            continue
        m_max = _smallest(SCATTER, 0)
        sig = Signature(("m", "n"), (Tensor("x", ("n",), init="uniform(0, 1)"),
                                     Tensor("idx", ("n",), "int32", f"randint(0, {m_max})")),
                        (Tensor("out", ("m",), init="zeros"),))
        yield build(family="gather", variant="scatter_add1d", kind=kind, dtype=dtype,
                    description=f"out[idx[i]] += x[i] into a zeroed {dtype} array out (m), n int32 indices",
                    sig=sig, configs=[dict(zip(("m", "n"), s)) for s in SCATTER[kind]],
                    check={"m": m_max, "n": 5001}, impls=scatter_impls(),
                    c_body="    double* acc = (double*)calloc(m, sizeof(double));\n"
                           "    for (int i = 0; i < n; ++i) acc[idx[i]] += x[i];\n"
                           "    for (int i = 0; i < m; ++i) out[i] = (T)acc[i];\n    free(acc);",
                    c_helpers="#include <stdlib.h>\n",
                    torch_forward="return x.new_zeros(self.m).index_add_(0, idx.long(), x)")
