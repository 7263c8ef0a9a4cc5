// launch: grid=16 block=64
__global__ void flag_negative(const float* x, int* flags)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    int any = 0;
    any = __any_sync(0xffffffffu, v < 0.0f);
    if (threadIdx.x & 1)
        flags[i >> 1] = any;
}
