// launch: grid=64 block=128
#include "sizes.h"

__global__ void positive_big(const int* x, unsigned* masks) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = x[i];
    unsigned m = 0;
    if (v > 0)
        m = __ballot_sync(FULL_MASK, v > 10);
    if ((threadIdx.x % WARP) == 0 || v > 0)
        masks[i] = m;
}
