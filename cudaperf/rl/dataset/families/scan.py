"""Row scans: inclusive, exclusive and reversed cumulative sums and the running maximum.
Implementations: a thread per row (sequential), a warp per row (shuffle scans of 32-element chunks
with a carry), a block per row (Hillis-Steele in shared memory, double-buffered), a block per row
with four elements per thread in registers and a warp-shuffle scan of the thread totals."""

from __future__ import annotations

from collections.abc import Iterator

from .. import snippets
from ..kit import Impl, Signature, Task, Tensor, both_kinds, build
from .regimes import CHECK, ROWS

# op -> (combine, column of scan position p, exclusive?, torch form)
OPS = {"cumsum": (snippets.SUM, "p", False, "torch.cumsum(x.float(), dim=1)"),
       "cumsum_exclusive": (snippets.SUM, "p", True, "torch.cumsum(x.float(), dim=1) - x.float()"),
       "cumsum_reverse": (snippets.SUM, "(cols - 1 - p)", False,
                          "torch.flip(torch.cumsum(torch.flip(x.float(), [1]), dim=1), [1])"),
       "cummax": (snippets.MAX, "p", False, "torch.cummax(x.float(), dim=1).values")}

HEAD = ("__device__ __forceinline__ ACC comb(ACC a, ACC b) { return $COMB; }\n"
        "extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, T* __restrict__ out, int rows, int cols) {\n")
EMIT = "st($EXCL ? {run} - {v} : {run})"


def impls() -> list[Impl]:
    args = ["x", "out", "rows", "cols"]
    row = "    const T* row = x + (size_t){r} * cols;\n    T* orow = out + (size_t){r} * cols;\n"
    return [
        Impl("thread_row", ("naive", "uncoalesced"), "one thread scans a whole row",
             HEAD + "    int r = blockIdx.x * blockDim.x + threadIdx.x;\n    if (r >= rows) return;\n" + row.format(r="r")
             + "    ACC run = $IDENT;\n    for (int p = 0; p < cols; ++p) {\n        int j = $IDX;\n"
               f"        ACC v = ld(row[j]);\n        run = comb(run, v);\n        orow[j] = {EMIT.format(run='run', v='v')};\n"
               "    }\n}\n",
             "cdiv(rows, 128)", "128", args),
        Impl("warp_row", ("warp-shuffle", "coalesced"), "a warp per row, shuffle scans of 32 elements with a carry",
             HEAD + "    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;\n"
                    "    if (w >= rows) return;\n" + row.format(r="w")
             + "    ACC carry = $IDENT;\n    for (int base = 0; base < cols; base += 32) {\n"
               "        int p = base + lane;\n        int j = $IDX;\n        ACC v = p < cols ? ld(row[j]) : $IDENT;\n"
               "        ACC s = v;\n        for (int o = 1; o < 32; o <<= 1) {\n"
               "            ACC t = __shfl_up_sync(0xffffffffu, s, o);\n            if (lane >= o) s = comb(t, s);\n        }\n"
               f"        s = comb(carry, s);\n        if (p < cols) orow[j] = {EMIT.format(run='s', v='v')};\n"
               "        carry = __shfl_sync(0xffffffffu, s, 31);\n    }\n}\n",
             "cdiv(rows, 8)", "256", args),
        Impl("block_hillis_steele", ("shared-memory", "coalesced"),
             "a block per row, Hillis-Steele scans of 256 elements in shared memory with a carry",
             HEAD + "    __shared__ ACC buf[2][256];\n" + row.format(r="blockIdx.x")
             + "    ACC carry = $IDENT;\n    for (int base = 0; base < cols; base += blockDim.x) {\n"
               "        int p = base + threadIdx.x;\n        int j = $IDX;\n        ACC v = p < cols ? ld(row[j]) : $IDENT;\n"
               "        int cur = 0;\n        buf[0][threadIdx.x] = v;\n        __syncthreads();\n"
               "        for (int o = 1; o < blockDim.x; o <<= 1) {\n            ACC s = buf[cur][threadIdx.x];\n"
               "            if (threadIdx.x >= o) s = comb(buf[cur][threadIdx.x - o], s);\n"
               "            buf[cur ^ 1][threadIdx.x] = s;\n            cur ^= 1;\n            __syncthreads();\n        }\n"
               f"        ACC s = comb(carry, buf[cur][threadIdx.x]);\n        if (p < cols) orow[j] = {EMIT.format(run='s', v='v')};\n"
               "        carry = comb(carry, buf[cur][blockDim.x - 1]);\n        __syncthreads();\n    }\n}\n",
             "rows", "256", args),
        Impl("block_registers", ("register-blocked", "warp-shuffle", "shared-memory"),
             "a block per row, four consecutive elements per thread, warp-shuffle scan of thread totals",
             HEAD + "    __shared__ ACC wsum[8];\n" + row.format(r="blockIdx.x")
             + "    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;\n    ACC carry = $IDENT;\n"
               "    for (int base = 0; base < cols; base += blockDim.x * 4) {\n"
               "        ACC v[4];\n        ACC local = $IDENT;\n        int p0 = base + threadIdx.x * 4;\n"
               "#pragma unroll\n        for (int k = 0; k < 4; ++k) {\n            int p = p0 + k;\n            int j = $IDX;\n"
               "            v[k] = p < cols ? ld(row[j]) : $IDENT;\n            local = comb(local, v[k]);\n        }\n"
               "        ACC s = local;\n        for (int o = 1; o < 32; o <<= 1) {\n"
               "            ACC t = __shfl_up_sync(0xffffffffu, s, o);\n            if (lane >= o) s = comb(t, s);\n        }\n"
               "        ACC before = __shfl_up_sync(0xffffffffu, s, 1);\n        if (lane == 0) before = $IDENT;\n"
               "        if (lane == 31) wsum[warp] = s;\n        __syncthreads();\n"
               "        ACC prefix = $IDENT, total = $IDENT;\n"
               "        for (int k = 0; k < 8; ++k) { if (k < warp) prefix = comb(prefix, wsum[k]); total = comb(total, wsum[k]); }\n"
               "        ACC run = comb(carry, comb(prefix, before));\n"
               "#pragma unroll\n        for (int k = 0; k < 4; ++k) {\n            int p = p0 + k;\n            int j = $IDX;\n"
               f"            run = comb(run, v[k]);\n            if (p < cols) orow[j] = {EMIT.format(run='run', v='v[k]')};\n"
               "        }\n        carry = comb(carry, total);\n        __syncthreads();\n    }\n}\n",
             "rows", "256", args),
    ]


def tasks() -> Iterator[Task]:
    for op, (combine, index, exclusive, torch_form) in OPS.items():
        init = "uniform(0, 1)" if combine == snippets.SUM else "normal(0, 1)"
        for kind, dtype in both_kinds(dtypes_torch=("float32", "float16")):
            for regime, sizes in ROWS.items():
                sig = Signature(("rows", "cols"), (Tensor("x", ("rows", "cols"), init=init),),
                                (Tensor("out", ("rows", "cols")),))
                yield build(family="scan", variant=f"{op}-{regime}", kind=kind, dtype=dtype,
                            description=f"{op} along each row of a {dtype} matrix (rows, cols), {regime} rows",
                            sig=sig, configs=sizes[kind], check=CHECK[regime], impls=impls(),
                            c_body="    for (int r = 0; r < rows; ++r) {\n"
                                   f"        ACC run = {'0.0' if combine == snippets.SUM else '-HUGE_VAL'};\n"
                                   f"        for (int p = 0; p < cols; ++p) {{\n            int j = {index};\n"
                                   "            ACC v = CA(x[(size_t)r * cols + j]);\n"
                                   f"            run = {'run + v' if combine == snippets.SUM else '(v > run ? v : run)'};\n"
                                   f"            out[(size_t)r * cols + j] = (T)({'run - v' if exclusive else 'run'});\n"
                                   "        }\n    }",
                            torch_forward=f"return ({torch_form}).to(x.dtype)",
                            values={"COMB": combine, "IDENT": snippets.IDENTITY[combine], "IDX": index,
                                    "EXCL": "1" if exclusive else "0"})
