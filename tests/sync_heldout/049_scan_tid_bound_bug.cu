// launch: grid=64 block=256
// dynamic shared memory: 256 * sizeof(float) = 1024 bytes
__global__ void block_scan_dyn(const float* in, float* out)
{
    extern __shared__ float sh[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    sh[t] = in[i];
    __syncthreads();
    for (int off = 1; off <= t; off <<= 1) {
        float v = (t >= off) ? sh[t - off] : 0.0f;
        __syncthreads();
        sh[t] += v;
        __syncthreads();
    }
    out[i] = sh[t];
}
