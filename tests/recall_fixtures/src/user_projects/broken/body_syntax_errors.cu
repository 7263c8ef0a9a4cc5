// Work-in-progress kernels that never compiled: the errors are inside the bodies,
// the declarations themselves are intact.
#include <cuda_runtime.h>

__global__ void wip_missing_semicolon(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x
    if (i < n) p[i] = 0.0f;
}

__global__ void wip_missing_operand(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] * ;
}

__global__ void wip_unbalanced_paren(float *p, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x {
        p[i] = sqrtf(p[i]);
    }
}

__global__ void wip_undeclared(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = undefined_helper(p[i], scale_factor);
}

__global__ void wip_python_syntax(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if i < n:
        p[i] = p[i] ** 2;
}

__global__ void wip_stray_else(int *p)
{
    p[0] = 1;
    } else {
    p[0] = 2;
}

__global__ void wip_fine(int *p)
{
    // this one is correct; it sits after the broken ones
    p[threadIdx.x] = threadIdx.x;
}

template <typename T>
__global__ void wip_template_typo(T *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = static_cast<T(p[i] + 1);
}
