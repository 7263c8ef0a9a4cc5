"""Histograms of integer keys in [0, bins): counts, or sums of float weights, for uniform keys and
for keys crowded into 8 hot bins.  Implementations: one global atomic per element, a shared-memory
histogram per block, the same with a grid-stride loop of 16-byte loads, a private histogram per warp."""

from __future__ import annotations

from collections.abc import Iterator

from ..kit import KINDS, Impl, Signature, Task, Tensor, build

SIZES = {"c2cuda": [{"n": 1 << 18}, {"n": 1 << 20}, {"n": 1 << 22}],
         "torch2cuda": [{"n": 1 << 20}, {"n": 1 << 22}, {"n": 1 << 24}]}
KEYS = (("int32", (64, 256, 1024)), ("uint8", (64, 256)))


def impls(bins: int, weighted: bool) -> list[Impl]:
    out_t, val = ("float", "w[i]") if weighted else ("int", "1")
    decl = "const float* __restrict__ w, " if weighted else ""
    head = (f"#define BINS {bins}\ntypedef {out_t} OUT;\n"
            f"extern \"C\" __global__ void $KERNEL(const T* __restrict__ x, {decl}OUT* __restrict__ out, int n) {{\n")
    args = ["x", *(["w"] if weighted else []), "out", "n"]
    zero = "    for (int b = threadIdx.x; b < BINS; b += blockDim.x) h[b] = 0;\n    __syncthreads();\n"
    flush = ("    __syncthreads();\n"
             "    for (int b = threadIdx.x; b < BINS; b += blockDim.x) if (h[b] != 0) atomicAdd(&out[b], h[b]);\n}\n")
    return [
        Impl("global_atomic", ("naive", "atomics"), "one global atomicAdd per element",
             head + f"    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) atomicAdd(&out[(int)x[i]], {val});\n}}\n",
             "cdiv(n, 256)", "256", args),
        Impl("shared_private", ("shared-memory", "privatization", "atomics"),
             "a shared-memory histogram per block of 2048 elements, merged with global atomics",
             head + "    __shared__ OUT h[BINS];\n" + zero
             + "    int base = blockIdx.x * blockDim.x * 8 + threadIdx.x;\n"
               f"    for (int k = 0; k < 8; ++k) {{\n        int i = base + k * blockDim.x;\n"
               f"        if (i < n) atomicAdd(&h[(int)x[i]], {val});\n    }}\n" + flush,
             "cdiv(n, 2048)", "256", args),
        Impl("shared_vec", ("shared-memory", "privatization", "vectorised", "grid-stride", "atomics"),
             "one wave of blocks, 16-byte loads of keys, a shared-memory histogram per block",
             head + "    __shared__ OUT h[BINS];\n" + zero
             + "    int nv = n / VEC;\n"
               "    for (int q = blockIdx.x * blockDim.x + threadIdx.x; q < nv; q += gridDim.x * blockDim.x) {\n"
               "        uint4 raw = reinterpret_cast<const uint4*>(x)[q]; const T* e = reinterpret_cast<const T*>(&raw);\n"
               "#pragma unroll\n        for (int k = 0; k < VEC; ++k) {\n            int i = q * VEC + k;\n"
               f"            atomicAdd(&h[(int)e[k]], {val});\n        }}\n    }}\n"
               "    if (blockIdx.x == 0)\n"
               f"        for (int i = nv * VEC + threadIdx.x; i < n; i += blockDim.x) atomicAdd(&h[(int)x[i]], {val});\n"
             + flush,
             "min(cdiv(n, 256 * 16), 264)", "256", args),
        Impl("warp_private", ("shared-memory", "privatization", "atomics"),
             "a private shared-memory histogram per warp, merged per block",
             head + "    __shared__ OUT hw[8][BINS];\n"
                    "    for (int b = threadIdx.x; b < 8 * BINS; b += blockDim.x) hw[b / BINS][b % BINS] = 0;\n"
                    "    __syncthreads();\n    int warp = threadIdx.x >> 5;\n"
                    "    int base = blockIdx.x * blockDim.x * 8 + threadIdx.x;\n"
                    f"    for (int k = 0; k < 8; ++k) {{\n        int i = base + k * blockDim.x;\n"
                    f"        if (i < n) atomicAdd(&hw[warp][(int)x[i]], {val});\n    }}\n    __syncthreads();\n"
                    "    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {\n        OUT s = 0;\n"
                    "        for (int k = 0; k < 8; ++k) s += hw[k][b];\n        if (s != 0) atomicAdd(&out[b], s);\n    }\n}\n",
             "cdiv(n, 2048)", "256", args),
    ]


def tasks() -> Iterator[Task]:
    for key_type, bin_counts in KEYS:
        for bins in bin_counts:
            for spread, hi in (("uniform", bins), ("hot", 8)):
                for weighted in (False, True):
                    variant = f"{'weighted' if weighted else 'counts'}-{bins}-{spread}"
                    inputs = [Tensor("x", ("n",), init=f"randint(0, {hi})")]
                    if weighted:
                        inputs.append(Tensor("w", ("n",), "float32", "uniform(0, 1)"))
                    out = Tensor("out", (str(bins),), "float32" if weighted else "int32", "zeros")
                    sig = Signature(("n",), tuple(inputs), (out,))
                    what = "sum of weights w" if weighted else "count"
                    for kind in KINDS:
                        c_body = (f"    double acc[{bins}];\n    for (int b = 0; b < {bins}; ++b) acc[b] = 0.0;\n"
                                  f"    for (int i = 0; i < n; ++i) acc[(int)x[i]] += {'w[i]' if weighted else '1.0'};\n"
                                  f"    for (int b = 0; b < {bins}; ++b) out[b] = "
                                  f"({'float' if weighted else 'int'})acc[b];")
                        forward = (f"return x.new_zeros({bins}, dtype=torch.float32).index_add_(0, x.long(), w)"
                                   if weighted else f"return torch.bincount(x.long(), minlength={bins}).to(torch.int32)")
                        yield build(family="histogram", variant=variant, kind=kind, dtype=key_type,
                                    description=f"out[b] = {what} of the {key_type} keys x equal to b, for {bins} bins"
                                                f" ({'keys spread uniformly' if spread == 'uniform' else 'keys in 8 hot bins'})",
                                    sig=sig, configs=SIZES[kind], check={"n": 10007}, impls=impls(bins, weighted),
                                    c_body=c_body, torch_forward=forward)
