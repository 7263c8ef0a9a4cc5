// launch: grid=32 block=64
__global__ void warp_tile_transpose(const float* in, float* out)
{
    __shared__ float tile[2][32][33];
    int lane = threadIdx.x & 31;
    int w = threadIdx.x >> 5;
    size_t base = ((size_t)blockIdx.x * 2 + w) * 1024;
    for (int r = 0; r < 32; ++r)
        tile[w][r][lane] = in[base + r * 32 + lane];
    __syncwarp();
    for (int r = 0; r < 32; ++r)
        out[base + r * 32 + lane] = tile[w][lane][r];
}
