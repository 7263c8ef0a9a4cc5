// Kernels spanning the roofline: from pure streaming to dense matrix products.
// Try: cudaperf roofline examples/roofline.cu -o roofline.png
#define TILE 16

__global__ void saxpy(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void polynomial(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i], acc = 0.f;
        for (int k = 0; k < 64; ++k) acc = acc * v + 0.5f;
        y[i] = acc;
    }
}

__global__ void daxpy(const double* x, double* y, double a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void matmul_tiled(const float* A, const float* B, float* C, int N) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.f;
    for (int t = 0; t < N / TILE; ++t) {
        As[threadIdx.y][threadIdx.x] = A[row * N + t * TILE + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * N + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

void run(const float* x, float* y, const double* dx, double* dy, const float* A, const float* B, float* C) {
    const int n = 1 << 24, N = 4096;
    saxpy<<<n / 256, 256>>>(x, y, 2.f, n);
    polynomial<<<n / 256, 256>>>(x, y, n);
    daxpy<<<n / 256, 256>>>(dx, dy, 2.0, n);
    dim3 block(TILE, TILE), grid(N / TILE, N / TILE);
    matmul_tiled<<<grid, block>>>(A, B, C, N);
}
