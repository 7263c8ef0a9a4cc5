// Validation set: vector types (int4, short2, uchar4, half2, float2, float4)
// reached through reinterpret_cast or typed pointers, and arrays of structs of
// 8, 12, 16 and 24 bytes with and without __align__.
#include <cuda_fp16.h>

// int data processed 16 bytes at a time.
__global__ void copy_int4_xor(const int* __restrict__ src, int* __restrict__ dst, int n4, int key)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        int4 v = reinterpret_cast<const int4*>(src)[i];
        v.x ^= key; v.y ^= key; v.z ^= key; v.w ^= key;
        reinterpret_cast<int4*>(dst)[i] = v;
    }
}

__global__ void swap_short2(const short2* in, short2* out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const short2 v = in[i];
        out[i] = make_short2(v.y, v.x);
    }
}

// RGBA8 pixels to normalised float4.
__global__ void uchar4_to_float4(const uchar4* __restrict__ pix, float4* __restrict__ out, int npix)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= npix) return;
    const uchar4 p = pix[i];
    const float k = 1.0f / 255.0f;
    out[i] = make_float4(p.x * k, p.y * k, p.z * k, p.w * k);
}

// Every other half2 of a __half array (even pairs only).
__global__ void half2_pick_even(const __half* __restrict__ x, __half2* __restrict__ y, int npairs)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const __half2* x2 = reinterpret_cast<const __half2*>(x);
    if (i < npairs)
        y[i] = __hmul2(x2[2 * i], __float2half2_rn(0.5f));
}

// Interleaved complex numbers stored as float pairs.
__global__ void complex_mul_f2(const float* a, const float* b, float* c, int ncomplex)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < ncomplex) {
        const float2 u = reinterpret_cast<const float2*>(a)[i];
        const float2 v = reinterpret_cast<const float2*>(b)[i];
        reinterpret_cast<float2*>(c)[i] = make_float2(u.x * v.x - u.y * v.y, u.x * v.y + u.y * v.x);
    }
}

// Reads every other float4 (a 32-byte stride between lanes).
__global__ void float4_every_other(const float4* __restrict__ in, float4* __restrict__ out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = in[2 * i];
        out[i] = make_float4(v.w, v.z, v.y, v.x);
    }
}

struct __align__(8) Particle {
    float x;
    float v;
};

// 8-byte aligned struct, read and written whole.
__global__ void particle_step(Particle* ps, float dt, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Particle p = ps[i];
        p.x += dt * p.v;
        ps[i] = p;
    }
}

struct Edge {
    int src;
    int dst;
    float w;
};

// Read-modify-write of one field of a 12-byte struct.
__global__ void edge_scale_w(Edge* edges, float s, int nedges)
{
    const int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e < nedges)
        edges[e].w = s * edges[e].w;
}

struct Quad {
    float a, b, c, d;
};

// 16-byte struct with only 4-byte alignment: four separate field loads.
__global__ void quad_sum(const Quad* __restrict__ q, float* __restrict__ out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const Quad* p = q + i;
        out[i] = p->a + p->b + p->c + p->d;
    }
}

struct Sample {
    double t;
    float v;
    int flags;
    double w;
};

// 24-byte struct (alignment 8).
__global__ void sample_weighted(const Sample* __restrict__ s, double* __restrict__ out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = s[i].t * s[i].w + (double)s[i].v;
}

struct __align__(8) KeyVal {
    int key;
    float val;
};

// Array of structs to two plain arrays.
__global__ void kv_split(const KeyVal* __restrict__ kv, int* __restrict__ keys, float* __restrict__ vals, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const KeyVal e = kv[i];
    keys[i] = e.key;
    vals[i] = e.val;
}
