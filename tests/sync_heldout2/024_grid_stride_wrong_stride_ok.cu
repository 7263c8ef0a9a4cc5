// launch: grid=8 block=256
__global__ void accumulate(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    for (; i < n; i += stride)
        out[i] += in[i];
}
