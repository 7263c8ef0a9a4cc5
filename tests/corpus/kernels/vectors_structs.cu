// Vector types, structs (AoS vs SoA) and narrow (1- and 2-byte) element types.
#include <cuda_fp16.h>

__global__ void copy_float2(const float2* in, float2* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float2 v = in[i];
        out[i] = make_float2(v.y, v.x);
    }
}

__global__ void copy_float4(const float4* in, float4* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = in[i];
        v.x += 1.0f;
        out[i] = v;
    }
}

__global__ void scale_double(const double* in, double* out, double a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a * in[i];
}

__global__ void copy_double2(const double2* in, double2* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double2 v = in[i];
        out[i] = make_double2(v.x + v.y, v.x - v.y);
    }
}

// Scalar float arrays processed four at a time through reinterpret_cast.
__global__ void scale_vec4(const float* in, float* out, float a, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = reinterpret_cast<const float4*>(in)[i];
        v.x *= a; v.y *= a; v.z *= a; v.w *= a;
        reinterpret_cast<float4*>(out)[i] = v;
    }
}

struct Point3 {
    float x, y, z;
};

struct __align__(16) Point4 {
    float x, y, z, w;
};

// Array of 12-byte structs, only .x is used.
__global__ void aos_read_x(const Point3* pts, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = pts[i].x;
}

// Array of 12-byte structs, all three fields used.
__global__ void aos_norm2(const Point3* pts, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Point3 p = pts[i];
        out[i] = p.x * p.x + p.y * p.y + p.z * p.z;
    }
}

// Array of 16-byte aligned structs, all four fields used.
__global__ void aos16_norm2(const Point4* pts, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Point4 p = pts[i];
        out[i] = p.x * p.x + p.y * p.y + p.z * p.z + p.w * p.w;
    }
}

// Structure of arrays.
__global__ void soa_norm2(const float* xs, const float* ys, const float* zs, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = xs[i];
        float y = ys[i];
        float z = zs[i];
        out[i] = x * x + y * y + z * z;
    }
}

__global__ void copy_u8(const unsigned char* in, unsigned char* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] ^ 0x5a;
}

__global__ void u8_to_float(const unsigned char* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * (1.0f / 255.0f);
}

__global__ void copy_short(const short* in, short* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] + 1;
}

__global__ void half_axpy(const __half* x, __half* y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half ha = __float2half(a);
        y[i] = __hfma(ha, x[i], y[i]);
    }
}

__global__ void half2_scale(const __half2* x, __half2* y, float a, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) {
        __half2 ha = __float2half2_rn(a);
        y[i] = __hmul2(ha, x[i]);
    }
}
