// Kernels that leave most warp slots of an SM empty (big shared-memory caches, registers
// tied up by a hoisted table) and versions that do the same work with less of the limiter.
#include <cuda_runtime.h>
#include <math.h>

#define NR_ROW 8192
#define NR_BLOCK 128
#define NR_BLOCK_REG 512
#define NR_PER_THREAD (NR_ROW / NR_BLOCK_REG)
#define PC_TERMS 96
#define PC_BLOCK 256
#define SM_BLOCK 256
#define T64 64
#define T64_ROWS 8
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_sum(float v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(FULL_MASK, v, off);
    return v;
}

__device__ __forceinline__ float warp_max(float v)
{
    for (int off = 16; off > 0; off >>= 1)
        v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, off));
    return v;
}

// L2-normalises rows of NR_ROW floats, one 128-thread block per row, keeping the whole row in
// a 32 KB static shared buffer between the two passes.
__global__ void l2_normalize_rows_smem(const float* __restrict__ in, float* __restrict__ out, float eps)
{
    __shared__ float row[NR_ROW];
    __shared__ float part[NR_BLOCK / 32];
    int t = threadIdx.x;
    size_t base = (size_t)blockIdx.x * NR_ROW;
    float ss = 0.0f;
    for (int k = t; k < NR_ROW; k += NR_BLOCK) {
        float v = in[base + k];
        row[k] = v;
        ss += v * v;
    }
    ss = warp_sum(ss);
    if ((t & 31) == 0)
        part[t >> 5] = ss;
    __syncthreads();
    float total = 0.0f;
    for (int w = 0; w < NR_BLOCK / 32; ++w)
        total += part[w];
    float inv = rsqrtf(total + eps);
    for (int k = t; k < NR_ROW; k += NR_BLOCK)
        out[base + k] = row[k] * inv;
}

// Same normalisation with 512 threads per row and the row held in registers (16 per thread).
__global__ void l2_normalize_rows_regs(const float* __restrict__ in, float* __restrict__ out, float eps)
{
    __shared__ float part[NR_BLOCK_REG / 32];
    int t = threadIdx.x;
    size_t base = (size_t)blockIdx.x * NR_ROW;
    float v[NR_PER_THREAD];
    float ss = 0.0f;
#pragma unroll
    for (int k = 0; k < NR_PER_THREAD; ++k) {
        v[k] = in[base + k * NR_BLOCK_REG + t];
        ss += v[k] * v[k];
    }
    ss = warp_sum(ss);
    if ((t & 31) == 0)
        part[t >> 5] = ss;
    __syncthreads();
    float total = 0.0f;
    for (int w = 0; w < NR_BLOCK_REG / 32; ++w)
        total += part[w];
    float inv = rsqrtf(total + eps);
#pragma unroll
    for (int k = 0; k < NR_PER_THREAD; ++k)
        out[base + k * NR_BLOCK_REG + t] = v[k] * inv;
}

// Degree-95 polynomial (Horner) over a grid-stride loop; the 96 coefficients are hoisted
// into a register array before the loop, so every thread holds all of them.
__global__ void poly96_coeffs_in_registers(const float* __restrict__ coef, const float* __restrict__ x,
                                           float* __restrict__ y, int n)
{
    float c[PC_TERMS];
#pragma unroll
    for (int k = 0; k < PC_TERMS; ++k)
        c[k] = coef[k];
    for (int i = blockIdx.x * PC_BLOCK + threadIdx.x; i < n; i += gridDim.x * PC_BLOCK) {
        float xv = x[i];
        float acc = c[PC_TERMS - 1];
#pragma unroll
        for (int k = PC_TERMS - 2; k >= 0; --k)
            acc = acc * xv + c[k];
        y[i] = acc;
    }
}

__constant__ float c_poly96[PC_TERMS];

// Same polynomial with the coefficients in constant memory: every lane reads the same
// coefficient, served as an FFMA operand from the constant cache.
__global__ void poly96_coeffs_constant(const float* __restrict__ x, float* __restrict__ y, int n)
{
    for (int i = blockIdx.x * PC_BLOCK + threadIdx.x; i < n; i += gridDim.x * PC_BLOCK) {
        float xv = x[i];
        float acc = c_poly96[PC_TERMS - 1];
#pragma unroll
        for (int k = PC_TERMS - 2; k >= 0; --k)
            acc = acc * xv + c_poly96[k];
        y[i] = acc;
    }
}

// Row softmax, one 256-thread block per row of `cols` floats; the row is cached in dynamic
// shared memory (cols * 4 bytes) across the max, exp-sum and scale passes.
__global__ void softmax_rows_smem(const float* __restrict__ in, float* __restrict__ out, int cols)
{
    extern __shared__ float row[];
    __shared__ float red[SM_BLOCK / 32];
    int t = threadIdx.x;
    int lane = t & 31;
    int warp = t >> 5;
    size_t base = (size_t)blockIdx.x * cols;
    float m = -INFINITY;
    for (int c = t; c < cols; c += SM_BLOCK) {
        float v = in[base + c];
        row[c] = v;
        m = fmaxf(m, v);
    }
    m = warp_max(m);
    if (lane == 0)
        red[warp] = m;
    __syncthreads();
    m = red[0];
    for (int w = 1; w < SM_BLOCK / 32; ++w)
        m = fmaxf(m, red[w]);
    __syncthreads();
    float s = 0.0f;
    for (int c = t; c < cols; c += SM_BLOCK) {
        float e = __expf(row[c] - m);
        row[c] = e;
        s += e;
    }
    s = warp_sum(s);
    if (lane == 0)
        red[warp] = s;
    __syncthreads();
    float total = 0.0f;
    for (int w = 0; w < SM_BLOCK / 32; ++w)
        total += red[w];
    float inv = 1.0f / total;
    for (int c = t; c < cols; c += SM_BLOCK)
        out[base + c] = row[c] * inv;
}

// Online softmax: one pass keeps a running max and rescaled sum per thread, the second pass
// re-reads the row from global memory; no row cache.
__global__ void softmax_rows_online(const float* __restrict__ in, float* __restrict__ out, int cols)
{
    __shared__ float red_m[SM_BLOCK / 32];
    __shared__ float red_s[SM_BLOCK / 32];
    int t = threadIdx.x;
    int lane = t & 31;
    int warp = t >> 5;
    size_t base = (size_t)blockIdx.x * cols;
    float m = -INFINITY;
    float s = 0.0f;
    for (int c = t; c < cols; c += SM_BLOCK) {
        float v = in[base + c];
        float nm = fmaxf(m, v);
        s = s * __expf(m - nm) + __expf(v - nm);
        m = nm;
    }
    for (int off = 16; off > 0; off >>= 1) {
        float om = __shfl_xor_sync(FULL_MASK, m, off);
        float os = __shfl_xor_sync(FULL_MASK, s, off);
        float nm = fmaxf(m, om);
        s = s * __expf(m - nm) + os * __expf(om - nm);
        m = nm;
    }
    if (lane == 0) {
        red_m[warp] = m;
        red_s[warp] = s;
    }
    __syncthreads();
    float gm = red_m[0];
    for (int w = 1; w < SM_BLOCK / 32; ++w)
        gm = fmaxf(gm, red_m[w]);
    float gs = 0.0f;
    for (int w = 0; w < SM_BLOCK / 32; ++w)
        gs += red_s[w] * __expf(red_m[w] - gm);
    float inv = 1.0f / gs;
    for (int c = t; c < cols; c += SM_BLOCK)
        out[base + c] = __expf(in[base + c] - gm) * inv;
}

// Transpose of an n x n float matrix in 64 x 64 tiles, one warp per block: the padded tile
// (16.6 KB) lets 13 blocks share an SM, which with single-warp blocks is 13 warps.
__global__ void transpose64_one_warp(const float* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float tile[T64][T64 + 1];
    int bx = blockIdx.x * T64;
    int by = blockIdx.y * T64;
    int lane = threadIdx.x;
    for (int r = 0; r < T64; ++r)
        for (int c = lane; c < T64; c += 32)
            tile[r][c] = in[(by + r) * n + bx + c];
    __syncthreads();
    for (int r = 0; r < T64; ++r)
        for (int c = lane; c < T64; c += 32)
            out[(bx + r) * n + by + c] = tile[c][r];
}

// Same tiles with 32 x 8 threads per block.
__global__ void transpose64_eight_warps(const float* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float tile[T64][T64 + 1];
    int bx = blockIdx.x * T64;
    int by = blockIdx.y * T64;
    for (int r = threadIdx.y; r < T64; r += T64_ROWS)
        for (int c = threadIdx.x; c < T64; c += 32)
            tile[r][c] = in[(by + r) * n + bx + c];
    __syncthreads();
    for (int r = threadIdx.y; r < T64; r += T64_ROWS)
        for (int c = threadIdx.x; c < T64; c += 32)
            out[(bx + r) * n + by + c] = tile[c][r];
}

void run_low_occupancy(const float* fin, float* fout, const float* coef, const float* x, float* y)
{
    const int rows = 4096;
    l2_normalize_rows_smem<<<rows, NR_BLOCK>>>(fin, fout, 1e-12f);
    l2_normalize_rows_regs<<<rows, NR_BLOCK_REG>>>(fin, fout, 1e-12f);

    const int n = 1 << 24;
    poly96_coeffs_in_registers<<<1056, PC_BLOCK>>>(coef, x, y, n);
    cudaMemcpyToSymbol(c_poly96, coef, PC_TERMS * sizeof(float), 0, cudaMemcpyDeviceToDevice);
    poly96_coeffs_constant<<<1056, PC_BLOCK>>>(x, y, n);

    const int srows = 2048;
    const int cols = 16384;
    const int smem_bytes = 65536;
    cudaFuncSetAttribute(softmax_rows_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes);
    softmax_rows_smem<<<srows, SM_BLOCK, smem_bytes>>>(fin, fout, cols);
    softmax_rows_online<<<srows, SM_BLOCK>>>(fin, fout, cols);

    const int nt = 4096;
    dim3 tgrid(nt / T64, nt / T64);
    transpose64_one_warp<<<tgrid, 32>>>(fin, fout, nt);
    transpose64_eight_warps<<<tgrid, dim3(32, T64_ROWS)>>>(fin, fout, nt);
}
