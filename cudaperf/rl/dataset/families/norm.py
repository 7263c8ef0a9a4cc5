"""Row normalisations: layer norm (with and without affine parameters), RMS norm (with and without
weight) and L2 normalisation.  Implementations: a thread per row, a block per row with shared-memory
trees, a warp per row with shuffles, a block per row with 16-byte loads and shuffles."""

from __future__ import annotations

from collections.abc import Iterator

from .. import snippets
from ..kit import Impl, Signature, Task, Tensor, both_kinds, build
from .regimes import CHECK, ROWS

LN = ("ACC mean = s / CA(cols); ACC var = q / CA(cols) - mean * mean; "
      "ACC rstd = CA(1) / sqrt((var > CA(0) ? var : CA(0)) + CA(1e-5));")
RMS = "ACC mean = CA(0); ACC rstd = CA(1) / sqrt(q / CA(cols) + CA(1e-6));"
L2 = "ACC mean = CA(0); ACC nrm = sqrt(q); ACC rstd = CA(1) / (nrm > CA(1e-12) ? nrm : CA(1e-12));"
C_STATS = {LN: "double mean = s / cols, var = 0.0;\n        for (int j = 0; j < cols; ++j) "
               "{ double d = CA(row[j]) - mean; var += d * d; }\n        double rstd = 1.0 / sqrt(var / cols + 1e-5);",
           RMS: "double mean = 0.0, rstd = 1.0 / sqrt(q / cols + 1e-6);",
           L2: "double mean = 0.0, rstd = 1.0 / fmax(sqrt(q), 1e-12);"}

# op -> (parameter vectors, statistics, output of v at column j, torch form)
OPS = {"layernorm": (("w", "b"), LN, "(v - mean) * rstd * ld(w[j]) + ld(b[j])",
                     "F.layer_norm(x.float(), (x.shape[1],), w.float(), b.float(), 1e-5)"),
       "layernorm_plain": ((), LN, "(v - mean) * rstd", "F.layer_norm(x.float(), (x.shape[1],), eps=1e-5)"),
       "rmsnorm": (("w",), RMS, "v * rstd * ld(w[j])",
                   "x.float() * torch.rsqrt(x.float().pow(2).mean(1, keepdim=True) + 1e-6) * w.float()"),
       "rmsnorm_plain": ((), RMS, "v * rstd", "x.float() * torch.rsqrt(x.float().pow(2).mean(1, keepdim=True) + 1e-6)"),
       "l2norm": ((), L2, "v * rstd", "F.normalize(x.float(), dim=1)")}


def impls(params: tuple[str, ...]) -> list[Impl]:
    helpers = snippets.block_reduce("sum", snippets.SUM) + snippets.tree_reduce("sum", snippets.SUM)
    decl = "".join(f"const T* __restrict__ {p}, " for p in params)
    h = helpers + f"extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, {decl}T* __restrict__ out, " \
                  "int rows, int cols) {\n"
    args = ["x", *params, "out", "rows", "cols"]
    write = "{ ACC v = ld(row[j]); orow[j] = st($OUT); }"
    return [
        Impl("thread_row", ("naive", "uncoalesced"), "one thread per row: sums, then the normalised row",
             h + "    int r = blockIdx.x * blockDim.x + threadIdx.x;\n    if (r >= rows) return;\n"
                 "    const T* row = x + (size_t)r * cols;\n    T* orow = out + (size_t)r * cols;\n    ACC s = CA(0), q = CA(0);\n"
                 "    for (int j = 0; j < cols; ++j) { ACC v = ld(row[j]); s += v; q += v * v; }\n"
                 f"    $STATS\n    for (int j = 0; j < cols; ++j) {write}\n}}\n",
             "cdiv(rows, 128)", "128", args),
        Impl("block_tree", ("shared-memory", "tree-reduction", "coalesced"),
             "a block per row, shared-memory trees for the sums",
             h + "    __shared__ ACC sh[256];\n    const T* row = x + (size_t)blockIdx.x * cols;\n"
                 "    T* orow = out + (size_t)blockIdx.x * cols;\n    ACC s = CA(0), q = CA(0);\n"
                 "    for (int j = threadIdx.x; j < cols; j += blockDim.x) { ACC v = ld(row[j]); s += v; q += v * v; }\n"
                 "    s = tree_sum(s, sh);\n    q = tree_sum(q, sh);\n"
                 f"    $STATS\n    for (int j = threadIdx.x; j < cols; j += blockDim.x) {write}\n}}\n",
             "rows", "256", args),
        Impl("warp_row", ("warp-shuffle", "coalesced"), "a warp per row, butterfly shuffles",
             h + "    int w_ = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;\n"
                 "    if (w_ >= rows) return;\n    const T* row = x + (size_t)w_ * cols;\n    T* orow = out + (size_t)w_ * cols;\n"
                 "    ACC s = CA(0), q = CA(0);\n"
                 "    for (int j = lane; j < cols; j += 32) { ACC v = ld(row[j]); s += v; q += v * v; }\n"
                 "    s = warp_sum(s);\n    q = warp_sum(q);\n"
                 f"    $STATS\n    for (int j = lane; j < cols; j += 32) {write}\n}}\n",
             "cdiv(rows, 8)", "256", args),
        Impl("block_vec", ("vectorised", "warp-shuffle", "coalesced"),
             "a block per row, 16-byte loads and stores of x, shuffle reductions",
             h + "    __shared__ ACC sh[32];\n    const T* row = x + (size_t)blockIdx.x * cols;\n"
                 "    T* orow = out + (size_t)blockIdx.x * cols;\n    int nv = cols / VEC;\n    ACC s = CA(0), q = CA(0);\n"
                 "    for (int qi = threadIdx.x; qi < nv; qi += blockDim.x) {\n"
                 "        uint4 raw = reinterpret_cast<const uint4*>(row)[qi]; const T* e = reinterpret_cast<const T*>(&raw);\n"
                 "#pragma unroll\n        for (int k = 0; k < VEC; ++k) { ACC v = ld(e[k]); s += v; q += v * v; }\n    }\n"
                 "    for (int j = nv * VEC + threadIdx.x; j < cols; j += blockDim.x) { ACC v = ld(row[j]); s += v; q += v * v; }\n"
                 "    s = block_sum(s, sh);\n    q = block_sum(q, sh);\n    $STATS\n"
                 "    for (int qi = threadIdx.x; qi < nv; qi += blockDim.x) {\n"
                 "        uint4 raw = reinterpret_cast<const uint4*>(row)[qi]; const T* e = reinterpret_cast<const T*>(&raw);\n"
                 "        uint4 ro; T* eo = reinterpret_cast<T*>(&ro);\n"
                 "#pragma unroll\n        for (int k = 0; k < VEC; ++k) { int j = qi * VEC + k; ACC v = ld(e[k]); eo[k] = st($OUT); }\n"
                 "        reinterpret_cast<uint4*>(orow)[qi] = ro;\n    }\n"
                 f"    for (int j = nv * VEC + threadIdx.x; j < cols; j += blockDim.x) {write}\n}}\n",
             "rows", "256", args),
    ]


def tasks() -> Iterator[Task]:
    for op, (params, stats, emit, torch_form) in OPS.items():
        inits = {"w": "uniform(0.5, 1.5)", "b": "normal(0, 1)"}
        for kind, dtype in both_kinds():
            for regime, sizes in ROWS.items():
                sig = Signature(("rows", "cols"),
                                (Tensor("x", ("rows", "cols")), *(Tensor(p, ("cols",), init=inits[p]) for p in params)),
                                (Tensor("out", ("rows", "cols")),))
                c_emit = emit.replace("ld(", "CA(")
                yield build(family="norm", variant=f"{op}-{regime}", kind=kind, dtype=dtype,
                            description=f"{op} of each row of a {dtype} matrix (rows, cols), {regime} rows"
                                        + (f", with per-column {' and '.join(params)}" if params else ""),
                            sig=sig, configs=sizes[kind], check=CHECK[regime], impls=impls(params),
                            c_body="    for (int r = 0; r < rows; ++r) {\n        const T* row = x + (size_t)r * cols;\n"
                                   "        T* orow = out + (size_t)r * cols;\n        double s = 0.0, q = 0.0;\n"
                                   "        for (int j = 0; j < cols; ++j) { double v = CA(row[j]); s += v; q += v * v; }\n"
                                   f"        {C_STATS[stats]}\n"
                                   f"        for (int j = 0; j < cols; ++j) {{ double v = CA(row[j]); orow[j] = (T)({c_emit}); }}\n"
                                   "    }",
                            torch_forward=f"return ({torch_form}).to(x.dtype)", values={"STATS": stats, "OUT": emit})
