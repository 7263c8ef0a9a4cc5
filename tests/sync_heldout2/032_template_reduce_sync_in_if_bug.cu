// launch: grid=128 block=512
template <unsigned BS, typename T>
__global__ void tree_max(const T* in, T* out) {
    __shared__ T s[BS];
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * BS + tid];
    __syncthreads();
#pragma unroll
    for (unsigned k = BS / 2; k > 0; k >>= 1) {
        if (tid < k) {
            s[tid] = s[tid] > s[tid + k] ? s[tid] : s[tid + k];
            __syncthreads();
        }
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

template __global__ void tree_max<512u, int>(const int*, int*);
