"""Block shapes tried when no launch gives the block.

Which lanes share a warp depends on blockDim.x once an address reads threadIdx.y or .z, so under a
guessed block the coalescing and bank-conflict figures of such an access are a guess too.  Some
patterns hold whatever the block is: the naive transpose's `out[x * n + y]` is strided for any
blockDim.x >= 2, a transposed read of a 32x32 shared tile conflicts for every 2-D block.  The
analyzer judges those accesses again under a few plausible shapes (`alternative_blocks`) and the
rules report what holds under every one of them, saying so.
"""

from __future__ import annotations

from .ir import Access, Kernel
from .launch import Launch
from .symbolic import free_symbols

# shapes a programmer writes for a 2-D or 3-D kernel; the guessed default is one of them
PLAUSIBLE_BLOCKS = {
    2: ((16, 16, 1), (32, 8, 1), (32, 32, 1)),
    3: ((8, 8, 4), (32, 4, 2), (32, 8, 4)),
}
MAX_THREADS = 1024


def reads_warp_layout(access: Access) -> bool:
    """Does which lanes share a warp for this address depend on blockDim.x (it reads threadIdx.y/z)?"""
    return bool({"tid.y", "tid.z"} & free_symbols(access.offset))


def alternative_blocks(kernel: Kernel, launch: Launch, dims: int) -> list[tuple[int, int, int]]:
    """Blocks to judge layout-dependent accesses under besides the launch's own, when the block
    is guessed: the plausible shapes for the kernel's dimensionality, with the axes the host gave
    (`dim3(32, rows)`) kept, within __launch_bounds__ and the hardware's 1,024 threads."""
    if "block" not in launch.guessed or dims not in PLAUSIBLE_BLOCKS:
        return []
    limit = min(MAX_THREADS, kernel.launch_bounds[0]) if kernel.launch_bounds else MAX_THREADS
    out = []
    for shape in PLAUSIBLE_BLOCKS[dims]:
        block = tuple(k if k is not None else s for s, k in zip(shape, launch.known_block or (None,) * 3))
        if block != launch.block and block not in out and block[0] * block[1] * block[2] <= limit:
            out.append(block)
    return out


def spelled(block: tuple[int, ...]) -> str:
    """`16x16`, `8x8x4`: a block as people write it."""
    dims = 3 if block[2] > 1 else 2
    return "x".join(str(v) for v in block[:dims])
