// launch: grid=16 block=128
#define ITEMS 4

__global__ void flags(const int* x, unsigned* out) {
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * ITEMS;
    unsigned acc = 0;
    for (int k = 0; k < ITEMS; ++k) {
        int v = x[base + k];
        if (v < 0) continue;
        unsigned b = __ballot_sync(0xffffffff, (v & 1) != 0);
        acc ^= b;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
