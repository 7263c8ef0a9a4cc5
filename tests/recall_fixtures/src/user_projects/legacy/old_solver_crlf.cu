/*********************************************************************
 * Solveur itératif -- version GPU (portage 2011, révisé 2014).
 * Auteur : équipe calcul, Université de Génève.  Température en °C.
 * Fichier sauvegardé sous Windows (CRLF), encodage Latin-1.
 *********************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define NB_THREADS	256	/* threads par bloc */

/* noyau « old_matmul_tiled_kernel » : calcul élément par élément */
template <int TILE>
__global__
void
old_matmul_tiled_kernel(
	const float* A,
	const float* B,
	float* C,
	int M,
	int N,
	int K,
	float alpha,
	float beta)
{
	__shared__ float As[TILE][TILE];
	__shared__ float Bs[TILE][TILE];
	const int row = blockIdx.y * TILE + threadIdx.y;
	const int col = blockIdx.x * TILE + threadIdx.x;
	float acc = 0.f;
	for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
		const int ac = t * TILE + threadIdx.x;
		const int br = t * TILE + threadIdx.y;
		As[threadIdx.y][threadIdx.x] = (row < M && ac < K) ? A[row * K + ac] : 0.f;
		Bs[threadIdx.y][threadIdx.x] = (br < K && col < N) ? B[br * N + col] : 0.f;
		__syncthreads();
	#pragma unroll
		for (int k = 0; k < TILE; ++k) {
			acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
		}
		__syncthreads();
	}
	if (row < M && col < N) C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

/* noyau « old_sgd_momentum_kernel » : calcul élément par élément */
__global__ void
old_sgd_momentum_kernel(float* param, const float* grad, float* buf, float lr, float momentum, float dampening, float weight_decay, bool nesterov, int n)
{
	const int tid = blockIdx.x * blockDim.x + threadIdx.x;
	if (tid >= n) return;
	float g = grad[tid] + weight_decay * param[tid];
	float b = momentum * buf[tid] + (1.f - dampening) * g;
	buf[tid] = b;
	if (nesterov) g = g + momentum * b; else g = b;
	param[tid] = param[tid] - lr * g;
}

/* noyau « old_leaky_relu_backward_kernel » : calcul élément par élément */
__global__ void
old_leaky_relu_backward_kernel(const float* grad_output, const float* self, float* grad_input, int n)
{
	const int tid = blockIdx.x * blockDim.x + threadIdx.x;
	if (tid >= n) return;
	const float g = grad_output[tid];
	const float v = self[tid];
	grad_input[tid] = v > 0.f ? g : 0.01f * g;
}

/* noyau « old_adam_step_kernel » : calcul élément par élément */
__global__
void
old_adam_step_kernel(
	float* param,
	const float* grad,
	float* exp_avg,
	float* exp_avg_sq,
	float lr,
	float beta1,
	float beta2,
	float eps,
	float weight_decay,
	int step,
	int n)
{
	int idx = blockIdx.x * blockDim.x + threadIdx.x;
	if (idx < n) {
		float g = grad[idx];
		float w = param[idx];
		if (weight_decay != 0.f) g += weight_decay * w;
		const float m = beta1 * exp_avg[idx] + (1.f - beta1) * g;
		const float v = beta2 * exp_avg_sq[idx] + (1.f - beta2) * g * g;
		exp_avg[idx] = m;
		exp_avg_sq[idx] = v;
		const float mhat = m / (1.f - powf(beta1, static_cast<float>(step)));
		const float vhat = v / (1.f - powf(beta2, static_cast<float>(step)));
		param[idx] = w - lr * mhat / (sqrtf(vhat) + eps);
	}
}

/* noyau « old_erfinv_kernel » : calcul élément par élément */
__global__
void
old_erfinv_kernel(
	const float* __restrict__ input,
	float* __restrict__ output,
	int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
		const float v = input[i];
		output[i] = erfinvf(v);
	}
}

/* noyau « old_bias_add_kernel » : calcul élément par élément */
__global__ void
old_bias_add_kernel(float* out, const float* bias, int channels, int spatial, int n)
{
	int idx = blockIdx.x * blockDim.x + threadIdx.x;
	if (idx < n) {
		const int c = (idx / spatial) % channels;
		out[idx] = out[idx] + bias[c];
	}
}

/* noyau « old_fill_kernel » : calcul élément par élément */
__global__ void
old_fill_kernel(float* out, float value, int n)
{
	int idx = blockIdx.x * blockDim.x + threadIdx.x;
	if (idx < n) {
		out[idx] = value;
	}
}

/* noyau « old_reflection_pad_kernel » : calcul élément par élément */
__global__ void
old_reflection_pad_kernel(const float* __restrict__ in, float* __restrict__ out, int in_w, int out_w, int pad_l, int n)
{
	const int tid = blockIdx.x * blockDim.x + threadIdx.x;
	if (tid >= n) return;
	const int o = tid % out_w;
	const int plane = tid / out_w;
	int j = o - pad_l;
	if (j < 0) j = -j;
	if (j >= in_w) j = 2 * (in_w - 1) - j;
	out[tid] = in[plane * in_w + j];
}

int main(void)
{
	printf("pret\n");
	return 0;
}
