// launch: grid=64 block=128
#define BINS 16

// n >= 64 * 128
__global__ void warp_hist(const unsigned char* data, unsigned* hist, int n)
{
    __shared__ unsigned h[4][BINS];
    int lane = threadIdx.x & 31;
    int w = threadIdx.x >> 5;
    if (lane < BINS)
        h[w][lane] = 0;
    __syncwarp();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int bin = data[i] % BINS;
        atomicAdd(&h[w][bin], 1u);
    }
    __syncwarp();
    if (lane < BINS)
        atomicAdd(&hist[lane], h[w][lane]);
}
