// launch: grid=128 block=128
#define THREADS 128

struct Pair {
    float a;
    float b;
};

__global__ void interleave(const Pair* in, float* out)
{
    __shared__ float s[2 * THREADS + 2];
    int t = threadIdx.x;
    Pair p = in[blockIdx.x * THREADS + t];
    s[2 * t] = p.a;
    s[2 * t + 2] = p.b;
    __syncthreads();
    out[blockIdx.x * 2 * THREADS + t] = s[t];
    out[blockIdx.x * 2 * THREADS + THREADS + t] = s[t + THREADS];
}
