/* Blocked right-looking LU factorisation without pivoting (A = L U, unit lower L).
 * One outer step k factors the diagonal tile, solves the row and column panels,
 * and updates the trailing matrix. */
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 16
#endif

#define AT(m, r, c, ld) ((m)[(r) * (ld) + (c)])

__global__ void
lu_factor_diag(float *a, int n, int k)
{
	__shared__ float t[BLOCK_SIZE][BLOCK_SIZE];
	int tx = threadIdx.x;
	int base = k * BLOCK_SIZE;
	int r, j;

	for (r = 0; r < BLOCK_SIZE; r++)
		t[r][tx] = AT(a, base + r, base + tx, n);
	__syncthreads();

	for (j = 0; j < BLOCK_SIZE - 1; j++) {
		if (tx > j) {
			t[tx][j] /= t[j][j];
		}
		__syncthreads();
		if (tx > j) {
			for (r = j + 1; r < BLOCK_SIZE; r++)
				t[tx][r] -= t[tx][j] * t[j][r];
		}
		__syncthreads();
	}

	for (r = 0; r < BLOCK_SIZE; r++)
		AT(a, base + r, base + tx, n) = t[r][tx];
}

/* blockIdx.x < nb: tile of the U row panel; otherwise a tile of the L column panel */
__global__ void
lu_update_panels(float *a, int n, int k)
{
	__shared__ float diag[BLOCK_SIZE][BLOCK_SIZE];
	__shared__ float pan[BLOCK_SIZE][BLOCK_SIZE];
	int tx = threadIdx.x;
	int nb = n / BLOCK_SIZE - k - 1;
	int base = k * BLOCK_SIZE;
	int is_row = blockIdx.x < nb;
	int off = base + BLOCK_SIZE * (1 + (is_row ? blockIdx.x : blockIdx.x - nb));
	int r, j;

	for (r = 0; r < BLOCK_SIZE; r++) {
		diag[r][tx] = AT(a, base + r, base + tx, n);
		pan[r][tx] = is_row ? AT(a, base + r, off + tx, n) : AT(a, off + r, base + tx, n);
	}
	__syncthreads();

	if (is_row) {
		/* forward substitution with the unit lower triangle: column tx of the panel */
		for (j = 1; j < BLOCK_SIZE; j++)
			for (r = 0; r < j; r++)
				pan[j][tx] -= diag[j][r] * pan[r][tx];
	} else {
		/* solve X U = P for row tx of the panel */
		for (j = 0; j < BLOCK_SIZE; j++) {
			for (r = 0; r < j; r++)
				pan[tx][j] -= pan[tx][r] * diag[r][j];
			pan[tx][j] /= diag[j][j];
		}
	}
	__syncthreads();

	for (r = 0; r < BLOCK_SIZE; r++) {
		if (is_row)
			AT(a, base + r, off + tx, n) = pan[r][tx];
		else
			AT(a, off + r, base + tx, n) = pan[r][tx];
	}
}

__global__ void
lu_update_trailing(float *a, int n, int k)
{
	__shared__ float lcol[BLOCK_SIZE][BLOCK_SIZE];
	__shared__ float urow[BLOCK_SIZE][BLOCK_SIZE];
	int tx = threadIdx.x, ty = threadIdx.y;
	int base = k * BLOCK_SIZE;
	int row = base + BLOCK_SIZE * (blockIdx.y + 1);
	int col = base + BLOCK_SIZE * (blockIdx.x + 1);
	float acc = 0.0f;
	int j;

	lcol[ty][tx] = AT(a, row + ty, base + tx, n);
	urow[ty][tx] = AT(a, base + ty, col + tx, n);
	__syncthreads();
#pragma unroll 4
	for (j = 0; j < BLOCK_SIZE; j++)
		acc += lcol[ty][j] * urow[j][tx];
	AT(a, row + ty, col + tx, n) -= acc;
}
