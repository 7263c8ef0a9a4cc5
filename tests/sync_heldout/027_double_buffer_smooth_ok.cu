// launch: grid=64 block=256
#define TS 256

// nchunks = 16
__global__ void smooth_chunks(const float* __restrict__ in, float* __restrict__ out, int nchunks)
{
    __shared__ float buf[2][TS];
    int tid = threadIdx.x;
    const float* src = in + (size_t)blockIdx.x * nchunks * TS;
    float* dst = out + (size_t)blockIdx.x * nchunks * TS;
    buf[0][tid] = src[tid];
    __syncthreads();
    for (int c = 0; c < nchunks; ++c) {
        int cur = c & 1, nxt = cur ^ 1;
        float left = buf[cur][(tid + TS - 1) % TS];
        float right = buf[cur][(tid + 1) % TS];
        dst[c * TS + tid] = 0.25f * left + 0.5f * buf[cur][tid] + 0.25f * right;
        if (c + 1 < nchunks)
            buf[nxt][tid] = src[(c + 1) * TS + tid];
        __syncthreads();
    }
}
