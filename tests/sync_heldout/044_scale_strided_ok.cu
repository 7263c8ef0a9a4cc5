// launch: grid=32 block=256
// n = 1 << 20
__global__ void scale_inplace(double* x, double alpha, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        x[i] *= alpha;
}
