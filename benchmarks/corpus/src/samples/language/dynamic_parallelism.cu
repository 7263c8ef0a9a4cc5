/* Sample code written for a CUDA tutorial collection.
 * Provided as-is, without warranty of any kind. */

// Kernels that launch kernels (needs relocatable device code: nvcc -rdc=true).
#include <cstdio>

__global__ void child_fill(int *data, int value, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = value;
}

__global__ void quicksort_level(unsigned *data, int left, int right, int depth)
{
    if (depth > 16 || right - left < 32) {
        for (int i = left + 1; i <= right; ++i) {
            unsigned v = data[i];
            int j = i - 1;
            while (j >= left && data[j] > v) {
                data[j + 1] = data[j];
                --j;
            }
            data[j + 1] = v;
        }
        return;
    }
    unsigned pivot = data[(left + right) / 2];
    int l = left, r = right;
    while (l <= r) {
        while (data[l] < pivot) ++l;
        while (data[r] > pivot) --r;
        if (l <= r) {
            unsigned t = data[l];
            data[l] = data[r];
            data[r] = t;
            ++l;
            --r;
        }
    }
    cudaStream_t s1, s2;
    cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
    if (left < r)
        quicksort_level<<<1, 1, 0, s1>>>(data, left, r, depth + 1);
    if (l < right)
        quicksort_level<<<1, 1, 0, s2>>>(data, l, right, depth + 1);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
}

__global__ void parent_launcher(int *data, int n)
{
    if (threadIdx.x == 0) {
        child_fill<<<(n + 255) / 256, 256>>>(data + blockIdx.x * n, blockIdx.x, n);
    }
}

__global__ void tail_launch(int *counter, int remaining)
{
    atomicAdd(counter, 1);
    if (remaining > 0 && threadIdx.x == 0)
        tail_launch<<<1, 32, 0, cudaStreamTailLaunch>>>(counter, remaining - 1);
}

int main()
{
    int *d;
    cudaMalloc(&d, 1 << 20);
    parent_launcher<<<4, 32>>>(d, 1024);
    quicksort_level<<<1, 1>>>((unsigned *)d, 0, 4095, 0);
    tail_launch<<<1, 32>>>(d, 3);
    cudaDeviceSynchronize();
    cudaFree(d);
    return 0;
}
