// launch: grid=64 block=256
template <int BS>
__global__ void block_sum(const int* __restrict__ in, int* __restrict__ out) {
    __shared__ int sdata[BS];
    unsigned tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * BS + tid];
    for (unsigned s = BS / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

template __global__ void block_sum<256>(const int*, int*);
