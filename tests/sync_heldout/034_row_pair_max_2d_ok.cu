// launch: grid=32x32 block=16x16
// w = 512
__global__ void row_pair_max(const int* img, int* out, int w)
{
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    int v = img[y * w + x];
    int o = __shfl_xor_sync(0xffffffffu, v, 8);
    if (threadIdx.x < 8)
        v = max(v, o);
    out[y * w + x] = v;
}
