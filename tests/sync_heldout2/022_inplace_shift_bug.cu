// launch: grid=8 block=256
__global__ void shift_left(float* a, const float* src, float* dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n)
        a[i] = a[i + 1];
}
