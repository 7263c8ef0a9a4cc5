// launch: grid=8x512 block=128
// cols = 1024, rows = 512
__global__ void row_sums(const double* m, double* rs, int cols)
{
    __shared__ double s[128];
    int row = blockIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (c < cols) ? m[(size_t)row * cols + c] : 0.0;
    __syncthreads();
    for (int st = blockDim.x / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st)
            s[threadIdx.x] += s[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(&rs[row], s[0]);
}
