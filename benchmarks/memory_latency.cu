// How long one global load waits on the H200, by where it is served: a pointer chase (each load's
// address is the previous load's value) through a random cycle of 128-byte lines over footprints from
// L1-sized to far past L2.  `idle`: one thread chases alone (the bare latency); `loaded`: one lane per
// warp chases its own cycle on every resident warp slot of every SM (the latency a kernel's thread
// sees when the machine is full of other threads' requests).  benchmarks/memory_latency_h200.sh builds
// and runs it; its CSV (tests/data/h200/memory_latency/) grounds costmodel.terms' latency rates.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <random>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

constexpr int LINE = 32;   // 128-byte lines, in unsigned ints

__global__ void chase(const unsigned* next, unsigned lines, unsigned start_stride, int steps, unsigned* sink) {
    if (threadIdx.x % 32 != 0) return;
    const unsigned chain = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    unsigned p = (chain * start_stride) % lines * LINE;
    for (int i = 0; i < steps; ++i) p = next[p];
    sink[chain] = p;   // keeps the chase alive
}

int main() {
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    const int warps_per_sm = prop.maxThreadsPerMultiProcessor / 32;
    int clock_khz = 0;
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    const size_t footprints[] = {16u << 10, 128u << 10, 1u << 20, 8u << 20, 32u << 20, 256u << 20, 1024u << 20};
    const size_t flush_bytes = 512u << 20;
    void* d_flush;
    CHECK(cudaMalloc(&d_flush, flush_bytes));
    printf("footprint_bytes,mode,chains,ns_per_load,cycles_per_load\n");
    std::mt19937 rng(7);
    for (size_t bytes : footprints) {
        const unsigned lines = bytes / (LINE * sizeof(unsigned));
        std::vector<unsigned> order(lines);
        for (unsigned i = 0; i < lines; ++i) order[i] = i;
        std::shuffle(order.begin() + 1, order.end(), rng);
        std::vector<unsigned> next(size_t(lines) * LINE, 0);
        for (unsigned i = 0; i < lines; ++i) next[size_t(order[i]) * LINE] = order[(i + 1) % lines] * LINE;
        unsigned *d_next, *d_sink;
        CHECK(cudaMalloc(&d_next, next.size() * sizeof(unsigned)));
        CHECK(cudaMalloc(&d_sink, size_t(sms) * warps_per_sm * sizeof(unsigned)));
        CHECK(cudaMemcpy(d_next, next.data(), next.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
        cudaEvent_t a, b;
        CHECK(cudaEventCreate(&a));
        CHECK(cudaEventCreate(&b));
        struct Mode { const char* name; int blocks, threads; bool chains_all; } modes[] = {
            {"idle", 1, 32, false}, {"loaded", sms * warps_per_sm / 32, 1024, true}};
        for (const Mode& m : modes) {
            const int chains = m.blocks * m.threads / 32;
            const unsigned stride = lines / chains > 0 ? lines / chains : 1;   // chains start spread over the cycle
            const int steps = 20000;
            // warm: lines, TLB.  Alone, the whole cycle where it fits in L2 (timed from the same start), and
            // none past it (a bare chase from one start touches lines the warm-up would have left in L2)
            const int warm = m.chains_all ? steps : (bytes <= (64u << 20) ? int(lines) : 0);
            if (warm) chase<<<m.blocks, m.threads>>>(d_next, lines, stride, warm, d_sink);
            else CHECK(cudaMemset(d_flush, 1, flush_bytes));   // evicts the copy's lines from L2
            CHECK(cudaEventRecord(a));
            chase<<<m.blocks, m.threads>>>(d_next, lines, stride, steps, d_sink);
            CHECK(cudaEventRecord(b));
            CHECK(cudaEventSynchronize(b));
            float ms = 0;
            CHECK(cudaEventElapsedTime(&ms, a, b));
            const double ns = ms * 1e6 / steps;
            printf("%zu,%s,%d,%.1f,%.0f\n", bytes, m.name, chains, ns, ns * clock_khz * 1e-6);
        }
        CHECK(cudaFree(d_next));
        CHECK(cudaFree(d_sink));
    }
    return 0;
}
