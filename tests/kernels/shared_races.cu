__global__ void neighbour_no_sync(const float* in, float* out) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    out[blockIdx.x * 256 + t] = s[(t + 1) % 256];
}
__global__ void neighbour_sync(const float* in, float* out) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    out[blockIdx.x * 256 + t] = s[(t + 1) % 256];
}
__global__ void tiled_missing_second(const float* A, float* C, int n) {
    __shared__ float s[256];
    float acc = 0.f;
    for (int k = 0; k < n; k += 256) {
        s[threadIdx.x] = A[k + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < 256; ++j) acc += s[j];
    }
    C[threadIdx.x] = acc;
}
__global__ void tiled_ok(const float* A, float* C, int n) {
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
__global__ void own_slot(float* out) {
    __shared__ float s[256];
    s[threadIdx.x] = threadIdx.x;
    out[threadIdx.x] = s[threadIdx.x] * 2.f;
}
