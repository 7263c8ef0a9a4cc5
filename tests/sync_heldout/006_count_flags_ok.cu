// launch: grid=64 block=128
__global__ void count_flags(const int* flags, int* per_block)
{
    int t = threadIdx.x;
    int f = flags[blockIdx.x * blockDim.x + t] != 0;
    int c = 0;
    c = __syncthreads_count(f);
    if (t == 0)
        per_block[blockIdx.x] = c;
}
