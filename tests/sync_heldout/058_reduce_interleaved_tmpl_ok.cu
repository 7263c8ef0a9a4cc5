// launch: grid=64 block=256
template <unsigned BS>
__global__ void reduce_interleaved(const int* in, int* out)
{
    __shared__ int s[BS];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * BS + t];
    __syncthreads();
    for (unsigned st = 1; st < BS; st *= 2) {
        if (t % (2 * st) == 0) {
            s[t] += s[t + st];
        }
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

template __global__ void reduce_interleaved<256>(const int*, int*);
