#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void even_odd(int* d)
{
    cg::thread_block block = cg::this_thread_block();
    __shared__ int s[256];
    int r = block.thread_rank();
    s[r] = d[blockIdx.x * 256 + r];
    block.sync();
    if (r % 2 == 0) {
        s[r] = s[r] + s[r + 1];
    }
    block.sync();
    d[blockIdx.x * 256 + r] = s[r & ~1];
}

int main()
{
    int* d;
    cudaMalloc(&d, 128 * 256 * sizeof(int));
    cudaMemset(d, 0, 128 * 256 * sizeof(int));
    even_odd<<<128, 256>>>(d);
    cudaDeviceSynchronize();
    cudaFree(d);
    return 0;
}
