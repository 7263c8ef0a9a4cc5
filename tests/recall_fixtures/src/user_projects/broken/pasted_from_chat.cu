```cuda
// Pasted together from a chat transcript and a README; fences and prompts included.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void chat_vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
```

Then compile it with:

$ nvcc -O3 -arch=sm_90 vector_add.cu -o vector_add
$ ./vector_add

```cuda
__global__ void chat_saxpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];   // `y` is updated in place
}

__global__ void chat_dot(const float *x, const float *y, float *out, int n) {
    __shared__ float cache[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    cache[threadIdx.x] = i < n ? x[i] * y[i] : 0.f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, cache[0]);
}
```
**Note:** the kernel above assumes `blockDim.x == 256` @ all times.

```cpp
__global__ void chat_relu(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = x[i] > 0 ? x[i] : 0; }
__global__ void chat_fill(float *x, float v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = v; }

int main() {
    printf("hello from the README\n");
    return 0;
}
```
Hope this helps! 😊
