// launch: grid=64 block=128
__global__ void reduce128(const float* in, float* out) {
    __shared__ float sm[128];
    int tid = threadIdx.x;
    sm[tid] = in[blockIdx.x * 128 + tid];
    __syncthreads();
    if (tid < 64) sm[tid] += sm[tid + 64];
    __syncthreads();
    if (tid < 32) {
        float v = sm[tid];
        for (int off = 32; off > 0; off >>= 1) {
            v += sm[tid + off];
            sm[tid] = v;
        }
        if (tid == 0) out[blockIdx.x] = v;
    }
}
