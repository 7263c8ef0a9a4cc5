#define TDIM 32
#define BROWS 8

__global__ void transpose(float* odata, const float* idata, int width, int height) {
    __shared__ float tile[TDIM][TDIM + 1];
    int x = blockIdx.x * TDIM + threadIdx.x;
    int y = blockIdx.y * TDIM + threadIdx.y;
    for (int j = 0; j < TDIM; j += BROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    x = blockIdx.y * TDIM + threadIdx.x;
    y = blockIdx.x * TDIM + threadIdx.y;
    for (int j = 0; j < TDIM; j += BROWS)
        odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

void launch_transpose(float* out, const float* in) {
    const int W = 256, H = 256;
    dim3 grid(W / TDIM, H / TDIM);
    dim3 block(TDIM, BROWS);
    transpose<<<grid, block>>>(out, in, W, H);
}
