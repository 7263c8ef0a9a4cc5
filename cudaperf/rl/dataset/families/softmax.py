"""Row softmax and its relatives (log-softmax, scaled softmax, softmin) over the last dimension.
Implementations: a thread per row (three passes), a block per row with shared-memory trees, a warp
per row with the online (single-pass) max and sum, a block per row with 16-byte loads and shuffles."""

from __future__ import annotations

from collections.abc import Iterator

from .. import snippets
from ..kit import Impl, Signature, Task, Tensor, both_kinds, build
from .regimes import CHECK, ROWS

# op -> (pre-transform of v, output from e = pre(v), row max m and sum s, torch form)
OPS = {"softmax": ("v", "exp(e - m) / s", "F.softmax(x.float(), dim=1)"),
       "log_softmax": ("v", "e - m - log(s)", "F.log_softmax(x.float(), dim=1)"),
       "scaled_softmax": ("v * CA(0.125)", "exp(e - m) / s", "F.softmax(x.float() * 0.125, dim=1)"),
       "softmin": ("-v", "exp(e - m) / s", "F.softmin(x.float(), dim=1)")}

FNS = ("__device__ __forceinline__ ACC pre(ACC v) { return $PRE; }\n"
       "__device__ __forceinline__ ACC emit(ACC e, ACC m, ACC s) { return $OUT; }\n")
HEAD = ("extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, T* __restrict__ out, int rows, int cols) {\n")
MAX = snippets.MAX


def impls() -> list[Impl]:
    helpers = (FNS + snippets.block_reduce("max", MAX) + snippets.block_reduce("sum", snippets.SUM)
               + snippets.tree_reduce("max", MAX) + snippets.tree_reduce("sum", snippets.SUM))
    h, args = helpers + HEAD, ["x", "out", "rows", "cols"]
    return [
        Impl("thread_row", ("naive", "uncoalesced"), "one thread per row, three passes",
             h + "    int r = blockIdx.x * blockDim.x + threadIdx.x;\n    if (r >= rows) return;\n"
                 "    const T* row = x + (size_t)r * cols;\n    T* orow = out + (size_t)r * cols;\n"
                 "    ACC m = ACC_LOWEST, s = CA(0);\n"
                 "    for (int j = 0; j < cols; ++j) { ACC e = pre(ld(row[j])); m = e > m ? e : m; }\n"
                 "    for (int j = 0; j < cols; ++j) s += exp(pre(ld(row[j])) - m);\n"
                 "    for (int j = 0; j < cols; ++j) orow[j] = st(emit(pre(ld(row[j])), m, s));\n}\n",
             "cdiv(rows, 128)", "128", args),
        Impl("block_tree", ("shared-memory", "tree-reduction", "coalesced"),
             "a block per row, shared-memory trees for the max and the sum",
             h + "    __shared__ ACC sh[256];\n    const T* row = x + (size_t)blockIdx.x * cols;\n"
                 "    T* orow = out + (size_t)blockIdx.x * cols;\n    ACC m = ACC_LOWEST, s = CA(0);\n"
                 "    for (int j = threadIdx.x; j < cols; j += blockDim.x) { ACC e = pre(ld(row[j])); m = e > m ? e : m; }\n"
                 "    m = tree_max(m, sh);\n"
                 "    for (int j = threadIdx.x; j < cols; j += blockDim.x) s += exp(pre(ld(row[j])) - m);\n"
                 "    s = tree_sum(s, sh);\n"
                 "    for (int j = threadIdx.x; j < cols; j += blockDim.x) orow[j] = st(emit(pre(ld(row[j])), m, s));\n}\n",
             "rows", "256", args),
        Impl("warp_online", ("warp-shuffle", "online", "coalesced"),
             "a warp per row, online max and sum in one pass, shuffles to combine",
             h + "    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;\n"
                 "    if (w >= rows) return;\n    const T* row = x + (size_t)w * cols;\n    T* orow = out + (size_t)w * cols;\n"
                 "    ACC m = ACC_LOWEST, s = CA(0);\n"
                 "    for (int j = lane; j < cols; j += 32) {\n        ACC e = pre(ld(row[j]));\n"
                 "        if (e > m) { s = s * exp(m - e) + CA(1); m = e; } else { s += exp(e - m); }\n    }\n"
                 "    for (int o = 16; o > 0; o >>= 1) {\n"
                 "        ACC m2 = __shfl_xor_sync(0xffffffffu, m, o), s2 = __shfl_xor_sync(0xffffffffu, s, o);\n"
                 "        ACC mm = m > m2 ? m : m2;\n        s = s * exp(m - mm) + s2 * exp(m2 - mm);\n        m = mm;\n    }\n"
                 "    for (int j = lane; j < cols; j += 32) orow[j] = st(emit(pre(ld(row[j])), m, s));\n}\n",
             "cdiv(rows, 8)", "256", args),
        Impl("block_vec", ("vectorised", "warp-shuffle", "coalesced"),
             "a block per row, 16-byte loads and stores, shuffle reductions",
             h + "    __shared__ ACC sh[32];\n    const T* row = x + (size_t)blockIdx.x * cols;\n"
                 "    T* orow = out + (size_t)blockIdx.x * cols;\n    int nv = cols / VEC;\n    ACC m = ACC_LOWEST, s = CA(0);\n"
                 "    for (int q = threadIdx.x; q < nv; q += blockDim.x) {\n"
                 "        uint4 raw = reinterpret_cast<const uint4*>(row)[q]; const T* e = reinterpret_cast<const T*>(&raw);\n"
                 "#pragma unroll\n        for (int k = 0; k < VEC; ++k) { ACC p = pre(ld(e[k])); m = p > m ? p : m; }\n    }\n"
                 "    for (int j = nv * VEC + threadIdx.x; j < cols; j += blockDim.x) { ACC p = pre(ld(row[j])); m = p > m ? p : m; }\n"
                 "    m = block_max(m, sh);\n"
                 "    for (int q = threadIdx.x; q < nv; q += blockDim.x) {\n"
                 "        uint4 raw = reinterpret_cast<const uint4*>(row)[q]; const T* e = reinterpret_cast<const T*>(&raw);\n"
                 "#pragma unroll\n        for (int k = 0; k < VEC; ++k) s += exp(pre(ld(e[k])) - m);\n    }\n"
                 "    for (int j = nv * VEC + threadIdx.x; j < cols; j += blockDim.x) s += exp(pre(ld(row[j])) - m);\n"
                 "    s = block_sum(s, sh);\n"
                 "    for (int q = threadIdx.x; q < nv; q += blockDim.x) {\n"
                 "        uint4 raw = reinterpret_cast<const uint4*>(row)[q]; const T* e = reinterpret_cast<const T*>(&raw);\n"
                 "        uint4 ro; T* eo = reinterpret_cast<T*>(&ro);\n"
                 "#pragma unroll\n        for (int k = 0; k < VEC; ++k) eo[k] = st(emit(pre(ld(e[k])), m, s));\n"
                 "        reinterpret_cast<uint4*>(orow)[q] = ro;\n    }\n"
                 "    for (int j = nv * VEC + threadIdx.x; j < cols; j += blockDim.x) orow[j] = st(emit(pre(ld(row[j])), m, s));\n}\n",
             "rows", "256", args),
    ]


def tasks() -> Iterator[Task]:
    for op, (pre, emit, torch_form) in OPS.items():
        for kind, dtype in both_kinds():
            for regime, sizes in ROWS.items():
                sig = Signature(("rows", "cols"), (Tensor("x", ("rows", "cols")),), (Tensor("out", ("rows", "cols")),))
                yield build(family="softmax", variant=f"{op}-{regime}", kind=kind, dtype=dtype,
                            description=f"{op} of each row of a {dtype} matrix (rows, cols), {regime} rows",
                            sig=sig, configs=sizes[kind], check=CHECK[regime], impls=impls(),
                            c_body="    for (int r = 0; r < rows; ++r) {\n        const T* row = x + (size_t)r * cols;\n"
                                   "        T* orow = out + (size_t)r * cols;\n        ACC m = -HUGE_VAL, s = 0.0;\n"
                                   "        for (int j = 0; j < cols; ++j) { ACC e = pre(CA(row[j])); if (e > m) m = e; }\n"
                                   "        for (int j = 0; j < cols; ++j) s += exp(pre(CA(row[j])) - m);\n"
                                   "        for (int j = 0; j < cols; ++j) orow[j] = (T)emit(pre(CA(row[j])), m, s);\n    }",
                            c_helpers=f"static ACC pre(ACC v) {{ return {pre}; }}\n"
                                      f"static ACC emit(ACC e, ACC m, ACC s) {{ return {emit}; }}\n",
                            torch_forward=f"return {torch_form}.to(x.dtype)", values={"PRE": pre, "OUT": emit})
