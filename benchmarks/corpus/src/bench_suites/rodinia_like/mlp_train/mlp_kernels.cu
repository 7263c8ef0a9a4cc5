#ifndef _MLP_KERNELS_
#define _MLP_KERNELS_

#define TILE 16
#define LEARN_RATE 0.25f
#define MOMENTUM_F 0.6f

/* Weighted sums of a TILE x TILE patch of the weight matrix; the column sums are
 * reduced in shared memory and written per block row. */
__global__ void
hidden_forward_partial(const float *input, float *partial, const float *weights, int in_n, int hid_n)
{
	__shared__ float in_tile[TILE];
	__shared__ float prod[TILE][TILE];
	int by = blockIdx.y;
	int tx = threadIdx.x;
	int ty = threadIdx.y;
	int row = by * TILE + ty + 1;	/* row 0 is the bias unit */
	int col = tx + 1;
	int step;

	if (tx == 0)
		in_tile[ty] = input[row];
	__syncthreads();
	prod[ty][tx] = weights[row * (hid_n + 1) + col] * in_tile[ty];
	__syncthreads();
	for (step = TILE / 2; step > 0; step >>= 1) {
		if (ty < step)
			prod[ty][tx] += prod[ty + step][tx];
		__syncthreads();
	}
	if (ty == 0)
		partial[by * hid_n + tx] = prod[0][tx];
	(void)in_n;
}

__global__ void
apply_weight_delta(const float *delta, int hid_n, const float *ly, int in_n, float *w, float *oldw)
{
	int row = blockIdx.y * TILE + threadIdx.y + 1;
	int col = threadIdx.x + 1;
	int idx = row * (hid_n + 1) + col;
	float dw = LEARN_RATE * delta[col] * ly[row] + MOMENTUM_F * oldw[idx];
	w[idx] += dw;
	oldw[idx] = dw;
	if (row == 1 && threadIdx.y == 0) {
		float db = LEARN_RATE * delta[col] + MOMENTUM_F * oldw[col];
		w[col] += db;
		oldw[col] = db;
	}
	(void)in_n;
}

#endif
