#include "wavelet_common.cuh"

namespace dwt {

/* one block per row segment; WIN samples per block, one sample pair per thread */
template <int WIN>
__global__ void fdwt53_rows(const float *in, float *out, int sx, int sy)
{
	__shared__ SharedRow<WIN, 2> row;
	const int y = blockIdx.y;
	const int x0 = blockIdx.x * WIN;
	for (int i = threadIdx.x; i < WIN && x0 + i < sx; i += blockDim.x)
		row[i] = in[y * sx + x0 + i];
	__syncthreads();
	row.mirror(min(WIN, sx - x0));
	__syncthreads();
	const int p = 2 * threadIdx.x + 1;
	if (p < WIN) {
		float odd = row[p];
		lift53<true>(odd, row[p - 1], row[p + 1]);
		row[p] = odd;
	}
	__syncthreads();
	const int e = 2 * threadIdx.x;
	if (e < WIN) {
		row[e] += 0.25f * (row[e - 1] + row[e + 1]);
		out[y * sx + (x0 + e) / 2] = row[e];
		if (e + 1 < WIN)
			out[y * sx + sx / 2 + (x0 + e) / 2] = row[e + 1];
	}
}

template <int WIN>
__global__ void fdwt53_cols(const float *in, float *out, int sx, int sy)
{
	const int x = blockIdx.x * blockDim.x + threadIdx.x;
	if (x >= sx)
		return;
	for (int y = 1; y < sy; y += 2) {
		const float up = in[(y - 1) * sx + x];
		const float down = in[clamp_index(y + 1, sy) * sx + x];
		float odd = in[y * sx + x];
		lift53<true>(odd, up, down);
		out[(sy / 2 + y / 2) * sx + x] = odd;
	}
	for (int y = 0; y < sy; y += 2) {
		const float lo = y > 0 ? out[(sy / 2 + (y - 1) / 2) * sx + x] : 0.0f;
		const float hi = y + 1 < sy ? out[(sy / 2 + y / 2) * sx + x] : 0.0f;
		out[(y / 2) * sx + x] = in[y * sx + x] + 0.25f * (lo + hi);
	}
}

template <int WIN, bool SCALE>
__global__ void __launch_bounds__(WIN / 2)
fdwt97_rows(const float *in, float *out, int sx, int sy)
{
	__shared__ SharedRow<WIN, 4> row;
	const int y = blockIdx.y;
	const int x0 = blockIdx.x * WIN;
	for (int i = threadIdx.x; i < WIN && x0 + i < sx; i += blockDim.x)
		row[i] = in[y * sx + x0 + i];
	__syncthreads();
	row.mirror(min(WIN, sx - x0));
	__syncthreads();
	const int p = 2 * threadIdx.x + 1;
	const int e = 2 * threadIdx.x;
	if (p < WIN) row[p] += k97_alpha * (row[p - 1] + row[p + 1]);
	__syncthreads();
	if (e < WIN) row[e] += k97_beta * (row[e - 1] + row[e + 1]);
	__syncthreads();
	if (p < WIN) row[p] += k97_gamma * (row[p - 1] + row[p + 1]);
	__syncthreads();
	if (e < WIN) row[e] += k97_delta * (row[e - 1] + row[e + 1]);
	__syncthreads();
	if (e < WIN) {
		float lo = row[e], hi = (e + 1 < WIN) ? row[e + 1] : 0.0f;
		if (SCALE) {
			lo *= k97_scale;
			hi /= k97_scale;
		}
		out[y * sx + (x0 + e) / 2] = lo;
		out[y * sx + sx / 2 + (x0 + e) / 2] = hi;
	}
}

template <bool SCALE>
__global__ void fdwt97_cols(float *data, int sx, int sy)
{
	const int x = blockIdx.x * blockDim.x + threadIdx.x;
	if (x >= sx)
		return;
	const float coef[4] = {k97_alpha, k97_beta, k97_gamma, k97_delta};
#pragma unroll
	for (int step = 0; step < 4; ++step) {
		for (int y = (step & 1) ? 0 : 1; y < sy; y += 2) {
			const float a = data[clamp_index(y - 1, sy) * sx + x];
			const float b = data[clamp_index(y + 1, sy) * sx + x];
			data[y * sx + x] += coef[step] * (a + b);
		}
	}
	if (SCALE) {
		for (int y = 0; y < sy; ++y)
			data[y * sx + x] *= (y & 1) ? 1.0f / k97_scale : k97_scale;
	}
}

void forward53(const float *d_in, float *d_tmp, float *d_out, int sx, int sy)
{
	dim3 grid_rows((sx + 127) / 128, sy);
	fdwt53_rows<128><<<grid_rows, 64>>>(d_in, d_tmp, sx, sy);
	fdwt53_cols<128><<<(sx + 127) / 128, 128>>>(d_tmp, d_out, sx, sy);
}

void forward97(const float *d_in, float *d_out, int sx, int sy, bool scale)
{
	dim3 grid_rows((sx + 255) / 256, sy);
	if (scale) {
		fdwt97_rows<256, true><<<grid_rows, 128>>>(d_in, d_out, sx, sy);
		fdwt97_cols<true><<<(sx + 127) / 128, 128>>>(d_out, sx, sy);
	} else {
		fdwt97_rows<256, false><<<grid_rows, 128>>>(d_in, d_out, sx, sy);
		fdwt97_cols<false><<<(sx + 127) / 128, 128>>>(d_out, sx, sy);
	}
}

}  // namespace dwt
