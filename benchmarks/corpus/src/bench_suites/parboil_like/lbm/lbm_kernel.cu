/* D3Q19 lattice Boltzmann: stream and collide in one pass (pull scheme). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cuda_runtime.h>

#define SIZE_X 120
#define SIZE_Y 120
#define SIZE_Z 150
#define PAD_X 8
#define ROW_X (SIZE_X + PAD_X)
#define OMEGA 1.95f
#define W_REST (1.0f / 3.0f)
#define W_FACE (1.0f / 18.0f)
#define W_EDGE (1.0f / 36.0f)

typedef enum {
	C,
	N,
	S,
	E,
	W,
	T,
	B,
	NE,
	NW,
	SE,
	SW,
	NT,
	NB,
	ST,
	SB,
	ET,
	EB,
	WT,
	WB,
	FLAGS,
	N_ENTRIES
} lbm_entry;

#define CELL_SOLID (1 << 0)
#define CELL_DRIVEN (1 << 1)

/* structure-of-arrays layout: one plane of cells per entry */
#define CELL_AT(x, y, z, e) ((e) * ROW_X * SIZE_Y * SIZE_Z + ((z) * SIZE_Y + (y)) * ROW_X + (x))
#define HALO_CELLS (CELL_AT(0, 0, 2, 0) - CELL_AT(0, 0, 0, 0))

#define OUT_C(g, x, y, z) ((g)[CELL_AT(x, y, z, C)])
#define IN_C(g, x, y, z) ((g)[CELL_AT((x) - (0), (y) - (0), (z) - (0), C)])
#define OUT_N(g, x, y, z) ((g)[CELL_AT(x, y, z, N)])
#define IN_N(g, x, y, z) ((g)[CELL_AT((x) - (0), (y) - (1), (z) - (0), N)])
#define OUT_S(g, x, y, z) ((g)[CELL_AT(x, y, z, S)])
#define IN_S(g, x, y, z) ((g)[CELL_AT((x) - (0), (y) - (-1), (z) - (0), S)])
#define OUT_E(g, x, y, z) ((g)[CELL_AT(x, y, z, E)])
#define IN_E(g, x, y, z) ((g)[CELL_AT((x) - (1), (y) - (0), (z) - (0), E)])
#define OUT_W(g, x, y, z) ((g)[CELL_AT(x, y, z, W)])
#define IN_W(g, x, y, z) ((g)[CELL_AT((x) - (-1), (y) - (0), (z) - (0), W)])
#define OUT_T(g, x, y, z) ((g)[CELL_AT(x, y, z, T)])
#define IN_T(g, x, y, z) ((g)[CELL_AT((x) - (0), (y) - (0), (z) - (1), T)])
#define OUT_B(g, x, y, z) ((g)[CELL_AT(x, y, z, B)])
#define IN_B(g, x, y, z) ((g)[CELL_AT((x) - (0), (y) - (0), (z) - (-1), B)])
#define OUT_NE(g, x, y, z) ((g)[CELL_AT(x, y, z, NE)])
#define IN_NE(g, x, y, z) ((g)[CELL_AT((x) - (1), (y) - (1), (z) - (0), NE)])
#define OUT_NW(g, x, y, z) ((g)[CELL_AT(x, y, z, NW)])
#define IN_NW(g, x, y, z) ((g)[CELL_AT((x) - (-1), (y) - (1), (z) - (0), NW)])
#define OUT_SE(g, x, y, z) ((g)[CELL_AT(x, y, z, SE)])
#define IN_SE(g, x, y, z) ((g)[CELL_AT((x) - (1), (y) - (-1), (z) - (0), SE)])
#define OUT_SW(g, x, y, z) ((g)[CELL_AT(x, y, z, SW)])
#define IN_SW(g, x, y, z) ((g)[CELL_AT((x) - (-1), (y) - (-1), (z) - (0), SW)])
#define OUT_NT(g, x, y, z) ((g)[CELL_AT(x, y, z, NT)])
#define IN_NT(g, x, y, z) ((g)[CELL_AT((x) - (0), (y) - (1), (z) - (1), NT)])
#define OUT_NB(g, x, y, z) ((g)[CELL_AT(x, y, z, NB)])
#define IN_NB(g, x, y, z) ((g)[CELL_AT((x) - (0), (y) - (1), (z) - (-1), NB)])
#define OUT_ST(g, x, y, z) ((g)[CELL_AT(x, y, z, ST)])
#define IN_ST(g, x, y, z) ((g)[CELL_AT((x) - (0), (y) - (-1), (z) - (1), ST)])
#define OUT_SB(g, x, y, z) ((g)[CELL_AT(x, y, z, SB)])
#define IN_SB(g, x, y, z) ((g)[CELL_AT((x) - (0), (y) - (-1), (z) - (-1), SB)])
#define OUT_ET(g, x, y, z) ((g)[CELL_AT(x, y, z, ET)])
#define IN_ET(g, x, y, z) ((g)[CELL_AT((x) - (1), (y) - (0), (z) - (1), ET)])
#define OUT_EB(g, x, y, z) ((g)[CELL_AT(x, y, z, EB)])
#define IN_EB(g, x, y, z) ((g)[CELL_AT((x) - (1), (y) - (0), (z) - (-1), EB)])
#define OUT_WT(g, x, y, z) ((g)[CELL_AT(x, y, z, WT)])
#define IN_WT(g, x, y, z) ((g)[CELL_AT((x) - (-1), (y) - (0), (z) - (1), WT)])
#define OUT_WB(g, x, y, z) ((g)[CELL_AT(x, y, z, WB)])
#define IN_WB(g, x, y, z) ((g)[CELL_AT((x) - (-1), (y) - (0), (z) - (-1), WB)])
#define CELL_FLAGS(g, x, y, z) (*(const unsigned int *)(&(g)[CELL_AT(x, y, z, FLAGS)]))

__global__ void lbm_stream_collide(const float *srcGrid, float *dstGrid)
{
	const int x = threadIdx.x;
	const int y = blockIdx.x;
	const int z = blockIdx.y;
	if (x >= SIZE_X)
		return;
	const float fC = IN_C(srcGrid, x, y, z);
	const float fN = IN_N(srcGrid, x, y, z);
	const float fS = IN_S(srcGrid, x, y, z);
	const float fE = IN_E(srcGrid, x, y, z);
	const float fW = IN_W(srcGrid, x, y, z);
	const float fT = IN_T(srcGrid, x, y, z);
	const float fB = IN_B(srcGrid, x, y, z);
	const float fNE = IN_NE(srcGrid, x, y, z);
	const float fNW = IN_NW(srcGrid, x, y, z);
	const float fSE = IN_SE(srcGrid, x, y, z);
	const float fSW = IN_SW(srcGrid, x, y, z);
	const float fNT = IN_NT(srcGrid, x, y, z);
	const float fNB = IN_NB(srcGrid, x, y, z);
	const float fST = IN_ST(srcGrid, x, y, z);
	const float fSB = IN_SB(srcGrid, x, y, z);
	const float fET = IN_ET(srcGrid, x, y, z);
	const float fEB = IN_EB(srcGrid, x, y, z);
	const float fWT = IN_WT(srcGrid, x, y, z);
	const float fWB = IN_WB(srcGrid, x, y, z);
	float rho = fC + fN + fS + fE + fW + fT + fB + fNE + fNW + fSE + fSW + fNT + fNB + fST + fSB + fET + fEB + fWT + fWB;
	float ux = fE + fNE + fSE + fET + fEB - (fW + fNW + fSW + fWT + fWB);
	float uy = fN + fNE + fNW + fNT + fNB - (fS + fSE + fSW + fST + fSB);
	float uz = fT + fNT + fST + fET + fWT - (fB + fNB + fSB + fEB + fWB);
	ux /= rho;
	uy /= rho;
	uz /= rho;
	const unsigned int flags = CELL_FLAGS(srcGrid, x, y, z);
	if (flags & CELL_DRIVEN) {
		ux = 0.005f;
		uy = 0.002f;
		uz = 0.000f;
	}
	const float u2 = 1.5f * (ux * ux + uy * uy + uz * uz);
	if (flags & CELL_SOLID) {
		OUT_C(dstGrid, x, y, z) = fC;
		OUT_N(dstGrid, x, y, z) = fS;
		OUT_S(dstGrid, x, y, z) = fN;
		OUT_E(dstGrid, x, y, z) = fW;
		OUT_W(dstGrid, x, y, z) = fE;
		OUT_T(dstGrid, x, y, z) = fB;
		OUT_B(dstGrid, x, y, z) = fT;
		OUT_NE(dstGrid, x, y, z) = fSW;
		OUT_NW(dstGrid, x, y, z) = fSE;
		OUT_SE(dstGrid, x, y, z) = fNW;
		OUT_SW(dstGrid, x, y, z) = fNE;
		OUT_NT(dstGrid, x, y, z) = fSB;
		OUT_NB(dstGrid, x, y, z) = fST;
		OUT_ST(dstGrid, x, y, z) = fNB;
		OUT_SB(dstGrid, x, y, z) = fNT;
		OUT_ET(dstGrid, x, y, z) = fWB;
		OUT_EB(dstGrid, x, y, z) = fWT;
		OUT_WT(dstGrid, x, y, z) = fEB;
		OUT_WB(dstGrid, x, y, z) = fET;
		return;
	}
	{ const float cu = 0.0f; OUT_C(dstGrid, x, y, z) = (1.0f - OMEGA) * fC + OMEGA * W_REST * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = uy; OUT_N(dstGrid, x, y, z) = (1.0f - OMEGA) * fN + OMEGA * W_FACE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = -uy; OUT_S(dstGrid, x, y, z) = (1.0f - OMEGA) * fS + OMEGA * W_FACE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = ux; OUT_E(dstGrid, x, y, z) = (1.0f - OMEGA) * fE + OMEGA * W_FACE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = -ux; OUT_W(dstGrid, x, y, z) = (1.0f - OMEGA) * fW + OMEGA * W_FACE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = uz; OUT_T(dstGrid, x, y, z) = (1.0f - OMEGA) * fT + OMEGA * W_FACE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = -uz; OUT_B(dstGrid, x, y, z) = (1.0f - OMEGA) * fB + OMEGA * W_FACE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = ux + uy; OUT_NE(dstGrid, x, y, z) = (1.0f - OMEGA) * fNE + OMEGA * W_EDGE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = -ux + uy; OUT_NW(dstGrid, x, y, z) = (1.0f - OMEGA) * fNW + OMEGA * W_EDGE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = ux + -uy; OUT_SE(dstGrid, x, y, z) = (1.0f - OMEGA) * fSE + OMEGA * W_EDGE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = -ux + -uy; OUT_SW(dstGrid, x, y, z) = (1.0f - OMEGA) * fSW + OMEGA * W_EDGE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = uy + uz; OUT_NT(dstGrid, x, y, z) = (1.0f - OMEGA) * fNT + OMEGA * W_EDGE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = uy + -uz; OUT_NB(dstGrid, x, y, z) = (1.0f - OMEGA) * fNB + OMEGA * W_EDGE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = -uy + uz; OUT_ST(dstGrid, x, y, z) = (1.0f - OMEGA) * fST + OMEGA * W_EDGE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = -uy + -uz; OUT_SB(dstGrid, x, y, z) = (1.0f - OMEGA) * fSB + OMEGA * W_EDGE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = ux + uz; OUT_ET(dstGrid, x, y, z) = (1.0f - OMEGA) * fET + OMEGA * W_EDGE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = ux + -uz; OUT_EB(dstGrid, x, y, z) = (1.0f - OMEGA) * fEB + OMEGA * W_EDGE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = -ux + uz; OUT_WT(dstGrid, x, y, z) = (1.0f - OMEGA) * fWT + OMEGA * W_EDGE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
	{ const float cu = -ux + -uz; OUT_WB(dstGrid, x, y, z) = (1.0f - OMEGA) * fWB + OMEGA * W_EDGE * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
}

__global__ void lbm_init_grid(float *grid)
{
	const int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
	if (x >= SIZE_X)
		return;
	OUT_C(grid, x, y, z) = W_REST;
	OUT_N(grid, x, y, z) = W_FACE;
	OUT_S(grid, x, y, z) = W_FACE;
	OUT_E(grid, x, y, z) = W_FACE;
	OUT_W(grid, x, y, z) = W_FACE;
	OUT_T(grid, x, y, z) = W_FACE;
	OUT_B(grid, x, y, z) = W_FACE;
	OUT_NE(grid, x, y, z) = W_EDGE;
	OUT_NW(grid, x, y, z) = W_EDGE;
	OUT_SE(grid, x, y, z) = W_EDGE;
	OUT_SW(grid, x, y, z) = W_EDGE;
	OUT_NT(grid, x, y, z) = W_EDGE;
	OUT_NB(grid, x, y, z) = W_EDGE;
	OUT_ST(grid, x, y, z) = W_EDGE;
	OUT_SB(grid, x, y, z) = W_EDGE;
	OUT_ET(grid, x, y, z) = W_EDGE;
	OUT_EB(grid, x, y, z) = W_EDGE;
	OUT_WT(grid, x, y, z) = W_EDGE;
	OUT_WB(grid, x, y, z) = W_EDGE;
	*(unsigned int *)(&grid[CELL_AT(x, y, z, FLAGS)]) = 0;
}

__global__ void lbm_mark_obstacles(float *grid, const unsigned char *solid)
{
	const int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
	if (x >= SIZE_X)
		return;
	unsigned int *flag = (unsigned int *)(&grid[CELL_AT(x, y, z, FLAGS)]);
	if (solid[(z * SIZE_Y + y) * SIZE_X + x])
		*flag |= CELL_SOLID;
	if (z < 2 || z >= SIZE_Z - 2)
		*flag |= CELL_DRIVEN;
}

static void stencil_lbm_0(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.2f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static float norm_lbm_1(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void blur_lbm_2(const float *in, float *out, int w, int h)
{
	int x, y, dx, dy;
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			float s = 0.0f;
			int cnt = 0;
			for (dy = -1; dy <= 1; dy++)
				for (dx = -1; dx <= 1; dx++) {
					int xx = x + dx, yy = y + dy;
					if (xx < 0 || yy < 0 || xx >= w || yy >= h)
						continue;
					s += in[yy * w + xx];
					cnt++;
				}
			out[y * w + x] = (float)(s / cnt);
		}
	}
}

static int cmp_lbm_3(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_lbm_3: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void init_lbm_4(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 100) / 1000.0f;
		}
	}
}

static void stencil_lbm_5(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.2f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static float norm_lbm_6(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static float norm_lbm_7(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static int read_lbm_8(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static void mm_lbm_9(const float *A, const float *B, float *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			float acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static double sum_lbm_10(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static double sum_lbm_11(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static void hist_lbm_12(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void mm_lbm_13(const float *A, const float *B, float *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			float acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static double sum_lbm_14(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static int read_lbm_15(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static void hist_lbm_16(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void stencil_lbm_17(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.2f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static double sum_lbm_18(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static double sum_lbm_19(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static float norm_lbm_20(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static int read_lbm_21(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static float norm_lbm_22(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static int read_lbm_23(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static void transpose_lbm_24(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static void init_lbm_25(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 1000) / 100.0f;
		}
	}
}

static double sum_lbm_26(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static void hist_lbm_27(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void init_lbm_28(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 100) / 100.0f;
		}
	}
}

static void stencil_lbm_29(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.2f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static int read_lbm_30(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static void mm_lbm_31(const float *A, const float *B, float *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			float acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static void dump_lbm_32(const char *path, const float *data, int rows, int cols)
{
	FILE *fp;
	int i, j;
	fp = fopen(path, "w");
	if (fp == NULL) {
		fprintf(stderr, "cannot open %s\n", path);
		return;
	}
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++)
			fprintf(fp, "%d %d %g\n", i, j, (double)data[i * cols + j]);
	}
	fclose(fp);
}

static void mm_lbm_33(const float *A, const float *B, float *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			float acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static int read_lbm_34(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static int read_lbm_35(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static void hist_lbm_36(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void transpose_lbm_37(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static void dump_lbm_38(const char *path, const float *data, int rows, int cols)
{
	FILE *fp;
	int i, j;
	fp = fopen(path, "w");
	if (fp == NULL) {
		fprintf(stderr, "cannot open %s\n", path);
		return;
	}
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++)
			fprintf(fp, "%d %d %g\n", i, j, (double)data[i * cols + j]);
	}
	fclose(fp);
}

static int cmp_lbm_39(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_lbm_39: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static int cmp_lbm_40(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_lbm_40: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void stencil_lbm_41(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.2f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static void dump_lbm_42(const char *path, const float *data, int rows, int cols)
{
	FILE *fp;
	int i, j;
	fp = fopen(path, "w");
	if (fp == NULL) {
		fprintf(stderr, "cannot open %s\n", path);
		return;
	}
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++)
			fprintf(fp, "%d %d %g\n", i, j, (double)data[i * cols + j]);
	}
	fclose(fp);
}

static void dump_lbm_43(const char *path, const float *data, int rows, int cols)
{
	FILE *fp;
	int i, j;
	fp = fopen(path, "w");
	if (fp == NULL) {
		fprintf(stderr, "cannot open %s\n", path);
		return;
	}
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++)
			fprintf(fp, "%d %d %g\n", i, j, (double)data[i * cols + j]);
	}
	fclose(fp);
}

static void hist_lbm_44(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static int read_lbm_45(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static void mm_lbm_46(const float *A, const float *B, float *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			float acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static void dump_lbm_47(const char *path, const float *data, int rows, int cols)
{
	FILE *fp;
	int i, j;
	fp = fopen(path, "w");
	if (fp == NULL) {
		fprintf(stderr, "cannot open %s\n", path);
		return;
	}
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++)
			fprintf(fp, "%d %d %g\n", i, j, (double)data[i * cols + j]);
	}
	fclose(fp);
}

static void transpose_lbm_48(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static void stencil_lbm_49(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.2f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static double sum_lbm_50(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static void hist_lbm_51(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void init_lbm_52(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 1000) / 3.0f;
		}
	}
}

static int read_lbm_53(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static void hist_lbm_54(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void mm_lbm_55(const float *A, const float *B, float *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			float acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static void stencil_lbm_56(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.25f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static float norm_lbm_57(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static float norm_lbm_58(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static double sum_lbm_59(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static void stencil_lbm_60(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.125f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static void hist_lbm_61(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void mm_lbm_62(const float *A, const float *B, float *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			float acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static void blur_lbm_63(const float *in, float *out, int w, int h)
{
	int x, y, dx, dy;
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			float s = 0.0f;
			int cnt = 0;
			for (dy = -1; dy <= 1; dy++)
				for (dx = -1; dx <= 1; dx++) {
					int xx = x + dx, yy = y + dy;
					if (xx < 0 || yy < 0 || xx >= w || yy >= h)
						continue;
					s += in[yy * w + xx];
					cnt++;
				}
			out[y * w + x] = (float)(s / cnt);
		}
	}
}

static void dump_lbm_64(const char *path, const float *data, int rows, int cols)
{
	FILE *fp;
	int i, j;
	fp = fopen(path, "w");
	if (fp == NULL) {
		fprintf(stderr, "cannot open %s\n", path);
		return;
	}
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++)
			fprintf(fp, "%d %d %g\n", i, j, (double)data[i * cols + j]);
	}
	fclose(fp);
}

static void transpose_lbm_65(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static int read_lbm_66(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static float norm_lbm_67(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void blur_lbm_68(const float *in, float *out, int w, int h)
{
	int x, y, dx, dy;
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			float s = 0.0f;
			int cnt = 0;
			for (dy = -1; dy <= 1; dy++)
				for (dx = -1; dx <= 1; dx++) {
					int xx = x + dx, yy = y + dy;
					if (xx < 0 || yy < 0 || xx >= w || yy >= h)
						continue;
					s += in[yy * w + xx];
					cnt++;
				}
			out[y * w + x] = (float)(s / cnt);
		}
	}
}

static void stencil_lbm_69(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.125f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static void stencil_lbm_70(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.2f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static int read_lbm_71(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static void init_lbm_72(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 1000) / 100.0f;
		}
	}
}

static double sum_lbm_73(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static void hist_lbm_74(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static int cmp_lbm_75(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_lbm_75: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static double sum_lbm_76(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static void dump_lbm_77(const char *path, const float *data, int rows, int cols)
{
	FILE *fp;
	int i, j;
	fp = fopen(path, "w");
	if (fp == NULL) {
		fprintf(stderr, "cannot open %s\n", path);
		return;
	}
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++)
			fprintf(fp, "%d %d %g\n", i, j, (double)data[i * cols + j]);
	}
	fclose(fp);
}

void lbm_run(float *d_src, float *d_dst, const unsigned char *d_solid, int steps)
{
	dim3 block(SIZE_X);
	dim3 grid(SIZE_Y, SIZE_Z);
	lbm_init_grid<<<grid, block>>>(d_src);
	lbm_mark_obstacles<<<grid, block>>>(d_src, d_solid);
	for (int t = 0; t < steps; t++) {
		lbm_stream_collide<<<grid, block>>>(d_src, d_dst);
		float *tmp = d_src;
		d_src = d_dst;
		d_dst = tmp;
	}
}
