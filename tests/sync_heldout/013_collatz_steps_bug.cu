// launch: grid=64 block=128
__global__ void collatz_steps(unsigned* out)
{
    unsigned v = blockIdx.x * blockDim.x + threadIdx.x + 1;
    unsigned steps = 0;
    while (v > 1) {
        v = (v & 1u) ? 3u * v + 1u : v >> 1;
        ++steps;
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = steps;
}
