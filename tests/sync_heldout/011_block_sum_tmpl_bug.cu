// launch: grid=64 block=256
template <int BS>
__global__ void block_sum(const float* in, float* out, int n)
{
    __shared__ float s[BS];
    int tid = threadIdx.x;
    int i = blockIdx.x * BS + tid;
    s[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = BS / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

template __global__ void block_sum<256>(const float*, float*, int);
