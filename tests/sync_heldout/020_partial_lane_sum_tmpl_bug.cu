#include <cuda_runtime.h>
#define CNT 20

template <typename T>
__device__ T warp_sum(T v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__global__ void partial_lane_sum(const int* in, int* out)
{
    int lane = threadIdx.x & 31;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (lane < CNT) {
        int s = warp_sum(in[i]);
        if (lane == 0)
            out[i / 32] = s;
    }
}

int main()
{
    int *in, *out;
    cudaMalloc(&in, 32 * 128 * sizeof(int));
    cudaMalloc(&out, 32 * 4 * sizeof(int));
    partial_lane_sum<<<32, 128>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
