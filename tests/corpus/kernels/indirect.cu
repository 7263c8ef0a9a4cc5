// Gathers and scatters through index arrays, and histograms with atomics.

__global__ void gather(const float* in, const int* idx, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int j = idx[i];
        out[i] = in[j];
    }
}

__global__ void scatter(const float* in, const int* idx, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i];
        out[idx[i]] = v;
    }
}

// Global atomics: one atomicAdd per element.
__global__ void histogram_global(const int* data, unsigned int* bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[data[i]], 1u);
}

#define NUM_BINS 256

// Privatised histogram: shared-memory atomics, then one global atomic per bin.
// Launched with blockDim.x == NUM_BINS.
__global__ void histogram_shared(const unsigned char* data, unsigned int* bins, int n)
{
    __shared__ unsigned int local[NUM_BINS];
    local[threadIdx.x] = 0;
    __syncthreads();

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();

    unsigned int count = local[threadIdx.x];
    if (count > 0)
        atomicAdd(&bins[threadIdx.x], count);
}
