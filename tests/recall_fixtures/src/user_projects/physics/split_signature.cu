// Declarations split by the preprocessor: one body, several possible heads.
#include <cuda_runtime.h>

#ifdef DOUBLE_PRECISION
typedef double real;
#else
typedef float real;
#endif

/* one definition whose signature depends on the precision */
#ifdef DOUBLE_PRECISION
__global__ void integrate_positions(double *x, const double *v, double dt, int n)
#else
__global__ void integrate_positions(float *x, const float *v, float dt, int n)
#endif
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += v[i] * dt;
}

/* launch bounds chosen by the build */
__global__ void
#ifdef LARGE_BLOCKS
__launch_bounds__(1024)
#else
__launch_bounds__(256, 4)
#endif
tuned_step(real *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] *= (real)0.99;
}

/* the name itself depends on the version: two textual names, one definition */
__global__ void
#if SOLVER_VERSION >= 2
step_v2
#else
step_v1
#endif
(real *p, const real *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += q[i];
}

/* return type and qualifiers from different branches */
#if defined(USE_STATIC_KERNELS)
static
#endif
__global__ void maybe_static(real *p)
{
    p[threadIdx.x] = (real)0;
}

/* an ordinary kernel to finish */
__global__ void apply_damping(real *v, real k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= k;
}
