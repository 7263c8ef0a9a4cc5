// launch: grid=32 block=128
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void pair_sum(const int* in, int* out) {
    cg::thread_block blk = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(blk);
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[g];
    if (tile.thread_rank() < 16) {
        v += tile.shfl_down(v, 16);
        out[g] = v;
    }
}
