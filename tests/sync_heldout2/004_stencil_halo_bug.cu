// launch: grid=32 block=128
#include "sizes.h"

__device__ __forceinline__ void load_halo(float* s, const float* in, int g, int l) {
    if (threadIdx.x < RADIUS) {
        s[l - RADIUS] = in[g - RADIUS];
        s[l + STENCIL_BS] = in[g + STENCIL_BS];
    }
}

__global__ void stencil1d(const float* in, float* out) {
    __shared__ float s[STENCIL_BS + 2 * RADIUS];
    int g = blockIdx.x * STENCIL_BS + threadIdx.x + RADIUS;
    int l = threadIdx.x + RADIUS;
    s[l] = in[g];
    load_halo(s, in, g, l);
    float r = 0.f;
    for (int k = -RADIUS; k <= RADIUS; ++k)
        r += s[l + k];
    out[g] = r;
}
