// launch: grid=128 block=256
__global__ void warp_scan(const int* in, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[i];
    for (int off = 1; off < 32; off <<= 1) {
        if (lane >= off) v += __shfl_up_sync(0xffffffffu, v, off);
    }
    out[i] = v;
}
