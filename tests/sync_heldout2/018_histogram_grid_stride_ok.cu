// launch: grid=32 block=256
#define BINS 64

__device__ __forceinline__ int bin_of(unsigned char c) { return c & (BINS - 1); }

__global__ void histo(const unsigned char* data, int n, unsigned int* hist) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int b = bin_of(data[i]);
        atomicAdd(&hist[b], 1u);
    }
}
