// Validation set: shared-memory transposes (16x16 and 32x32 tiles, padded and
// not, static and dynamic shared memory), a 1-D stencil with halo loads into
// shared memory, a 2-D Jacobi step on a shared tile, and a 3-D 7-point stencil.
constexpr int T16 = 16;

// rows x cols row-major src -> cols x rows dst, one element per thread, 16x16 blocks.
template <int PAD>
__global__ void transpose16(const float* __restrict__ src, float* __restrict__ dst, int rows, int cols)
{
    __shared__ float tile[T16][T16 + PAD];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int c = blockIdx.x * T16 + tx;
    const int r = blockIdx.y * T16 + ty;
    tile[ty][tx] = src[(size_t)r * cols + c];
    __syncthreads();
    const int oc = blockIdx.y * T16 + tx;   // column of dst = row of src
    const int orow = blockIdx.x * T16 + ty; // row of dst = column of src
    dst[(size_t)orow * rows + oc] = tile[tx][ty];
}

// 32x32 tile in dynamic shared memory with a padded row length of 33 floats.
__global__ void transpose32_dyn(const float* in, float* out, int rows, int cols)
{
    extern __shared__ float smem[];
    const int ld = 32 + 1;
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    smem[threadIdx.y * ld + threadIdx.x] = in[y * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    out[y * rows + x] = smem[threadIdx.x * ld + threadIdx.y];
}

constexpr int RAD = 3;

// 7-point 1-D stencil; in holds n + 2*RAD elements (out[g] is centred on in[g + RAD]).
template <int BLOCK>
__global__ void stencil7_smem(const float* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float s[BLOCK + 2 * RAD];
    const int g = blockIdx.x * BLOCK + threadIdx.x;
    const int l = threadIdx.x + RAD;
    s[l] = in[g + RAD];
    if (threadIdx.x < RAD) {
        s[l - RAD] = in[g];
        s[l + BLOCK] = in[g + RAD + BLOCK];
    }
    __syncthreads();
    float acc = 0.0f;
#pragma unroll
    for (int k = -RAD; k <= RAD; ++k)
        acc += s[l + k];
    if (g < n)
        out[g] = acc * (1.0f / (2 * RAD + 1));
}

// Jacobi step on an nx x ny interior; in and out are (ny+2) x (nx+2) with a halo ring.
// 16x16 blocks load an 18x18 shared tile (edges loaded by the border threads).
__global__ void jacobi2d_smem(const float* __restrict__ in, float* __restrict__ out, int nx, int ny)
{
    __shared__ float t[T16 + 2][T16 + 2];
    const int pitch = nx + 2;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int gx = blockIdx.x * T16 + tx + 1;
    const int gy = blockIdx.y * T16 + ty + 1;
    t[ty + 1][tx + 1] = in[gy * pitch + gx];
    if (tx == 0)
        t[ty + 1][0] = in[gy * pitch + gx - 1];
    if (tx == T16 - 1)
        t[ty + 1][T16 + 1] = in[gy * pitch + gx + 1];
    if (ty == 0)
        t[0][tx + 1] = in[(gy - 1) * pitch + gx];
    if (ty == T16 - 1)
        t[T16 + 1][tx + 1] = in[(gy + 1) * pitch + gx];
    __syncthreads();
    out[gy * pitch + gx] = 0.25f * (t[ty + 1][tx] + t[ty + 1][tx + 2] + t[ty][tx + 1] + t[ty + 2][tx + 1]);
}

// 7-point Laplacian on an nx x ny x nz grid, boundary cells skipped.
__global__ void stencil7_3d(const float* __restrict__ u, float* __restrict__ v, int nx, int ny, int nz)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    const int k = blockIdx.z * blockDim.z + threadIdx.z;
    if (i < 1 || j < 1 || k < 1 || i >= nx - 1 || j >= ny - 1 || k >= nz - 1)
        return;
    const size_t sxy = (size_t)nx * ny;
    const size_t c = k * sxy + (size_t)j * nx + i;
    v[c] = u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] + u[c - sxy] + u[c + sxy] - 6.0f * u[c];
}
