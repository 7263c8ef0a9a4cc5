// launch: grid=256 block=256
__global__ void smooth(float* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i < n - 1)
        a[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0f;
}
