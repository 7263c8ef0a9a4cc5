#include <cuda_runtime.h>
#define NBINS 256
#define NDATA (1 << 22)

__global__ void histogram(const unsigned char* data, unsigned int* hist, int n)
{
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        hist[data[i]]++;
}

int main()
{
    unsigned char* data;
    unsigned int* hist;
    cudaMalloc(&data, NDATA);
    cudaMalloc(&hist, NBINS * sizeof(unsigned int));
    cudaMemset(data, 7, NDATA);
    cudaMemset(hist, 0, NBINS * sizeof(unsigned int));
    histogram<<<64, 256>>>(data, hist, NDATA);
    cudaDeviceSynchronize();
    return 0;
}
