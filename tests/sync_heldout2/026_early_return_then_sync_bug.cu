// launch: grid=4 block=256
#include "sizes.h"

__global__ void diff_shared(const float* in, float* out) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (i >= N_ELEMS) return;
    s[t] = in[i];
    __syncthreads();
    float nb = (t + 1 < blockDim.x) ? s[t + 1] : 0.f;
    out[i] = nb - s[t];
}
