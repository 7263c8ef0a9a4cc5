#ifndef WAVELET_COMMON_CUH
#define WAVELET_COMMON_CUH

#include <cuda_runtime.h>

namespace dwt {

/* lifting constants of the two transforms */
constexpr float k97_alpha = -1.586134342f;
constexpr float k97_beta = -0.05298011854f;
constexpr float k97_gamma = 0.8829110762f;
constexpr float k97_delta = 0.4435068522f;
constexpr float k97_scale = 1.149604398f;

template <typename T>
__device__ __forceinline__ T clamp_index(T i, T n)
{
	return i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i);
}

/* A row of samples held in shared memory with mirrored borders. */
template <int WIDTH, int BORDER>
struct SharedRow {
	float data[WIDTH + 2 * BORDER];
	__device__ float &operator[](int i) { return data[i + BORDER]; }
	__device__ void mirror(int n)
	{
		if (threadIdx.x < BORDER) {
			data[BORDER - 1 - threadIdx.x] = data[BORDER + 1 + threadIdx.x];
			data[BORDER + n + threadIdx.x] = data[BORDER + n - 2 - threadIdx.x];
		}
	}
};

/* the predict and update steps of a lifting scheme on even/odd samples */
template <bool FORWARD>
__device__ __forceinline__ void lift53(float &odd, float left_even, float right_even)
{
	if (FORWARD)
		odd -= 0.5f * (left_even + right_even);
	else
		odd += 0.5f * (left_even + right_even);
}

}  // namespace dwt

#endif
