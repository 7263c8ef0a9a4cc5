// Sync suite, theme: barrier divergence.  __syncthreads() must be reached by every thread
// of the block (the condition guarding it must be block-uniform); __syncwarp(mask) and the
// *_sync warp intrinsics by every lane named in the mask.  Imitates GPUVerify's
// "barrier divergence" fail tests (barrier under a thread-dependent condition, after an
// early return, in a loop with a thread-dependent trip count) and its pass tests (barriers
// under block-uniform or kernel-argument conditions).

#define BLOCK 128
#define FULL 0xffffffffu

// GPUVerify barrier-divergence/fail: barrier under a threadIdx-dependent condition (the
// condition splits warp 1), then a second phase with a barrier that every thread reaches.
__global__ void bd_sync_in_tid_branch(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    float v = in[i];
    if (t < 48) {
        s[t] = v;
        __syncthreads(); // BUG
        v += s[47 - t];
    }
    __syncthreads();
    s[t] = v;
    __syncthreads();
    out[i] = s[BLOCK - 1 - t];
}

// GPUVerify pass (twin): the branch only guards the accesses; the barriers are outside.
__global__ void bc_sync_outside_tid_branch(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    float v = in[i];
    if (t < 48)
        s[t] = v;
    __syncthreads();
    if (t < 48)
        v += s[47 - t];
    __syncthreads();
    s[t] = v;
    __syncthreads();
    out[i] = s[BLOCK - 1 - t];
}

// GPUVerify barrier-divergence/fail: early return taken by the tail threads of the last
// block, barrier afterwards (n is not a multiple of the block size).
__global__ void bd_early_return(const float* in, float* out, int n)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    if (i >= n)
        return;
    s[t] = in[i];
    __syncthreads(); // BUG
    float v = s[t];
    if (t > 0)
        v += s[t - 1];
    out[i] = v;
}

// GPUVerify pass (twin): guarded load, barrier reached by every thread, guarded store.
__global__ void bc_guarded_no_return(const float* in, float* out, int n)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    float v = s[t];
    if (t > 0)
        v += s[t - 1];
    if (i < n)
        out[i] = v;
}

// GPUVerify pass: the early return is block-uniform (whole surplus blocks leave).
__global__ void bc_block_uniform_return(const float* in, float* out, int n)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    if (blockIdx.x * BLOCK >= n)
        return;
    int i = blockIdx.x * BLOCK + t;
    s[t] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    if (i < n)
        out[i] = s[BLOCK - 1 - t];
}

// GPUVerify barrier-divergence/fail: loop whose trip count depends on threadIdx.
__global__ void bd_tid_trip_count(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    float v = in[i];
    for (int k = 0; k < (t & 3) + 1; ++k) {
        s[t] = v;
        __syncthreads(); // BUG
        v += s[t ^ 1];
    }
    out[i] = v;
}

// GPUVerify pass (twin): trip count from a kernel argument, thread-dependent work guarded.
__global__ void bc_arg_trip_count(const float* in, float* out, int iters)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    float v = in[i];
    for (int k = 0; k < iters; ++k) {
        s[t] = v;
        __syncthreads();
        if (k <= (t & 3))
            v += s[t ^ 1];
        __syncthreads();
    }
    out[i] = v + s[(t + 4) % BLOCK];
}

// GPUVerify barrier-divergence/fail: barrier under a data-dependent (per-thread) condition.
__global__ void bd_data_dependent(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = in[i];
    if (in[i] > 0.0f) {
        __syncthreads(); // BUG
        out[i] = s[(t + 1) % BLOCK];
    } else {
        out[i] = 0.0f;
    }
}

// GPUVerify barrier-divergence/fail: the two sides of a thread-dependent branch each have
// their own barrier (distinct barriers in the source, undefined per the CUDA guide).
__global__ void bd_if_else_two_barriers(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    if (t & 1) {
        s[t] = in[i];
        __syncthreads(); // BUG
        out[i] = s[t - 1];
    } else {
        s[t] = -in[i];
        __syncthreads();
        out[i] = s[t + 1];
    }
}

// GPUVerify pass (twin): one barrier hoisted out of the branch.
__global__ void bc_if_else_hoisted(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = (t & 1) ? in[i] : -in[i];
    __syncthreads();
    out[i] = (t & 1) ? s[t - 1] : s[t + 1];
}

// GPUVerify barrier-divergence/fail (interprocedural): the barrier is inside a helper that
// only some threads call (threads 0-39, so warp 1 is split), then a common barrier.
__device__ float exchange(float* s, int t, float v)
{
    s[t] = v;
    __syncthreads(); // BUG
    return s[t ^ 1];
}

__global__ void bd_helper_barrier(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    float v = in[i];
    if (t < 40)
        v = exchange(s, t, v);
    __syncthreads();
    out[i] = v + s[t & 31];
}

// GPUVerify pass (interprocedural twin): every thread calls the helper.
__device__ float exchange_all(float* s, int t, float v)
{
    s[t] = v;
    __syncthreads();
    return s[t ^ 1];
}

__global__ void bc_helper_barrier_uniform(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    float w = exchange_all(s, t, in[i]);
    float v = (t < 40) ? w : in[i];
    __syncthreads();
    out[i] = v + s[t & 31];
}

// GPUVerify barrier-divergence/fail: data-dependent break out of a loop with a barrier.
__global__ void bd_loop_break(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    float v = in[i];
    for (int k = 0; k < 8; ++k) {
        if (v > 0.5f)
            break;
        v = v * 1.5f + 0.1f;
        s[t] = v;
        __syncthreads(); // BUG
        v += 0.01f * s[(t + 1) % BLOCK];
        __syncthreads();
    }
    out[i] = v;
}

// GPUVerify pass (twin): the stop decision is made once per block, published by thread 0
// and read by every thread after a barrier, so the break is block-uniform.
__global__ void bc_loop_break_uniform(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    __shared__ int s_done;
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = in[i];
    __syncthreads();
    for (int k = 0; k < 8; ++k) {
        if (t == 0)
            s_done = (s[0] > 0.5f);
        __syncthreads();
        if (s_done)
            break;
        float nb = s[(t + 1) % BLOCK];
        __syncthreads();
        s[t] = s[t] * 1.5f + 0.1f * nb;
        __syncthreads();
    }
    out[i] = s[t];
}

// GPUVerify barrier-divergence/fail: grid-stride loop with a barrier in its body; the
// threads past the end of the array leave the loop one iteration early.
__global__ void bd_grid_stride_barrier(const float* in, float* out, int n)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    for (int i = blockIdx.x * BLOCK + t; i < n; i += BLOCK * gridDim.x) {
        s[t] = in[i];
        __syncthreads(); // BUG
        out[i] = s[BLOCK - 1 - t];
        __syncthreads();
    }
}

// GPUVerify pass (twin): the loop runs over block-uniform tile bases, accesses are guarded.
__global__ void bc_grid_stride_uniform(const float* in, float* out, int n)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    for (int base = blockIdx.x * BLOCK; base < n; base += BLOCK * gridDim.x) {
        int i = base + t;
        int j = base + BLOCK - 1 - t;
        s[t] = (i < n) ? in[i] : 0.0f;
        __syncthreads();
        if (j < n)
            out[j] = s[t];
        __syncthreads();
    }
}

// GPUVerify pass: barrier under a block-uniform condition (blockIdx).
__global__ void bc_block_uniform_branch(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    if (blockIdx.x == 0) {
        s[t] = in[i];
        __syncthreads();
        out[i] = s[BLOCK - 1 - t];
    } else {
        out[i] = in[i];
    }
}

// GPUVerify pass: barrier under a kernel-argument condition.
__global__ void bc_arg_condition(const float* in, float* out, int reverse)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    if (reverse) {
        s[t] = in[i];
        __syncthreads();
        out[i] = s[BLOCK - 1 - t];
    } else {
        out[i] = in[i];
    }
}

// GPUVerify barrier-divergence/fail (warp level): __syncwarp() (full mask) reached by half of the warp.
__global__ void bd_syncwarp_divergent(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int lane = t & 31;
    int i = blockIdx.x * BLOCK + t;
    float v = in[i];
    if (lane < 16) {
        s[t] = v;
        __syncwarp(); // BUG
        v += s[t ^ 1];
    }
    out[i] = v;
}

// GPUVerify pass (warp-level twin): __syncwarp() reached by the whole warp; the branch guards the accesses.
__global__ void bc_syncwarp_uniform(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int lane = t & 31;
    int i = blockIdx.x * BLOCK + t;
    float v = in[i];
    if (lane < 16)
        s[t] = v;
    __syncwarp();
    if (lane < 16)
        v += s[t ^ 1];
    out[i] = v;
}

// GPUVerify barrier-divergence/fail (warp level): __shfl_sync with a full mask executed by half of the warp.
__global__ void bd_shfl_full_mask_divergent(const float* in, float* out)
{
    int t = threadIdx.x;
    int lane = t & 31;
    int i = blockIdx.x * BLOCK + t;
    float v = in[i];
    if (lane < 16)
        v += __shfl_sync(FULL, v, lane + 16); // BUG
    out[i] = v;
}

// GPUVerify pass (warp-level twin): the shuffle runs in warp-uniform code; the branch only selects the result.
__global__ void bc_shfl_full_mask_uniform(const float* in, float* out)
{
    int t = threadIdx.x;
    int lane = t & 31;
    int i = blockIdx.x * BLOCK + t;
    float v = in[i];
    float w = __shfl_sync(FULL, v, (lane + 16) & 31);
    if (lane < 16)
        v += w;
    out[i] = v;
}

// GPUVerify barrier-divergence/fail (warp level): __ballot_sync with a full mask under a data-dependent
// condition.
__global__ void bd_ballot_divergent(const float* in, int* count)
{
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    float v = in[i];
    if (v > 0.0f) {
        unsigned b = __ballot_sync(FULL, v > 0.5f); // BUG
        if ((t & 31) == __ffs(b) - 1)
            atomicAdd(count, __popc(b));
    }
}

// GPUVerify barrier-divergence/fail: barrier reached by lane 0 of each warp only.
__global__ void bd_lane0_barrier(const float* in, float* out)
{
    __shared__ float wsum[BLOCK / 32];
    int t = threadIdx.x;
    int lane = t & 31, warp = t >> 5;
    int i = blockIdx.x * BLOCK + t;
    if (lane == 0) {
        wsum[warp] = in[i];
        __syncthreads(); // BUG
        out[i] = wsum[(warp + 1) % (BLOCK / 32)];
    } else {
        out[i] = in[i];
    }
    __syncthreads();
    if (lane == 0)
        out[i] += wsum[warp];
}

// GPUVerify pass: double-nested loops, both bounds block-uniform, barriers at each level.
__global__ void bc_nested_uniform_loops(const float* in, float* out, int outer, int inner)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    float v = in[i];
    for (int a = 0; a < outer; ++a) {
        for (int b = 0; b < inner; ++b) {
            s[t] = v;
            __syncthreads();
            v = 0.5f * (v + s[(t + b + 1) % BLOCK]);
            __syncthreads();
        }
        v *= 0.9f;
    }
    out[i] = v;
}

// GPUVerify barrier-divergence/fail: the condition is uniform within each warp but not
// across the block (warp 0 alone reaches the barrier).
__global__ void bd_sync_in_warp_branch(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int warp = t >> 5;
    int i = blockIdx.x * BLOCK + t;
    s[t] = in[i];
    out[i] = in[i];
    if (warp == 0) {
        __syncthreads(); // BUG
        out[i] = s[BLOCK - 1 - t];
    }
}
