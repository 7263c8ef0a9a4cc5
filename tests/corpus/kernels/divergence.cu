// Branch divergence at thread, warp, block and grid granularity, with
// floating-point work on both sides of each branch.

__device__ __forceinline__ float poly_a(float v, int iters)
{
    for (int k = 0; k < iters; ++k)
        v = v * 0.75f + 0.125f;
    return v;
}

__device__ __forceinline__ float poly_b(float v, int iters)
{
    for (int k = 0; k < iters; ++k)
        v = (v + 1.0f) * 0.5f;
    return v;
}

// Odd and even lanes take different paths.
__global__ void div_odd_even(const float* in, float* out, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    if (threadIdx.x % 2)
        v = poly_a(v, iters);
    else
        v = poly_b(v, iters);
    out[i] = v;
}

// Whole warps take the same path (alternating warps).
__global__ void div_warp_parity(const float* in, float* out, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    if ((threadIdx.x / 32) % 2)
        v = poly_a(v, iters);
    else
        v = poly_b(v, iters);
    out[i] = v;
}

// Only the first half of warp 0 takes the first path.
__global__ void div_first_half_warp(const float* in, float* out, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    if (threadIdx.x < 16)
        v = poly_a(v, iters);
    else
        v = poly_b(v, iters);
    out[i] = v;
}

// Alternating blocks take different paths.
__global__ void div_block_parity(const float* in, float* out, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    if (blockIdx.x % 2)
        v = poly_a(v, iters);
    else
        v = poly_b(v, iters);
    out[i] = v;
}

// The condition depends only on a kernel parameter.
__global__ void div_param(const float* in, float* out, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    if (n > 100)
        v = poly_a(v, iters);
    else
        v = poly_b(v, iters);
    out[i] = v;
}

// The condition depends on the data each thread loads.
__global__ void div_data(const float* in, float* out, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    if (v > 0.0f)
        v = poly_a(v, iters);
    else
        v = poly_b(v, iters);
    out[i] = v;
}
