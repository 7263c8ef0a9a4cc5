// Sync suite, theme: global-memory data races (several threads of one launch write, or
// write and read, one global address without atomics) and their race-free twins.
// Imitates the global-memory "races" tests of GPUVerify (which checks global arrays too)
// and the inter-block cases of the CUDA data-race benchmarks.  compute-sanitizer's
// racecheck sees shared memory only, so these labels rest on the author's reasoning.

#define BLOCK 128

// GPUVerify races/fail (global write-write): every thread of a block stores out[blockIdx.x].
__global__ void gr_out_blockidx(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[blockIdx.x] = 2.0f * in[i]; // BUG
}

// GPUVerify pass (twin): a block reduction, then one thread stores out[blockIdx.x].
__global__ void gc_out_blockidx_one_writer(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = 2.0f * s[0];
}

// GPUVerify races/fail (global write-write): threads 2k and 2k+1 store the same word.
__global__ void gr_out_half(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i / 2] = in[i]; // BUG
}

// GPUVerify pass (twin): one thread per output word combines the pair.
__global__ void gc_pairwise(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[2 * i] + in[2 * i + 1];
}

// CUDA race benchmarks (global read-write): unsynchronised running maximum in out[0].
__global__ void gr_max_nonatomic(const int* keys, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = keys[i];
    if (k > out[0])
        out[0] = k; // BUG
}

// CUDA race benchmarks (twin): atomicMax.
__global__ void gc_max_atomic(const int* keys, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicMax(&out[0], keys[i]);
}

// GPUVerify races/fail (global read-write): in-place left shift; thread i reads the word
// thread i + 1 writes in the same launch.
__global__ void gr_inplace_shift(float* data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = data[i + 1]; // BUG
}

// GPUVerify pass (twin): out-of-place shift.
__global__ void gc_shift_out_of_place(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i + 1];
}

// CUDA race benchmarks, global histogram with a plain increment.
__global__ void gr_histogram_global_nonatomic(const int* keys, int* hist, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        hist[keys[i] & 15] += 1; // BUG
}

// CUDA race benchmarks (twin): global histogram with atomicAdd.
__global__ void gc_histogram_global_atomic(const int* keys, int* hist, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&hist[keys[i] & 15], 1);
}

// GKLEE benchmarks, sum into one word with a plain read-modify-write.
__global__ void gr_sum_nonatomic(const float* in, float* sum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    sum[0] += in[i]; // BUG
}

// GKLEE benchmarks (twin): atomicAdd.
__global__ void gc_sum_atomic(const float* in, float* sum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(sum, in[i]);
}

// GPUVerify races/fail (in-place stencil): neighbours read words that are being rewritten.
__global__ void gr_inplace_stencil(float* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i < n - 1)
        a[i] = (a[i - 1] + a[i] + a[i + 1]) * (1.0f / 3.0f); // BUG
}

// GPUVerify pass (twin): out-of-place stencil.
__global__ void gc_stencil_out_of_place(const float* a, float* b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i < n - 1)
        b[i] = (a[i - 1] + a[i] + a[i + 1]) * (1.0f / 3.0f);
}

#define SLOTS 64

// GPUVerify races/fail (modulo index): threads i and i + SLOTS store the same slot.
__global__ void gr_modulo_index(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i % SLOTS] = in[i]; // BUG
}

// GPUVerify pass (twin): the colliding threads accumulate atomically.
__global__ void gc_modulo_atomic(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&out[i % SLOTS], in[i]);
}

// GPUVerify races/fail (2-D): every column thread of a row stores out[y].
__global__ void gr_row_collapse_2d(const float* in, float* out, int width)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y] = in[y * width + x]; // BUG
}

// GPUVerify pass (2-D twin): one thread per row sums its row.
__global__ void gc_row_sum_one_thread(const float* in, float* out, int width, int height)
{
    int y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y < height) {
        float acc = 0.0f;
        for (int x = 0; x < width; ++x)
            acc += in[y * width + x];
        out[y] = acc;
    }
}

// CUDA race benchmarks (inter-block): block b reads the partial that block b - 1 writes in
// the same launch; there is no grid-wide barrier between them.
__global__ void gr_cross_block_carry(const float* in, float* partial, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = in[i];
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
    float carry = (blockIdx.x > 0) ? partial[blockIdx.x - 1] : 0.0f; // BUG
    out[i] = in[i] + carry;
}

// CUDA race benchmarks (inter-block twin): each block reads only its own partial, after
// the barrier that orders it after thread 0's store.
__global__ void gc_own_block_partial(const float* in, float* partial, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = in[i];
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
    out[i] = in[i] - s[0] * (1.0f / BLOCK);
}

// GPUVerify races/fail (global, loop): every thread of a block accumulates into the same
// row of the output in a loop.
__global__ void gr_loop_same_row(const float* in, float* out, int cols)
{
    int t = threadIdx.x;
    for (int c = 0; c < cols; ++c)
        out[blockIdx.x * cols + c] += in[(blockIdx.x * blockDim.x + t) * cols + c]; // BUG
}

// GPUVerify pass (loop twin): disjoint rows, one per thread.
__global__ void gc_loop_own_row(const float* in, float* out, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    for (int c = 0; c < cols; ++c)
        out[r * cols + c] += in[r * cols + c];
}

// GPUVerify races/fail (global read-write): in-place reversal of the whole array; thread i
// reads d[i] while thread n-1-i writes it.
__global__ void gr_reverse_inplace(float* d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[n - 1 - i] = d[i]; // BUG
}
