"""Convolutions (cross-correlations, no padding): 1-D with filters of 3, 5 and 7 taps, single-channel
2-D with 3x3 and 5x5 filters, depthwise 3x3 over channels, and an 8-to-16-channel 3x3 convolution.
Implementations: a thread per output with rows along threadIdx.x (uncoalesced), with columns along
it, a shared-memory input tile with its halo, and register blocking (several outputs per thread
reusing loaded inputs, or all output channels of a pixel)."""

from __future__ import annotations

from collections.abc import Iterator

from ..kit import Impl, Signature, Task, Tensor, both_kinds, build

CONV1D = {"c2cuda": [(16, 16384), (32, 32768), (64, 32768)], "torch2cuda": [(64, 65536), (128, 65536), (256, 65536)]}
CONV2D = {"c2cuda": [(1, 512, 512), (1, 1024, 1024), (1, 2048, 1024)],
          "torch2cuda": [(1, 1024, 1024), (1, 2048, 2048), (1, 4096, 4096)]}
DEPTHWISE = {"c2cuda": [(16, 128, 128), (32, 256, 256), (64, 128, 128)],
             "torch2cuda": [(64, 256, 256), (128, 256, 256), (256, 128, 128)]}
MULTI = {"c2cuda": [(64, 64), (128, 128), (256, 256)], "torch2cuda": [(256, 256), (512, 512), (1024, 512)]}
CIN, COUT = 8, 16


def conv1d_impls() -> list[Impl]:
    head = ("extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, const T* __restrict__ f, T* __restrict__ out, "
            "int L) {\n    int OL = L - KS + 1;\n    const T* xb = x + (size_t)blockIdx.y * L;\n"
            "    T* ob = out + (size_t)blockIdx.y * OL;\n")
    tap = "ACC acc = CA(0);\n        for (int t = 0; t < KS; ++t) acc += ld(xb[i + t]) * ld(f[t]);\n        ob[i] = st(acc);"
    args = ["x", "f", "out", "length"]
    return [
        Impl("chunked", ("naive", "uncoalesced"), "eight consecutive outputs per thread",
             head + "    int base = (blockIdx.x * blockDim.x + threadIdx.x) * 8;\n"
                    f"    for (int k = 0; k < 8; ++k) {{\n        int i = base + k;\n        if (i >= OL) break;\n        {tap}\n    }}\n}}\n",
             ["cdiv(length, 2048)", "batch"], "256", args),
        Impl("direct", ("naive", "coalesced"), "one output per thread",
             head + f"    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < OL) {{\n        {tap}\n    }}\n}}\n",
             ["cdiv(length, 256)", "batch"], "256", args),
        Impl("shared_tile", ("shared-memory", "tiled", "coalesced"), "256 outputs and their halo staged in shared memory",
             head + "    __shared__ ACC tile[256 + KS - 1];\n    int i0 = blockIdx.x * 256;\n"
                    "    for (int t = threadIdx.x; t < 256 + KS - 1; t += 256) tile[t] = i0 + t < L ? ld(xb[i0 + t]) : CA(0);\n"
                    "    __syncthreads();\n    int i = i0 + threadIdx.x;\n    if (i < OL) {\n        ACC acc = CA(0);\n"
                    "        for (int t = 0; t < KS; ++t) acc += tile[threadIdx.x + t] * ld(f[t]);\n        ob[i] = st(acc);\n    }\n}\n",
             ["cdiv(length, 256)", "batch"], "256", args),
        Impl("reg4", ("register-blocked", "coalesced"), "filter in registers, four outputs per thread 256 apart",
             head + "    ACC w[KS];\n#pragma unroll\n    for (int t = 0; t < KS; ++t) w[t] = ld(f[t]);\n"
                    "#pragma unroll\n    for (int k = 0; k < 4; ++k) {\n        int i = blockIdx.x * 1024 + k * 256 + threadIdx.x;\n"
                    "        if (i < OL) {\n            ACC acc = CA(0);\n#pragma unroll\n"
                    "            for (int t = 0; t < KS; ++t) acc += ld(xb[i + t]) * w[t];\n            ob[i] = st(acc);\n        }\n"
                    "    }\n}\n",
             ["cdiv(length, 1024)", "batch"], "256", args),
    ]


def conv2d_impls() -> list[Impl]:
    """Single-channel or depthwise (the channel is blockIdx.z)."""
    head = ("extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, const T* __restrict__ f, T* __restrict__ out, "
            "int H, int W) {\n    int OH = H - KS + 1, OW = W - KS + 1;\n"
            "    const T* xb = x + (size_t)blockIdx.z * H * W;\n    const T* fb = f + blockIdx.z * KS * KS;\n"
            "    T* ob = out + (size_t)blockIdx.z * OH * OW;\n")
    direct = ("    if (ox >= OW || oy >= OH) return;\n    ACC acc = CA(0);\n"
              "    for (int dy = 0; dy < KS; ++dy)\n        for (int dx = 0; dx < KS; ++dx)\n"
              "            acc += ld(xb[(size_t)(oy + dy) * W + ox + dx]) * ld(fb[dy * KS + dx]);\n"
              "    ob[(size_t)oy * OW + ox] = st(acc);\n}\n")
    args = ["x", "f", "out", "height", "width"]
    return [
        Impl("naive_rows", ("naive", "uncoalesced"), "a thread per output, rows along threadIdx.x",
             head + "    int oy = blockIdx.x * 16 + threadIdx.x, ox = blockIdx.y * 16 + threadIdx.y;\n" + direct,
             ["cdiv(height, 16)", "cdiv(width, 16)", "channels"], ["16", "16"], args),
        Impl("direct", ("naive", "coalesced"), "a thread per output, columns along threadIdx.x",
             head + "    int ox = blockIdx.x * 32 + threadIdx.x, oy = blockIdx.y * 8 + threadIdx.y;\n" + direct,
             ["cdiv(width, 32)", "cdiv(height, 8)", "channels"], ["32", "8"], args),
        Impl("shared_tile", ("shared-memory", "tiled", "coalesced"), "a 32x8 output tile's inputs staged in shared memory",
             head + "    __shared__ ACC tile[8 + KS - 1][32 + KS - 1];\n    int ox0 = blockIdx.x * 32, oy0 = blockIdx.y * 8;\n"
                    "    for (int i = threadIdx.y * 32 + threadIdx.x; i < (8 + KS - 1) * (32 + KS - 1); i += 256) {\n"
                    "        int ty = i / (32 + KS - 1), tx = i % (32 + KS - 1);\n"
                    "        int iy = oy0 + ty, ix = ox0 + tx;\n"
                    "        tile[ty][tx] = (iy < H && ix < W) ? ld(xb[(size_t)iy * W + ix]) : CA(0);\n    }\n"
                    "    __syncthreads();\n    int ox = ox0 + threadIdx.x, oy = oy0 + threadIdx.y;\n"
                    "    if (ox >= OW || oy >= OH) return;\n    ACC acc = CA(0);\n"
                    "    for (int dy = 0; dy < KS; ++dy)\n        for (int dx = 0; dx < KS; ++dx)\n"
                    "            acc += tile[threadIdx.y + dy][threadIdx.x + dx] * ld(fb[dy * KS + dx]);\n"
                    "    ob[(size_t)oy * OW + ox] = st(acc);\n}\n",
             ["cdiv(width, 32)", "cdiv(height, 8)", "channels"], ["32", "8"], args),
        Impl("reg_rows4", ("register-blocked", "coalesced"), "four output rows per thread, each input row loaded once",
             head + "    int ox = blockIdx.x * 32 + threadIdx.x, oy0 = (blockIdx.y * 8 + threadIdx.y) * 4;\n"
                    "    if (ox >= OW || oy0 >= OH) return;\n    ACC acc[4] = {CA(0), CA(0), CA(0), CA(0)};\n"
                    "    for (int dy = 0; dy < KS + 3; ++dy) {\n        int iy = oy0 + dy;\n        if (iy >= H) break;\n"
                    "        for (int dx = 0; dx < KS; ++dx) {\n            ACC v = ld(xb[(size_t)iy * W + ox + dx]);\n"
                    "#pragma unroll\n            for (int o = 0; o < 4; ++o) {\n                int fy = dy - o;\n"
                    "                if (fy >= 0 && fy < KS) acc[o] += v * ld(fb[fy * KS + dx]);\n            }\n        }\n    }\n"
                    "#pragma unroll\n    for (int o = 0; o < 4; ++o) if (oy0 + o < OH) ob[(size_t)(oy0 + o) * OW + ox] = st(acc[o]);\n}\n",
             ["cdiv(width, 32)", "cdiv(height, 32)", "channels"], ["32", "8"], args),
    ]


def multi_impls() -> list[Impl]:
    head = (f"#define CIN {CIN}\n#define COUT {COUT}\n"
            "extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, const T* __restrict__ f, T* __restrict__ out, "
            "int H, int W) {\n    int OH = H - 2, OW = W - 2;\n")
    one = ("    if (ox >= OW || oy >= OH) return;\n    int co = blockIdx.z;\n    ACC acc = CA(0);\n"
           "    for (int ci = 0; ci < CIN; ++ci)\n        for (int dy = 0; dy < 3; ++dy)\n            for (int dx = 0; dx < 3; ++dx)\n"
           "                acc += ld(x[((size_t)ci * H + oy + dy) * W + ox + dx]) * ld(f[((co * CIN + ci) * 3 + dy) * 3 + dx]);\n"
           "    out[((size_t)co * OH + oy) * OW + ox] = st(acc);\n}\n")
    args = ["x", "f", "out", "height", "width"]
    return [
        Impl("naive_rows", ("naive", "uncoalesced"), "a thread per output, rows along threadIdx.x",
             head + "    int oy = blockIdx.x * 16 + threadIdx.x, ox = blockIdx.y * 16 + threadIdx.y;\n" + one,
             ["cdiv(height, 16)", "cdiv(width, 16)", str(COUT)], ["16", "16"], args),
        Impl("direct", ("naive", "coalesced"), "a thread per output, columns along threadIdx.x",
             head + "    int ox = blockIdx.x * 32 + threadIdx.x, oy = blockIdx.y * 8 + threadIdx.y;\n" + one,
             ["cdiv(width, 32)", "cdiv(height, 8)", str(COUT)], ["32", "8"], args),
        Impl("shared_input", ("shared-memory", "tiled", "coalesced"), "all input channels of a 32x8 tile in shared memory",
             head + "    __shared__ ACC tile[CIN][10][34];\n    int ox0 = blockIdx.x * 32, oy0 = blockIdx.y * 8;\n"
                    "    for (int i = threadIdx.y * 32 + threadIdx.x; i < CIN * 10 * 34; i += 256) {\n"
                    "        int ci = i / 340, ty = (i / 34) % 10, tx = i % 34;\n        int iy = oy0 + ty, ix = ox0 + tx;\n"
                    "        tile[ci][ty][tx] = (iy < H && ix < W) ? ld(x[((size_t)ci * H + iy) * W + ix]) : CA(0);\n    }\n"
                    "    __syncthreads();\n    int ox = ox0 + threadIdx.x, oy = oy0 + threadIdx.y, co = blockIdx.z;\n"
                    "    if (ox >= OW || oy >= OH) return;\n    ACC acc = CA(0);\n"
                    "    for (int ci = 0; ci < CIN; ++ci)\n        for (int dy = 0; dy < 3; ++dy)\n            for (int dx = 0; dx < 3; ++dx)\n"
                    "                acc += tile[ci][threadIdx.y + dy][threadIdx.x + dx] * ld(f[((co * CIN + ci) * 3 + dy) * 3 + dx]);\n"
                    "    out[((size_t)co * OH + oy) * OW + ox] = st(acc);\n}\n",
             ["cdiv(width, 32)", "cdiv(height, 8)", str(COUT)], ["32", "8"], args),
        Impl("reg_cout", ("register-blocked", "coalesced"), "all 16 output channels of a pixel per thread",
             head + "    int ox = blockIdx.x * 32 + threadIdx.x, oy = blockIdx.y * 8 + threadIdx.y;\n"
                    "    if (ox >= OW || oy >= OH) return;\n    ACC acc[COUT];\n#pragma unroll\n"
                    "    for (int co = 0; co < COUT; ++co) acc[co] = CA(0);\n"
                    "    for (int ci = 0; ci < CIN; ++ci)\n        for (int dy = 0; dy < 3; ++dy)\n            for (int dx = 0; dx < 3; ++dx) {\n"
                    "                ACC v = ld(x[((size_t)ci * H + oy + dy) * W + ox + dx]);\n#pragma unroll\n"
                    "                for (int co = 0; co < COUT; ++co) acc[co] += v * ld(f[((co * CIN + ci) * 3 + dy) * 3 + dx]);\n"
                    "            }\n#pragma unroll\n"
                    "    for (int co = 0; co < COUT; ++co) out[((size_t)co * OH + oy) * OW + ox] = st(acc[co]);\n}\n",
             ["cdiv(width, 32)", "cdiv(height, 8)"], ["32", "8"], args),
    ]


def _strip_z(impls: list[Impl]) -> list[Impl]:
    return [Impl(i.impl_id, i.tags, i.note, i.body, list(i.grid)[:2], i.block, i.args) for i in impls]


def tasks() -> Iterator[Task]:
    for kind, dtype in both_kinds(dtypes_torch=("float32", "float16")):
        for ks in (3, 5, 7):
            sig = Signature(("batch", "length"), (Tensor("x", ("batch", "length")), Tensor("f", (str(ks),))),
                            (Tensor("out", ("batch", f"length - {ks - 1}")),))
            yield build(family="conv", variant=f"conv1d_k{ks}", kind=kind, dtype=dtype,
                        description=f"valid 1-D cross-correlation of each row of a {dtype} matrix x (batch, length) "
                                    f"with a {ks}-tap filter f",
                        sig=sig, configs=[dict(zip(("batch", "length"), s)) for s in CONV1D[kind]],
                        check={"batch": 3, "length": 700},
                        impls=[_with_ks(i, ks) for i in conv1d_impls()],
                        c_body=f"    int ol = length - {ks - 1};\n    for (int b = 0; b < batch; ++b)\n"
                               "        for (int i = 0; i < ol; ++i) {\n            double acc = 0.0;\n"
                               f"            for (int t = 0; t < {ks}; ++t) acc += (double)x[(size_t)b * length + i + t] * f[t];\n"
                               "            out[(size_t)b * ol + i] = (T)acc;\n        }",
                        torch_forward="return F.conv1d(x.float().unsqueeze(1), f.float().view(1, 1, -1)).squeeze(1).to(x.dtype)")
        for variant, ks, sizes in (("conv2d_k3", 3, CONV2D), ("conv2d_k5", 5, CONV2D), ("depthwise_k3", 3, DEPTHWISE)):
            depthwise = variant.startswith("depthwise")
            dims = ("channels", "height", "width") if depthwise else ("height", "width")
            lead = ("channels",) if depthwise else ()
            sig = Signature(dims, (Tensor("x", dims), Tensor("f", (*lead, str(ks), str(ks)))),
                            (Tensor("out", (*lead, f"height - {ks - 1}", f"width - {ks - 1}")),))
            impl_list = [_with_ks(i, ks) for i in conv2d_impls()]
            forward = ("F.conv2d(x.float()[None], f.float().unsqueeze(1), groups=x.shape[0])[0]" if depthwise
                       else "F.conv2d(x.float()[None, None], f.float()[None, None])[0, 0]")
            yield build(family="conv", variant=variant, kind=kind, dtype=dtype,
                        description=(f"valid {'depthwise ' if depthwise else ''}2-D cross-correlation of a {dtype} "
                                     f"{'tensor' if depthwise else 'image'} x ({', '.join(dims)}) with "
                                     f"{'a' if not depthwise else 'one'} {ks}x{ks} filter f{' per channel' if depthwise else ''}"),
                        sig=sig, configs=[dict(zip(dims, s[-len(dims):])) for s in sizes[kind]],
                        check=dict(zip(dims, (3, 30, 40) if depthwise else (40, 70))),
                        impls=impl_list if depthwise else _strip_z(impl_list),
                        c_body=f"    int oh = height - {ks - 1}, ow = width - {ks - 1};\n"
                               f"    for (int c = 0; c < {'channels' if depthwise else '1'}; ++c)\n"
                               "        for (int y = 0; y < oh; ++y)\n            for (int xo = 0; xo < ow; ++xo) {\n"
                               "                double acc = 0.0;\n"
                               f"                for (int dy = 0; dy < {ks}; ++dy) for (int dx = 0; dx < {ks}; ++dx)\n"
                               "                    acc += (double)x[((size_t)c * height + y + dy) * width + xo + dx]"
                               f" * f[(c * {ks} + dy) * {ks} + dx];\n"
                               "                out[((size_t)c * oh + y) * ow + xo] = (T)acc;\n            }",
                        torch_forward=f"return {forward}.to(x.dtype)")
        sig = Signature(("height", "width"), (Tensor("x", (str(CIN), "height", "width")),
                                              Tensor("f", (str(COUT), str(CIN), "3", "3"))),
                        (Tensor("out", (str(COUT), "height - 2", "width - 2")),))
        yield build(family="conv", variant="conv2d_c8to16_k3", kind=kind, dtype=dtype,
                    description=f"valid 3x3 convolution of a {dtype} input x ({CIN}, height, width) with filters f "
                                f"({COUT}, {CIN}, 3, 3) into {COUT} output channels",
                    sig=sig, configs=[dict(zip(("height", "width"), s)) for s in MULTI[kind]],
                    check={"height": 20, "width": 40}, impls=multi_impls(),
                    c_body="    int oh = height - 2, ow = width - 2;\n"
                           f"    for (int co = 0; co < {COUT}; ++co)\n        for (int y = 0; y < oh; ++y)\n"
                           "            for (int xo = 0; xo < ow; ++xo) {\n                double acc = 0.0;\n"
                           f"                for (int ci = 0; ci < {CIN}; ++ci) for (int dy = 0; dy < 3; ++dy) "
                           "for (int dx = 0; dx < 3; ++dx)\n"
                           "                    acc += (double)x[((size_t)ci * height + y + dy) * width + xo + dx]"
                           f" * f[((co * {CIN} + ci) * 3 + dy) * 3 + dx];\n"
                           "                out[((size_t)co * oh + y) * ow + xo] = (T)acc;\n            }",
                    torch_forward="return F.conv2d(x.float()[None], f.float())[0].to(x.dtype)")


def _with_ks(impl: Impl, ks: int) -> Impl:
    return Impl(impl.impl_id, impl.tags, impl.note, f"#define KS {ks}\n" + impl.body, impl.grid, impl.block, impl.args)
