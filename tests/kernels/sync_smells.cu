__global__ void bad(float* a, float* sum) {
    __shared__ float s[256];
    int t = threadIdx.x;
    if (t < 16) {
        s[t] = a[t];
        __syncthreads();
    }
    a[t] = s[255 - t];
    __syncthreads();
    __syncthreads();
    atomicAdd(&sum[0], a[t]);
    __syncthreads();
}
__global__ void good(float* a, float* sum) {
    __shared__ float s[256];
    int t = threadIdx.x;
    if (t < 16) s[t] = a[t];
    __syncthreads();
    a[t] = s[255 - t];
    atomicAdd(&sum[blockIdx.x * blockDim.x + t], a[t]);
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
    C[threadIdx.x] = acc;
}
