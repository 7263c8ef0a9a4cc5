// launch: grid=64 block=256
// n = 64 * 256
__global__ void pack_bits(const bool* pred, unsigned* bitmap, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned bit = (pred[i] ? 1u : 0u) << (i & 31);
        atomicOr(&bitmap[i >> 5], bit);
    }
}
