// Global accesses whose warps spread over many sectors (strided walks, array-of-structs
// fields, a transpose's column store) and the same work with contiguous warp accesses.

#define DS_FACTOR 32
#define TP_TILE 32
#define TP_ROWS 8
#define FULL_MASK 0xffffffffu

// Box downsampling by DS_FACTOR: each thread averages its own DS_FACTOR consecutive inputs,
// so at every step the lanes of a warp are DS_FACTOR floats apart.
__global__ void downsample_thread_per_output(const float* __restrict__ in, float* __restrict__ out, int n_out)
{
    int o = blockIdx.x * blockDim.x + threadIdx.x;
    if (o < n_out) {
        float s = 0.0f;
        for (int k = 0; k < DS_FACTOR; ++k)
            s += in[o * DS_FACTOR + k];
        out[o] = s * (1.0f / DS_FACTOR);
    }
}

// One warp per output: lane k reads input k of the window, a shuffle tree adds them.
__global__ void downsample_warp_per_output(const float* __restrict__ in, float* __restrict__ out, int n_out)
{
    int lane = threadIdx.x & 31;
    int o = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (o >= n_out)
        return;
    float s = in[o * DS_FACTOR + lane];
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_down_sync(FULL_MASK, s, off);
    if (lane == 0)
        out[o] = s * (1.0f / DS_FACTOR);
}

// Row sums of a row-major rows x cols double matrix, one thread per row: lanes are a whole
// row (cols doubles) apart.
__global__ void row_sums_thread_per_row(const double* __restrict__ A, double* __restrict__ sums,
                                        int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        double s = 0.0;
        for (int c = 0; c < cols; ++c)
            s += A[(size_t)r * cols + c];
        sums[r] = s;
    }
}

__global__ void row_sums_warp_per_row(const double* __restrict__ A, double* __restrict__ sums,
                                      int rows, int cols)
{
    int lane = threadIdx.x & 31;
    int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (r >= rows)
        return;
    double s = 0.0;
    for (int c = lane; c < cols; c += 32)
        s += A[(size_t)r * cols + c];
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_down_sync(FULL_MASK, s, off);
    if (lane == 0)
        sums[r] = s;
}

struct Particle {
    float x, y, z;
    float vx, vy, vz;
    float mass;
    float charge;
};

// Leapfrog push of charged particles in a uniform field, array of 32-byte structs.
__global__ void push_particles_aos(Particle* __restrict__ p, float ex, float ey, float ez, float dt, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float qm = p[i].charge / p[i].mass;
        float vx = p[i].vx + qm * ex * dt;
        float vy = p[i].vy + qm * ey * dt;
        float vz = p[i].vz + qm * ez * dt;
        p[i].vx = vx;
        p[i].vy = vy;
        p[i].vz = vz;
        p[i].x += vx * dt;
        p[i].y += vy * dt;
        p[i].z += vz * dt;
    }
}

// Same push on a structure of arrays.
__global__ void push_particles_soa(float* __restrict__ px, float* __restrict__ py, float* __restrict__ pz,
                                   float* __restrict__ pvx, float* __restrict__ pvy, float* __restrict__ pvz,
                                   const float* __restrict__ mass, const float* __restrict__ charge,
                                   float ex, float ey, float ez, float dt, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float qm = charge[i] / mass[i];
        float vx = pvx[i] + qm * ex * dt;
        float vy = pvy[i] + qm * ey * dt;
        float vz = pvz[i] + qm * ez * dt;
        pvx[i] = vx;
        pvy[i] = vy;
        pvz[i] = vz;
        px[i] += vx * dt;
        py[i] += vy * dt;
        pz[i] += vz * dt;
    }
}

// out (width x height) = transpose of in (height x width), straight from global: the read
// is along a row, the store walks down a column of out.
template <typename T>
__global__ void transpose_direct(const T* __restrict__ in, T* __restrict__ out, int width, int height)
{
    int x = blockIdx.x * TP_TILE + threadIdx.x;
    int y = blockIdx.y * TP_TILE + threadIdx.y;
    for (int j = 0; j < TP_TILE; j += TP_ROWS)
        out[x * height + y + j] = in[(y + j) * width + x];
}

template <typename T>
__global__ void transpose_tiled(const T* __restrict__ in, T* __restrict__ out, int width, int height)
{
    __shared__ T tile[TP_TILE][TP_TILE + 1];
    int x = blockIdx.x * TP_TILE + threadIdx.x;
    int y = blockIdx.y * TP_TILE + threadIdx.y;
    for (int j = 0; j < TP_TILE; j += TP_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    int ox = blockIdx.y * TP_TILE + threadIdx.x;
    int oy = blockIdx.x * TP_TILE + threadIdx.y;
    for (int j = 0; j < TP_TILE; j += TP_ROWS)
        out[(oy + j) * height + ox] = tile[threadIdx.x][threadIdx.y + j];
}

void run_uncoalesced_access(const float* fin, float* fout, const double* dA, double* dsums,
                            Particle* parts, float* px, float* py, float* pz, float* pvx,
                            float* pvy, float* pvz, const float* mass, const float* charge,
                            const int* iin, int* iout)
{
    const int n_out = 1 << 18;
    downsample_thread_per_output<<<n_out / 256, 256>>>(fin, fout, n_out);
    downsample_warp_per_output<<<n_out * 32 / 256, 256>>>(fin, fout, n_out);

    const int rows = 8192;
    const int cols = 1024;
    row_sums_thread_per_row<<<rows / 128, 128>>>(dA, dsums, rows, cols);
    row_sums_warp_per_row<<<rows * 32 / 128, 128>>>(dA, dsums, rows, cols);

    const int n = 1 << 20;
    push_particles_aos<<<n / 256, 256>>>(parts, 0.0f, 0.0f, 1.0f, 1e-3f, n);
    push_particles_soa<<<n / 256, 256>>>(px, py, pz, pvx, pvy, pvz, mass, charge, 0.0f, 0.0f, 1.0f, 1e-3f, n);

    const int width = 4096;
    const int height = 2048;
    dim3 block(TP_TILE, TP_ROWS);
    dim3 grid(width / TP_TILE, height / TP_TILE);
    transpose_direct<int><<<grid, block>>>(iin, iout, width, height);
    transpose_tiled<int><<<grid, block>>>(iin, iout, width, height);
}
