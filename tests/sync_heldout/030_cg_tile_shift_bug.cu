// launch: grid=16x16 block=16x16
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// w = 256
__global__ void tile_shift(const int* in, int* out, int w)
{
    __shared__ int s[256];
    cg::thread_block b = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(b);
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    int r = b.thread_rank();
    int base = r - (int)tile.thread_rank();
    s[r] = in[y * w + x];
    int prev = s[base + (tile.thread_rank() + 31) % 32];
    out[y * w + x] = s[r] - prev;
}
