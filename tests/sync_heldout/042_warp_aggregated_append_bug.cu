// launch: grid=64 block=256
__global__ void filter_append(const int* in, int* out, int* count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    if (i & 1) {
        unsigned m = __ballot_sync(0xffffffffu, 1);
        int leader = __ffs(m) - 1;
        int base = 0;
        if (lane == leader)
            base = atomicAdd(count, __popc(m));
        base = __shfl_sync(m, base, leader);
        out[base + __popc(m & ((1u << lane) - 1))] = in[i];
    }
}
