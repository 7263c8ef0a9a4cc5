// launch: grid=2 block=64
#define N 100

struct MinLoc {
    float val;
    int idx;
};

__device__ MinLoc warp_argmin(MinLoc m)
{
    for (int off = 16; off > 0; off >>= 1) {
        float ov = __shfl_down_sync(0xffffffffu, m.val, off);
        int oi = __shfl_down_sync(0xffffffffu, m.idx, off);
        if (ov < m.val) {
            m.val = ov;
            m.idx = oi;
        }
    }
    return m;
}

__global__ void argmin_warps(const float* x, MinLoc* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    MinLoc m = {3.4e38f, -1};
    if (i < N) {
        m.val = x[i];
        m.idx = i;
    }
    m = warp_argmin(m);
    if ((threadIdx.x & 31) == 0)
        out[i / 32] = m;
}
