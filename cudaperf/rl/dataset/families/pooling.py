"""2-D pooling per channel: 2x2 max and average (stride 2), 3x3 max (stride 1), 4x4 average
(stride 4).  Implementations: a thread per output with rows along threadIdx.x (uncoalesced), with
columns along it, and four outputs per thread 32 columns apart."""

from __future__ import annotations

from collections.abc import Iterator

from ..kit import Impl, Signature, Task, Tensor, both_kinds, build

SIZES = {"c2cuda": [(16, 256, 256), (32, 256, 256), (64, 256, 256)],
         "torch2cuda": [(64, 256, 256), (128, 256, 256), (64, 512, 512)]}
# variant -> (window, stride, max?)
POOLS = {"maxpool2": (2, 2, True), "avgpool2": (2, 2, False), "maxpool3s1": (3, 1, True), "avgpool4": (4, 4, False)}


def impls(k: int, s: int, is_max: bool) -> list[Impl]:
    head = (f"#define KW {k}\n#define ST {s}\n"
            "extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, T* __restrict__ out, int H, int W) {\n"
            "    int OH = (H - KW) / ST + 1, OW = (W - KW) / ST + 1;\n"
            "    const T* xb = x + (size_t)blockIdx.z * H * W;\n    T* ob = out + (size_t)blockIdx.z * OH * OW;\n")
    init, acc, fin = ("ACC_LOWEST", "v > acc ? v : acc", "acc") if is_max else ("CA(0)", "acc + v", f"acc / CA({k * k})")
    pool = (f"{{ ACC acc = {init};\n        for (int dy = 0; dy < KW; ++dy)\n            for (int dx = 0; dx < KW; ++dx) {{\n"
            f"                ACC v = ld(xb[(size_t)(oy * ST + dy) * W + ox * ST + dx]);\n                acc = {acc};\n            }}\n"
            f"        ob[(size_t)oy * OW + ox] = st({fin}); }}")
    args = ["x", "out", "height", "width"]
    out_w, out_h = f"(width - {k}) // {s} + 1", f"(height - {k}) // {s} + 1"
    return [
        Impl("naive_rows", ("naive", "uncoalesced"), "a thread per output, rows along threadIdx.x",
             head + "    int oy = blockIdx.x * 16 + threadIdx.x, ox = blockIdx.y * 16 + threadIdx.y;\n"
                    f"    if (oy < OH && ox < OW) {pool}\n}}\n",
             [f"cdiv({out_h}, 16)", f"cdiv({out_w}, 16)", "channels"], ["16", "16"], args),
        Impl("direct", ("naive", "coalesced"), "a thread per output, columns along threadIdx.x",
             head + "    int ox = blockIdx.x * 32 + threadIdx.x, oy = blockIdx.y * 8 + threadIdx.y;\n"
                    f"    if (oy < OH && ox < OW) {pool}\n}}\n",
             [f"cdiv({out_w}, 32)", f"cdiv({out_h}, 8)", "channels"], ["32", "8"], args),
        Impl("four_per_thread", ("register-blocked", "coalesced"), "four outputs per thread, 32 columns apart",
             head + "    int oy = blockIdx.y * 8 + threadIdx.y;\n#pragma unroll\n    for (int k = 0; k < 4; ++k) {\n"
                    "        int ox = blockIdx.x * 128 + k * 32 + threadIdx.x;\n"
                    f"        if (oy < OH && ox < OW) {pool}\n    }}\n}}\n",
             [f"cdiv({out_w}, 128)", f"cdiv({out_h}, 8)", "channels"], ["32", "8"], args),
    ]


def tasks() -> Iterator[Task]:
    for variant, (k, s, is_max) in POOLS.items():
        dims = ("channels", "height", "width")
        sig = Signature(dims, (Tensor("x", dims),),
                        (Tensor("out", ("channels", f"(height - {k}) // {s} + 1", f"(width - {k}) // {s} + 1")),))
        fn = "F.max_pool2d" if is_max else "F.avg_pool2d"
        for kind, dtype in both_kinds(dtypes_torch=("float32", "float16")):
            yield build(family="pooling", variant=variant, kind=kind, dtype=dtype,
                        description=f"{'max' if is_max else 'average'} pooling over {k}x{k} windows with stride {s} "
                                    f"of each channel of a {dtype} tensor (channels, height, width)",
                        sig=sig, configs=[dict(zip(dims, c)) for c in SIZES[kind]], check={"channels": 3, "height": 24, "width": 40},
                        impls=impls(k, s, is_max),
                        c_body=f"    int oh = (height - {k}) / {s} + 1, ow = (width - {k}) / {s} + 1;\n"
                               "    for (int c = 0; c < channels; ++c) for (int y = 0; y < oh; ++y) for (int xo = 0; xo < ow; ++xo) {\n"
                               f"        double acc = {'-HUGE_VAL' if is_max else '0.0'};\n"
                               f"        for (int dy = 0; dy < {k}; ++dy) for (int dx = 0; dx < {k}; ++dx) {{\n"
                               f"            double v = x[((size_t)c * height + y * {s} + dy) * width + xo * {s} + dx];\n"
                               f"            acc = {'v > acc ? v : acc' if is_max else 'acc + v'};\n        }}\n"
                               f"        out[((size_t)c * oh + y) * ow + xo] = (T)({'acc' if is_max else f'acc / {k * k}'});\n    }}",
                        torch_forward=f"return {fn}(x.float()[None], {k}, stride={s})[0].to(x.dtype)")
