// launch: grid=128 block=512
#define RB 512

__global__ void normalize_rows(float* x, int cols)
{
    __shared__ float red[RB];
    float* row = x + (size_t)blockIdx.x * cols;
    float sum = 0.0f;
    for (int c = threadIdx.x; c < cols; c += RB)
        sum += row[c];
    red[threadIdx.x] = sum;
    for (int s = RB / 2; s > 0; s >>= 1) {
        __syncthreads();
        if (threadIdx.x < s)
            red[threadIdx.x] += red[threadIdx.x + s];
    }
    float total = red[0];
    for (int c = threadIdx.x; c < cols; c += RB)
        row[c] /= total;
}
