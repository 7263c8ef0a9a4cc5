"""CUDA helper functions several families share: warp, block and shared-memory tree reductions for
a combine expression over `a` and `b` (the kernels' `ACC` type)."""

from __future__ import annotations

SUM, MAX, MIN = "a + b", "(a > b ? a : b)", "(a < b ? a : b)"
IDENTITY = {SUM: "CA(0)", MAX: "ACC_LOWEST", MIN: "ACC_HIGHEST"}


def warp_reduce(name: str, combine: str) -> str:
    """Butterfly reduction: every lane ends with the warp's result."""
    return (f"__device__ __forceinline__ ACC warp_{name}(ACC v) {{\n"
            f"    for (int o = 16; o > 0; o >>= 1) {{\n"
            f"        ACC a = v, b = __shfl_xor_sync(0xffffffffu, v, o);\n"
            f"        v = {combine};\n    }}\n    return v;\n}}\n")


def block_reduce(name: str, combine: str) -> str:
    """Warp shuffles, one partial per warp in `sh` (32 entries), then every warp reduces the
    partials again, so every thread of the block gets the result without another barrier."""
    return warp_reduce(name, combine) + (
        f"__device__ __forceinline__ ACC block_{name}(ACC v, ACC* sh) {{\n"
        f"    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;\n"
        f"    v = warp_{name}(v);\n    __syncthreads();\n    if (lane == 0) sh[warp] = v;\n    __syncthreads();\n"
        f"    v = lane < warps ? sh[lane] : {IDENTITY[combine]};\n    return warp_{name}(v);\n}}\n")


def tree_reduce(name: str, combine: str) -> str:
    """The textbook shared-memory tree (blockDim.x a power of two, `sh` of blockDim.x entries)."""
    return (f"__device__ __forceinline__ ACC tree_{name}(ACC v, ACC* sh) {{\n"
            f"    __syncthreads();\n    sh[threadIdx.x] = v;\n    __syncthreads();\n"
            f"    for (int s = blockDim.x >> 1; s > 0; s >>= 1) {{\n"
            f"        if (threadIdx.x < s) {{\n"
            f"            ACC a = sh[threadIdx.x], b = sh[threadIdx.x + s];\n"
            f"            sh[threadIdx.x] = {combine};\n        }}\n        __syncthreads();\n    }}\n"
            f"    return sh[0];\n}}\n")

