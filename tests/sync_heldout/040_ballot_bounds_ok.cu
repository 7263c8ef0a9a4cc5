// launch: grid=32 block=256
#define N 5000

__global__ void count_nonzero(const int* x, int* counts)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    unsigned b = __ballot_sync(0xffffffffu, i < N && x[i] != 0);
    if (lane == 0)
        atomicAdd(counts, __popc(b));
}
