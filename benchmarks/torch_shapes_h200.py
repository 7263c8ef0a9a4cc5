"""cuDNN convolutions and cuBLAS GEMMs across shapes nobody fitted on, timed on the GPU: an independent
check of the time model's torch side (`costmodel.torch_ops`), whose rates were fitted on CUDA-L1's
tuning half.  The shapes are the layers of common networks (ResNet, VGG, MobileNet, ResNeXt, DCGAN and
U-Net decoders, 1-D and 3-D convolutions, attention and MLP GEMMs) at several batch sizes and precisions.

Each operator's GPU time is what its kernels take back to back: the GPU is first held busy
(`torch.cuda._sleep`) while the host queues `REPEATS` calls, so the host's time per call stays out.

    python3 benchmarks/torch_shapes_h200.py OUT.jsonl

One JSON line per shape: the shape's fields (`CONVS`, `GEMMS`) and `ms`, or `error`.
"""

from __future__ import annotations

import json
import sys

REPEATS = 20

# (batch, in channels, spatial size, out channels, filter, stride, padding, groups, transposed)
_NETWORK_LAYERS = [
    (3, (224, 224), 64, 7, 2, 3, 1, False),          # ResNet stem
    (64, (56, 56), 64, 3, 1, 1, 1, False), (64, (56, 56), 256, 1, 1, 0, 1, False),
    (256, (56, 56), 128, 1, 2, 0, 1, False), (128, (28, 28), 128, 3, 1, 1, 1, False),
    (256, (14, 14), 256, 3, 1, 1, 1, False), (1024, (14, 14), 256, 1, 1, 0, 1, False),
    (512, (7, 7), 512, 3, 1, 1, 1, False), (2048, (7, 7), 512, 1, 1, 0, 1, False),
    (64, (224, 224), 64, 3, 1, 1, 1, False), (128, (112, 112), 128, 3, 1, 1, 1, False),   # VGG
    (32, (112, 112), 32, 3, 1, 1, 32, False), (144, (56, 56), 144, 3, 1, 1, 144, False),  # MobileNet
    (576, (14, 14), 576, 3, 1, 1, 576, False), (240, (28, 28), 240, 5, 1, 2, 240, False),
    (128, (56, 56), 128, 3, 1, 1, 32, False), (256, (28, 28), 256, 3, 2, 1, 32, False),   # ResNeXt
    (3, (224, 224), 64, 1, 1, 0, 1, False), (16, (128, 128), 16, 3, 1, 1, 1, False),
    (256, (16, 16), 128, 4, 2, 1, 1, True), (128, (32, 32), 64, 4, 2, 1, 1, True),        # DCGAN
    (64, (64, 64), 3, 4, 2, 1, 1, True), (64, (32, 32), 64, 3, 1, 1, 1, True),
    (512, (16, 16), 256, 2, 2, 0, 1, True), (64, (128, 128), 32, 2, 2, 0, 1, True),       # U-Net
    (128, (32, 32), 128, 3, 1, 1, 8, True),
    (256, (4096,), 256, 3, 1, 1, 1, False), (64, (16384,), 128, 7, 1, 3, 1, False),       # 1-D
    (512, (1024,), 512, 5, 2, 2, 1, False),
    (32, (16, 56, 56), 64, 3, 1, 1, 1, False), (3, (16, 112, 112), 64, 3, 1, 1, 1, False),  # 3-D
    (64, (8, 28, 28), 64, 3, 1, 1, 64, False), (64, (8, 16, 16), 32, 3, 2, 1, 1, True),
]
CONVS = [{"kind": "conv", "batch": b, "in": c, "size": list(s), "out": o, "filter": f, "stride": st,
          "padding": p, "groups": g, "transposed": t, "dtype": dtype}
         for b in (1, 8, 32) for (c, s, o, f, st, p, g, t) in _NETWORK_LAYERS
         for dtype in (("float32", "float16") if b == 8 else ("float32",))]
# (batch, m, n, k): square, tall-skinny, an MLP's layers at small and large batch, a GEMV, attention's
_GEMM_SHAPES = [(1, 4096, 4096, 4096), (1, 8192, 8192, 1024), (1, 128, 4096, 4096), (1, 16, 8192, 8192),
                (1, 1, 8192, 8192), (1, 4096, 64, 4096), (1, 32768, 256, 256), (1, 1024, 1024, 1024),
                (1, 256, 256, 256), (1, 2048, 11008, 4096), (1, 32, 4096, 11008), (64, 512, 512, 64),
                (32, 1024, 64, 1024), (128, 128, 128, 128), (8, 2048, 2048, 2048), (1, 65536, 64, 64)]
GEMMS = [{"kind": "gemm", "batch": b, "m": m, "n": n, "k": k, "dtype": dtype, "tf32": tf32}
         for (b, m, n, k) in _GEMM_SHAPES
         for dtype, tf32 in (("float32", False), ("float32", True), ("float16", False))]


def operator(shape: dict, device: str):
    """The operator of one shape and its inputs, on `device` (the CPU tests build it on "meta")."""
    import torch

    dtype = getattr(torch, shape["dtype"])
    with torch.device(device):
        if shape["kind"] == "gemm":
            a = torch.empty(shape["batch"], shape["m"], shape["k"], dtype=dtype)
            b = torch.empty(shape["batch"], shape["k"], shape["n"], dtype=dtype)
            return torch.bmm if shape["batch"] > 1 else (lambda x, y: torch.mm(x[0], y[0])), (a, b)
        dims = len(shape["size"])
        kind = f"ConvTranspose{dims}d" if shape["transposed"] else f"Conv{dims}d"
        layer = getattr(torch.nn, kind)(shape["in"], shape["out"], shape["filter"], stride=shape["stride"],
                                        padding=shape["padding"], groups=shape["groups"]).to(dtype)
        return layer, (torch.empty(shape["batch"], shape["in"], *shape["size"], dtype=dtype),)


def _gpu_ms(fn, inputs) -> float:
    import torch

    with torch.no_grad():
        for _ in range(3):
            fn(*inputs)
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(50_000_000)                 # ~25 ms: the host queues every call meanwhile
        start.record()
        for _ in range(REPEATS):
            fn(*inputs)
        end.record()
        torch.cuda.synchronize()
    return start.elapsed_time(end) / REPEATS


def main(out: str) -> int:
    import torch

    with open(out, "w") as stream:
        for shape in CONVS + GEMMS:
            torch.backends.cuda.matmul.allow_tf32 = shape.get("tf32", False)
            torch.backends.cudnn.allow_tf32, torch.backends.cudnn.benchmark = True, False
            row = dict(shape)
            try:
                fn, inputs = operator(shape, "cuda")
                row["ms"] = round(_gpu_ms(fn, [x.normal_() for x in inputs]), 5)
            except Exception as exc:                  # a shape the library refuses: recorded, the next runs
                row["error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
            stream.write(json.dumps(row) + "\n")
            stream.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
