// launch: grid=128 block=256
// n = 1 << 20
__global__ void global_sum(const float* x, int n, float* total)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(total, x[i]);
}
