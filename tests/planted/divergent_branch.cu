// Branches whose sides split every warp, each side doing real work, and the same jobs
// reorganised so that whole warps agree (or the branch disappears).

#define DB_BLOCK 256
#define DB_HALF (DB_BLOCK / 2)
#define DB_TX 32
#define DB_TY 8
#define DB_PLANES 4
#define DB_TONE_STEPS 8

// Two independent polynomial evaluations: even threads take array a (degree 8), odd threads
// array b (degree 12).  Each block covers DB_HALF elements of each array.
__global__ void poly_pair_by_parity(const float* __restrict__ a, const float* __restrict__ b,
                                    const float* __restrict__ ca, const float* __restrict__ cb,
                                    float* __restrict__ ya, float* __restrict__ yb)
{
    int t = threadIdx.x;
    int j = blockIdx.x * DB_HALF + (t >> 1);
    if (t & 1) {
        float x = b[j];
        float acc = cb[0];
        for (int k = 1; k <= 12; ++k)
            acc = acc * x + cb[k];
        yb[j] = acc;
    } else {
        float x = a[j];
        float acc = ca[0];
        for (int k = 1; k <= 8; ++k)
            acc = acc * x + ca[k];
        ya[j] = acc;
    }
}

__global__ void poly_pair_by_warp(const float* __restrict__ a, const float* __restrict__ b,
                                  const float* __restrict__ ca, const float* __restrict__ cb,
                                  float* __restrict__ ya, float* __restrict__ yb)
{
    int warp = threadIdx.x >> 5;
    int lane = threadIdx.x & 31;
    int j = blockIdx.x * DB_HALF + (warp >> 1) * 32 + lane;
    if (warp & 1) {
        float x = b[j];
        float acc = cb[0];
        for (int k = 1; k <= 12; ++k)
            acc = acc * x + cb[k];
        yb[j] = acc;
    } else {
        float x = a[j];
        float acc = ca[0];
        for (int k = 1; k <= 8; ++k)
            acc = acc * x + ca[k];
        ya[j] = acc;
    }
}

// Complex multiply-accumulate over DB_PLANES planes, split re/im arrays (plane stride n).
// Lanes 0-15 of a warp produce real parts and lanes 16-31 imaginary parts of the same 16
// elements.
__global__ void cmac_split_half_warps(const double* __restrict__ ar, const double* __restrict__ ai,
                                      const double* __restrict__ br, const double* __restrict__ bi,
                                      double* __restrict__ cr, double* __restrict__ ci, int n)
{
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    int k = blockIdx.x * (DB_BLOCK / 2) + warp * 16 + (lane & 15);
    if (lane < 16) {
        double re = 0.0;
        for (int p = 0; p < DB_PLANES; ++p)
            re += ar[p * n + k] * br[p * n + k] - ai[p * n + k] * bi[p * n + k];
        cr[k] = re;
    } else {
        double im = 0.0;
        for (int p = 0; p < DB_PLANES; ++p)
            im += ar[p * n + k] * bi[p * n + k] + ai[p * n + k] * br[p * n + k];
        ci[k] = im;
    }
}

__global__ void cmac_split_warps(const double* __restrict__ ar, const double* __restrict__ ai,
                                 const double* __restrict__ br, const double* __restrict__ bi,
                                 double* __restrict__ cr, double* __restrict__ ci, int n)
{
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    int k = blockIdx.x * (DB_BLOCK / 2) + (warp & 3) * 32 + lane;
    if (warp < 4) {
        double re = 0.0;
        for (int p = 0; p < DB_PLANES; ++p)
            re += ar[p * n + k] * br[p * n + k] - ai[p * n + k] * bi[p * n + k];
        cr[k] = re;
    } else {
        double im = 0.0;
        for (int p = 0; p < DB_PLANES; ++p)
            im += ar[p * n + k] * bi[p * n + k] + ai[p * n + k] * br[p * n + k];
        ci[k] = im;
    }
}

// Tone curve on an RGGB Bayer mosaic: green sites ((x + y) odd) and red/blue sites use
// different gains and curve constants, written out as two copies of the loop.
__global__ void bayer_tone_branchy(const float* __restrict__ raw, float* __restrict__ out, int width,
                                   float gain_g, float gain_rb)
{
    int x = blockIdx.x * DB_TX + threadIdx.x;
    int y = blockIdx.y * DB_TY + threadIdx.y;
    int idx = y * width + x;
    float r = raw[idx];
    float v;
    if ((x + y) & 1) {
        v = r * gain_g;
        for (int s = 0; s < DB_TONE_STEPS; ++s)
            v = v * (1.50f - 0.50f * v * v);
    } else {
        v = r * gain_rb;
        for (int s = 0; s < DB_TONE_STEPS; ++s)
            v = v * (1.25f - 0.25f * v * v);
    }
    out[idx] = v;
}

__global__ void bayer_tone_select(const float* __restrict__ raw, float* __restrict__ out, int width,
                                  float gain_g, float gain_rb)
{
    int x = blockIdx.x * DB_TX + threadIdx.x;
    int y = blockIdx.y * DB_TY + threadIdx.y;
    int idx = y * width + x;
    bool green = ((x + y) & 1) != 0;
    float gain = green ? gain_g : gain_rb;
    float c0 = green ? 1.50f : 1.25f;
    float c1 = green ? 0.50f : 0.25f;
    float v = raw[idx] * gain;
    for (int s = 0; s < DB_TONE_STEPS; ++s)
        v = v * (c0 - c1 * v * v);
    out[idx] = v;
}

template <int TERMS>
__device__ double exp_series(double x)
{
    double term = 1.0, sum = 1.0;
    for (int k = 1; k < TERMS; ++k) {
        term *= x / k;
        sum += term;
    }
    return sum;
}

template <int TERMS>
__device__ double sin_series(double x)
{
    double term = x, sum = x, x2 = x * x;
    for (int k = 1; k < TERMS; ++k) {
        term *= -x2 / ((2 * k) * (2 * k + 1));
        sum += term;
    }
    return sum;
}

template <int TERMS>
__device__ double cos_series(double x)
{
    double term = 1.0, sum = 1.0, x2 = x * x;
    for (int k = 1; k < TERMS; ++k) {
        term *= -x2 / ((2 * k - 1) * (2 * k));
        sum += term;
    }
    return sum;
}

template <int TERMS>
__device__ double sinh_series(double x)
{
    double term = x, sum = x, x2 = x * x;
    for (int k = 1; k < TERMS; ++k) {
        term *= x2 / ((2 * k) * (2 * k + 1));
        sum += term;
    }
    return sum;
}

// Four series on four arrays; thread t handles array (t & 3), element t >> 2 of the block's
// 64.  Every warp runs all four series.
template <int TERMS>
__global__ void series_by_lane_mod4(const double* __restrict__ x0, const double* __restrict__ x1,
                                    const double* __restrict__ x2, const double* __restrict__ x3,
                                    double* __restrict__ y0, double* __restrict__ y1,
                                    double* __restrict__ y2, double* __restrict__ y3)
{
    int t = threadIdx.x;
    int j = blockIdx.x * (DB_BLOCK / 4) + (t >> 2);
    int r = t & 3;
    if (r == 0)
        y0[j] = exp_series<TERMS>(x0[j]);
    else if (r == 1)
        y1[j] = sin_series<TERMS>(x1[j]);
    else if (r == 2)
        y2[j] = cos_series<TERMS>(x2[j]);
    else
        y3[j] = sinh_series<TERMS>(x3[j]);
}

template <int TERMS>
__global__ void series_by_warp_mod4(const double* __restrict__ x0, const double* __restrict__ x1,
                                    const double* __restrict__ x2, const double* __restrict__ x3,
                                    double* __restrict__ y0, double* __restrict__ y1,
                                    double* __restrict__ y2, double* __restrict__ y3)
{
    int warp = threadIdx.x >> 5;
    int lane = threadIdx.x & 31;
    int j = blockIdx.x * (DB_BLOCK / 4) + (warp >> 2) * 32 + lane;
    int r = warp & 3;
    if (r == 0)
        y0[j] = exp_series<TERMS>(x0[j]);
    else if (r == 1)
        y1[j] = sin_series<TERMS>(x1[j]);
    else if (r == 2)
        y2[j] = cos_series<TERMS>(x2[j]);
    else
        y3[j] = sinh_series<TERMS>(x3[j]);
}

void run_divergent_branch(const float* fa, const float* fb, const float* ca, const float* cb,
                          float* fya, float* fyb, const double* d0, const double* d1,
                          const double* d2, const double* d3, double* e0, double* e1,
                          double* e2, double* e3)
{
    const int n = 1 << 22;
    poly_pair_by_parity<<<n / DB_HALF, DB_BLOCK>>>(fa, fb, ca, cb, fya, fyb);
    poly_pair_by_warp<<<n / DB_HALF, DB_BLOCK>>>(fa, fb, ca, cb, fya, fyb);

    const int nc = 1 << 20;
    cmac_split_half_warps<<<nc / (DB_BLOCK / 2), DB_BLOCK>>>(d0, d1, d2, d3, e0, e1, nc);
    cmac_split_warps<<<nc / (DB_BLOCK / 2), DB_BLOCK>>>(d0, d1, d2, d3, e0, e1, nc);

    const int width = 4096;
    const int height = 4096;
    dim3 block(DB_TX, DB_TY);
    dim3 grid(width / DB_TX, height / DB_TY);
    bayer_tone_branchy<<<grid, block>>>(fa, fya, width, 1.8f, 1.2f);
    bayer_tone_select<<<grid, block>>>(fa, fya, width, 1.8f, 1.2f);

    const int ns = 1 << 20;
    series_by_lane_mod4<12><<<ns / (DB_BLOCK / 4), DB_BLOCK>>>(d0, d1, d2, d3, e0, e1, e2, e3);
    series_by_warp_mod4<12><<<ns / (DB_BLOCK / 4), DB_BLOCK>>>(d0, d1, d2, d3, e0, e1, e2, e3);
}
