// Reductions: shared-memory trees (sequential and interleaved addressing) and
// warp shuffles with a final atomic.

#define BLOCK_SIZE 256

// Sequential addressing: conflict-free tree.
__global__ void reduce_tree(const float* in, float* out, int n)
{
    __shared__ float s[BLOCK_SIZE];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

// Interleaved addressing: index = 2 * stride * tid causes bank conflicts.
__global__ void reduce_interleaved(const float* in, float* out, int n)
{
    __shared__ float s[BLOCK_SIZE];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tid;
    s[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int index = 2 * stride * tid;
        if (index < blockDim.x)
            s[index] += s[index + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

__device__ __forceinline__ float warp_reduce_sum(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

// Grid-stride accumulation, warp shuffles, one shared slot per warp, atomicAdd.
__global__ void reduce_shuffle(const float* in, float* out, int n)
{
    __shared__ float warp_sums[32];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];

    int lane = threadIdx.x % 32;
    int wid = threadIdx.x / 32;
    sum = warp_reduce_sum(sum);
    if (lane == 0)
        warp_sums[wid] = sum;
    __syncthreads();

    if (wid == 0) {
        sum = (threadIdx.x < blockDim.x / 32) ? warp_sums[lane] : 0.0f;
        sum = warp_reduce_sum(sum);
        if (lane == 0)
            atomicAdd(out, sum);
    }
}
