/* Shared helpers for the polyhedral benchmark ports: timing, comparison, device setup. */
#ifndef POLY_LITE_CUH
#define POLY_LITE_CUH

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <sys/time.h>
#include <cuda_runtime.h>

#define GPU_DEVICE 0
#define SMALL_FLOAT_VAL 0.00000001f

static inline double rtclock(void)
{
	struct timeval tv;
	gettimeofday(&tv, NULL);
	return tv.tv_sec + tv.tv_usec * 1.0e-6;
}

static inline float absVal(float a)
{
	return a < 0 ? -a : a;
}

/* relative difference in percent, guarded against tiny denominators */
static inline float percentDiff(double val1, double val2)
{
	if ((absVal((float)val1) < 0.01f) && (absVal((float)val2) < 0.01f))
		return 0.0f;
	return 100.0f * absVal(absVal((float)(val1 - val2)) / absVal((float)(val1 + SMALL_FLOAT_VAL)));
}

static inline void GPU_argv_init(void)
{
	cudaDeviceProp deviceProp;
	cudaGetDeviceProperties(&deviceProp, GPU_DEVICE);
	printf("setting device %d with name %s\n", GPU_DEVICE, deviceProp.name);
	cudaSetDevice(GPU_DEVICE);
}

#endif
