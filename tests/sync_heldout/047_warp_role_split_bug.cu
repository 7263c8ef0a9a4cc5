// launch: grid=128 block=128
__global__ void producer_consumer(const int* in, int* out)
{
    __shared__ int buf[96];
    int t = threadIdx.x;
    int w = t >> 5;
    int i = blockIdx.x * 128 + t;
    if (w > 0) {
        buf[t - 32] = in[i] * 2;
        __syncthreads();
    }
    if (w > 0)
        out[i] = buf[(t - 31) % 96];
    else
        out[i] = in[i];
}
