#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define NUM_BUCKETS 1024
#define SHARED_COUNTS 1
#define BUCKET_THREADS 512

/* pivots arrive in constant memory, sorted */
__constant__ float c_splitters[NUM_BUCKETS];

__device__ int bucket_of(float v)
{
	int lo = 0, hi = NUM_BUCKETS - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) >> 1;
		if (c_splitters[mid] <= v)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

__global__ void count_buckets(const float *input, int *slot, unsigned int *block_counts, int size)
{
#if SHARED_COUNTS
	__shared__ unsigned int s_hist[NUM_BUCKETS];
	for (int i = threadIdx.x; i < NUM_BUCKETS; i += blockDim.x)
		s_hist[i] = 0;
	__syncthreads();
#endif
	for (int tid = blockIdx.x * blockDim.x + threadIdx.x; tid < size; tid += blockDim.x * gridDim.x) {
		int b = bucket_of(input[tid]);
#if SHARED_COUNTS
		slot[tid] = (b << 16) | atomicAdd(&s_hist[b], 1u);
#else
		slot[tid] = (b << 16) | atomicAdd(&block_counts[blockIdx.x * NUM_BUCKETS + b], 1u);
#endif
	}
#if SHARED_COUNTS
	__syncthreads();
	for (int i = threadIdx.x; i < NUM_BUCKETS; i += blockDim.x)
		block_counts[blockIdx.x * NUM_BUCKETS + i] = s_hist[i];
#endif
}

__global__ void bucket_prefix(unsigned int *block_counts, unsigned int *d_bucket_base, int blocks)
{
	int b = blockIdx.x * blockDim.x + threadIdx.x;
	if (b >= NUM_BUCKETS)
		return;
	unsigned int sum = 0;
	for (int blk = 0; blk < blocks; blk++) {
		unsigned int c = block_counts[blk * NUM_BUCKETS + b];
		block_counts[blk * NUM_BUCKETS + b] = sum;
		sum += c;
	}
	d_bucket_base[b] = sum;
}

__global__ void
scatter_buckets(const float *input, const int *slot, float *output, int size,
	       const unsigned int *block_counts, const unsigned int *bucket_base)
{
	for (int tid = blockIdx.x * blockDim.x + threadIdx.x; tid < size; tid += blockDim.x * gridDim.x) {
		int packed = slot[tid];
		int b = packed >> 16;
		int local = packed & 0xffff;
		output[bucket_base[b] + block_counts[blockIdx.x * NUM_BUCKETS + b] + local] = input[tid];
	}
}

void bucket_sort(float *d_input, float *d_output, int *d_slot, unsigned int *d_counts, unsigned int *d_bucket_base, int size)
{
	int blocks = 64;
	count_buckets<<<blocks, BUCKET_THREADS>>>(d_input, d_slot, d_counts, size);
	bucket_prefix<<<(NUM_BUCKETS + 255) / 256, 256>>>(d_counts, d_bucket_base, blocks);
	scatter_buckets<<<blocks, BUCKET_THREADS>>>(d_input, d_slot, d_output, size, d_counts, d_bucket_base);
}
