// launch: grid=32 block=256
#define COLS 1000

__global__ void row_pair_max(const float* m, float* out)
{
    __shared__ float s[256];
    const float* row = m + (size_t)blockIdx.x * COLS;
    float best = -1e30f;
    for (int c0 = 0; c0 < COLS; c0 += blockDim.x) {
        int c = c0 + threadIdx.x;
        s[threadIdx.x] = (c < COLS) ? row[c] : -1e30f;
        __syncthreads();
        float nb = s[(threadIdx.x + 1) % blockDim.x];
        best = fmaxf(best, fmaxf(s[threadIdx.x], nb));
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = best;
}
