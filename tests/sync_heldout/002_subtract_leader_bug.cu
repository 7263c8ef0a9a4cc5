#include <cuda_runtime.h>

__global__ void subtract_leader(const double* in, double* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    double v = in[i];
    double lead = v;
    if (lane > 0)
        lead = __shfl_sync(0xffffffffu, v, 0);
    out[i] = v - lead;
}

int main()
{
    double *in, *out;
    cudaMalloc(&in, 64 * 256 * sizeof(double));
    cudaMalloc(&out, 64 * 256 * sizeof(double));
    subtract_leader<<<64, 256>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
