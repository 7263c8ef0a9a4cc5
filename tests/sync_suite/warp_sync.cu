// Sync suite, theme: warp-synchronous programming.  Since Volta (independent thread
// scheduling) the lanes of a warp are not guaranteed to run in lock-step, so shared-memory
// exchanges inside one warp need __syncwarp() (or warp shuffles).  Imitates the
// warp-level tests that GPUVerify gained with its --warp-sync mode and the intra-warp
// cases of the CUDA data-race benchmarks, plus correct shuffle-based kernels.

#define BLOCK 256
#define FULL 0xffffffffu

// CUDA SDK reduction #6 style, last warp unrolled on a plain shared pointer: no volatile,
// no __syncwarp.
__global__ void iw_reduce_last_warp_plain(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (unsigned stride = BLOCK / 2; stride > 32; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t < 32) {
        s[t] += s[t + 32];
        s[t] += s[t + 16];
        s[t] += s[t + 8];
        s[t] += s[t + 4];
        s[t] += s[t + 2];
        s[t] += s[t + 1]; // BUG
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// CUDA SDK reduction #6 as published before CUDA 9: volatile pointer, still no __syncwarp.
// Unsafe under independent thread scheduling (CUDA 9 Volta guide).
__global__ void iw_reduce_last_warp_volatile(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (unsigned stride = BLOCK / 2; stride > 32; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t < 32) {
        volatile float* v = s;
        v[t] += v[t + 32];
        v[t] += v[t + 16]; // BUG
        v[t] += v[t + 8];
        v[t] += v[t + 4];
        v[t] += v[t + 2];
        v[t] += v[t + 1];
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// CUDA race benchmarks (intra-warp twin, CUDA 9 guide): read, __syncwarp, write, __syncwarp at every step.
__global__ void wc_reduce_last_warp_syncwarp(const float* in, float* out)
{
    __shared__ float s[BLOCK];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (unsigned stride = BLOCK / 2; stride > 32; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t < 32) {
        float v = s[t] + s[t + 32];
        __syncwarp();
        s[t] = v;
        __syncwarp();
        for (int off = 16; off > 0; off >>= 1) {
            v += s[t + off];
            __syncwarp();
            s[t] = v;
            __syncwarp();
        }
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// GPUVerify pass (warp intrinsics): warp shuffles with a full mask in warp-uniform code, per-warp partials in shared
// memory, one barrier, first warp finishes.
__global__ void wc_reduce_shfl(const float* in, float* out)
{
    __shared__ float warp_sum[BLOCK / 32];
    int t = threadIdx.x;
    int lane = t & 31, warp = t >> 5;
    float v = in[blockIdx.x * BLOCK + t];
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(FULL, v, off);
    if (lane == 0)
        warp_sum[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = (lane < BLOCK / 32) ? warp_sum[lane] : 0.0f;
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_down_sync(FULL, v, off);
        if (lane == 0)
            out[blockIdx.x] = v;
    }
}

// CUDA race benchmarks (intra-warp): per-warp Kogge-Stone scan in shared memory without __syncwarp.
__global__ void iw_warp_scan_nosync(const int* in, int* out)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    int lane = t & 31;
    int i = blockIdx.x * BLOCK + t;
    s[t] = in[i];
    for (int off = 1; off < 32; off <<= 1) {
        int add = (lane >= off) ? s[t - off] : 0; // BUG
        s[t] += add;
    }
    out[i] = s[t];
}

// CUDA race benchmarks (intra-warp twin): __syncwarp around every read phase and write phase.
__global__ void wc_warp_scan_syncwarp(const int* in, int* out)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    int lane = t & 31;
    int i = blockIdx.x * BLOCK + t;
    s[t] = in[i];
    __syncwarp();
    for (int off = 1; off < 32; off <<= 1) {
        int add = (lane >= off) ? s[t - off] : 0;
        __syncwarp();
        s[t] += add;
        __syncwarp();
    }
    out[i] = s[t];
}

// GPUVerify pass (warp intrinsics): the same scan with __shfl_up_sync in warp-uniform code.
__global__ void wc_warp_scan_shfl(const int* in, int* out)
{
    int t = threadIdx.x;
    int lane = t & 31;
    int i = blockIdx.x * BLOCK + t;
    int v = in[i];
    for (int off = 1; off < 32; off <<= 1) {
        int up = __shfl_up_sync(FULL, v, off);
        if (lane >= off)
            v += up;
    }
    out[i] = v;
}

// CUDA race benchmarks (intra-warp): lane 0 publishes a per-warp value that the other lanes read at once.
__global__ void iw_lane0_broadcast_nosync(const float* in, float* out)
{
    __shared__ float wval[BLOCK / 32];
    int t = threadIdx.x;
    int lane = t & 31, warp = t >> 5;
    int i = blockIdx.x * BLOCK + t;
    if (lane == 0)
        wval[warp] = in[i];
    out[i] = in[i] - wval[warp]; // BUG
}

// CUDA race benchmarks (intra-warp twin): __syncwarp between the publish and the reads.
__global__ void wc_lane0_broadcast_syncwarp(const float* in, float* out)
{
    __shared__ float wval[BLOCK / 32];
    int t = threadIdx.x;
    int lane = t & 31, warp = t >> 5;
    int i = blockIdx.x * BLOCK + t;
    if (lane == 0)
        wval[warp] = in[i];
    __syncwarp();
    out[i] = in[i] - wval[warp];
}

// CUDA race benchmarks (intra-warp): lanes reverse their warp's slice of shared memory without __syncwarp.
__global__ void iw_warp_reverse_nosync(const float* in, float* out)
{
    __shared__ float s[BLOCK / 32][32];
    int t = threadIdx.x;
    int lane = t & 31, warp = t >> 5;
    int i = blockIdx.x * BLOCK + t;
    s[warp][lane] = in[i];
    out[i] = s[warp][31 - lane]; // BUG
}

// CUDA race benchmarks (intra-warp twin): __syncwarp, and the warp's slice is only touched by that warp.
__global__ void wc_warp_reverse_syncwarp(const float* in, float* out)
{
    __shared__ float s[BLOCK / 32][32];
    int t = threadIdx.x;
    int lane = t & 31, warp = t >> 5;
    int i = blockIdx.x * BLOCK + t;
    s[warp][lane] = in[i];
    __syncwarp();
    out[i] = s[warp][31 - lane];
}

// CUDA race benchmarks (intra-warp, write-write): every lane of a warp stores its value to the warp's slot.
__global__ void iw_warp_slot_ww(const float* in, float* out)
{
    __shared__ float slot[BLOCK / 32];
    int t = threadIdx.x;
    int warp = t >> 5;
    int i = blockIdx.x * BLOCK + t;
    slot[warp] = in[i]; // BUG
    __syncthreads();
    out[i] = slot[warp];
}

// GPUVerify pass (warp intrinsics): vote with a full mask in uniform code; lane 0 counts the warp with one atomic.
__global__ void wc_ballot_count(const float* in, int* count)
{
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    unsigned ballot = __ballot_sync(FULL, in[i] > 0.0f);
    if ((t & 31) == 0)
        atomicAdd(count, __popc(ballot));
}

// GPUVerify pass (warp intrinsics): shuffle inside a divergent branch whose mask names exactly the lanes that take
// it, with a 16-lane width so every source lane is in the mask.
__global__ void wc_shfl_half_warp_mask(const float* in, float* out)
{
    int t = threadIdx.x;
    int lane = t & 31;
    int i = blockIdx.x * BLOCK + t;
    float v = in[i];
    if (lane < 16) {
        for (int off = 8; off > 0; off >>= 1)
            v += __shfl_down_sync(0x0000ffffu, v, off, 16);
    }
    out[i] = v;
}

// GPUVerify pass (warp intrinsics): butterfly all-reduce with __shfl_xor_sync, result broadcast through registers.
__global__ void wc_shfl_xor_allreduce(const float* in, float* out)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    float v = in[i];
    for (int mask = 16; mask > 0; mask >>= 1)
        v = fmaxf(v, __shfl_xor_sync(FULL, v, mask));
    out[i] = in[i] - v;
}

// CUDA race benchmarks (intra-warp, write-write across instructions): the warp clears its
// slot, then lane 0 sets it, with no __syncwarp() between the two stores.
__global__ void iw_warp_init_then_set(const float* in, float* out)
{
    __shared__ float slot[BLOCK / 32];
    int t = threadIdx.x;
    int lane = t & 31, warp = t >> 5;
    int i = blockIdx.x * BLOCK + t;
    slot[warp] = 0.0f;
    if (lane == 0)
        slot[warp] = in[i]; // BUG
    __syncthreads();
    out[i] = in[i] + slot[warp];
}
