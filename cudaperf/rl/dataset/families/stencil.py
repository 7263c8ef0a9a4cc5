"""Stencils with fixed coefficients (boundary cells copied): 3- and 5-point 1-D, 5- and 9-point 2-D,
7-point 3-D.  Implementations: a thread per point with the fastest dimension across threadIdx.y or in
per-thread chunks (uncoalesced), a thread per point with it across threadIdx.x, a shared-memory tile
with halo, and register reuse along the slowest dimension (a column of outputs per thread, or a
z-march keeping three planes in registers)."""

from __future__ import annotations

from collections.abc import Iterator

from ..kit import Impl, Signature, Task, Tensor, both_kinds, build

SIZES = {
    1: {"c2cuda": [(1 << 18,), (1 << 20,), (1 << 22,)], "torch2cuda": [(1 << 20,), (1 << 22,), (1 << 24,)]},
    2: {"c2cuda": [(512, 512), (1024, 1024), (2048, 1024)], "torch2cuda": [(1024, 1024), (2048, 2048), (4096, 4096)]},
    3: {"c2cuda": [(64, 64, 64), (128, 128, 64), (128, 128, 128)],
        "torch2cuda": [(128, 128, 128), (256, 256, 128), (256, 256, 256)]},
}
DIMS = {1: ("n",), 2: ("h", "w"), 3: ("d", "h", "w")}
# variant -> (dimensions, radius, {offset: coefficient})
STENCILS = {
    "1d3": (1, 1, {(-1,): 0.25, (0,): 0.5, (1,): 0.25}),
    "1d5": (1, 2, {(-2,): 0.0625, (-1,): 0.25, (0,): 0.375, (1,): 0.25, (2,): 0.0625}),
    "2d5": (2, 1, {(0, 0): 0.5, (-1, 0): 0.125, (1, 0): 0.125, (0, -1): 0.125, (0, 1): 0.125}),
    "2d9": (2, 1, {(dy, dx): 1 / 9 for dy in (-1, 0, 1) for dx in (-1, 0, 1)}),
    "3d7": (3, 1, {(0, 0, 0): 0.4, **{o: 0.1 for o in ((-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1))}}),
}


def _sum(coeffs: dict, load) -> str:
    return " + ".join(f"CA({c!r}) * {load(o)}" for o, c in coeffs.items())


def impls_1d(r: int, coeffs: dict) -> list[Impl]:
    head = "extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, T* __restrict__ out, int n) {\n"
    point = (f"{{ if (i < {r} || i >= n - {r}) out[i] = x[i];\n"
             f"          else out[i] = st({_sum(coeffs, lambda o: f'ld(x[i + {o[0]}])')}); }}")
    args = ["x", "out", "n"]
    return [
        Impl("chunked", ("naive", "uncoalesced"), "eight consecutive points per thread",
             head + "    int base = (blockIdx.x * blockDim.x + threadIdx.x) * 8;\n"
                    f"    for (int k = 0; k < 8; ++k) {{\n        int i = base + k;\n        if (i < n) {point}\n    }}\n}}\n",
             "cdiv(n, 2048)", "256", args),
        Impl("direct", ("naive", "coalesced"), "one point per thread",
             head + f"    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) {point}\n}}\n",
             "cdiv(n, 256)", "256", args),
        Impl("shared_tile", ("shared-memory", "tiled", "coalesced"), "256 points and their halo staged in shared memory",
             head + f"    __shared__ ACC tile[256 + {2 * r}];\n    int i0 = blockIdx.x * 256 - {r};\n"
                    f"    for (int t = threadIdx.x; t < 256 + {2 * r}; t += 256) {{\n        int g = i0 + t;\n"
                    "        tile[t] = (g >= 0 && g < n) ? ld(x[g]) : CA(0);\n    }\n    __syncthreads();\n"
                    "    int i = blockIdx.x * 256 + threadIdx.x;\n    if (i >= n) return;\n"
                    f"    if (i < {r} || i >= n - {r}) out[i] = x[i];\n"
                    f"    else out[i] = st({_sum(coeffs, lambda o: f'tile[threadIdx.x + {r + o[0]}]')});\n}}\n",
             "cdiv(n, 256)", "256", args),
        Impl("grid_stride", ("grid-stride", "coalesced"), "one wave of blocks looping over the points",
             head + f"    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {point}\n}}\n",
             "min(cdiv(n, 256), 1056)", "256", args),
    ]


def impls_2d(coeffs: dict) -> list[Impl]:
    head = "extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, T* __restrict__ out, int H, int W) {\n"
    point = ("{ size_t i = (size_t)y * W + xx;\n"
             "        if (y == 0 || xx == 0 || y == H - 1 || xx == W - 1) out[i] = x[i];\n"
             f"        else out[i] = st({_sum(coeffs, lambda o: f'ld(x[i + ({o[0]}) * W + ({o[1]})])')}); }}")
    args = ["x", "out", "h", "w"]
    return [
        Impl("naive_rows", ("naive", "uncoalesced"), "a thread per point, rows along threadIdx.x",
             head + "    int y = blockIdx.x * 16 + threadIdx.x, xx = blockIdx.y * 16 + threadIdx.y;\n"
                    f"    if (y < H && xx < W) {point}\n}}\n",
             ["cdiv(h, 16)", "cdiv(w, 16)"], ["16", "16"], args),
        Impl("direct", ("naive", "coalesced"), "a thread per point, columns along threadIdx.x",
             head + "    int xx = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;\n"
                    f"    if (y < H && xx < W) {point}\n}}\n",
             ["cdiv(w, 32)", "cdiv(h, 8)"], ["32", "8"], args),
        Impl("shared_tile", ("shared-memory", "tiled", "coalesced"), "a 32x8 tile with a one-cell halo in shared memory",
             head + "    __shared__ ACC tile[10][34];\n    int x0 = blockIdx.x * 32 - 1, y0 = blockIdx.y * 8 - 1;\n"
                    "    for (int t = threadIdx.y * 32 + threadIdx.x; t < 340; t += 256) {\n"
                    "        int ty = t / 34, tx = t % 34, gy = y0 + ty, gx = x0 + tx;\n"
                    "        tile[ty][tx] = (gy >= 0 && gy < H && gx >= 0 && gx < W) ? ld(x[(size_t)gy * W + gx]) : CA(0);\n"
                    "    }\n    __syncthreads();\n"
                    "    int xx = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;\n"
                    "    if (y >= H || xx >= W) return;\n    size_t i = (size_t)y * W + xx;\n"
                    "    if (y == 0 || xx == 0 || y == H - 1 || xx == W - 1) out[i] = x[i];\n"
                    f"    else out[i] = st({_sum(coeffs, lambda o: f'tile[threadIdx.y + {1 + o[0]}][threadIdx.x + {1 + o[1]}]')});\n}}\n",
             ["cdiv(w, 32)", "cdiv(h, 8)"], ["32", "8"], args),
        Impl("reg_column", ("register-blocked", "coalesced"),
             "eight rows per thread, the three input rows of a column window kept in registers",
             head + "    int xx = blockIdx.x * 32 + threadIdx.x, y0 = (blockIdx.y * 8 + threadIdx.y) * 8;\n"
                    "    if (xx >= W) return;\n    ACC r[3][3];\n"
                    "    for (int k = 0; k < 3; ++k) for (int dx = 0; dx < 3; ++dx) {\n"
                    "        int gy = y0 - 1 + k, gx = xx - 1 + dx;\n"
                    "        r[k][dx] = (gy >= 0 && gy < H && gx >= 0 && gx < W) ? ld(x[(size_t)gy * W + gx]) : CA(0);\n    }\n"
                    "    for (int y = y0; y < y0 + 8 && y < H; ++y) {\n        size_t i = (size_t)y * W + xx;\n"
                    "        if (y == 0 || xx == 0 || y == H - 1 || xx == W - 1) out[i] = x[i];\n"
                    f"        else out[i] = st({_sum(coeffs, lambda o: f'r[{1 + o[0]}][{1 + o[1]}]')});\n"
                    "        for (int dx = 0; dx < 3; ++dx) {\n            r[0][dx] = r[1][dx];\n            r[1][dx] = r[2][dx];\n"
                    "            int gy = y + 2, gx = xx - 1 + dx;\n"
                    "            r[2][dx] = (gy < H && gx >= 0 && gx < W) ? ld(x[(size_t)gy * W + gx]) : CA(0);\n        }\n    }\n}\n",
             ["cdiv(w, 32)", "cdiv(h, 64)"], ["32", "8"], args),
    ]


def impls_3d(coeffs: dict) -> list[Impl]:
    head = "extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, T* __restrict__ out, int D, int H, int W) {\n"
    edge = "z == 0 || y == 0 || xx == 0 || z == D - 1 || y == H - 1 || xx == W - 1"
    point = ("{ size_t i = ((size_t)z * H + y) * W + xx;\n"
             f"        if ({edge}) out[i] = x[i];\n"
             f"        else out[i] = st({_sum(coeffs, lambda o: f'ld(x[i + ({o[0]}) * (size_t)H * W + ({o[1]}) * W + ({o[2]})])')}); }}")
    args = ["x", "out", "d", "h", "w"]
    march = _sum(coeffs, lambda o: {(-1, 0, 0): "below", (1, 0, 0): "above"}.get(
        o, f"tile[threadIdx.y + {1 + o[1]}][threadIdx.x + {1 + o[2]}]"))
    return [
        Impl("naive_rows", ("naive", "uncoalesced"), "a thread per point, rows along threadIdx.x",
             head + "    int y = blockIdx.x * 16 + threadIdx.x, xx = blockIdx.y * 16 + threadIdx.y, z = blockIdx.z;\n"
                    f"    if (y < H && xx < W) {point}\n}}\n",
             ["cdiv(h, 16)", "cdiv(w, 16)", "d"], ["16", "16"], args),
        Impl("direct", ("naive", "coalesced"), "a thread per point, columns along threadIdx.x",
             head + "    int xx = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y, z = blockIdx.z;\n"
                    f"    if (y < H && xx < W) {point}\n}}\n",
             ["cdiv(w, 32)", "cdiv(h, 8)", "d"], ["32", "8"], args),
        Impl("z_march", ("register-blocked", "shared-memory", "coalesced"),
             "a 32x8 column marching in z: the plane in shared memory, the planes above and below in registers",
             head + "    __shared__ ACC tile[10][34];\n"
                    "    int xx = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;\n"
                    "    bool inside = y < H && xx < W;\n    size_t plane = (size_t)H * W;\n"
                    "    size_t at = (size_t)(inside ? y : 0) * W + (inside ? xx : 0);\n"
                    "    ACC below = CA(0), here = inside ? ld(x[at]) : CA(0);\n"
                    "    for (int z = 0; z < D; ++z) {\n"
                    "        ACC above = (inside && z + 1 < D) ? ld(x[(z + 1) * plane + at]) : CA(0);\n"
                    "        __syncthreads();\n"
                    "        for (int t = threadIdx.y * 32 + threadIdx.x; t < 340; t += 256) {\n"
                    "            int ty = t / 34, tx = t % 34, gy = blockIdx.y * 8 - 1 + ty, gx = blockIdx.x * 32 - 1 + tx;\n"
                    "            tile[ty][tx] = (gy >= 0 && gy < H && gx >= 0 && gx < W) ? ld(x[z * plane + (size_t)gy * W + gx]) : CA(0);\n"
                    "        }\n        __syncthreads();\n"
                    "        if (inside) {\n            size_t i = z * plane + at;\n"
                    f"            if ({edge}) out[i] = x[i];\n            else out[i] = st({march});\n        }}\n"
                    "        below = here;\n        here = above;\n    }\n}\n",
             ["cdiv(w, 32)", "cdiv(h, 8)"], ["32", "8"], args),
        Impl("z_chunk", ("register-blocked", "coalesced"), "a thread per column of 16 points in z, planes in registers",
             head + "    int xx = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y, z0 = blockIdx.z * 16;\n"
                    "    if (y >= H || xx >= W) return;\n    size_t plane = (size_t)H * W, at = (size_t)y * W + xx;\n"
                    "    ACC below = z0 > 0 ? ld(x[(z0 - 1) * plane + at]) : CA(0), here = ld(x[z0 * plane + at]);\n"
                    "    for (int z = z0; z < z0 + 16 && z < D; ++z) {\n"
                    "        ACC above = z + 1 < D ? ld(x[(z + 1) * plane + at]) : CA(0);\n        size_t i = z * plane + at;\n"
                    f"        if ({edge}) out[i] = x[i];\n"
                    "        else out[i] = st(" + _sum(coeffs, lambda o: {(-1, 0, 0): "below", (1, 0, 0): "above",
                                                                         (0, 0, 0): "here"}.get(
                        o, f"ld(x[i + ({o[1]}) * W + ({o[2]})])")) + ");\n"
                    "        below = here;\n        here = above;\n    }\n}\n",
             ["cdiv(w, 32)", "cdiv(h, 8)", "cdiv(d, 16)"], ["32", "8"], args),
    ]


def _torch(dims: int, r: int, coeffs: dict) -> str:
    def view(o: tuple[int, ...]) -> str:
        return "xf[" + ", ".join(f"{r + d}:{d - r if d - r else ''}" for d in o) + "]"
    inner = "[" + ", ".join(f"{r}:-{r}" for _ in range(dims)) + "]"
    terms = " + ".join(f"{c!r} * {view(o)}" for o, c in coeffs.items())
    return f"xf = x.float()\nout = xf.clone()\nout{inner} = {terms}\nreturn out.to(x.dtype)"


def _c_body(dims: int, r: int, coeffs: dict) -> str:
    names = DIMS[dims]
    strides = {1: ["1"], 2: ["w", "1"], 3: ["(size_t)h * w", "w", "1"]}[dims]
    loops = "".join(f"{'    ' * (k + 1)}for (int i{k} = 0; i{k} < {n}; ++i{k})\n" for k, n in enumerate(names))
    index = " + ".join(f"(size_t)i{k} * {s}" for k, s in enumerate(strides))
    edge = " || ".join(f"i{k} < {r} || i{k} >= {n} - {r}" for k, n in enumerate(names))
    terms = " + ".join(f"{c!r} * x[at + " + " + ".join(f"({d}) * {s}" for d, s in zip(o, strides)) + "]"
                       for o, c in coeffs.items())
    pad = "    " * (dims + 1)
    return (loops + f"{pad}{{\n{pad}    size_t at = {index};\n"
            f"{pad}    out[at] = ({edge}) ? x[at] : (T)({terms});\n{pad}}}")


def tasks() -> Iterator[Task]:
    for variant, (dims, r, coeffs) in STENCILS.items():
        names = DIMS[dims]
        sig = Signature(names, (Tensor("x", names),), (Tensor("out", names),))
        impl_list = impls_1d(r, coeffs) if dims == 1 else impls_2d(coeffs) if dims == 2 else impls_3d(coeffs)
        for kind, dtype in both_kinds(dtypes_torch=("float32", "float16")):
            yield build(family="stencil", variant=variant, kind=kind, dtype=dtype,
                        description=f"{len(coeffs)}-point {dims}-D stencil with fixed weights over a {dtype} array "
                                    f"({', '.join(names)}); boundary cells are copied",
                        sig=sig, configs=[dict(zip(names, s)) for s in SIZES[dims][kind]],
                        check=dict(zip(names, {1: (3001,), 2: (40, 70), 3: (12, 20, 40)}[dims])), impls=impl_list,
                        c_body=_c_body(dims, r, coeffs), torch_forward=_torch(dims, r, coeffs))
