// Barrier and uniformity forms of real code, in buggy/clean pairs.  Each kernel says what the
// linter's synchronisation rules must report on it: `expect: clean` (none of them), or
// `expect: RULE` with the line marked `// here`.  Written for tests/test_lint_sync_forms.py.
#include <cooperative_groups.h>
#include <cuda_pipeline.h>
namespace cg = cooperative_groups;

#define FULL 0xffffffffu

// expect: clean
__global__ void cg_free_sync(const float* in, float* out) {
    __shared__ float s[256];
    cg::thread_block block = cg::this_thread_block();
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    cg::sync(block);
    out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}

// expect: shared-race
__global__ void cg_free_sync_missing(const float* in, float* out) {
    __shared__ float s[256];
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];  // here
    out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}

__device__ void stage(float* s, const float* in, cg::thread_block g) {
    s[g.thread_rank()] = in[blockIdx.x * 256 + g.thread_rank()];
    g.sync();
}

// expect: clean
__global__ void group_handle_in_helper(const float* in, float* out) {
    __shared__ float s[256];
    stage(s, in, cg::this_thread_block());
    out[blockIdx.x * 256 + threadIdx.x] = s[(threadIdx.x + 32) % 256];
}

// expect: clean
__global__ void ptx_barrier(const float* in, float* out) {
    __shared__ float s[256];
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    asm volatile("bar.sync 0;" ::: "memory");
    out[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x ^ 64];
}

// expect: clean
__global__ void named_barrier_for_two_warps(const float* in, float* out) {
    __shared__ float s[64];
    if (threadIdx.x < 64) {
        s[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
        asm volatile("bar.sync 1, 64;" ::: "memory");
        out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
    }
}

// expect: barrier-divergence
__global__ void syncthreads_for_two_warps(const float* in, float* out) {
    __shared__ float s[64];
    if (threadIdx.x < 64) {
        s[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
        __syncthreads();  // here
        out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
    }
}

// expect: clean
__global__ void vote_guarded_barrier_loop(const int* work, int* out) {
    __shared__ int s[256];
    int left = work[blockIdx.x * 256 + threadIdx.x];
    int done = 0;
    while (__syncthreads_or(left > 0)) {
        s[threadIdx.x] = left;
        __syncthreads();
        done += s[(threadIdx.x + 1) % 256] > 0;
        __syncthreads();
        left -= 1;
    }
    out[blockIdx.x * 256 + threadIdx.x] = done;
}

// expect: barrier-divergence
__global__ void thread_guarded_barrier_loop(const int* work, int* out) {
    __shared__ int s[256];
    int left = work[blockIdx.x * 256 + threadIdx.x];
    int done = 0;
    while (left > 0) {
        s[threadIdx.x] = left;
        __syncthreads();  // here
        done += s[(threadIdx.x + 1) % 256] > 0;
        __syncthreads();
        left -= 1;
    }
    out[blockIdx.x * 256 + threadIdx.x] = done;
}

// expect: clean
__global__ void barrier_at_loop_top(const float* in, float* out, int steps) {
    __shared__ float s[256];
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    float acc = 0.f;
    for (int k = 0; k < steps; ++k) {
        __syncthreads();
        acc += s[(threadIdx.x + k) % 256];
    }
    out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// expect: shared-race
__global__ void barrier_at_loop_bottom(const float* in, float* out, int steps) {
    __shared__ float s[256];
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];  // here
    float acc = 0.f;
    for (int k = 0; k < steps; ++k) {
        acc += s[(threadIdx.x + 32 * k + 32) % 256];
        __syncthreads();
    }
    out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// expect: clean
__global__ void row_per_iteration(const float* in, float* out) {
    __shared__ float rows[8 * 32];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    float v = in[blockIdx.x * 256 + threadIdx.x], acc = 0.f;
    for (int k = 0; k < 8; ++k) {
        if (warp == k) rows[k * 32 + lane] = v;
        __syncthreads();
        acc += rows[k * 32 + (lane + 1) % 32];
    }
    out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// expect: shared-race
__global__ void one_row_reused(const float* in, float* out) {
    __shared__ float row[32];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    float v = in[blockIdx.x * 256 + threadIdx.x], acc = 0.f;
    for (int k = 0; k < 8; ++k) {
        if (warp == k) row[lane] = v;  // here
        __syncthreads();
        acc += row[(lane + 1) % 32];
    }
    out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// expect: clean
__global__ void async_copy_then_barrier(const float* in, float* out) {
    __shared__ float s[256];
    __pipeline_memcpy_async(&s[threadIdx.x], &in[blockIdx.x * 256 + threadIdx.x], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x] * 2.f;
    __syncthreads();
    __pipeline_memcpy_async(&s[threadIdx.x], &in[blockIdx.x * 256 + 255 - threadIdx.x], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] += s[(threadIdx.x + 1) % 256];
}

// expect: redundant-barrier
__global__ void barrier_twice(const float* in, float* out) {
    __shared__ float s[256];
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    __syncthreads();  // here
    out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}

// expect: clean
__global__ void claim_then_broadcast(const float* x, float* out, int* next, int limit) {
    int lane = threadIdx.x % 32;
    int base = 0;
    if (lane == 0) base = atomicAdd(next, 32);
    base = __shfl_sync(FULL, base, 0);
    if (base < limit) {
        float v = x[base + lane];
        v += __shfl_down_sync(FULL, v, 16);
        if (lane == 0) out[base / 32] = v;
    }
}

// expect: divergent-full-mask
__global__ void claim_without_broadcast(const float* x, float* out, int* next, int limit) {
    int lane = threadIdx.x % 32;
    int base = 0;
    if (lane == 0) base = atomicAdd(next, 32);
    if (base < limit) {
        float v = x[base + lane];
        v += __shfl_down_sync(FULL, v, 16);  // here
        if (lane == 0) out[base / 32] = v;
    }
}

// expect: clean
__global__ void all_guarded_loop(const float* x, float* out, int n) {
    float acc = 0.f;
    for (int i = blockIdx.x * 256 + threadIdx.x; __all_sync(FULL, i < n); i += 8192) {
        acc += x[i];
        acc += __shfl_xor_sync(FULL, acc, 1);
    }
    out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// expect: divergent-full-mask
__global__ void lane_guarded_loop(const float* x, float* out, int n) {
    float acc = 0.f;
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += 8192) {
        acc += x[i];
        acc += __shfl_xor_sync(FULL, acc, 1);  // here
    }
    out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// expect: clean
__global__ void block_flag_from_one_thread(const float* in, float* out) {
    __shared__ int flag;
    __shared__ float s[256];
    if (threadIdx.x == 0) flag = in[blockIdx.x] > 0.f;
    __syncthreads();
    if (flag) {
        s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
        __syncthreads();
        out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
    }
}

// expect: barrier-divergence
__global__ void thread_flag(const float* in, float* out) {
    __shared__ float s[256];
    int flag = in[blockIdx.x * 256 + threadIdx.x] > 0.f;
    if (flag) {
        s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
        __syncthreads();  // here
        out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
    }
}

// expect: clean
__global__ void warp_rounded_count(const float* x, float* out, int n) {
    int n32 = (n + 31) / 32 * 32;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n32; i += blockDim.x * gridDim.x) {
        float v = i < n ? x[i] : 0.f;
        v += __shfl_xor_sync(FULL, v, 16);
        if (i < n) out[i] = v;
    }
}

// expect: divergent-full-mask
__global__ void unrounded_count(const float* x, float* out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = x[i];
        v += __shfl_xor_sync(FULL, v, 16);  // here
        out[i] = v;
    }
}

template <int WIDTH>
__device__ float row_sum(float v) {
    int lane = threadIdx.x % 32;
    if constexpr (WIDTH < 32) {
        if (lane < WIDTH) v += __shfl_down_sync(FULL, v, WIDTH / 2);  // here
    } else {
        v += __shfl_down_sync(FULL, v, 16);
    }
    return v;
}

// expect: clean
__global__ void constexpr_dead_side(const float* x, float* out) {
    out[blockIdx.x * 256 + threadIdx.x] = row_sum<32>(x[blockIdx.x * 256 + threadIdx.x]);
}

// expect: divergent-full-mask
__global__ void constexpr_live_side(const float* x, float* out) {
    out[blockIdx.x * 256 + threadIdx.x] = row_sum<16>(x[blockIdx.x * 256 + threadIdx.x]);
}

// expect: clean
__global__ void warp_id_test(const float* x, float* out) {
    __shared__ float partial[8];
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    float v = x[blockIdx.x * 256 + threadIdx.x];
    v += __shfl_down_sync(FULL, v, 16);
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < 8 ? partial[lane] : 0.f;
        v += __shfl_down_sync(FULL, v, 4);
        if (lane == 0) out[blockIdx.x] = v;
    }
}

// expect: divergent-full-mask
__global__ void half_warp_test(const float* x, float* out) {
    int lane = threadIdx.x & 31;
    float v = x[blockIdx.x * 256 + threadIdx.x];
    if (lane < 16) {
        v += __shfl_down_sync(FULL, v, 8);  // here
        out[blockIdx.x * 256 + threadIdx.x] = v;
    }
}

// expect: clean
__global__ void every_warp_stores_the_bias(const float* bias, const float* in, float* out) {
    __shared__ float b[32];
    b[threadIdx.x % 32] = bias[threadIdx.x % 32];
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x] + b[(threadIdx.x + 1) % 32];
}

// expect: shared-race
__global__ void every_warp_stores_its_own(const float* bias, const float* in, float* out) {
    __shared__ float b[32];
    b[threadIdx.x % 32] = in[blockIdx.x * 256 + threadIdx.x];  // here
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] = bias[threadIdx.x] + b[(threadIdx.x + 1) % 32];
}

// expect: clean
__global__ void any_lane_sets_the_flag(const float* in, int* out) {
    __shared__ int found;
    if (threadIdx.x == 0) found = 0;
    __syncthreads();
    if (!found && in[blockIdx.x * 256 + threadIdx.x] > 0.f) found = 1;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = found;
}

// expect: shared-race
__global__ void any_lane_counts(const float* in, int* out) {
    __shared__ int found;
    if (threadIdx.x == 0) found = 0;
    __syncthreads();
    if (in[blockIdx.x * 256 + threadIdx.x] > 0.f) found += 1;  // here
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = found;
}

struct Scratch {
    __device__ float* get() {
        extern __shared__ float dynamic[];
        return dynamic;
    }
};

// expect: clean
__global__ void pointer_from_a_method(const float* in, float* out) {
    Scratch scratch;
    float* s = scratch.get();
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    s[threadIdx.x] *= 2.f;
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}

// expect: clean
__global__ void barrier_at_inner_loop_top(const float* in, float* out, int rounds) {
    __shared__ float s[256];
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    for (int r = 0; r < rounds; ++r) {
        for (int stride = 128; stride > 0; stride >>= 1) {
            __syncthreads();
            float v = s[threadIdx.x ^ stride];
            __syncthreads();
            s[threadIdx.x] += v;
        }
    }
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}

// expect: shared-race
__global__ void no_barrier_at_inner_loop_top(const float* in, float* out, int rounds) {
    __shared__ float s[256];
    s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];  // here
    for (int r = 0; r < rounds; ++r) {
        for (int stride = 128; stride > 0; stride >>= 1) {
            float v = s[threadIdx.x ^ stride];
            __syncthreads();
            s[threadIdx.x] += v;  // here
        }
    }
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}

// expect: clean
__global__ void grid_rank_zero_totals(const float* in, float* partial) {
    cg::grid_group grid = cg::this_grid();
    if (threadIdx.x == 0) partial[blockIdx.x] = in[blockIdx.x];
    grid.sync();
    if (grid.thread_rank() == 0)
        for (int b = 1; b < gridDim.x; ++b) partial[0] += partial[b];
}

// expect: global-race
__global__ void block_leaders_total(const float* in, float* partial) {
    cg::grid_group grid = cg::this_grid();
    if (threadIdx.x == 0) partial[blockIdx.x] = in[blockIdx.x];
    grid.sync();
    if (threadIdx.x == 0)
        for (int b = 1; b < gridDim.x; ++b) partial[0] += partial[b];  // here
}
