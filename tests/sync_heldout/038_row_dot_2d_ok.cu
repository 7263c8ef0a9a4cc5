#include <cuda_runtime.h>
#define ROWS 1024
#define COLS 300

__global__ void row_dot(const float* a, const float* b, float* out, int cols)
{
    __shared__ float part[4][32];
    int lane = threadIdx.x;
    int r = blockIdx.x * blockDim.y + threadIdx.y;
    float acc = 0.0f;
    for (int c = lane; c < cols; c += 32)
        acc += a[r * cols + c] * b[c];
    part[threadIdx.y][lane] = acc;
    __syncwarp();
    for (int off = 16; off > 0; off >>= 1) {
        if (lane < off)
            part[threadIdx.y][lane] += part[threadIdx.y][lane + off];
        __syncwarp();
    }
    if (lane == 0)
        out[r] = part[threadIdx.y][0];
}

int main()
{
    float *a, *b, *out;
    cudaMalloc(&a, ROWS * COLS * sizeof(float));
    cudaMalloc(&b, COLS * sizeof(float));
    cudaMalloc(&out, ROWS * sizeof(float));
    dim3 block(32, 4);
    dim3 grid(ROWS / 4);
    row_dot<<<grid, block>>>(a, b, out, COLS);
    cudaDeviceSynchronize();
    return 0;
}
