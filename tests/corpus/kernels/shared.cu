// Shared-memory bank conflicts: row access, strided access, padding, broadcast,
// 8- and 16-byte elements and dynamically sized (extern) shared memory.

#define BLOCK 256

// Conflict-free: each warp reads 32 consecutive words (in reverse order).
__global__ void smem_reverse(const float* in, float* out)
{
    __shared__ float buf[BLOCK];
    int tid = threadIdx.x;
    int g = blockIdx.x * BLOCK + tid;
    buf[tid] = in[g];
    __syncthreads();
    out[g] = buf[BLOCK - 1 - tid];
}

// Strided shared access s[tid * stride]; buffer sized at launch.
__global__ void smem_strided(const float* in, float* out, int stride)
{
    extern __shared__ float s[];
    int tid = threadIdx.x;
    int g = blockIdx.x * blockDim.x + tid;
    s[tid * stride] = in[g];
    __syncthreads();
    out[g] = s[(blockDim.x - 1 - tid) * stride];
}

// 32x32 tile written by rows and read by columns, optionally padded.
template <int PAD>
__global__ void smem_column(const float* in, float* out)
{
    __shared__ float tile[32][32 + PAD];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int g = (blockIdx.x * 32 + ty) * 32 + tx;
    tile[ty][tx] = in[g];
    __syncthreads();
    out[g] = tile[tx][ty];
}

// One thread loads a per-block value; every thread reads it back.
__global__ void smem_broadcast(const float* in, const float* scale, float* out)
{
    __shared__ float s_scale;
    if (threadIdx.x == 0)
        s_scale = scale[blockIdx.x];
    __syncthreads();
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    out[g] = in[g] * s_scale;
}

// 8- and 16-byte shared elements (T = double, float2, float4), conflict-free.
template <typename T>
__global__ void smem_vec_reverse(const T* in, T* out)
{
    __shared__ T buf[BLOCK];
    int tid = threadIdx.x;
    int g = blockIdx.x * BLOCK + tid;
    buf[tid] = in[g];
    __syncthreads();
    out[g] = buf[BLOCK - 1 - tid];
}

// Doubles at a stride of two elements (16 bytes).
__global__ void smem_double_stride2(const double* in, double* out)
{
    __shared__ double buf[2 * BLOCK];
    int tid = threadIdx.x;
    int g = blockIdx.x * BLOCK + tid;
    buf[2 * tid] = in[g];
    __syncthreads();
    out[g] = buf[2 * (BLOCK - 1 - tid)];
}
