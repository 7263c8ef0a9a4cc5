// launch: grid=64 block=256
__global__ void add_block_offsets(int* data, const int* block_sums)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x == 0)
        return;
    int carry = block_sums[blockIdx.x - 1];
    data[i] += carry;
}
