// CPU emulation of the dataset's CUDA kernels, for checking them without a GPU.  One block runs
// at a time; its threads are ucontext fibers on one OS thread, so __shared__ variables are plain
// statics, and barriers and warp collectives are cooperative yields.  A barrier some live thread
// never reaches is reported as a deadlock instead of hanging.
#include <ucontext.h>

#include <cmath>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <functional>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __restrict__ __restrict
#define __shared__ static

struct dim3 { unsigned x, y, z; };
struct alignas(16) uint4 { unsigned x, y, z, w; };
struct alignas(16) int4 { int x, y, z, w; };
static const int warpSize = 32;

struct __half { _Float16 v; };
inline float __half2float(__half h) { return (float)h.v; }
inline __half __float2half(float f) { __half h; h.v = (_Float16)f; return h; }
struct __nv_bfloat16 { uint16_t bits; };
inline float __bfloat162float(__nv_bfloat16 b) {
    uint32_t u = (uint32_t)b.bits << 16; float f; memcpy(&f, &u, 4); return f;
}
inline __nv_bfloat16 __float2bfloat16(float f) {
    uint32_t u; memcpy(&u, &f, 4); u += 0x7fffu + ((u >> 16) & 1u); __nv_bfloat16 b; b.bits = (uint16_t)(u >> 16); return b;
}

template <class V> inline V atomicAdd(V* address, V value) { V old = *address; *address = old + value; return old; }

dim3 threadIdx, blockIdx, blockDim, gridDim;

namespace emu {

struct Fiber { ucontext_t ctx; dim3 tid; int linear; bool done; bool waiting; };

static std::vector<Fiber> fibers;
static std::vector<char> stacks;
static ucontext_t scheduler;
static int current, block_live, block_waiting;
static std::vector<int> warp_live, warp_waiting;
static std::vector<int> warp_wait_flag;     // per fiber: waiting at its warp barrier
static unsigned char slots[1024][16];
static std::function<void()> body;
static const size_t STACK = 128 * 1024;

inline void release_block() {
    for (auto& f : fibers) f.waiting = false;
    block_waiting = 0;
}

inline void release_warp(int w) {
    for (int i = w * 32; i < (int)fibers.size() && i < w * 32 + 32; ++i) warp_wait_flag[i] = 0;
    warp_waiting[w] = 0;
}

inline void yield() { swapcontext(&fibers[current].ctx, &scheduler); }

inline void block_barrier() {
    fibers[current].waiting = true;
    if (++block_waiting == block_live) release_block();
    yield();
}

inline void warp_barrier() {
    int w = fibers[current].linear / 32;
    warp_wait_flag[current] = 1;
    if (++warp_waiting[w] == warp_live[w]) release_warp(w);
    yield();
}

template <class V> V exchange(V v, int src_lane) {
    int me = fibers[current].linear, base = me / 32 * 32;
    memcpy(slots[me], &v, sizeof(V));
    warp_barrier();
    V r;
    int src = base + src_lane;
    memcpy(&r, slots[(src < (int)fibers.size() && !fibers[src].done) ? src : me], sizeof(V));
    warp_barrier();
    return r;
}

inline void entry() {
    body();
    Fiber& f = fibers[current];
    f.done = true;
    --block_live;
    int w = f.linear / 32;
    --warp_live[w];
    if (block_waiting > 0 && block_waiting == block_live) release_block();
    if (warp_waiting[w] > 0 && warp_waiting[w] == warp_live[w]) release_warp(w);
}

// 0: ran, 1: deadlock (a barrier some live thread never reached)
inline int run(dim3 grid, dim3 block, std::function<void()> kernel) {
    body = kernel;
    gridDim = grid;
    blockDim = block;
    int n = block.x * block.y * block.z;
    fibers.assign(n, Fiber());
    stacks.resize((size_t)n * STACK);
    warp_live.assign((n + 31) / 32, 0);
    warp_waiting.assign((n + 31) / 32, 0);
    warp_wait_flag.assign(n, 0);
    for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx) {
                blockIdx = dim3{bx, by, bz};
                block_live = n;
                block_waiting = 0;
                for (int w = 0; w < (int)warp_live.size(); ++w) { warp_live[w] = 0; warp_waiting[w] = 0; }
                for (int i = 0; i < n; ++i) {
                    Fiber& f = fibers[i];
                    f.tid = dim3{(unsigned)(i % block.x), (unsigned)(i / block.x % block.y), (unsigned)(i / (block.x * block.y))};
                    f.linear = i;
                    f.done = f.waiting = false;
                    warp_wait_flag[i] = 0;
                    ++warp_live[i / 32];
                    getcontext(&f.ctx);
                    f.ctx.uc_stack.ss_sp = &stacks[(size_t)i * STACK];
                    f.ctx.uc_stack.ss_size = STACK;
                    f.ctx.uc_link = &scheduler;
                    makecontext(&f.ctx, entry, 0);
                }
                for (;;) {
                    bool ran = false, left = false;
                    for (int i = 0; i < n; ++i) {
                        Fiber& f = fibers[i];
                        if (f.done) continue;
                        left = true;
                        if (f.waiting || warp_wait_flag[i]) continue;
                        current = i;
                        threadIdx = f.tid;
                        ran = true;
                        swapcontext(&scheduler, &f.ctx);
                    }
                    if (!left) break;
                    if (!ran) return 1;
                }
            }
    return 0;
}

}  // namespace emu

inline void __syncthreads() { emu::block_barrier(); }
inline void __syncwarp(unsigned = 0xffffffffu) { emu::warp_barrier(); }
template <class V> V __shfl_sync(unsigned, V v, int src) { return emu::exchange(v, src & 31); }
template <class V> V __shfl_xor_sync(unsigned, V v, int mask) { return emu::exchange(v, (emu::fibers[emu::current].linear & 31) ^ mask); }
template <class V> V __shfl_up_sync(unsigned, V v, int d) {
    int lane = emu::fibers[emu::current].linear & 31;
    V r = emu::exchange(v, lane >= d ? lane - d : lane);
    return r;
}
template <class V> V __shfl_down_sync(unsigned, V v, int d) {
    int lane = emu::fibers[emu::current].linear & 31;
    return emu::exchange(v, lane + d < 32 ? lane + d : lane);
}
