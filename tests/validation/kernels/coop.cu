// Validation set: cooperative_groups tiles with shuffle reductions (no cg::reduce).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Dot product: grid-stride loop, 32-thread tiles, one atomic per tile.
__global__ void dot_cg(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ result, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    float acc = 0.0f;
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + block.thread_rank(); i < n; i += stride)
        acc += x[i] * y[i];
    for (int off = warp.size() / 2; off > 0; off /= 2)
        acc += warp.shfl_down(acc, off);
    if (warp.thread_rank() == 0)
        atomicAdd(result, acc);
}

// Segmented sums over groups of 16 consecutive elements with 16-thread tiles:
// each tile reduces one segment and its first thread writes the result.
__global__ void segsum16_cg(const float* __restrict__ in, float* __restrict__ seg_out, int nseg)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    const int seg = blockIdx.x * (blockDim.x / 16) + block.thread_rank() / 16;
    if (seg >= nseg)
        return;
    float v = in[seg * 16 + tile.thread_rank()];
    for (int off = 8; off > 0; off >>= 1)
        v += tile.shfl_xor(v, off);
    if (tile.thread_rank() == 0)
        seg_out[seg] = v;
}
