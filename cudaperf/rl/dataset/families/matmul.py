"""Matrix products: A @ B, A @ B^T, batched A @ B, relu(A @ W^T + bias) on square and tall-skinny
shapes, and matrix-vector products both ways.  GEMM implementations: a naive thread per output with
rows along threadIdx.x (uncoalesced) and with columns along it, 16x16 shared tiles, 32x32 tiles with
four outputs per thread, 64x64 tiles with a 4x4 register block per thread.  GEMV: a thread, a warp
(plain and with 16-byte loads) or a block per output; for x^T A a thread, block, warp or tile per
column."""

from __future__ import annotations

from collections.abc import Iterator

from .. import snippets
from ..kit import TORCH_FLOATS, Impl, Signature, Task, Tensor, both_kinds, build

GEMM = {
    "square": {"c2cuda": [(256, 256, 256), (384, 384, 256), (512, 512, 256)],
               "torch2cuda": [(512, 512, 512), (1024, 1024, 512), (1024, 1024, 1024)]},
    "skinny": {"c2cuda": [(2048, 64, 256), (4096, 64, 256), (8192, 64, 128)],
               "torch2cuda": [(16384, 64, 512), (32768, 64, 512), (65536, 64, 256)]},
}
BMM = {"c2cuda": [(8, 128, 128, 128), (16, 128, 128, 128), (8, 256, 256, 128)],
       "torch2cuda": [(16, 256, 256, 256), (32, 256, 256, 256), (16, 512, 512, 256)]}
GEMV = {"c2cuda": [(2048, 2048), (4096, 2048), (4096, 4096)],
        "torch2cuda": [(4096, 4096), (8192, 4096), (16384, 2048)]}
TOL = {"float32": 1e-3, "float64": None, "float16": 2e-2, "bfloat16": 2e-2}
B_NN, B_NT = "Bb[(size_t)(kk_) * N + (cc_)]", "Bb[(size_t)(cc_) * K + (kk_)]"


def _b(layout: str, kk: str, cc: str) -> str:
    return layout.replace("kk_", kk).replace("cc_", cc)


def gemm_impls(layout: str, bias: bool) -> list[Impl]:
    decl = "const T* __restrict__ bias, " if bias else ""
    head = ("extern \"C\" __global__ void $KERNEL(const T* __restrict__ A, const T* __restrict__ B, " + decl
            + "T* __restrict__ C, int M, int N, int K) {\n"
            "    const T* Ab = A + (size_t)blockIdx.z * M * K;\n    const T* Bb = B + (size_t)blockIdx.z * K * N;\n"
            "    T* Cb = C + (size_t)blockIdx.z * M * N;\n")
    epi = "fmax(acc + ld(bias[col]), CA(0))" if bias else "acc"
    store = f"Cb[(size_t)row * N + col] = st({epi});"
    args = ["A", "B", *(["bias"] if bias else []), "C", "m", "n", "k"]
    dot = f"    ACC acc = CA(0);\n    for (int kk = 0; kk < K; ++kk) acc += ld(Ab[(size_t)row * K + kk]) * ld({_b(layout, 'kk', 'col')});\n"
    return [
        Impl("naive_rows", ("naive", "uncoalesced"), "a thread per output, consecutive threads on consecutive rows",
             head + "    int row = blockIdx.x * 16 + threadIdx.x, col = blockIdx.y * 16 + threadIdx.y;\n"
                    "    if (row >= M || col >= N) return;\n" + dot + f"    {store}\n}}\n",
             ["cdiv(m, 16)", "cdiv(n, 16)", "batch"], ["16", "16"], args),
        Impl("naive_cols", ("naive", "coalesced"), "a thread per output, consecutive threads on consecutive columns",
             head + "    int col = blockIdx.x * 16 + threadIdx.x, row = blockIdx.y * 16 + threadIdx.y;\n"
                    "    if (row >= M || col >= N) return;\n" + dot + f"    {store}\n}}\n",
             ["cdiv(n, 16)", "cdiv(m, 16)", "batch"], ["16", "16"], args),
        Impl("tiled16", ("shared-memory", "tiled"), "16x16 tiles of A and B staged in shared memory",
             head + "    __shared__ ACC As[16][16];\n    __shared__ ACC Bs[16][16];\n"
                    "    int tx = threadIdx.x, ty = threadIdx.y;\n"
                    "    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;\n    ACC acc = CA(0);\n"
                    "    for (int t = 0; t < K; t += 16) {\n"
                    "        As[ty][tx] = (row < M && t + tx < K) ? ld(Ab[(size_t)row * K + t + tx]) : CA(0);\n"
                    f"        Bs[ty][tx] = (t + ty < K && col < N) ? ld({_b(layout, 't + ty', 'col')}) : CA(0);\n"
                    "        __syncthreads();\n"
                    "        for (int kk = 0; kk < 16; ++kk) acc += As[ty][kk] * Bs[kk][tx];\n"
                    "        __syncthreads();\n    }\n"
                    f"    if (row < M && col < N) {store}\n}}\n",
             ["cdiv(n, 16)", "cdiv(m, 16)", "batch"], ["16", "16"], args),
        Impl("tiled32_reg4", ("shared-memory", "tiled", "register-blocked"),
             "32x32 shared tiles, four outputs per thread down a column",
             head + "    __shared__ ACC As[32][33];\n    __shared__ ACC Bs[32][33];\n"
                    "    int tx = threadIdx.x, ty = threadIdx.y;\n    int col = blockIdx.x * 32 + tx, row0 = blockIdx.y * 32;\n"
                    "    ACC accs[4] = {CA(0), CA(0), CA(0), CA(0)};\n"
                    "    for (int t = 0; t < K; t += 32) {\n#pragma unroll\n        for (int i = 0; i < 4; ++i) {\n"
                    "            int r = ty + 8 * i;\n"
                    "            As[r][tx] = (row0 + r < M && t + tx < K) ? ld(Ab[(size_t)(row0 + r) * K + t + tx]) : CA(0);\n"
                    f"            Bs[r][tx] = (t + r < K && col < N) ? ld({_b(layout, 't + r', 'col')}) : CA(0);\n"
                    "        }\n        __syncthreads();\n"
                    "        for (int kk = 0; kk < 32; ++kk) {\n            ACC b = Bs[kk][tx];\n#pragma unroll\n"
                    "            for (int i = 0; i < 4; ++i) accs[i] += As[ty + 8 * i][kk] * b;\n        }\n"
                    "        __syncthreads();\n    }\n#pragma unroll\n"
                    "    for (int i = 0; i < 4; ++i) {\n        int row = row0 + ty + 8 * i;\n"
                    f"        if (row < M && col < N) {{ ACC acc = accs[i]; {store} }}\n    }}\n}}\n",
             ["cdiv(n, 32)", "cdiv(m, 32)", "batch"], ["32", "8"], args),
        Impl("reg4x4_64", ("shared-memory", "tiled", "register-blocked"),
             "64x64 shared tiles (k-major), a 4x4 block of outputs per thread",
             head + "    __shared__ ACC As[16][65];\n    __shared__ ACC Bs[16][65];\n"
                    "    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;\n"
                    "    int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;\n"
                    "    ACC accs[4][4];\n#pragma unroll\n    for (int i = 0; i < 4; ++i)\n#pragma unroll\n"
                    "        for (int j = 0; j < 4; ++j) accs[i][j] = CA(0);\n"
                    "    for (int t = 0; t < K; t += 16) {\n        for (int l = tid; l < 1024; l += 256) {\n"
                    "            int r = l / 16, ka = l % 16, kb = l / 64, c = l % 64;\n"
                    "            As[ka][r] = (row0 + r < M && t + ka < K) ? ld(Ab[(size_t)(row0 + r) * K + t + ka]) : CA(0);\n"
                    f"            Bs[kb][c] = (t + kb < K && col0 + c < N) ? ld({_b(layout, 't + kb', 'col0 + c')}) : CA(0);\n"
                    "        }\n        __syncthreads();\n"
                    "        for (int kk = 0; kk < 16; ++kk) {\n            ACC a[4], b[4];\n#pragma unroll\n"
                    "            for (int i = 0; i < 4; ++i) { a[i] = As[kk][ty + 16 * i]; b[i] = Bs[kk][tx + 16 * i]; }\n"
                    "#pragma unroll\n            for (int i = 0; i < 4; ++i)\n#pragma unroll\n"
                    "                for (int j = 0; j < 4; ++j) accs[i][j] += a[i] * b[j];\n        }\n"
                    "        __syncthreads();\n    }\n#pragma unroll\n    for (int i = 0; i < 4; ++i)\n#pragma unroll\n"
                    "        for (int j = 0; j < 4; ++j) {\n            int row = row0 + ty + 16 * i, col = col0 + tx + 16 * j;\n"
                    f"            if (row < M && col < N) {{ ACC acc = accs[i][j]; {store} }}\n        }}\n}}\n",
             ["cdiv(n, 64)", "cdiv(m, 64)", "batch"], ["16", "16"], args),
    ]


def gemv_impls() -> list[Impl]:
    h = (snippets.block_reduce("sum", snippets.SUM) + snippets.tree_reduce("sum", snippets.SUM)
         + "extern \"C\" __global__ void $KERNEL(const T* __restrict__ A, const T* __restrict__ v, T* __restrict__ out, "
           "int M, int K) {\n")
    args = ["A", "v", "out", "m", "k"]
    return [
        Impl("thread_row", ("naive", "uncoalesced"), "a thread per output row",
             h + "    int r = blockIdx.x * blockDim.x + threadIdx.x;\n    if (r >= M) return;\n    ACC acc = CA(0);\n"
                 "    for (int k = 0; k < K; ++k) acc += ld(A[(size_t)r * K + k]) * ld(v[k]);\n    out[r] = st(acc);\n}\n",
             "cdiv(m, 128)", "128", args),
        Impl("warp_row", ("warp-shuffle", "coalesced"), "a warp per output row, butterfly shuffles",
             h + "    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;\n"
                 "    if (w >= M) return;\n    ACC acc = CA(0);\n"
                 "    for (int k = lane; k < K; k += 32) acc += ld(A[(size_t)w * K + k]) * ld(v[k]);\n"
                 "    acc = warp_sum(acc);\n    if (lane == 0) out[w] = st(acc);\n}\n",
             "cdiv(m, 8)", "256", args),
        Impl("block_row", ("shared-memory", "tree-reduction", "coalesced"), "a block per output row, shared-memory tree",
             h + "    __shared__ ACC sh[256];\n    ACC acc = CA(0);\n"
                 "    for (int k = threadIdx.x; k < K; k += blockDim.x) acc += ld(A[(size_t)blockIdx.x * K + k]) * ld(v[k]);\n"
                 "    acc = tree_sum(acc, sh);\n    if (threadIdx.x == 0) out[blockIdx.x] = st(acc);\n}\n",
             "m", "256", args),
        Impl("warp_row_vec", ("warp-shuffle", "vectorised", "coalesced"), "a warp per row, 16-byte loads of A and v",
             h + "    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;\n"
                 "    if (w >= M) return;\n    ACC acc = CA(0);\n    const T* row = A + (size_t)w * K;\n    int nv = K / VEC;\n"
                 "    for (int q = lane; q < nv; q += 32) {\n"
                 "        uint4 ra = reinterpret_cast<const uint4*>(row)[q], rv = reinterpret_cast<const uint4*>(v)[q];\n"
                 "        const T* ea = reinterpret_cast<const T*>(&ra); const T* ev = reinterpret_cast<const T*>(&rv);\n"
                 "#pragma unroll\n        for (int k = 0; k < VEC; ++k) acc += ld(ea[k]) * ld(ev[k]);\n    }\n"
                 "    for (int k = nv * VEC + lane; k < K; k += 32) acc += ld(row[k]) * ld(v[k]);\n"
                 "    acc = warp_sum(acc);\n    if (lane == 0) out[w] = st(acc);\n}\n",
             "cdiv(m, 8)", "256", args),
    ]


def gemv_t_impls() -> list[Impl]:
    h = (snippets.block_reduce("sum", snippets.SUM) + snippets.tree_reduce("sum", snippets.SUM)
         + "extern \"C\" __global__ void $KERNEL(const T* __restrict__ v, const T* __restrict__ A, T* __restrict__ out, "
           "int M, int K) {\n")
    args = ["v", "A", "out", "m", "k"]
    return [
        Impl("thread_col", ("naive", "coalesced"), "a thread per output column loops down the rows",
             h + "    int j = blockIdx.x * blockDim.x + threadIdx.x;\n    if (j >= K) return;\n    ACC acc = CA(0);\n"
                 "    for (int r = 0; r < M; ++r) acc += ld(v[r]) * ld(A[(size_t)r * K + j]);\n    out[j] = st(acc);\n}\n",
             "cdiv(k, 256)", "256", args),
        Impl("block_col", ("shared-memory", "tree-reduction", "uncoalesced"), "a block per output column",
             h + "    __shared__ ACC sh[256];\n    int j = blockIdx.x;\n    ACC acc = CA(0);\n"
                 "    for (int r = threadIdx.x; r < M; r += blockDim.x) acc += ld(v[r]) * ld(A[(size_t)r * K + j]);\n"
                 "    acc = tree_sum(acc, sh);\n    if (threadIdx.x == 0) out[j] = st(acc);\n}\n",
             "k", "256", args),
        Impl("warp_col", ("warp-shuffle", "uncoalesced"), "a warp per output column",
             h + "    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;\n"
                 "    if (w >= K) return;\n    ACC acc = CA(0);\n"
                 "    for (int r = lane; r < M; r += 32) acc += ld(v[r]) * ld(A[(size_t)r * K + w]);\n"
                 "    acc = warp_sum(acc);\n    if (lane == 0) out[w] = st(acc);\n}\n",
             "cdiv(k, 8)", "256", args),
        Impl("tile_col", ("coalesced", "shared-memory", "2d-block"), "32 columns x 8 row slices per block",
             h + "    __shared__ ACC sh[8][33];\n    int j = blockIdx.x * 32 + threadIdx.x;\n    ACC acc = CA(0);\n"
                 "    if (j < K)\n        for (int r = threadIdx.y; r < M; r += 8) acc += ld(v[r]) * ld(A[(size_t)r * K + j]);\n"
                 "    sh[threadIdx.y][threadIdx.x] = acc;\n    __syncthreads();\n"
                 "    if (threadIdx.y == 0 && j < K) {\n        for (int i = 1; i < 8; ++i) acc += sh[i][threadIdx.x];\n"
                 "        out[j] = st(acc);\n    }\n}\n",
             "cdiv(k, 32)", ["32", "8"], args),
    ]


C_GEMM = """    for (int b = 0; b < BATCH; ++b) {
        const T* Ab = A + (size_t)b * m * k; const T* Bb = B + (size_t)b * k * n; T* Cb = C + (size_t)b * m * n;
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) {
                double s0 = 0.0, s1 = 0.0;
                int kk = 0;
                for (; kk + 1 < k; kk += 2) { s0 += (double)Ab[(size_t)i * k + kk] * BAT(kk, j); s1 += (double)Ab[(size_t)i * k + kk + 1] * BAT(kk + 1, j); }
                for (; kk < k; ++kk) s0 += (double)Ab[(size_t)i * k + kk] * BAT(kk, j);
                double acc = s0 + s1;
                Cb[(size_t)i * n + j] = (T)(EPI);
            }
    }"""


def _gemm_task(variant: str, kind: str, dtype: str, sizes: list[tuple[int, ...]], layout: str, bias: bool,
               batched: bool) -> Task:
    dims = ("batch", "m", "n", "k") if batched else ("m", "n", "k")
    lead = ("batch",) if batched else ()
    a = Tensor("A", (*lead, "m", "k"))
    b = Tensor("B", (*lead, "k", "n") if layout == B_NN else (*lead, "n", "k"))
    inputs = (a, b, *([Tensor("bias", ("n",))] if bias else []))
    sig = Signature(dims, inputs, (Tensor("C", (*lead, "m", "n")),))
    impl_list = gemm_impls(layout, bias)
    if not batched:
        impl_list = [Impl(i.impl_id, i.tags, i.note, i.body, list(i.grid)[:2], i.block, i.args) for i in impl_list]
    bat = "(double)Bb[(size_t)(KK) * n + (JJ)]" if layout == B_NN else "(double)Bb[(size_t)(JJ) * k + (KK)]"
    c_body = (C_GEMM.replace("BATCH", "batch" if batched else "1")
              .replace("EPI", "fmax(acc + bias[j], 0.0)" if bias else "acc"))
    what = {"gemm_nn": "A @ B", "gemm_nt": "A @ B^T", "bmm": "batched A @ B", "linear_relu": "relu(A @ B^T + bias)"}
    forward = {"gemm_nn": "A.float() @ B.float()", "gemm_nt": "A.float() @ B.float().t()",
               "bmm": "torch.bmm(A.float(), B.float())",
               "linear_relu": "torch.relu(F.linear(A.float(), B.float(), bias.float()))"}[variant.split("-")[0]]
    return build(family="matmul", variant=variant, kind=kind, dtype=dtype,
                 description=f"C = {what[variant.split('-')[0]]} for {dtype} matrices ({', '.join(dims)})",
                 sig=sig, configs=[dict(zip(dims, s)) for s in sizes],
                 check=dict(zip(dims, (2, 40, 70, 36) if batched else (70, 90, 50))), impls=impl_list,
                 c_body=c_body, c_helpers=f"#define BAT(KK, JJ) {bat}\n",
                 torch_forward=f"return ({forward}).to(A.dtype)", atol=TOL[dtype], rtol=TOL[dtype])


def tasks() -> Iterator[Task]:
    for kind, dtype in both_kinds(("float32",), TORCH_FLOATS):
        for shape, sizes in GEMM.items():
            yield _gemm_task(f"gemm_nn-{shape}", kind, dtype, sizes[kind], B_NN, False, False)
            yield _gemm_task(f"gemm_nt-{shape}", kind, dtype, sizes[kind], B_NT, False, False)
            yield _gemm_task(f"linear_relu-{shape}", kind, dtype, sizes[kind], B_NT, True, False)
        yield _gemm_task("bmm", kind, dtype, BMM[kind], B_NN, False, True)
        for variant, impl_list, inputs, out, forward, c_body in (
                ("gemv", gemv_impls(), (Tensor("A", ("m", "k")), Tensor("v", ("k",))), Tensor("out", ("m",)),
                 "A.float() @ v.float()",
                 "    for (int r = 0; r < m; ++r) { double acc = 0.0; for (int j = 0; j < k; ++j) "
                 "acc += (double)A[(size_t)r * k + j] * v[j]; out[r] = (T)acc; }"),
                ("gemv_t", gemv_t_impls(), (Tensor("v", ("m",)), Tensor("A", ("m", "k"))), Tensor("out", ("k",)),
                 "v.float() @ A.float()",
                 "    double* acc = (double*)calloc(k, sizeof(double));\n"
                 "    for (int r = 0; r < m; ++r) for (int j = 0; j < k; ++j) acc[j] += (double)v[r] * A[(size_t)r * k + j];\n"
                 "    for (int j = 0; j < k; ++j) out[j] = (T)acc[j];\n    free(acc);")):
            yield build(family="matmul", variant=variant, kind=kind, dtype=dtype,
                        description=f"out = {'A @ v' if variant == 'gemv' else 'v @ A'} for a {dtype} matrix A (m, k)",
                        sig=Signature(("m", "k"), inputs, (out,)), configs=[dict(zip(("m", "k"), s)) for s in GEMV[kind]],
                        check={"m": 100, "k": 80},
                        impls=impl_list, c_body=c_body, c_helpers="#include <stdlib.h>\n",
                        torch_forward=f"return ({forward}).to(A.dtype)", atol=TOL[dtype], rtol=TOL[dtype])

