#include <stdio.h>
#include <cuda_runtime.h>

#define MERGE_THREADS 256

static __device__ __forceinline__ float4 sort4(float4 v)
{
	float t;
#define CSWAP(a, b) if (v.a > v.b) { t = v.a; v.a = v.b; v.b = t; }
	CSWAP(x, y) CSWAP(z, w) CSWAP(x, z) CSWAP(y, w) CSWAP(y, z)
#undef CSWAP
	return v;
}

/* sort each float4 in place; the merge passes then combine sorted runs */
__global__ void sort_quads(float4 *result, int listsize)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < listsize)
		result[i] = sort4(result[i]);
}

__global__ void
merge_pass(const float *in, float *out, int n, int width)
{
	int pair = blockIdx.x * blockDim.x + threadIdx.x;
	int lo = pair * 2 * width;
	if (lo >= n)
		return;
	int mid = min(lo + width, n), hi = min(lo + 2 * width, n);
	int a = lo, b = mid, k = lo;
	while (a < mid && b < hi)
		out[k++] = in[a] <= in[b] ? in[a++] : in[b++];
	while (a < mid)
		out[k++] = in[a++];
	while (b < hi)
		out[k++] = in[b++];
}

__global__ void pack_results(const float *sorted, float *dst, const int *starts, const int *sizes, int nbuckets)
{
	int bucket = blockIdx.x;
	if (bucket >= nbuckets)
		return;
	for (int i = threadIdx.x; i < sizes[bucket]; i += blockDim.x)
		dst[starts[bucket] + i] = sorted[starts[bucket] + i];
}

void merge_sort(float *d_a, float *d_b, int n)
{
	sort_quads<<<(n / 4 + MERGE_THREADS - 1) / MERGE_THREADS, MERGE_THREADS>>>((float4 *)d_a, n / 4);
	for (int width = 4; width < n; width *= 2) {
		int pairs = (n + 2 * width - 1) / (2 * width);
		merge_pass<<<(pairs + MERGE_THREADS - 1) / MERGE_THREADS, MERGE_THREADS>>>(d_a, d_b, n, width);
		float *t = d_a;
		d_a = d_b;
		d_b = t;
	}
}
