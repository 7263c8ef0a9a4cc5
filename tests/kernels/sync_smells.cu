__global__ void bad(float* a, float* sum) {
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t < 16) {
        s[t] = a[i];
        __syncthreads();
    }
    a[i] = s[255 - t];
    __syncthreads();
    __syncthreads();
    atomicAdd(&sum[0], a[i]);
    __syncthreads();
}
__global__ void good(float* a, float* sum) {
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t < 16) s[t] = a[i];
    __syncthreads();
    a[i] = s[255 - t];
    atomicAdd(&sum[i], a[i]);
}
__global__ void tiled(const float* A, float* C, int n) {
    __shared__ float s[256];
    float acc = 0.f;
    for (int k = 0; k < n; k += 256) {
        s[threadIdx.x] = A[k + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 256; ++j) acc += s[j];
        __syncthreads();
    }
    C[blockIdx.x * 256 + threadIdx.x] = acc;
}
