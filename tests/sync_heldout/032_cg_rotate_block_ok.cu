#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define THREADS 256

__global__ void rotate_block(const int* in, int* out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ int s[THREADS];
    unsigned r = block.thread_rank();
    s[r] = in[blockIdx.x * THREADS + r];
    block.sync();
    out[blockIdx.x * THREADS + r] = s[(r + 64) % THREADS];
}

int main()
{
    int *in, *out;
    cudaMalloc(&in, 128 * THREADS * sizeof(int));
    cudaMalloc(&out, 128 * THREADS * sizeof(int));
    rotate_block<<<128, THREADS>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
