"""Matrix transposes (plain, scaled, plus a matrix, batched) of square and tall matrices.
Implementations: coalesced reads with strided writes, strided reads with coalesced writes, a 32x32
shared-memory tile (bank conflicts on the way out), the tile padded to 33 columns, and the padded
tile with one element per thread."""

from __future__ import annotations

from collections.abc import Iterator

from ..kit import Impl, Signature, Task, Tensor, both_kinds, build

SHAPES = {
    "square": {"c2cuda": [(512, 512), (1024, 1024), (2048, 2048)],
               "torch2cuda": [(1024, 1024), (2048, 2048), (4096, 4096)]},
    "tall": {"c2cuda": [(4096, 128), (16384, 128), (16384, 256)],
             "torch2cuda": [(16384, 256), (65536, 128), (65536, 256)]},
    "batched": {"c2cuda": [(8, 256, 256), (16, 512, 256), (32, 256, 512)],
                "torch2cuda": [(16, 512, 512), (32, 1024, 512), (64, 512, 512)]},
}
# op -> (epilogue of v at output index o, extra input?, C form of v, torch form)
OPS = {"transpose": ("v", False, "v", "{t}"),
       "scale": ("v * CA(0.5)", False, "v * 0.5", "{t} * 0.5"),
       "add": ("v + ld(yb[o])", True, "v + y[o]", "{t} + y.float()")}


def impls(with_y: bool) -> list[Impl]:
    decl = "const T* __restrict__ y, " if with_y else ""
    head = ("extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, " + decl
            + "T* __restrict__ out, int rows, int cols) {\n"
            "    size_t boff = (size_t)blockIdx.z * rows * cols;\n    const T* xb = x + boff;\n    T* ob = out + boff;\n"
            + ("    const T* yb = y + boff;\n" if with_y else ""))
    args = ["x", *(["y"] if with_y else []), "out", "rows", "cols"]
    store = "{ size_t o = (size_t)c * rows + r; ACC v = ld(%s); ob[o] = st($EPI); }"
    tile_in = ("    int bx = blockIdx.x * 32, by = blockIdx.y * 32;\n"
               "    for (int k = 0; k < 32; k += 8) {\n        int r = by + threadIdx.y + k, c = bx + threadIdx.x;\n"
               "        if (r < rows && c < cols) tile[threadIdx.y + k][threadIdx.x] = xb[(size_t)r * cols + c];\n    }\n"
               "    __syncthreads();\n"
               "    for (int k = 0; k < 32; k += 8) {\n        int c = bx + threadIdx.y + k, r = by + threadIdx.x;\n"
               "        if (r < rows && c < cols) " + store % "tile[threadIdx.x][threadIdx.y + k]" + "\n    }\n}\n")
    grid = ["cdiv(cols, 32)", "cdiv(rows, 32)", "batch"]
    return [
        Impl("naive_read", ("naive", "uncoalesced"), "coalesced reads, writes strided by rows",
             head + "    int c = blockIdx.x * 32 + threadIdx.x;\n"
                    "    for (int k = 0; k < 32; k += 8) {\n        int r = blockIdx.y * 32 + threadIdx.y + k;\n"
                    "        if (r < rows && c < cols) " + store % "xb[(size_t)r * cols + c]" + "\n    }\n}\n",
             grid, ["32", "8"], args),
        Impl("naive_write", ("naive", "uncoalesced"), "reads strided by cols, coalesced writes",
             head + "    int r = blockIdx.x * 32 + threadIdx.x;\n"
                    "    for (int k = 0; k < 32; k += 8) {\n        int c = blockIdx.y * 32 + threadIdx.y + k;\n"
                    "        if (r < rows && c < cols) " + store % "xb[(size_t)r * cols + c]" + "\n    }\n}\n",
             ["cdiv(rows, 32)", "cdiv(cols, 32)", "batch"], ["32", "8"], args),
        Impl("shared_tile", ("shared-memory", "tiled", "coalesced", "bank-conflicts"),
             "32x32 shared tile, column reads of the tile conflict",
             head + "    __shared__ T tile[32][32];\n" + tile_in, grid, ["32", "8"], args),
        Impl("shared_padded", ("shared-memory", "tiled", "coalesced", "padded"),
             "32x33 shared tile: no bank conflicts",
             head + "    __shared__ T tile[32][33];\n" + tile_in, grid, ["32", "8"], args),
        Impl("shared_padded_1x", ("shared-memory", "tiled", "coalesced", "padded"),
             "32x33 shared tile, a 32x32 block, one element per thread",
             head + "    __shared__ T tile[32][33];\n    int bx = blockIdx.x * 32, by = blockIdx.y * 32;\n"
                    "    int r = by + threadIdx.y, c = bx + threadIdx.x;\n"
                    "    if (r < rows && c < cols) tile[threadIdx.y][threadIdx.x] = xb[(size_t)r * cols + c];\n"
                    "    __syncthreads();\n    c = bx + threadIdx.y;\n    r = by + threadIdx.x;\n"
                    "    if (r < rows && c < cols) " + store % "tile[threadIdx.x][threadIdx.y]" + "\n}\n",
             grid, ["32", "32"], args),
    ]


def tasks() -> Iterator[Task]:
    for op, (epi, with_y, c_form, torch_form) in OPS.items():
        for shape, by_kind in SHAPES.items():
            if shape == "batched" and op != "transpose":
                continue
            batched = shape == "batched"
            dims = ("batch", "rows", "cols") if batched else ("rows", "cols")
            out_dims = ("batch", "cols", "rows") if batched else ("cols", "rows")
            inputs = [Tensor("x", dims)] + ([Tensor("y", out_dims)] if with_y else [])
            sig = Signature(dims, tuple(inputs), (Tensor("out", out_dims),))
            t = "x.float().transpose(1, 2)" if batched else "x.float().t()"
            for kind, dtype in both_kinds():
                configs = [dict(zip(dims, s)) for s in by_kind[kind]]
                impl_list = impls(with_y)
                if not batched:  # the grid's z extent is 1 without a batch
                    impl_list = [Impl(i.impl_id, i.tags, i.note, i.body, list(i.grid)[:2], i.block, i.args)
                                 for i in impl_list]
                yield build(family="transpose", variant=f"{op}-{shape}", kind=kind, dtype=dtype,
                            description=f"out = {'x^T' if op == 'transpose' else {'scale': '0.5 * x^T', 'add': 'x^T + y'}[op]}"
                                        f" for a {shape} {dtype} {'batch of matrices' if batched else 'matrix'} x"
                                        f" ({', '.join(dims)})",
                            sig=sig, configs=configs, check=dict(zip(dims, (3, 40, 70) if batched else (70, 45))),
                            impls=impl_list,
                            c_body=("    for (int b = 0; b < batch; ++b) {\n        const T* xb = x + (size_t)b * rows * cols;\n"
                                    "        T* out_b = out + (size_t)b * rows * cols;\n" if batched else
                                    "    {\n        const T* xb = x;\n        T* out_b = out;\n")
                                   + "        for (int r = 0; r < rows; ++r)\n            for (int c = 0; c < cols; ++c) {\n"
                                     "                size_t o = (size_t)c * rows + r;\n"
                                     "                ACC v = CA(xb[(size_t)r * cols + c]);\n"
                                     f"                out_b[o] = (T)({c_form});\n            }}\n    }}",
                            torch_forward=f"return ({torch_form.format(t=t)}).to(x.dtype).contiguous()",
                            values={"EPI": epi})
