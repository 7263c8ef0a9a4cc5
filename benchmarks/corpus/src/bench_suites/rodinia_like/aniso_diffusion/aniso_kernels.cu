/* Speckle-reducing anisotropic diffusion, written as five small passes. */
#ifndef SRAD_BLOCK
#define SRAD_BLOCK 256
#endif

__global__ void log_compress(long n, float *img)
{
	long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		img[i] = logf(img[i] / 255.0f + 1e-6f);
}

__global__ void exp_decompress(long n, float *img)
{
	long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		img[i] = expf(img[i]) * 255.0f;
}

/* partial sums of the image and of its square, one pair per block */
__global__ void reduce_stats(long n, const float *img, float *sums, float *sums2)
{
	__shared__ float s1[SRAD_BLOCK];
	__shared__ float s2[SRAD_BLOCK];
	long i = (long)blockIdx.x * SRAD_BLOCK + threadIdx.x;
	float v = i < n ? img[i] : 0.0f;
	int s;
	s1[threadIdx.x] = v;
	s2[threadIdx.x] = v * v;
	__syncthreads();
	for (s = SRAD_BLOCK / 2; s > 0; s >>= 1) {
		if (threadIdx.x < s) {
			s1[threadIdx.x] += s1[threadIdx.x + s];
			s2[threadIdx.x] += s2[threadIdx.x + s];
		}
		__syncthreads();
	}
	if (threadIdx.x == 0) {
		sums[blockIdx.x] = s1[0];
		sums2[blockIdx.x] = s2[0];
	}
}

__global__ void
diffusion_coeff(int rows, int cols, const float *img, float *coef, float *gn, float *gs, float *gw, float *ge, float noise2)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	if (p >= rows * cols)
		return;
	int r = p % rows, c = p / rows;	/* column-major image */
	float here = img[p];
	gn[p] = img[c * rows + max(r - 1, 0)] - here;
	gs[p] = img[c * rows + min(r + 1, rows - 1)] - here;
	gw[p] = img[max(c - 1, 0) * rows + r] - here;
	ge[p] = img[min(c + 1, cols - 1) * rows + r] - here;
	/* normalised gradient magnitude and Laplacian give the local speckle statistic */
	float grad2 = (gn[p] * gn[p] + gs[p] * gs[p] + gw[p] * gw[p] + ge[p] * ge[p]) / (here * here);
	float lap = (gn[p] + gs[p] + gw[p] + ge[p]) / here;
	float q2 = (0.5f * grad2 - 0.0625f * lap * lap) / ((1.0f + 0.25f * lap) * (1.0f + 0.25f * lap));
	float k = 1.0f / (1.0f + (q2 - noise2) / (noise2 * (1.0f + noise2)));
	coef[p] = fminf(fmaxf(k, 0.0f), 1.0f);
}

__global__ void
apply_update(int rows, int cols, float *img, const float *coef, const float *gn, const float *gs,
	     const float *gw, const float *ge, float lambda)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	if (p >= rows * cols)
		return;
	int r = p % rows, c = p / rows;
	float flux = coef[p] * (gn[p] + gw[p]) + coef[c * rows + min(r + 1, rows - 1)] * gs[p] +
		     coef[min(c + 1, cols - 1) * rows + r] * ge[p];
	img[p] += 0.25f * lambda * flux;
}
