#include <stdio.h>
#include <stdint.h>
#include "wavelet_common.cuh"

/* colour conversion and level shifting before the transform */
template <typename T>
__global__ void rgb_to_planes(const unsigned char *rgb, T *r, T *g, T *b, int pixels, int shift)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < pixels) {
		r[i] = (T)rgb[3 * i + 0] - (T)shift;
		g[i] = (T)rgb[3 * i + 1] - (T)shift;
		b[i] = (T)rgb[3 * i + 2] - (T)shift;
	}
}

template <typename T>
__global__ void planes_to_rgb(const T *r, const T *g, const T *b, unsigned char *rgb, int pixels, int shift)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < pixels) {
		T v[3] = {r[i], g[i], b[i]};
#pragma unroll
		for (int c = 0; c < 3; c++) {
			int q = (int)(v[c] + (T)shift);
			rgb[3 * i + c] = (unsigned char)(q < 0 ? 0 : (q > 255 ? 255 : q));
		}
	}
}

template <typename T>
__global__ void level_shift(T *plane, int pixels, T amount)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < pixels; i += blockDim.x * gridDim.x)
		plane[i] += amount;
}

__global__ void rgb_to_ycbcr(float *r, float *g, float *b, int pixels)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= pixels)
		return;
	float R = r[i], G = g[i], B = b[i];
	r[i] = 0.299f * R + 0.587f * G + 0.114f * B;
	g[i] = -0.16875f * R - 0.33126f * G + 0.5f * B;
	b[i] = 0.5f * R - 0.41869f * G - 0.08131f * B;
}

template <typename T>
void split_components(const unsigned char *d_rgb, T *d_r, T *d_g, T *d_b, int pixels)
{
	int threads = 256;
	int blocks = (pixels + threads - 1) / threads;
	rgb_to_planes<T><<<blocks, threads>>>(d_rgb, d_r, d_g, d_b, pixels, 128);
	level_shift<T><<<blocks, threads>>>(d_r, pixels, (T)0);
	planes_to_rgb<T><<<blocks, threads>>>(d_r, d_g, d_b, (unsigned char *)d_rgb, pixels, 128);
}

template void split_components<float>(const unsigned char *, float *, float *, float *, int);
template void split_components<int>(const unsigned char *, int *, int *, int *, int);
