/* Sample code written for a CUDA tutorial collection.
 * Provided as-is, without warranty of any kind. */

// Inline PTX: special registers, cache-hinted loads and stores, bit manipulation.
#include <cstdio>
#include <cstdint>

struct __align__(16) particle4 {
    float x, y, z, w;
};

struct __align__(8) packed_pair {
    int key;
    float value;
};

__device__ __forceinline__ unsigned lane_id()
{
    unsigned id;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
    return id;
}

__device__ __forceinline__ unsigned long long global_timer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ float4 ld_nc_v4(const float4 *p)
{
    float4 r;
    asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w)
                 : "l"(p));
    return r;
}

__device__ __forceinline__ void st_cs(float *p, float v)
{
    asm volatile("st.global.cs.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}

__global__ void read_lane_ids(unsigned *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = lane_id();
}

__global__ void time_section(unsigned long long *elapsed, float *sink, int iters)
{
    unsigned long long t0 = global_timer();
    long long c0 = clock64();
    float v = threadIdx.x;
    for (int i = 0; i < iters; ++i) {
        asm volatile("fma.rn.ftz.f32 %0, %0, %1, %2;" : "+f"(v) : "f"(1.0001f), "f"(0.5f));
    }
    long long c1 = clock64();
    if (threadIdx.x == 0) {
        elapsed[2 * blockIdx.x] = global_timer() - t0;
        elapsed[2 * blockIdx.x + 1] = (unsigned long long)(c1 - c0);
    }
    sink[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void streaming_scale(const float4 *__restrict__ in, float *__restrict__ out, float s, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = ld_nc_v4(in + i);
        st_cs(out + 4 * i + 0, v.x * s);
        st_cs(out + 4 * i + 1, v.y * s);
        st_cs(out + 4 * i + 2, v.z * s);
        st_cs(out + 4 * i + 3, v.w * s);
    }
}

__global__ void reduce_with_red(const float *in, float *total, int n)
{
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        v += in[i];
    }
    asm volatile("red.global.add.f32 [%0], %1;" ::"l"(total), "f"(v) : "memory");
}

__global__ void prefetch_then_sum(const float *in, float *out, int n, int distance)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + distance < n) {
        asm volatile("prefetch.global.L2 [%0];" ::"l"(in + i + distance));
    }
    if (i < n) {
        out[i] = in[i] + 1.0f;
    }
}

__global__ void bitfield_ops(const unsigned *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned x = in[i], field, perm, rev;
    asm("bfe.u32 %0, %1, 8, 12;" : "=r"(field) : "r"(x));
    asm("prmt.b32 %0, %1, 0, 0x0123;" : "=r"(perm) : "r"(x));
    asm("brev.b32 %0, %1;" : "=r"(rev) : "r"(x));
    out[i] = field ^ perm ^ rev ^ __popc(x);
}

__global__ void pack_unpack(const packed_pair *in, unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned long long packed;
        asm("mov.b64 %0, {%1, %2};" : "=l"(packed) : "r"(in[i].key), "r"(__float_as_uint(in[i].value)));
        out[i] = packed;
    }
}

__global__ void half_convert_ptx(const float *in, unsigned short *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned short h;
        asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(in[i]));
        out[i] = h;
    }
}

__global__ void vote_ptx(const int *flags, unsigned *ballots)
{
    unsigned b;
    int f = flags[blockIdx.x * blockDim.x + threadIdx.x] != 0;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.s32 p, %1, 0;\n\tvote.sync.ballot.b32 %0, p, 0xffffffff;\n}" : "=r"(b) : "r"(f));
    if (lane_id() == 0) {
        ballots[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = b;
    }
}

__global__ void move_particles(particle4 *p, const particle4 *v, float dt, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        particle4 a = p[i];
        const particle4 b = v[i];
        a.x += b.x * dt;
        a.y += b.y * dt;
        a.z += b.z * dt;
        p[i] = a;
    }
}

__global__ void smem_address_space(unsigned *out)
{
    __shared__ __align__(16) float buf[64];
    unsigned addr;
    asm("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }" : "=r"(addr) : "l"(buf + threadIdx.x));
    out[threadIdx.x] = addr;
}

int main()
{
    unsigned *d_u;
    cudaMalloc(&d_u, 1 << 20);
    read_lane_ids<<<1, 64>>>(d_u);
    smem_address_space<<<1, 64>>>(d_u);
    cudaDeviceSynchronize();
    cudaFree(d_u);
    return 0;
}
