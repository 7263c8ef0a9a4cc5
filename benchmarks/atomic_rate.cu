// Throughput of global float atomicAdd (result unused: RED.E.ADD.F32) by address pattern, on one GPU.
// What costmodel/terms.py prices as `atomic_sectors_per_clock`: measured here, not used yet.
//   nvcc -O3 -arch=sm_90 benchmarks/atomic_rate.cu -o atomic_rate && ./atomic_rate > atomic_rate.json
#include <cstdio>
#include <cuda_runtime.h>

// lane l of warp w adds into out[index(i)], i = w * 32 + l, for n updates in a grid-stride loop
template <int KIND>
__global__ void updates(float* out, long long n, long long m) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride) {
        long long at;
        if (KIND == 0) at = i % m;                                        // consecutive: 4 sectors a request
        else if (KIND == 1) at = (i * 2654435761LL) % m;                  // scattered: 32 sectors a request
        else if (KIND == 2) at = (i / 8) % m;                             // 8 lanes per address
        else at = (i / 32) % m;                                           // one address per warp
        atomicAdd(out + at, 1.0f);
    }
}

template <int KIND>
static float run(float* out, long long n, long long m, int blocks) {
    cudaEvent_t a, b;
    cudaEventCreate(&a); cudaEventCreate(&b);
    updates<KIND><<<blocks, 256>>>(out, n, m);          // warm-up
    float best = 1e30f;
    for (int r = 0; r < 5; ++r) {
        cudaEventRecord(a);
        updates<KIND><<<blocks, 256>>>(out, n, m);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms;
        cudaEventElapsedTime(&ms, a, b);
        best = ms < best ? ms : best;
    }
    return best;
}

int main() {
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    int clock_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    const long long n = 1LL << 28;
    float* out;
    cudaMalloc(&out, (1LL << 26) * sizeof(float));
    cudaMemset(out, 0, (1LL << 26) * sizeof(float));
    const int blocks = p.multiProcessorCount * 8;
    const char* names[] = {"consecutive", "scattered", "8_lanes_per_address", "one_address_per_warp"};
    const double sectors_per_request[] = {4.0, 32.0, 1.0, 1.0};
    printf("{\"device\": \"%s\", \"sm_count\": %d, \"clock_khz\": %d, \"updates\": %lld, \"runs\": [\n",
           p.name, p.multiProcessorCount, clock_khz, n);
    const long long ms_[] = {1LL << 20, 1LL << 26};
    bool first = true;
    for (long long m : ms_) {
        for (int kind = 0; kind < 4; ++kind) {
            float ms = kind == 0 ? run<0>(out, n, m, blocks) : kind == 1 ? run<1>(out, n, m, blocks)
                     : kind == 2 ? run<2>(out, n, m, blocks) : run<3>(out, n, m, blocks);
            double requests = (double)n / 32.0;
            double seconds = ms * 1e-3;
            double sectors_per_clock = requests * sectors_per_request[kind] / (seconds * clock_khz * 1e3);
            printf("%s  {\"pattern\": \"%s\", \"footprint_bytes\": %lld, \"ms\": %.4f, \"updates_per_s\": %.4g, "
                   "\"sectors_per_clock\": %.3f}", first ? "" : ",\n", names[kind], m * 4, ms, n / seconds,
                   sectors_per_clock);
            first = false;
        }
    }
    printf("\n], \"error\": \"%s\"}\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
