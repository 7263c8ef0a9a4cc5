/***********************************************************************
 * Part of a GPU benchmark collection.  2016-2021.
 * Permission is granted to use, copy and modify this file for research.
 ***********************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/time.h>
#include <cuda.h>
#include <cuda_runtime.h>

#define NSTATE 91
#define NPARAM 16
typedef float fp;

__device__ void module_00(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 8;
	fp t0 = 1.0f / (1.0f + expf((state[off + 3] + 32.0f) / 7.0f));
	fp t1 = 0.0809f * t_now + state[off + 22];
	fp t2 = state[off + 11] * params[poff + 2] - t1 * 0.867f;
	fp t3 = 0.5699f * t_now + state[off + 28] - t0 * 0.376f;
	fp t4 = 0.4152f * t_now + state[off + 23] - t2 * 0.200f;
	fp t5 = powf(fabsf(state[off + 14]) + 1e-6f, 3.0f) - t1 * 0.410f;
	fp t6 = 1.0f / (1.0f + expf((state[off + 2] + 45.0f) / 6.0f)) - t4 * 0.250f;
	fp t7 = expf(-state[off + 2] / 25.0f) - t0 * 0.131f;
	fp t8 = expf(-state[off + 1] / 11.0f) - t1 * 0.112f;
	fp t9 = powf(fabsf(state[off + 24]) + 1e-6f, 2.0f) - t1 * 0.761f;
	fp t10 = state[off + 15] * params[poff + 10] - t0 * 0.338f;
	fp t11 = powf(fabsf(state[off + 25]) + 1e-6f, 2.0f) - t7 * 0.112f;
	fp t12 = 1.0f / (1.0f + expf((state[off + 9] + 27.0f) / 9.0f)) - t6 * 0.212f;
	fp t13 = 0.3998f * t_now + state[off + 25] - t9 * 0.348f;
	fp t14 = 0.6079f * t_now + state[off + 22] - t12 * 0.717f;
	fp t15 = expf(-state[off + 11] / 6.0f) - t7 * 0.423f;
	fp t16 = powf(fabsf(state[off + 3]) + 1e-6f, 0.5f) - t13 * 0.926f;
	fp t17 = 1.0f / (1.0f + expf((state[off + 27] + 80.0f) / 9.0f)) - t11 * 0.740f;
	fp t18 = expf(-state[off + 3] / 29.0f) - t14 * 0.911f;
	fp t19 = expf(-state[off + 9] / 33.0f) - t7 * 0.930f;
	fp t20 = 0.4342f * t_now + state[off + 10] - t8 * 0.948f;
	fp t21 = 1.0f / (1.0f + expf((state[off + 0] + 3.0f) / 4.0f)) - t6 * 0.052f;
	fp t22 = 1.0f / (1.0f + expf((state[off + 7] + 3.0f) / 4.0f)) - t12 * 0.193f;
	fp t23 = 0.8771f * t_now + state[off + 5] - t17 * 0.979f;
	fp t24 = powf(fabsf(state[off + 28]) + 1e-6f, 1.5f) - t21 * 0.625f;
	fp t25 = expf(-state[off + 14] / 33.0f) - t3 * 0.255f;
	fp t26 = powf(fabsf(state[off + 20]) + 1e-6f, 3.0f) - t16 * 0.184f;
	fp t27 = powf(fabsf(state[off + 11]) + 1e-6f, 1.5f) - t10 * 0.633f;
	fp t28 = state[off + 12] * params[poff + 12] - t12 * 0.450f;
	fp t29 = 0.1950f * t_now + state[off + 22] - t9 * 0.876f;
	fp t30 = 1.0f / (1.0f + expf((state[off + 0] + 73.0f) / 3.0f)) - t2 * 0.480f;
	fp t31 = state[off + 8] * params[poff + 15] - t15 * 0.690f;
	fp t32 = expf(-state[off + 17] / 16.0f) - t11 * 0.241f;
	fp t33 = expf(-state[off + 14] / 29.0f) - t4 * 0.814f;
	fp t34 = powf(fabsf(state[off + 0]) + 1e-6f, 1.5f) - t16 * 0.506f;
	fp t35 = 1.0f / (1.0f + expf((state[off + 23] + 7.0f) / 2.0f)) - t20 * 0.740f;
	fp t36 = 1.0f / (1.0f + expf((state[off + 2] + 52.0f) / 6.0f)) - t25 * 0.958f;
	fp t37 = 1.0f / (1.0f + expf((state[off + 3] + 75.0f) / 9.0f)) - t20 * 0.182f;
	deriv[soff + 0] = t25 + t36 + t17;
	deriv[soff + 1] = t13 + t13 + t1;
	deriv[soff + 2] = t36 + t3 + t34;
	deriv[soff + 3] = t18 + t15 + t8;
	deriv[soff + 4] = t34 + t6 + t15;
}

__device__ void module_01(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 4;
	fp t0 = state[off + 4] * params[poff + 0];
	fp t1 = 0.2197f * t_now + state[off + 27];
	fp t2 = expf(-state[off + 7] / 18.0f) - t0 * 0.294f;
	fp t3 = state[off + 11] * params[poff + 3] - t2 * 0.531f;
	fp t4 = 0.4524f * t_now + state[off + 22] - t3 * 0.657f;
	fp t5 = expf(-state[off + 11] / 21.0f) - t4 * 0.436f;
	fp t6 = 1.0f / (1.0f + expf((state[off + 17] + 63.0f) / 12.0f)) - t5 * 0.233f;
	fp t7 = expf(-state[off + 6] / 40.0f) - t6 * 0.364f;
	fp t8 = expf(-state[off + 29] / 17.0f) - t0 * 0.656f;
	fp t9 = state[off + 25] * params[poff + 9] - t7 * 0.637f;
	fp t10 = 1.0f / (1.0f + expf((state[off + 12] + 14.0f) / 10.0f)) - t3 * 0.793f;
	fp t11 = state[off + 27] * params[poff + 11] - t8 * 0.491f;
	fp t12 = expf(-state[off + 6] / 31.0f) - t4 * 0.981f;
	fp t13 = 0.2164f * t_now + state[off + 8] - t12 * 0.291f;
	fp t14 = powf(fabsf(state[off + 24]) + 1e-6f, 2.0f) - t7 * 0.110f;
	fp t15 = 1.0f / (1.0f + expf((state[off + 23] + 79.0f) / 4.0f)) - t5 * 0.567f;
	fp t16 = expf(-state[off + 9] / 35.0f) - t0 * 0.246f;
	fp t17 = 1.0f / (1.0f + expf((state[off + 22] + 57.0f) / 11.0f)) - t3 * 0.893f;
	fp t18 = state[off + 6] * params[poff + 2] - t11 * 0.542f;
	fp t19 = state[off + 13] * params[poff + 3] - t17 * 0.873f;
	fp t20 = 0.0410f * t_now + state[off + 9] - t18 * 0.407f;
	fp t21 = state[off + 10] * params[poff + 5] - t8 * 0.396f;
	fp t22 = 0.3430f * t_now + state[off + 17] - t13 * 0.959f;
	deriv[soff + 3] = t3 + t8 + t15;
	deriv[soff + 4] = t15 + t21 + t17;
	deriv[soff + 5] = t19 + t9 + t1;
}

__device__ void module_02(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 32;
	fp t0 = expf(-state[off + 23] / 10.0f);
	fp t1 = powf(fabsf(state[off + 26]) + 1e-6f, 3.0f);
	fp t2 = powf(fabsf(state[off + 2]) + 1e-6f, 2.0f) - t1 * 0.254f;
	fp t3 = state[off + 2] * params[poff + 3] - t0 * 0.553f;
	fp t4 = powf(fabsf(state[off + 29]) + 1e-6f, 0.5f) - t0 * 0.836f;
	fp t5 = powf(fabsf(state[off + 1]) + 1e-6f, 0.5f) - t0 * 0.153f;
	fp t6 = state[off + 20] * params[poff + 6] - t0 * 0.611f;
	fp t7 = 1.0f / (1.0f + expf((state[off + 10] + 5.0f) / 6.0f)) - t4 * 0.579f;
	fp t8 = 1.0f / (1.0f + expf((state[off + 23] + 21.0f) / 4.0f)) - t4 * 0.959f;
	fp t9 = 0.6211f * t_now + state[off + 0] - t6 * 0.208f;
	fp t10 = 1.0f / (1.0f + expf((state[off + 1] + 57.0f) / 4.0f)) - t3 * 0.742f;
	fp t11 = powf(fabsf(state[off + 7]) + 1e-6f, 2.0f) - t9 * 0.481f;
	fp t12 = state[off + 14] * params[poff + 12] - t2 * 0.476f;
	fp t13 = powf(fabsf(state[off + 29]) + 1e-6f, 2.0f) - t9 * 0.154f;
	fp t14 = 1.0f / (1.0f + expf((state[off + 26] + 10.0f) / 6.0f)) - t2 * 0.186f;
	fp t15 = 0.8087f * t_now + state[off + 8] - t0 * 0.931f;
	fp t16 = state[off + 1] * params[poff + 0] - t10 * 0.874f;
	fp t17 = expf(-state[off + 8] / 5.0f) - t6 * 0.244f;
	fp t18 = powf(fabsf(state[off + 3]) + 1e-6f, 0.5f) - t16 * 0.403f;
	fp t19 = powf(fabsf(state[off + 16]) + 1e-6f, 0.5f) - t12 * 0.525f;
	fp t20 = 0.7583f * t_now + state[off + 12] - t16 * 0.603f;
	fp t21 = 0.1256f * t_now + state[off + 23] - t15 * 0.741f;
	fp t22 = 1.0f / (1.0f + expf((state[off + 23] + 18.0f) / 7.0f)) - t12 * 0.982f;
	fp t23 = powf(fabsf(state[off + 14]) + 1e-6f, 0.5f) - t4 * 0.588f;
	deriv[soff + 6] = t13 + t15 + t22;
	deriv[soff + 7] = t23 + t12 + t12;
}

__device__ void module_03(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 10;
	fp t0 = expf(-state[off + 29] / 35.0f);
	fp t1 = powf(fabsf(state[off + 11]) + 1e-6f, 3.0f);
	fp t2 = 1.0f / (1.0f + expf((state[off + 14] + 15.0f) / 8.0f)) - t0 * 0.322f;
	fp t3 = state[off + 13] * params[poff + 3] - t0 * 0.336f;
	fp t4 = powf(fabsf(state[off + 4]) + 1e-6f, 3.0f) - t3 * 0.577f;
	fp t5 = expf(-state[off + 14] / 29.0f) - t4 * 0.947f;
	fp t6 = 1.0f / (1.0f + expf((state[off + 29] + 39.0f) / 7.0f)) - t2 * 0.975f;
	fp t7 = state[off + 13] * params[poff + 7] - t4 * 0.768f;
	fp t8 = 0.1628f * t_now + state[off + 20] - t6 * 0.675f;
	fp t9 = 0.7042f * t_now + state[off + 19] - t0 * 0.025f;
	fp t10 = powf(fabsf(state[off + 5]) + 1e-6f, 0.5f) - t1 * 0.213f;
	fp t11 = state[off + 27] * params[poff + 11] - t5 * 0.190f;
	fp t12 = 1.0f / (1.0f + expf((state[off + 26] + 62.0f) / 6.0f)) - t4 * 0.419f;
	fp t13 = state[off + 7] * params[poff + 13] - t9 * 0.224f;
	fp t14 = 1.0f / (1.0f + expf((state[off + 9] + 75.0f) / 10.0f)) - t7 * 0.695f;
	fp t15 = 1.0f / (1.0f + expf((state[off + 11] + 78.0f) / 12.0f)) - t10 * 0.627f;
	fp t16 = expf(-state[off + 11] / 24.0f) - t3 * 0.142f;
	fp t17 = powf(fabsf(state[off + 22]) + 1e-6f, 1.5f) - t6 * 0.121f;
	fp t18 = 0.6354f * t_now + state[off + 19] - t8 * 0.568f;
	fp t19 = state[off + 9] * params[poff + 3] - t11 * 0.132f;
	fp t20 = 0.2213f * t_now + state[off + 16] - t19 * 0.486f;
	fp t21 = expf(-state[off + 3] / 16.0f) - t14 * 0.785f;
	fp t22 = powf(fabsf(state[off + 29]) + 1e-6f, 1.5f) - t8 * 0.625f;
	deriv[soff + 9] = t15 + t17 + t12;
	deriv[soff + 10] = t15 + t19 + t16;
	deriv[soff + 11] = t10 + t3 + t18;
	deriv[soff + 12] = t11 + t2 + t17;
}

__device__ void module_04(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 44;
	fp t0 = powf(fabsf(state[off + 3]) + 1e-6f, 0.5f);
	fp t1 = powf(fabsf(state[off + 10]) + 1e-6f, 0.5f);
	fp t2 = state[off + 0] * params[poff + 2] - t1 * 0.812f;
	fp t3 = powf(fabsf(state[off + 15]) + 1e-6f, 2.0f) - t1 * 0.369f;
	fp t4 = expf(-state[off + 0] / 14.0f) - t1 * 0.976f;
	fp t5 = powf(fabsf(state[off + 28]) + 1e-6f, 1.5f) - t3 * 0.746f;
	fp t6 = state[off + 15] * params[poff + 6] - t4 * 0.242f;
	fp t7 = state[off + 15] * params[poff + 7] - t1 * 0.947f;
	fp t8 = powf(fabsf(state[off + 22]) + 1e-6f, 2.0f) - t0 * 0.368f;
	fp t9 = expf(-state[off + 29] / 2.0f) - t8 * 0.205f;
	fp t10 = 1.0f / (1.0f + expf((state[off + 13] + 12.0f) / 2.0f)) - t3 * 0.626f;
	fp t11 = 0.7716f * t_now + state[off + 2] - t6 * 0.695f;
	fp t12 = powf(fabsf(state[off + 21]) + 1e-6f, 3.0f) - t9 * 0.520f;
	fp t13 = powf(fabsf(state[off + 9]) + 1e-6f, 3.0f) - t10 * 0.834f;
	fp t14 = expf(-state[off + 0] / 34.0f) - t0 * 0.630f;
	fp t15 = state[off + 15] * params[poff + 15] - t2 * 0.644f;
	fp t16 = state[off + 5] * params[poff + 0] - t13 * 0.006f;
	fp t17 = expf(-state[off + 19] / 7.0f) - t2 * 0.353f;
	fp t18 = 0.8308f * t_now + state[off + 16] - t3 * 0.698f;
	fp t19 = expf(-state[off + 2] / 2.0f) - t16 * 0.692f;
	fp t20 = powf(fabsf(state[off + 13]) + 1e-6f, 0.5f) - t0 * 0.277f;
	fp t21 = 0.6773f * t_now + state[off + 10] - t15 * 0.525f;
	fp t22 = powf(fabsf(state[off + 22]) + 1e-6f, 1.5f) - t18 * 0.946f;
	fp t23 = powf(fabsf(state[off + 9]) + 1e-6f, 3.0f) - t14 * 0.976f;
	fp t24 = 0.3207f * t_now + state[off + 0] - t9 * 0.461f;
	fp t25 = powf(fabsf(state[off + 6]) + 1e-6f, 0.5f) - t4 * 0.547f;
	fp t26 = 1.0f / (1.0f + expf((state[off + 0] + 67.0f) / 9.0f)) - t15 * 0.598f;
	fp t27 = state[off + 15] * params[poff + 11] - t26 * 0.234f;
	fp t28 = 1.0f / (1.0f + expf((state[off + 9] + 77.0f) / 10.0f)) - t5 * 0.661f;
	fp t29 = 0.5294f * t_now + state[off + 1] - t3 * 0.475f;
	fp t30 = powf(fabsf(state[off + 24]) + 1e-6f, 0.5f) - t29 * 0.216f;
	fp t31 = state[off + 8] * params[poff + 15] - t22 * 0.230f;
	fp t32 = 1.0f / (1.0f + expf((state[off + 25] + 70.0f) / 12.0f)) - t28 * 0.474f;
	fp t33 = state[off + 4] * params[poff + 1] - t16 * 0.124f;
	fp t34 = state[off + 18] * params[poff + 2] - t31 * 0.208f;
	fp t35 = powf(fabsf(state[off + 17]) + 1e-6f, 3.0f) - t3 * 0.280f;
	fp t36 = powf(fabsf(state[off + 17]) + 1e-6f, 2.0f) - t22 * 0.153f;
	deriv[soff + 12] = t8 + t33 + t27;
	deriv[soff + 13] = t16 + t28 + t14;
}

__device__ void module_05(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 23;
	fp t0 = 1.0f / (1.0f + expf((state[off + 12] + 67.0f) / 12.0f));
	fp t1 = 1.0f / (1.0f + expf((state[off + 15] + 76.0f) / 5.0f));
	fp t2 = expf(-state[off + 28] / 36.0f) - t1 * 0.379f;
	fp t3 = 0.3479f * t_now + state[off + 23] - t1 * 0.480f;
	fp t4 = expf(-state[off + 26] / 26.0f) - t3 * 0.005f;
	fp t5 = 0.8365f * t_now + state[off + 0] - t0 * 0.665f;
	fp t6 = state[off + 0] * params[poff + 6] - t4 * 0.563f;
	fp t7 = state[off + 15] * params[poff + 7] - t3 * 0.557f;
	fp t8 = 1.0f / (1.0f + expf((state[off + 2] + 80.0f) / 4.0f)) - t3 * 0.571f;
	fp t9 = 0.2690f * t_now + state[off + 0] - t3 * 0.089f;
	fp t10 = 0.5514f * t_now + state[off + 13] - t2 * 0.481f;
	fp t11 = 0.0830f * t_now + state[off + 0] - t9 * 0.675f;
	fp t12 = powf(fabsf(state[off + 25]) + 1e-6f, 0.5f) - t3 * 0.106f;
	fp t13 = 1.0f / (1.0f + expf((state[off + 24] + 37.0f) / 4.0f)) - t12 * 0.010f;
	fp t14 = 0.2434f * t_now + state[off + 12] - t3 * 0.291f;
	fp t15 = state[off + 4] * params[poff + 15] - t3 * 0.962f;
	fp t16 = 1.0f / (1.0f + expf((state[off + 11] + 36.0f) / 5.0f)) - t13 * 0.222f;
	fp t17 = 0.2311f * t_now + state[off + 2] - t10 * 0.290f;
	fp t18 = state[off + 22] * params[poff + 2] - t13 * 0.272f;
	fp t19 = expf(-state[off + 16] / 32.0f) - t11 * 0.531f;
	fp t20 = 1.0f / (1.0f + expf((state[off + 11] + 1.0f) / 12.0f)) - t7 * 0.051f;
	fp t21 = state[off + 17] * params[poff + 5] - t16 * 0.568f;
	fp t22 = 1.0f / (1.0f + expf((state[off + 22] + 79.0f) / 11.0f)) - t20 * 0.319f;
	fp t23 = 1.0f / (1.0f + expf((state[off + 29] + 62.0f) / 7.0f)) - t6 * 0.493f;
	fp t24 = 1.0f / (1.0f + expf((state[off + 10] + 55.0f) / 3.0f)) - t22 * 0.775f;
	fp t25 = 0.4609f * t_now + state[off + 11] - t5 * 0.675f;
	fp t26 = powf(fabsf(state[off + 4]) + 1e-6f, 1.5f) - t7 * 0.454f;
	fp t27 = 1.0f / (1.0f + expf((state[off + 26] + 43.0f) / 11.0f)) - t5 * 0.208f;
	fp t28 = 1.0f / (1.0f + expf((state[off + 22] + 37.0f) / 5.0f)) - t4 * 0.561f;
	fp t29 = state[off + 0] * params[poff + 13] - t3 * 0.821f;
	fp t30 = powf(fabsf(state[off + 12]) + 1e-6f, 0.5f) - t5 * 0.668f;
	fp t31 = state[off + 13] * params[poff + 15] - t26 * 0.198f;
	fp t32 = state[off + 27] * params[poff + 0] - t6 * 0.611f;
	fp t33 = state[off + 0] * params[poff + 1] - t26 * 0.758f;
	fp t34 = 1.0f / (1.0f + expf((state[off + 6] + 32.0f) / 2.0f)) - t15 * 0.432f;
	fp t35 = state[off + 13] * params[poff + 3] - t17 * 0.492f;
	fp t36 = 0.6017f * t_now + state[off + 3] - t31 * 0.924f;
	fp t37 = powf(fabsf(state[off + 25]) + 1e-6f, 3.0f) - t25 * 0.468f;
	fp t38 = expf(-state[off + 21] / 16.0f) - t22 * 0.550f;
	deriv[soff + 15] = t12 + t23 + t4;
	deriv[soff + 16] = t36 + t4 + t11;
	deriv[soff + 17] = t33 + t16 + t16;
}

__device__ void module_06(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 6;
	fp t0 = 1.0f / (1.0f + expf((state[off + 0] + 37.0f) / 9.0f));
	fp t1 = state[off + 23] * params[poff + 1];
	fp t2 = expf(-state[off + 23] / 28.0f) - t0 * 0.010f;
	fp t3 = powf(fabsf(state[off + 20]) + 1e-6f, 3.0f) - t2 * 0.748f;
	fp t4 = 1.0f / (1.0f + expf((state[off + 12] + 4.0f) / 10.0f)) - t2 * 0.646f;
	fp t5 = state[off + 15] * params[poff + 5] - t0 * 0.986f;
	fp t6 = 0.0689f * t_now + state[off + 3] - t5 * 0.456f;
	fp t7 = expf(-state[off + 23] / 16.0f) - t6 * 0.466f;
	fp t8 = state[off + 13] * params[poff + 8] - t7 * 0.283f;
	fp t9 = powf(fabsf(state[off + 2]) + 1e-6f, 0.5f) - t2 * 0.575f;
	fp t10 = powf(fabsf(state[off + 17]) + 1e-6f, 0.5f) - t2 * 0.479f;
	fp t11 = 1.0f / (1.0f + expf((state[off + 4] + 54.0f) / 5.0f)) - t8 * 0.935f;
	fp t12 = 1.0f / (1.0f + expf((state[off + 2] + 31.0f) / 3.0f)) - t9 * 0.826f;
	fp t13 = powf(fabsf(state[off + 2]) + 1e-6f, 2.0f) - t6 * 0.475f;
	fp t14 = powf(fabsf(state[off + 16]) + 1e-6f, 0.5f) - t8 * 0.273f;
	fp t15 = 1.0f / (1.0f + expf((state[off + 11] + 24.0f) / 8.0f)) - t1 * 0.368f;
	fp t16 = state[off + 11] * params[poff + 0] - t14 * 0.890f;
	fp t17 = powf(fabsf(state[off + 1]) + 1e-6f, 1.5f) - t13 * 0.762f;
	fp t18 = expf(-state[off + 29] / 14.0f) - t14 * 0.401f;
	fp t19 = state[off + 15] * params[poff + 3] - t0 * 0.421f;
	fp t20 = 0.3677f * t_now + state[off + 22] - t2 * 0.053f;
	fp t21 = powf(fabsf(state[off + 10]) + 1e-6f, 3.0f) - t2 * 0.539f;
	deriv[soff + 18] = t0 + t20 + t8;
	deriv[soff + 19] = t0 + t12 + t11;
	deriv[soff + 20] = t9 + t15 + t19;
	deriv[soff + 21] = t14 + t7 + t11;
	deriv[soff + 22] = t12 + t1 + t9;
}

__device__ void module_07(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 47;
	fp t0 = powf(fabsf(state[off + 23]) + 1e-6f, 1.5f);
	fp t1 = state[off + 20] * params[poff + 1];
	fp t2 = 1.0f / (1.0f + expf((state[off + 0] + 64.0f) / 11.0f)) - t0 * 0.764f;
	fp t3 = expf(-state[off + 14] / 12.0f) - t2 * 0.173f;
	fp t4 = powf(fabsf(state[off + 24]) + 1e-6f, 0.5f) - t2 * 0.288f;
	fp t5 = 1.0f / (1.0f + expf((state[off + 18] + 71.0f) / 3.0f)) - t2 * 0.082f;
	fp t6 = expf(-state[off + 26] / 28.0f) - t4 * 0.308f;
	fp t7 = powf(fabsf(state[off + 7]) + 1e-6f, 3.0f) - t0 * 0.287f;
	fp t8 = 0.2923f * t_now + state[off + 8] - t0 * 0.133f;
	fp t9 = powf(fabsf(state[off + 20]) + 1e-6f, 2.0f) - t7 * 0.702f;
	fp t10 = 0.4347f * t_now + state[off + 24] - t1 * 0.943f;
	fp t11 = expf(-state[off + 18] / 19.0f) - t5 * 0.108f;
	fp t12 = 0.1909f * t_now + state[off + 15] - t6 * 0.808f;
	fp t13 = expf(-state[off + 9] / 30.0f) - t12 * 0.164f;
	fp t14 = 0.8464f * t_now + state[off + 23] - t8 * 0.250f;
	fp t15 = 0.3896f * t_now + state[off + 0] - t3 * 0.202f;
	fp t16 = powf(fabsf(state[off + 22]) + 1e-6f, 1.5f) - t7 * 0.613f;
	fp t17 = 0.8914f * t_now + state[off + 2] - t7 * 0.574f;
	deriv[soff + 21] = t3 + t16 + t0;
	deriv[soff + 22] = t13 + t14 + t0;
	deriv[soff + 23] = t16 + t8 + t10;
	deriv[soff + 24] = t9 + t14 + t3;
}

__device__ void module_08(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 14;
	fp t0 = expf(-state[off + 1] / 29.0f);
	fp t1 = 0.7786f * t_now + state[off + 19];
	fp t2 = 0.4407f * t_now + state[off + 0] - t0 * 0.482f;
	fp t3 = powf(fabsf(state[off + 11]) + 1e-6f, 0.5f) - t2 * 0.748f;
	fp t4 = 1.0f / (1.0f + expf((state[off + 9] + 60.0f) / 12.0f)) - t3 * 0.511f;
	fp t5 = state[off + 18] * params[poff + 5] - t2 * 0.693f;
	fp t6 = 0.9700f * t_now + state[off + 28] - t0 * 0.809f;
	fp t7 = state[off + 23] * params[poff + 7] - t3 * 0.542f;
	fp t8 = 1.0f / (1.0f + expf((state[off + 29] + 65.0f) / 5.0f)) - t0 * 0.588f;
	fp t9 = state[off + 25] * params[poff + 9] - t1 * 0.677f;
	fp t10 = powf(fabsf(state[off + 23]) + 1e-6f, 1.5f) - t8 * 0.982f;
	fp t11 = 0.3256f * t_now + state[off + 23] - t3 * 0.346f;
	fp t12 = expf(-state[off + 0] / 8.0f) - t1 * 0.798f;
	fp t13 = expf(-state[off + 6] / 9.0f) - t7 * 0.443f;
	fp t14 = 1.0f / (1.0f + expf((state[off + 3] + 67.0f) / 7.0f)) - t4 * 0.709f;
	fp t15 = powf(fabsf(state[off + 4]) + 1e-6f, 2.0f) - t10 * 0.940f;
	fp t16 = state[off + 28] * params[poff + 0] - t3 * 0.656f;
	fp t17 = 1.0f / (1.0f + expf((state[off + 16] + 62.0f) / 9.0f)) - t8 * 0.946f;
	fp t18 = state[off + 22] * params[poff + 2] - t17 * 0.505f;
	fp t19 = powf(fabsf(state[off + 18]) + 1e-6f, 0.5f) - t9 * 0.980f;
	fp t20 = state[off + 5] * params[poff + 4] - t16 * 0.492f;
	fp t21 = expf(-state[off + 10] / 17.0f) - t9 * 0.074f;
	fp t22 = 0.6170f * t_now + state[off + 23] - t6 * 0.285f;
	fp t23 = 0.9982f * t_now + state[off + 7] - t5 * 0.947f;
	fp t24 = powf(fabsf(state[off + 29]) + 1e-6f, 3.0f) - t12 * 0.062f;
	fp t25 = state[off + 23] * params[poff + 9] - t15 * 0.708f;
	fp t26 = expf(-state[off + 29] / 4.0f) - t16 * 0.709f;
	deriv[soff + 24] = t14 + t7 + t7;
	deriv[soff + 25] = t3 + t0 + t10;
	deriv[soff + 26] = t1 + t0 + t5;
}

__device__ void module_09(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 5;
	fp t0 = state[off + 19] * params[poff + 0];
	fp t1 = 1.0f / (1.0f + expf((state[off + 23] + 72.0f) / 7.0f));
	fp t2 = state[off + 21] * params[poff + 2] - t0 * 0.785f;
	fp t3 = powf(fabsf(state[off + 20]) + 1e-6f, 0.5f) - t0 * 0.885f;
	fp t4 = powf(fabsf(state[off + 24]) + 1e-6f, 1.5f) - t2 * 0.203f;
	fp t5 = powf(fabsf(state[off + 14]) + 1e-6f, 2.0f) - t3 * 0.844f;
	fp t6 = 1.0f / (1.0f + expf((state[off + 23] + 14.0f) / 11.0f)) - t1 * 0.004f;
	fp t7 = expf(-state[off + 17] / 4.0f) - t1 * 0.182f;
	fp t8 = expf(-state[off + 0] / 10.0f) - t1 * 0.426f;
	fp t9 = state[off + 7] * params[poff + 9] - t3 * 0.298f;
	fp t10 = expf(-state[off + 18] / 11.0f) - t7 * 0.746f;
	fp t11 = 1.0f / (1.0f + expf((state[off + 29] + 12.0f) / 2.0f)) - t3 * 0.462f;
	fp t12 = state[off + 15] * params[poff + 12] - t1 * 0.319f;
	fp t13 = state[off + 1] * params[poff + 13] - t12 * 0.579f;
	fp t14 = expf(-state[off + 12] / 35.0f) - t7 * 0.914f;
	fp t15 = state[off + 23] * params[poff + 15] - t10 * 0.524f;
	fp t16 = state[off + 19] * params[poff + 0] - t13 * 0.455f;
	fp t17 = 1.0f / (1.0f + expf((state[off + 21] + 26.0f) / 11.0f)) - t16 * 0.004f;
	fp t18 = 1.0f / (1.0f + expf((state[off + 11] + 33.0f) / 12.0f)) - t12 * 0.132f;
	fp t19 = 1.0f / (1.0f + expf((state[off + 16] + 13.0f) / 11.0f)) - t6 * 0.105f;
	fp t20 = 1.0f / (1.0f + expf((state[off + 22] + 60.0f) / 10.0f)) - t14 * 0.721f;
	fp t21 = expf(-state[off + 16] / 28.0f) - t8 * 0.729f;
	fp t22 = 0.3383f * t_now + state[off + 8] - t16 * 0.431f;
	fp t23 = state[off + 15] * params[poff + 7] - t15 * 0.732f;
	fp t24 = 0.5824f * t_now + state[off + 1] - t18 * 0.502f;
	fp t25 = 1.0f / (1.0f + expf((state[off + 8] + 2.0f) / 9.0f)) - t22 * 0.949f;
	fp t26 = state[off + 29] * params[poff + 10] - t4 * 0.094f;
	fp t27 = state[off + 4] * params[poff + 11] - t2 * 0.880f;
	fp t28 = state[off + 13] * params[poff + 12] - t12 * 0.411f;
	deriv[soff + 27] = t24 + t16 + t6;
	deriv[soff + 28] = t15 + t4 + t11;
}

__device__ void module_10(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 9;
	fp t0 = 1.0f / (1.0f + expf((state[off + 19] + 8.0f) / 7.0f));
	fp t1 = expf(-state[off + 24] / 19.0f);
	fp t2 = powf(fabsf(state[off + 0]) + 1e-6f, 1.5f) - t1 * 0.196f;
	fp t3 = powf(fabsf(state[off + 4]) + 1e-6f, 3.0f) - t0 * 0.754f;
	fp t4 = state[off + 19] * params[poff + 4] - t3 * 0.819f;
	fp t5 = state[off + 8] * params[poff + 5] - t0 * 0.755f;
	fp t6 = 1.0f / (1.0f + expf((state[off + 24] + 3.0f) / 2.0f)) - t5 * 0.768f;
	fp t7 = expf(-state[off + 27] / 38.0f) - t3 * 0.889f;
	fp t8 = 0.2712f * t_now + state[off + 28] - t0 * 0.146f;
	fp t9 = powf(fabsf(state[off + 6]) + 1e-6f, 1.5f) - t2 * 0.783f;
	fp t10 = powf(fabsf(state[off + 17]) + 1e-6f, 0.5f) - t3 * 0.952f;
	fp t11 = powf(fabsf(state[off + 26]) + 1e-6f, 2.0f) - t9 * 0.249f;
	fp t12 = state[off + 16] * params[poff + 12] - t3 * 0.467f;
	fp t13 = powf(fabsf(state[off + 2]) + 1e-6f, 1.5f) - t3 * 0.314f;
	fp t14 = powf(fabsf(state[off + 4]) + 1e-6f, 0.5f) - t12 * 0.664f;
	fp t15 = powf(fabsf(state[off + 25]) + 1e-6f, 1.5f) - t11 * 0.255f;
	fp t16 = state[off + 19] * params[poff + 0] - t11 * 0.544f;
	fp t17 = powf(fabsf(state[off + 19]) + 1e-6f, 1.5f) - t7 * 0.661f;
	fp t18 = powf(fabsf(state[off + 5]) + 1e-6f, 1.5f) - t15 * 0.219f;
	fp t19 = 1.0f / (1.0f + expf((state[off + 8] + 80.0f) / 10.0f)) - t3 * 0.883f;
	fp t20 = 0.5945f * t_now + state[off + 28] - t9 * 0.969f;
	fp t21 = 0.5114f * t_now + state[off + 4] - t0 * 0.271f;
	fp t22 = expf(-state[off + 1] / 9.0f) - t1 * 0.437f;
	fp t23 = 0.2130f * t_now + state[off + 6] - t10 * 0.952f;
	fp t24 = 0.2037f * t_now + state[off + 2] - t11 * 0.035f;
	fp t25 = powf(fabsf(state[off + 19]) + 1e-6f, 3.0f) - t9 * 0.543f;
	deriv[soff + 30] = t9 + t25 + t11;
	deriv[soff + 31] = t8 + t20 + t4;
	deriv[soff + 32] = t9 + t13 + t12;
	deriv[soff + 33] = t15 + t2 + t21;
	deriv[soff + 34] = t18 + t0 + t2;
}

__device__ void module_11(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 38;
	fp t0 = 1.0f / (1.0f + expf((state[off + 14] + 23.0f) / 8.0f));
	fp t1 = 1.0f / (1.0f + expf((state[off + 5] + 73.0f) / 9.0f));
	fp t2 = 0.9926f * t_now + state[off + 21] - t1 * 0.172f;
	fp t3 = state[off + 17] * params[poff + 3] - t0 * 0.871f;
	fp t4 = expf(-state[off + 24] / 40.0f) - t3 * 0.133f;
	fp t5 = 1.0f / (1.0f + expf((state[off + 0] + 69.0f) / 12.0f)) - t4 * 0.904f;
	fp t6 = 0.6290f * t_now + state[off + 14] - t2 * 0.724f;
	fp t7 = 0.0239f * t_now + state[off + 13] - t6 * 0.989f;
	fp t8 = 1.0f / (1.0f + expf((state[off + 2] + 59.0f) / 8.0f)) - t3 * 0.701f;
	fp t9 = state[off + 17] * params[poff + 9] - t5 * 0.266f;
	fp t10 = 1.0f / (1.0f + expf((state[off + 25] + 60.0f) / 3.0f)) - t1 * 0.588f;
	fp t11 = state[off + 10] * params[poff + 11] - t10 * 0.858f;
	fp t12 = 0.9061f * t_now + state[off + 11] - t7 * 0.941f;
	fp t13 = expf(-state[off + 9] / 33.0f) - t6 * 0.754f;
	fp t14 = 0.2743f * t_now + state[off + 25] - t8 * 0.835f;
	fp t15 = 0.4591f * t_now + state[off + 19] - t3 * 0.859f;
	fp t16 = state[off + 14] * params[poff + 0] - t4 * 0.143f;
	fp t17 = 0.4881f * t_now + state[off + 26] - t2 * 0.582f;
	fp t18 = state[off + 9] * params[poff + 2] - t10 * 0.306f;
	fp t19 = expf(-state[off + 25] / 9.0f) - t9 * 0.648f;
	fp t20 = expf(-state[off + 19] / 2.0f) - t14 * 0.393f;
	fp t21 = 1.0f / (1.0f + expf((state[off + 18] + 15.0f) / 8.0f)) - t18 * 0.795f;
	fp t22 = state[off + 19] * params[poff + 6] - t4 * 0.870f;
	fp t23 = 0.5858f * t_now + state[off + 11] - t11 * 0.452f;
	fp t24 = expf(-state[off + 22] / 16.0f) - t20 * 0.584f;
	fp t25 = 1.0f / (1.0f + expf((state[off + 3] + 5.0f) / 7.0f)) - t17 * 0.615f;
	fp t26 = expf(-state[off + 2] / 4.0f) - t3 * 0.376f;
	fp t27 = powf(fabsf(state[off + 16]) + 1e-6f, 2.0f) - t25 * 0.084f;
	fp t28 = expf(-state[off + 14] / 23.0f) - t19 * 0.456f;
	fp t29 = 0.9906f * t_now + state[off + 22] - t5 * 0.479f;
	fp t30 = powf(fabsf(state[off + 20]) + 1e-6f, 3.0f) - t3 * 0.756f;
	fp t31 = 1.0f / (1.0f + expf((state[off + 0] + 51.0f) / 2.0f)) - t18 * 0.146f;
	deriv[soff + 33] = t8 + t15 + t1;
	deriv[soff + 34] = t5 + t22 + t9;
}

__device__ void module_12(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 27;
	fp t0 = 0.5693f * t_now + state[off + 14];
	fp t1 = powf(fabsf(state[off + 26]) + 1e-6f, 1.5f);
	fp t2 = expf(-state[off + 28] / 28.0f) - t1 * 0.690f;
	fp t3 = state[off + 5] * params[poff + 3] - t0 * 0.435f;
	fp t4 = expf(-state[off + 27] / 15.0f) - t3 * 0.303f;
	fp t5 = powf(fabsf(state[off + 20]) + 1e-6f, 0.5f) - t4 * 0.213f;
	fp t6 = powf(fabsf(state[off + 24]) + 1e-6f, 0.5f) - t2 * 0.693f;
	fp t7 = 1.0f / (1.0f + expf((state[off + 28] + 66.0f) / 9.0f)) - t2 * 0.478f;
	fp t8 = 1.0f / (1.0f + expf((state[off + 6] + 18.0f) / 10.0f)) - t3 * 0.406f;
	fp t9 = 1.0f / (1.0f + expf((state[off + 0] + 45.0f) / 6.0f)) - t6 * 0.694f;
	fp t10 = expf(-state[off + 25] / 40.0f) - t1 * 0.347f;
	fp t11 = state[off + 12] * params[poff + 11] - t7 * 0.767f;
	fp t12 = powf(fabsf(state[off + 6]) + 1e-6f, 2.0f) - t9 * 0.970f;
	fp t13 = state[off + 6] * params[poff + 13] - t7 * 0.699f;
	fp t14 = 0.5425f * t_now + state[off + 22] - t6 * 0.217f;
	fp t15 = 1.0f / (1.0f + expf((state[off + 11] + 22.0f) / 8.0f)) - t1 * 0.574f;
	fp t16 = 1.0f / (1.0f + expf((state[off + 29] + 45.0f) / 12.0f)) - t11 * 0.111f;
	fp t17 = expf(-state[off + 13] / 28.0f) - t10 * 0.814f;
	fp t18 = powf(fabsf(state[off + 26]) + 1e-6f, 0.5f) - t0 * 0.083f;
	fp t19 = 1.0f / (1.0f + expf((state[off + 23] + 8.0f) / 9.0f)) - t5 * 0.083f;
	fp t20 = 0.8260f * t_now + state[off + 19] - t7 * 0.911f;
	fp t21 = state[off + 26] * params[poff + 5] - t2 * 0.189f;
	fp t22 = powf(fabsf(state[off + 9]) + 1e-6f, 1.5f) - t8 * 0.253f;
	fp t23 = powf(fabsf(state[off + 28]) + 1e-6f, 0.5f) - t7 * 0.408f;
	fp t24 = powf(fabsf(state[off + 17]) + 1e-6f, 0.5f) - t19 * 0.290f;
	fp t25 = 1.0f / (1.0f + expf((state[off + 24] + 74.0f) / 5.0f)) - t24 * 0.310f;
	fp t26 = 0.4429f * t_now + state[off + 29] - t4 * 0.381f;
	fp t27 = state[off + 7] * params[poff + 11] - t7 * 0.488f;
	fp t28 = expf(-state[off + 15] / 29.0f) - t20 * 0.159f;
	fp t29 = state[off + 7] * params[poff + 13] - t15 * 0.744f;
	fp t30 = 0.1768f * t_now + state[off + 9] - t2 * 0.104f;
	fp t31 = powf(fabsf(state[off + 7]) + 1e-6f, 1.5f) - t18 * 0.945f;
	fp t32 = state[off + 5] * params[poff + 0] - t15 * 0.282f;
	fp t33 = expf(-state[off + 7] / 18.0f) - t8 * 0.819f;
	fp t34 = expf(-state[off + 25] / 2.0f) - t0 * 0.116f;
	fp t35 = expf(-state[off + 4] / 7.0f) - t34 * 0.683f;
	fp t36 = expf(-state[off + 0] / 21.0f) - t32 * 0.919f;
	fp t37 = state[off + 7] * params[poff + 5] - t25 * 0.954f;
	deriv[soff + 36] = t30 + t12 + t24;
	deriv[soff + 37] = t33 + t24 + t27;
	deriv[soff + 38] = t29 + t27 + t33;
	deriv[soff + 39] = t5 + t11 + t30;
	deriv[soff + 40] = t22 + t14 + t2;
}

__device__ void module_13(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 4;
	fp t0 = state[off + 20] * params[poff + 0];
	fp t1 = 0.6851f * t_now + state[off + 15];
	fp t2 = powf(fabsf(state[off + 19]) + 1e-6f, 1.5f) - t1 * 0.061f;
	fp t3 = state[off + 8] * params[poff + 3] - t1 * 0.311f;
	fp t4 = 1.0f / (1.0f + expf((state[off + 0] + 20.0f) / 12.0f)) - t3 * 0.052f;
	fp t5 = 1.0f / (1.0f + expf((state[off + 25] + 36.0f) / 9.0f)) - t2 * 0.506f;
	fp t6 = 1.0f / (1.0f + expf((state[off + 16] + 68.0f) / 9.0f)) - t1 * 0.233f;
	fp t7 = 1.0f / (1.0f + expf((state[off + 8] + 75.0f) / 9.0f)) - t0 * 0.789f;
	fp t8 = powf(fabsf(state[off + 12]) + 1e-6f, 2.0f) - t3 * 0.164f;
	fp t9 = 0.1297f * t_now + state[off + 24] - t0 * 0.628f;
	fp t10 = expf(-state[off + 25] / 32.0f) - t8 * 0.427f;
	fp t11 = 0.0029f * t_now + state[off + 24] - t0 * 0.081f;
	fp t12 = expf(-state[off + 4] / 24.0f) - t8 * 0.176f;
	fp t13 = 0.6977f * t_now + state[off + 10] - t0 * 0.712f;
	fp t14 = expf(-state[off + 18] / 6.0f) - t7 * 0.898f;
	fp t15 = powf(fabsf(state[off + 16]) + 1e-6f, 1.5f) - t3 * 0.694f;
	fp t16 = state[off + 18] * params[poff + 0] - t10 * 0.485f;
	fp t17 = 1.0f / (1.0f + expf((state[off + 1] + 58.0f) / 7.0f)) - t4 * 0.266f;
	fp t18 = 1.0f / (1.0f + expf((state[off + 10] + 4.0f) / 5.0f)) - t0 * 0.343f;
	fp t19 = state[off + 29] * params[poff + 3] - t3 * 0.420f;
	deriv[soff + 39] = t2 + t1 + t1;
	deriv[soff + 40] = t13 + t0 + t15;
	deriv[soff + 41] = t7 + t19 + t17;
	deriv[soff + 42] = t10 + t14 + t9;
	deriv[soff + 43] = t12 + t19 + t8;
}

__device__ void module_14(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 20;
	fp t0 = state[off + 3] * params[poff + 0];
	fp t1 = powf(fabsf(state[off + 3]) + 1e-6f, 3.0f);
	fp t2 = powf(fabsf(state[off + 23]) + 1e-6f, 1.5f) - t0 * 0.110f;
	fp t3 = expf(-state[off + 28] / 11.0f) - t1 * 0.847f;
	fp t4 = expf(-state[off + 0] / 39.0f) - t2 * 0.708f;
	fp t5 = 1.0f / (1.0f + expf((state[off + 13] + 80.0f) / 5.0f)) - t0 * 0.131f;
	fp t6 = state[off + 29] * params[poff + 6] - t3 * 0.781f;
	fp t7 = expf(-state[off + 27] / 11.0f) - t1 * 0.143f;
	fp t8 = powf(fabsf(state[off + 14]) + 1e-6f, 0.5f) - t0 * 0.964f;
	fp t9 = expf(-state[off + 19] / 35.0f) - t8 * 0.195f;
	fp t10 = 0.2693f * t_now + state[off + 23] - t1 * 0.096f;
	fp t11 = expf(-state[off + 8] / 40.0f) - t8 * 0.709f;
	fp t12 = expf(-state[off + 8] / 7.0f) - t2 * 0.474f;
	fp t13 = powf(fabsf(state[off + 29]) + 1e-6f, 3.0f) - t11 * 0.943f;
	fp t14 = expf(-state[off + 21] / 33.0f) - t0 * 0.151f;
	fp t15 = 1.0f / (1.0f + expf((state[off + 24] + 45.0f) / 3.0f)) - t8 * 0.782f;
	fp t16 = 1.0f / (1.0f + expf((state[off + 26] + 59.0f) / 6.0f)) - t6 * 0.331f;
	fp t17 = expf(-state[off + 24] / 25.0f) - t11 * 0.567f;
	fp t18 = 0.6189f * t_now + state[off + 20] - t2 * 0.445f;
	fp t19 = state[off + 2] * params[poff + 3] - t14 * 0.464f;
	fp t20 = 0.6270f * t_now + state[off + 29] - t7 * 0.875f;
	fp t21 = 1.0f / (1.0f + expf((state[off + 24] + 62.0f) / 11.0f)) - t19 * 0.771f;
	fp t22 = 0.8827f * t_now + state[off + 26] - t4 * 0.601f;
	deriv[soff + 42] = t8 + t4 + t15;
	deriv[soff + 43] = t6 + t7 + t3;
}

__device__ void module_15(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 7;
	fp t0 = powf(fabsf(state[off + 5]) + 1e-6f, 1.5f);
	fp t1 = expf(-state[off + 22] / 28.0f);
	fp t2 = powf(fabsf(state[off + 12]) + 1e-6f, 2.0f) - t1 * 0.753f;
	fp t3 = 0.2477f * t_now + state[off + 28] - t0 * 0.947f;
	fp t4 = 1.0f / (1.0f + expf((state[off + 21] + 70.0f) / 6.0f)) - t3 * 0.225f;
	fp t5 = expf(-state[off + 3] / 26.0f) - t0 * 0.749f;
	fp t6 = 0.3503f * t_now + state[off + 17] - t3 * 0.120f;
	fp t7 = state[off + 24] * params[poff + 7] - t4 * 0.957f;
	fp t8 = 0.9689f * t_now + state[off + 13] - t1 * 0.691f;
	fp t9 = expf(-state[off + 22] / 18.0f) - t4 * 0.690f;
	fp t10 = 0.9924f * t_now + state[off + 7] - t6 * 0.902f;
	fp t11 = 0.1217f * t_now + state[off + 3] - t4 * 0.006f;
	fp t12 = state[off + 10] * params[poff + 12] - t5 * 0.793f;
	fp t13 = expf(-state[off + 9] / 21.0f) - t2 * 0.609f;
	fp t14 = expf(-state[off + 5] / 13.0f) - t2 * 0.764f;
	fp t15 = powf(fabsf(state[off + 27]) + 1e-6f, 0.5f) - t1 * 0.502f;
	fp t16 = 1.0f / (1.0f + expf((state[off + 24] + 32.0f) / 4.0f)) - t1 * 0.007f;
	fp t17 = powf(fabsf(state[off + 12]) + 1e-6f, 1.5f) - t9 * 0.247f;
	fp t18 = expf(-state[off + 0] / 8.0f) - t5 * 0.784f;
	fp t19 = expf(-state[off + 15] / 23.0f) - t8 * 0.028f;
	fp t20 = state[off + 10] * params[poff + 4] - t5 * 0.772f;
	fp t21 = powf(fabsf(state[off + 12]) + 1e-6f, 3.0f) - t1 * 0.481f;
	fp t22 = 0.8395f * t_now + state[off + 8] - t19 * 0.645f;
	fp t23 = 0.6301f * t_now + state[off + 14] - t21 * 0.279f;
	fp t24 = 1.0f / (1.0f + expf((state[off + 15] + 41.0f) / 8.0f)) - t7 * 0.174f;
	fp t25 = state[off + 18] * params[poff + 9] - t0 * 0.383f;
	fp t26 = 0.6579f * t_now + state[off + 22] - t24 * 0.610f;
	fp t27 = 0.2727f * t_now + state[off + 21] - t26 * 0.081f;
	fp t28 = expf(-state[off + 9] / 2.0f) - t0 * 0.561f;
	fp t29 = 0.4650f * t_now + state[off + 26] - t9 * 0.917f;
	fp t30 = expf(-state[off + 12] / 3.0f) - t5 * 0.899f;
	fp t31 = state[off + 24] * params[poff + 15] - t5 * 0.702f;
	deriv[soff + 45] = t6 + t29 + t8;
	deriv[soff + 46] = t28 + t9 + t12;
	deriv[soff + 47] = t16 + t5 + t21;
	deriv[soff + 48] = t4 + t4 + t11;
	deriv[soff + 49] = t4 + t17 + t0;
}

__device__ void module_16(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 40;
	fp t0 = 0.7275f * t_now + state[off + 26];
	fp t1 = powf(fabsf(state[off + 0]) + 1e-6f, 0.5f);
	fp t2 = powf(fabsf(state[off + 27]) + 1e-6f, 1.5f) - t1 * 0.419f;
	fp t3 = powf(fabsf(state[off + 19]) + 1e-6f, 2.0f) - t2 * 0.916f;
	fp t4 = 0.5197f * t_now + state[off + 5] - t2 * 0.217f;
	fp t5 = 1.0f / (1.0f + expf((state[off + 24] + 71.0f) / 10.0f)) - t3 * 0.799f;
	fp t6 = state[off + 5] * params[poff + 6] - t5 * 0.959f;
	fp t7 = state[off + 22] * params[poff + 7] - t4 * 0.019f;
	fp t8 = 1.0f / (1.0f + expf((state[off + 18] + 5.0f) / 10.0f)) - t1 * 0.170f;
	fp t9 = 1.0f / (1.0f + expf((state[off + 16] + 40.0f) / 10.0f)) - t7 * 0.022f;
	fp t10 = state[off + 7] * params[poff + 10] - t2 * 0.386f;
	fp t11 = state[off + 23] * params[poff + 11] - t10 * 0.430f;
	fp t12 = expf(-state[off + 21] / 34.0f) - t9 * 0.594f;
	fp t13 = 1.0f / (1.0f + expf((state[off + 18] + 51.0f) / 3.0f)) - t1 * 0.295f;
	fp t14 = state[off + 26] * params[poff + 14] - t7 * 0.824f;
	fp t15 = powf(fabsf(state[off + 25]) + 1e-6f, 2.0f) - t6 * 0.733f;
	fp t16 = 1.0f / (1.0f + expf((state[off + 11] + 40.0f) / 3.0f)) - t0 * 0.289f;
	fp t17 = 0.1245f * t_now + state[off + 10] - t5 * 0.655f;
	fp t18 = state[off + 14] * params[poff + 2] - t4 * 0.681f;
	fp t19 = state[off + 27] * params[poff + 3] - t5 * 0.437f;
	deriv[soff + 48] = t12 + t3 + t13;
	deriv[soff + 49] = t11 + t0 + t16;
	deriv[soff + 50] = t5 + t14 + t9;
	deriv[soff + 51] = t1 + t6 + t13;
}

__device__ void module_17(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 48;
	fp t0 = 0.7034f * t_now + state[off + 17];
	fp t1 = expf(-state[off + 21] / 19.0f);
	fp t2 = state[off + 19] * params[poff + 2] - t1 * 0.912f;
	fp t3 = state[off + 4] * params[poff + 3] - t0 * 0.044f;
	fp t4 = powf(fabsf(state[off + 3]) + 1e-6f, 3.0f) - t1 * 0.756f;
	fp t5 = state[off + 29] * params[poff + 5] - t4 * 0.394f;
	fp t6 = powf(fabsf(state[off + 5]) + 1e-6f, 3.0f) - t2 * 0.879f;
	fp t7 = expf(-state[off + 19] / 17.0f) - t4 * 0.181f;
	fp t8 = 1.0f / (1.0f + expf((state[off + 2] + 47.0f) / 10.0f)) - t7 * 0.411f;
	fp t9 = expf(-state[off + 29] / 31.0f) - t4 * 0.350f;
	fp t10 = 0.6487f * t_now + state[off + 1] - t8 * 0.265f;
	fp t11 = 1.0f / (1.0f + expf((state[off + 18] + 25.0f) / 2.0f)) - t5 * 0.236f;
	fp t12 = powf(fabsf(state[off + 24]) + 1e-6f, 3.0f) - t2 * 0.481f;
	fp t13 = 0.5990f * t_now + state[off + 10] - t5 * 0.211f;
	fp t14 = state[off + 5] * params[poff + 14] - t10 * 0.459f;
	fp t15 = 1.0f / (1.0f + expf((state[off + 22] + 4.0f) / 8.0f)) - t13 * 0.959f;
	fp t16 = state[off + 6] * params[poff + 0] - t13 * 0.370f;
	fp t17 = 0.1579f * t_now + state[off + 8] - t13 * 0.643f;
	fp t18 = state[off + 2] * params[poff + 2] - t12 * 0.993f;
	fp t19 = expf(-state[off + 10] / 7.0f) - t2 * 0.234f;
	fp t20 = powf(fabsf(state[off + 29]) + 1e-6f, 2.0f) - t9 * 0.339f;
	fp t21 = state[off + 11] * params[poff + 5] - t13 * 0.237f;
	fp t22 = powf(fabsf(state[off + 10]) + 1e-6f, 2.0f) - t6 * 0.128f;
	fp t23 = expf(-state[off + 16] / 33.0f) - t12 * 0.879f;
	fp t24 = 1.0f / (1.0f + expf((state[off + 5] + 80.0f) / 5.0f)) - t20 * 0.361f;
	fp t25 = powf(fabsf(state[off + 27]) + 1e-6f, 3.0f) - t2 * 0.789f;
	fp t26 = state[off + 9] * params[poff + 10] - t18 * 0.869f;
	fp t27 = 0.6748f * t_now + state[off + 3] - t15 * 0.183f;
	fp t28 = 1.0f / (1.0f + expf((state[off + 13] + 18.0f) / 10.0f)) - t22 * 0.588f;
	fp t29 = 0.3574f * t_now + state[off + 18] - t18 * 0.769f;
	fp t30 = 1.0f / (1.0f + expf((state[off + 11] + 24.0f) / 2.0f)) - t5 * 0.490f;
	fp t31 = 1.0f / (1.0f + expf((state[off + 29] + 45.0f) / 4.0f)) - t26 * 0.006f;
	fp t32 = 1.0f / (1.0f + expf((state[off + 11] + 31.0f) / 11.0f)) - t27 * 0.760f;
	fp t33 = 0.5812f * t_now + state[off + 27] - t7 * 0.765f;
	fp t34 = 1.0f / (1.0f + expf((state[off + 17] + 12.0f) / 11.0f)) - t5 * 0.909f;
	fp t35 = powf(fabsf(state[off + 9]) + 1e-6f, 1.5f) - t10 * 0.889f;
	fp t36 = 0.5669f * t_now + state[off + 3] - t5 * 0.797f;
	deriv[soff + 51] = t33 + t10 + t0;
	deriv[soff + 52] = t31 + t3 + t20;
	deriv[soff + 53] = t18 + t3 + t32;
	deriv[soff + 54] = t32 + t21 + t4;
	deriv[soff + 55] = t30 + t17 + t12;
}

__device__ void module_18(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 37;
	fp t0 = 1.0f / (1.0f + expf((state[off + 28] + 76.0f) / 4.0f));
	fp t1 = expf(-state[off + 25] / 14.0f);
	fp t2 = powf(fabsf(state[off + 6]) + 1e-6f, 3.0f) - t1 * 0.363f;
	fp t3 = 1.0f / (1.0f + expf((state[off + 13] + 30.0f) / 2.0f)) - t0 * 0.212f;
	fp t4 = powf(fabsf(state[off + 10]) + 1e-6f, 3.0f) - t3 * 0.209f;
	fp t5 = expf(-state[off + 22] / 11.0f) - t4 * 0.686f;
	fp t6 = state[off + 12] * params[poff + 6] - t2 * 0.203f;
	fp t7 = expf(-state[off + 11] / 37.0f) - t3 * 0.084f;
	fp t8 = powf(fabsf(state[off + 4]) + 1e-6f, 3.0f) - t2 * 0.636f;
	fp t9 = 0.1470f * t_now + state[off + 22] - t1 * 0.521f;
	fp t10 = 1.0f / (1.0f + expf((state[off + 2] + 18.0f) / 8.0f)) - t7 * 0.404f;
	fp t11 = expf(-state[off + 26] / 37.0f) - t2 * 0.164f;
	fp t12 = powf(fabsf(state[off + 14]) + 1e-6f, 3.0f) - t3 * 0.483f;
	fp t13 = expf(-state[off + 15] / 39.0f) - t8 * 0.540f;
	fp t14 = powf(fabsf(state[off + 20]) + 1e-6f, 2.0f) - t8 * 0.012f;
	fp t15 = 1.0f / (1.0f + expf((state[off + 24] + 3.0f) / 7.0f)) - t5 * 0.359f;
	fp t16 = powf(fabsf(state[off + 1]) + 1e-6f, 2.0f) - t8 * 0.836f;
	fp t17 = expf(-state[off + 18] / 19.0f) - t15 * 0.306f;
	fp t18 = 0.6058f * t_now + state[off + 20] - t10 * 0.439f;
	fp t19 = powf(fabsf(state[off + 21]) + 1e-6f, 0.5f) - t9 * 0.256f;
	fp t20 = 0.2607f * t_now + state[off + 11] - t0 * 0.658f;
	fp t21 = expf(-state[off + 25] / 7.0f) - t12 * 0.720f;
	fp t22 = state[off + 25] * params[poff + 6] - t16 * 0.343f;
	fp t23 = 1.0f / (1.0f + expf((state[off + 24] + 17.0f) / 12.0f)) - t20 * 0.840f;
	fp t24 = 0.0594f * t_now + state[off + 25] - t6 * 0.520f;
	fp t25 = 0.9419f * t_now + state[off + 23] - t23 * 0.236f;
	fp t26 = 1.0f / (1.0f + expf((state[off + 1] + 41.0f) / 2.0f)) - t9 * 0.756f;
	fp t27 = powf(fabsf(state[off + 16]) + 1e-6f, 2.0f) - t18 * 0.392f;
	fp t28 = 1.0f / (1.0f + expf((state[off + 15] + 19.0f) / 8.0f)) - t13 * 0.902f;
	fp t29 = expf(-state[off + 5] / 4.0f) - t2 * 0.483f;
	fp t30 = state[off + 25] * params[poff + 14] - t16 * 0.737f;
	fp t31 = expf(-state[off + 23] / 40.0f) - t0 * 0.533f;
	fp t32 = powf(fabsf(state[off + 1]) + 1e-6f, 2.0f) - t26 * 0.155f;
	fp t33 = expf(-state[off + 17] / 23.0f) - t29 * 0.789f;
	fp t34 = powf(fabsf(state[off + 27]) + 1e-6f, 1.5f) - t7 * 0.533f;
	fp t35 = expf(-state[off + 24] / 40.0f) - t22 * 0.167f;
	fp t36 = state[off + 24] * params[poff + 4] - t34 * 0.151f;
	deriv[soff + 54] = t7 + t7 + t0;
	deriv[soff + 55] = t1 + t10 + t13;
	deriv[soff + 56] = t34 + t14 + t29;
	deriv[soff + 57] = t11 + t17 + t13;
}

__device__ void module_19(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 49;
	fp t0 = powf(fabsf(state[off + 3]) + 1e-6f, 3.0f);
	fp t1 = powf(fabsf(state[off + 7]) + 1e-6f, 1.5f);
	fp t2 = 0.5616f * t_now + state[off + 20] - t0 * 0.285f;
	fp t3 = expf(-state[off + 9] / 34.0f) - t2 * 0.933f;
	fp t4 = 1.0f / (1.0f + expf((state[off + 20] + 41.0f) / 4.0f)) - t1 * 0.586f;
	fp t5 = 1.0f / (1.0f + expf((state[off + 11] + 48.0f) / 5.0f)) - t2 * 0.749f;
	fp t6 = 0.7548f * t_now + state[off + 14] - t2 * 0.304f;
	fp t7 = state[off + 10] * params[poff + 7] - t2 * 0.162f;
	fp t8 = powf(fabsf(state[off + 17]) + 1e-6f, 0.5f) - t6 * 0.874f;
	fp t9 = state[off + 8] * params[poff + 9] - t5 * 0.161f;
	fp t10 = 0.2450f * t_now + state[off + 15] - t5 * 0.486f;
	fp t11 = 0.5438f * t_now + state[off + 3] - t0 * 0.884f;
	fp t12 = expf(-state[off + 28] / 19.0f) - t5 * 0.611f;
	fp t13 = expf(-state[off + 17] / 39.0f) - t4 * 0.739f;
	fp t14 = 0.8534f * t_now + state[off + 29] - t6 * 0.702f;
	fp t15 = 1.0f / (1.0f + expf((state[off + 3] + 61.0f) / 5.0f)) - t12 * 0.996f;
	fp t16 = 0.5897f * t_now + state[off + 13] - t14 * 0.624f;
	fp t17 = powf(fabsf(state[off + 19]) + 1e-6f, 0.5f) - t8 * 0.957f;
	fp t18 = 0.0376f * t_now + state[off + 2] - t2 * 0.823f;
	fp t19 = state[off + 17] * params[poff + 3] - t15 * 0.294f;
	fp t20 = 1.0f / (1.0f + expf((state[off + 26] + 3.0f) / 8.0f)) - t14 * 0.975f;
	fp t21 = 1.0f / (1.0f + expf((state[off + 20] + 79.0f) / 9.0f)) - t8 * 0.799f;
	fp t22 = state[off + 7] * params[poff + 6] - t15 * 0.264f;
	fp t23 = state[off + 20] * params[poff + 7] - t6 * 0.250f;
	fp t24 = expf(-state[off + 5] / 40.0f) - t14 * 0.250f;
	fp t25 = state[off + 3] * params[poff + 9] - t20 * 0.132f;
	fp t26 = expf(-state[off + 0] / 12.0f) - t6 * 0.562f;
	fp t27 = 0.5882f * t_now + state[off + 13] - t4 * 0.391f;
	deriv[soff + 57] = t11 + t8 + t23;
	deriv[soff + 58] = t25 + t8 + t10;
	deriv[soff + 59] = t13 + t7 + t21;
	deriv[soff + 60] = t1 + t3 + t24;
}

__device__ void module_20(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 3;
	fp t0 = 0.2115f * t_now + state[off + 22];
	fp t1 = powf(fabsf(state[off + 2]) + 1e-6f, 1.5f);
	fp t2 = powf(fabsf(state[off + 9]) + 1e-6f, 0.5f) - t0 * 0.231f;
	fp t3 = 1.0f / (1.0f + expf((state[off + 23] + 54.0f) / 7.0f)) - t0 * 0.507f;
	fp t4 = powf(fabsf(state[off + 3]) + 1e-6f, 1.5f) - t1 * 0.761f;
	fp t5 = 0.6886f * t_now + state[off + 9] - t3 * 0.762f;
	fp t6 = expf(-state[off + 26] / 23.0f) - t0 * 0.126f;
	fp t7 = state[off + 7] * params[poff + 7] - t0 * 0.219f;
	fp t8 = 1.0f / (1.0f + expf((state[off + 0] + 13.0f) / 5.0f)) - t5 * 0.944f;
	fp t9 = powf(fabsf(state[off + 3]) + 1e-6f, 2.0f) - t8 * 0.704f;
	fp t10 = 0.9216f * t_now + state[off + 28] - t8 * 0.228f;
	fp t11 = powf(fabsf(state[off + 5]) + 1e-6f, 1.5f) - t5 * 0.812f;
	fp t12 = 0.8545f * t_now + state[off + 0] - t0 * 0.649f;
	fp t13 = 1.0f / (1.0f + expf((state[off + 11] + 51.0f) / 7.0f)) - t2 * 0.097f;
	fp t14 = powf(fabsf(state[off + 0]) + 1e-6f, 2.0f) - t5 * 0.359f;
	fp t15 = powf(fabsf(state[off + 1]) + 1e-6f, 3.0f) - t9 * 0.366f;
	fp t16 = powf(fabsf(state[off + 15]) + 1e-6f, 0.5f) - t4 * 0.153f;
	fp t17 = state[off + 23] * params[poff + 1] - t7 * 0.587f;
	fp t18 = 0.0285f * t_now + state[off + 24] - t1 * 0.816f;
	fp t19 = powf(fabsf(state[off + 16]) + 1e-6f, 3.0f) - t5 * 0.167f;
	fp t20 = expf(-state[off + 8] / 31.0f) - t14 * 0.755f;
	fp t21 = 0.1529f * t_now + state[off + 18] - t10 * 0.331f;
	fp t22 = 1.0f / (1.0f + expf((state[off + 13] + 13.0f) / 3.0f)) - t21 * 0.312f;
	fp t23 = powf(fabsf(state[off + 23]) + 1e-6f, 3.0f) - t16 * 0.715f;
	fp t24 = powf(fabsf(state[off + 7]) + 1e-6f, 3.0f) - t11 * 0.679f;
	fp t25 = 0.3332f * t_now + state[off + 16] - t13 * 0.623f;
	fp t26 = state[off + 8] * params[poff + 10] - t13 * 0.299f;
	fp t27 = expf(-state[off + 26] / 9.0f) - t25 * 0.668f;
	fp t28 = 0.5002f * t_now + state[off + 11] - t26 * 0.796f;
	fp t29 = powf(fabsf(state[off + 26]) + 1e-6f, 2.0f) - t12 * 0.340f;
	fp t30 = 1.0f / (1.0f + expf((state[off + 0] + 3.0f) / 10.0f)) - t10 * 0.065f;
	fp t31 = state[off + 24] * params[poff + 15] - t5 * 0.852f;
	fp t32 = 1.0f / (1.0f + expf((state[off + 18] + 7.0f) / 7.0f)) - t30 * 0.526f;
	deriv[soff + 0] = t12 + t0 + t23;
	deriv[soff + 1] = t15 + t15 + t4;
	deriv[soff + 2] = t13 + t7 + t2;
	deriv[soff + 3] = t10 + t3 + t4;
	deriv[soff + 4] = t13 + t5 + t10;
}

__device__ void module_21(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 26;
	fp t0 = expf(-state[off + 20] / 30.0f);
	fp t1 = 0.5142f * t_now + state[off + 13];
	fp t2 = state[off + 2] * params[poff + 2] - t1 * 0.079f;
	fp t3 = powf(fabsf(state[off + 6]) + 1e-6f, 1.5f) - t1 * 0.604f;
	fp t4 = 0.8097f * t_now + state[off + 3] - t2 * 0.677f;
	fp t5 = expf(-state[off + 3] / 35.0f) - t2 * 0.338f;
	fp t6 = 1.0f / (1.0f + expf((state[off + 9] + 53.0f) / 4.0f)) - t3 * 0.466f;
	fp t7 = state[off + 29] * params[poff + 7] - t0 * 0.284f;
	fp t8 = powf(fabsf(state[off + 3]) + 1e-6f, 3.0f) - t0 * 0.754f;
	fp t9 = state[off + 19] * params[poff + 9] - t4 * 0.166f;
	fp t10 = expf(-state[off + 24] / 7.0f) - t6 * 0.043f;
	fp t11 = expf(-state[off + 5] / 34.0f) - t3 * 0.272f;
	fp t12 = powf(fabsf(state[off + 29]) + 1e-6f, 0.5f) - t7 * 0.164f;
	fp t13 = expf(-state[off + 4] / 39.0f) - t5 * 0.141f;
	fp t14 = 1.0f / (1.0f + expf((state[off + 11] + 47.0f) / 6.0f)) - t4 * 0.055f;
	fp t15 = 1.0f / (1.0f + expf((state[off + 20] + 64.0f) / 5.0f)) - t4 * 0.050f;
	fp t16 = powf(fabsf(state[off + 5]) + 1e-6f, 3.0f) - t11 * 0.918f;
	fp t17 = 0.2586f * t_now + state[off + 25] - t4 * 0.372f;
	fp t18 = state[off + 26] * params[poff + 2] - t9 * 0.831f;
	fp t19 = expf(-state[off + 4] / 6.0f) - t17 * 0.793f;
	fp t20 = expf(-state[off + 5] / 20.0f) - t8 * 0.034f;
	fp t21 = 1.0f / (1.0f + expf((state[off + 2] + 52.0f) / 9.0f)) - t3 * 0.063f;
	fp t22 = powf(fabsf(state[off + 17]) + 1e-6f, 0.5f) - t12 * 0.303f;
	fp t23 = powf(fabsf(state[off + 15]) + 1e-6f, 1.5f) - t19 * 0.200f;
	deriv[soff + 3] = t13 + t10 + t14;
	deriv[soff + 4] = t13 + t12 + t0;
	deriv[soff + 5] = t20 + t8 + t1;
	deriv[soff + 6] = t4 + t15 + t4;
}

__device__ void module_22(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 1;
	fp t0 = state[off + 0] * params[poff + 0];
	fp t1 = state[off + 13] * params[poff + 1];
	fp t2 = 0.4560f * t_now + state[off + 3] - t0 * 0.685f;
	fp t3 = powf(fabsf(state[off + 14]) + 1e-6f, 1.5f) - t2 * 0.760f;
	fp t4 = powf(fabsf(state[off + 10]) + 1e-6f, 1.5f) - t2 * 0.279f;
	fp t5 = 1.0f / (1.0f + expf((state[off + 3] + 20.0f) / 6.0f)) - t4 * 0.824f;
	fp t6 = 1.0f / (1.0f + expf((state[off + 10] + 42.0f) / 2.0f)) - t5 * 0.444f;
	fp t7 = 1.0f / (1.0f + expf((state[off + 2] + 53.0f) / 4.0f)) - t1 * 0.480f;
	fp t8 = state[off + 18] * params[poff + 8] - t0 * 0.965f;
	fp t9 = 0.4933f * t_now + state[off + 19] - t4 * 0.467f;
	fp t10 = 1.0f / (1.0f + expf((state[off + 0] + 47.0f) / 8.0f)) - t1 * 0.797f;
	fp t11 = 0.1838f * t_now + state[off + 18] - t5 * 0.336f;
	fp t12 = 0.3652f * t_now + state[off + 8] - t1 * 0.175f;
	fp t13 = 1.0f / (1.0f + expf((state[off + 5] + 48.0f) / 8.0f)) - t9 * 0.750f;
	fp t14 = powf(fabsf(state[off + 8]) + 1e-6f, 1.5f) - t12 * 0.945f;
	fp t15 = expf(-state[off + 20] / 28.0f) - t10 * 0.717f;
	fp t16 = 1.0f / (1.0f + expf((state[off + 21] + 77.0f) / 5.0f)) - t9 * 0.982f;
	fp t17 = 1.0f / (1.0f + expf((state[off + 17] + 6.0f) / 11.0f)) - t2 * 0.239f;
	fp t18 = 0.0560f * t_now + state[off + 0] - t3 * 0.371f;
	fp t19 = expf(-state[off + 25] / 11.0f) - t1 * 0.564f;
	fp t20 = 1.0f / (1.0f + expf((state[off + 5] + 19.0f) / 11.0f)) - t17 * 0.449f;
	fp t21 = state[off + 12] * params[poff + 5] - t8 * 0.223f;
	fp t22 = 1.0f / (1.0f + expf((state[off + 18] + 11.0f) / 2.0f)) - t1 * 0.027f;
	fp t23 = powf(fabsf(state[off + 14]) + 1e-6f, 2.0f) - t16 * 0.063f;
	fp t24 = powf(fabsf(state[off + 1]) + 1e-6f, 2.0f) - t12 * 0.259f;
	fp t25 = state[off + 17] * params[poff + 9] - t7 * 0.086f;
	fp t26 = powf(fabsf(state[off + 27]) + 1e-6f, 0.5f) - t7 * 0.062f;
	fp t27 = state[off + 18] * params[poff + 11] - t25 * 0.458f;
	fp t28 = state[off + 21] * params[poff + 12] - t14 * 0.468f;
	fp t29 = powf(fabsf(state[off + 14]) + 1e-6f, 3.0f) - t23 * 0.924f;
	deriv[soff + 6] = t27 + t1 + t20;
	deriv[soff + 7] = t10 + t13 + t29;
}

__device__ void module_23(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 37;
	fp t0 = powf(fabsf(state[off + 1]) + 1e-6f, 3.0f);
	fp t1 = expf(-state[off + 19] / 37.0f);
	fp t2 = state[off + 2] * params[poff + 2] - t1 * 0.963f;
	fp t3 = expf(-state[off + 20] / 34.0f) - t1 * 0.651f;
	fp t4 = powf(fabsf(state[off + 12]) + 1e-6f, 0.5f) - t2 * 0.697f;
	fp t5 = expf(-state[off + 11] / 32.0f) - t3 * 0.575f;
	fp t6 = expf(-state[off + 19] / 22.0f) - t1 * 0.686f;
	fp t7 = 1.0f / (1.0f + expf((state[off + 20] + 32.0f) / 4.0f)) - t4 * 0.987f;
	fp t8 = expf(-state[off + 5] / 8.0f) - t7 * 0.362f;
	fp t9 = expf(-state[off + 11] / 34.0f) - t4 * 0.422f;
	fp t10 = 1.0f / (1.0f + expf((state[off + 20] + 16.0f) / 11.0f)) - t8 * 0.580f;
	fp t11 = expf(-state[off + 9] / 22.0f) - t8 * 0.648f;
	fp t12 = state[off + 12] * params[poff + 12] - t0 * 0.354f;
	fp t13 = 1.0f / (1.0f + expf((state[off + 27] + 50.0f) / 10.0f)) - t1 * 0.147f;
	fp t14 = 1.0f / (1.0f + expf((state[off + 25] + 44.0f) / 9.0f)) - t11 * 0.953f;
	fp t15 = state[off + 16] * params[poff + 15] - t11 * 0.411f;
	fp t16 = expf(-state[off + 0] / 12.0f) - t1 * 0.296f;
	fp t17 = 1.0f / (1.0f + expf((state[off + 19] + 77.0f) / 12.0f)) - t1 * 0.048f;
	fp t18 = 1.0f / (1.0f + expf((state[off + 12] + 74.0f) / 2.0f)) - t13 * 0.589f;
	fp t19 = expf(-state[off + 23] / 32.0f) - t2 * 0.089f;
	fp t20 = state[off + 28] * params[poff + 4] - t1 * 0.032f;
	fp t21 = state[off + 5] * params[poff + 5] - t13 * 0.789f;
	fp t22 = 0.5013f * t_now + state[off + 26] - t14 * 0.068f;
	fp t23 = state[off + 26] * params[poff + 7] - t2 * 0.103f;
	fp t24 = state[off + 10] * params[poff + 8] - t23 * 0.302f;
	fp t25 = state[off + 14] * params[poff + 9] - t24 * 0.971f;
	fp t26 = 0.5744f * t_now + state[off + 25] - t1 * 0.865f;
	fp t27 = 0.4066f * t_now + state[off + 28] - t9 * 0.627f;
	fp t28 = 1.0f / (1.0f + expf((state[off + 20] + 9.0f) / 7.0f)) - t23 * 0.028f;
	fp t29 = 1.0f / (1.0f + expf((state[off + 11] + 2.0f) / 5.0f)) - t21 * 0.448f;
	fp t30 = expf(-state[off + 25] / 40.0f) - t28 * 0.504f;
	fp t31 = state[off + 5] * params[poff + 15] - t7 * 0.991f;
	fp t32 = expf(-state[off + 7] / 18.0f) - t9 * 0.326f;
	fp t33 = state[off + 14] * params[poff + 1] - t18 * 0.611f;
	fp t34 = state[off + 21] * params[poff + 2] - t26 * 0.526f;
	fp t35 = state[off + 26] * params[poff + 3] - t11 * 0.480f;
	deriv[soff + 9] = t22 + t4 + t35;
	deriv[soff + 10] = t34 + t29 + t8;
	deriv[soff + 11] = t31 + t20 + t27;
	deriv[soff + 12] = t35 + t2 + t19;
}

__device__ void module_24(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 13;
	fp t0 = 1.0f / (1.0f + expf((state[off + 8] + 3.0f) / 9.0f));
	fp t1 = expf(-state[off + 6] / 23.0f);
	fp t2 = 1.0f / (1.0f + expf((state[off + 0] + 59.0f) / 8.0f)) - t0 * 0.844f;
	fp t3 = state[off + 0] * params[poff + 3] - t0 * 0.097f;
	fp t4 = 0.9950f * t_now + state[off + 0] - t3 * 0.334f;
	fp t5 = powf(fabsf(state[off + 10]) + 1e-6f, 0.5f) - t0 * 0.037f;
	fp t6 = state[off + 27] * params[poff + 6] - t1 * 0.181f;
	fp t7 = expf(-state[off + 22] / 39.0f) - t6 * 0.678f;
	fp t8 = powf(fabsf(state[off + 23]) + 1e-6f, 3.0f) - t3 * 0.301f;
	fp t9 = state[off + 26] * params[poff + 9] - t0 * 0.686f;
	fp t10 = powf(fabsf(state[off + 4]) + 1e-6f, 1.5f) - t0 * 0.769f;
	fp t11 = 0.1410f * t_now + state[off + 28] - t0 * 0.721f;
	fp t12 = 1.0f / (1.0f + expf((state[off + 19] + 23.0f) / 4.0f)) - t11 * 0.667f;
	fp t13 = 0.9957f * t_now + state[off + 18] - t4 * 0.129f;
	fp t14 = 1.0f / (1.0f + expf((state[off + 7] + 49.0f) / 10.0f)) - t9 * 0.733f;
	fp t15 = 0.7432f * t_now + state[off + 22] - t10 * 0.771f;
	fp t16 = state[off + 28] * params[poff + 0] - t13 * 0.348f;
	fp t17 = powf(fabsf(state[off + 23]) + 1e-6f, 0.5f) - t7 * 0.959f;
	fp t18 = 0.2915f * t_now + state[off + 16] - t7 * 0.415f;
	fp t19 = expf(-state[off + 24] / 23.0f) - t7 * 0.309f;
	fp t20 = 1.0f / (1.0f + expf((state[off + 14] + 71.0f) / 3.0f)) - t19 * 0.038f;
	fp t21 = powf(fabsf(state[off + 23]) + 1e-6f, 1.5f) - t20 * 0.430f;
	fp t22 = state[off + 26] * params[poff + 6] - t14 * 0.151f;
	fp t23 = expf(-state[off + 29] / 10.0f) - t10 * 0.409f;
	fp t24 = 1.0f / (1.0f + expf((state[off + 1] + 76.0f) / 11.0f)) - t14 * 0.358f;
	fp t25 = powf(fabsf(state[off + 24]) + 1e-6f, 2.0f) - t17 * 0.169f;
	fp t26 = 0.2220f * t_now + state[off + 2] - t15 * 0.351f;
	fp t27 = 0.6696f * t_now + state[off + 2] - t1 * 0.392f;
	fp t28 = state[off + 5] * params[poff + 12] - t7 * 0.102f;
	fp t29 = state[off + 4] * params[poff + 13] - t28 * 0.943f;
	fp t30 = 0.1001f * t_now + state[off + 7] - t22 * 0.743f;
	fp t31 = expf(-state[off + 28] / 18.0f) - t8 * 0.378f;
	fp t32 = powf(fabsf(state[off + 27]) + 1e-6f, 0.5f) - t30 * 0.993f;
	fp t33 = powf(fabsf(state[off + 8]) + 1e-6f, 1.5f) - t14 * 0.416f;
	fp t34 = 0.5712f * t_now + state[off + 8] - t12 * 0.730f;
	fp t35 = expf(-state[off + 20] / 19.0f) - t31 * 0.368f;
	fp t36 = powf(fabsf(state[off + 0]) + 1e-6f, 0.5f) - t20 * 0.739f;
	deriv[soff + 12] = t1 + t6 + t16;
	deriv[soff + 13] = t17 + t33 + t3;
	deriv[soff + 14] = t34 + t29 + t18;
	deriv[soff + 15] = t17 + t31 + t27;
	deriv[soff + 16] = t32 + t35 + t17;
}

__device__ void module_25(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 40;
	fp t0 = powf(fabsf(state[off + 17]) + 1e-6f, 2.0f);
	fp t1 = state[off + 0] * params[poff + 1];
	fp t2 = state[off + 7] * params[poff + 2] - t1 * 0.965f;
	fp t3 = 0.2881f * t_now + state[off + 26] - t1 * 0.708f;
	fp t4 = 0.6345f * t_now + state[off + 7] - t1 * 0.619f;
	fp t5 = state[off + 14] * params[poff + 5] - t4 * 0.670f;
	fp t6 = powf(fabsf(state[off + 2]) + 1e-6f, 2.0f) - t5 * 0.187f;
	fp t7 = expf(-state[off + 19] / 7.0f) - t0 * 0.324f;
	fp t8 = 0.7915f * t_now + state[off + 17] - t1 * 0.059f;
	fp t9 = powf(fabsf(state[off + 13]) + 1e-6f, 0.5f) - t8 * 0.758f;
	fp t10 = 1.0f / (1.0f + expf((state[off + 11] + 39.0f) / 5.0f)) - t3 * 0.366f;
	fp t11 = expf(-state[off + 0] / 23.0f) - t1 * 0.247f;
	fp t12 = 1.0f / (1.0f + expf((state[off + 22] + 34.0f) / 7.0f)) - t11 * 0.439f;
	fp t13 = powf(fabsf(state[off + 19]) + 1e-6f, 1.5f) - t10 * 0.167f;
	fp t14 = 0.2975f * t_now + state[off + 11] - t6 * 0.804f;
	fp t15 = state[off + 2] * params[poff + 15] - t8 * 0.909f;
	fp t16 = expf(-state[off + 10] / 36.0f) - t12 * 0.440f;
	fp t17 = expf(-state[off + 1] / 14.0f) - t12 * 0.926f;
	fp t18 = state[off + 1] * params[poff + 2] - t2 * 0.926f;
	fp t19 = state[off + 11] * params[poff + 3] - t17 * 0.862f;
	fp t20 = expf(-state[off + 21] / 31.0f) - t11 * 0.715f;
	fp t21 = 0.2715f * t_now + state[off + 8] - t16 * 0.210f;
	fp t22 = 1.0f / (1.0f + expf((state[off + 10] + 77.0f) / 12.0f)) - t7 * 0.179f;
	fp t23 = 1.0f / (1.0f + expf((state[off + 19] + 39.0f) / 4.0f)) - t14 * 0.575f;
	fp t24 = 1.0f / (1.0f + expf((state[off + 14] + 3.0f) / 12.0f)) - t10 * 0.813f;
	fp t25 = 0.8042f * t_now + state[off + 12] - t5 * 0.845f;
	fp t26 = 1.0f / (1.0f + expf((state[off + 24] + 77.0f) / 3.0f)) - t19 * 0.861f;
	fp t27 = 0.4175f * t_now + state[off + 29] - t4 * 0.193f;
	fp t28 = powf(fabsf(state[off + 14]) + 1e-6f, 3.0f) - t8 * 0.424f;
	fp t29 = 1.0f / (1.0f + expf((state[off + 1] + 13.0f) / 3.0f)) - t12 * 0.377f;
	fp t30 = 1.0f / (1.0f + expf((state[off + 17] + 47.0f) / 12.0f)) - t9 * 0.284f;
	fp t31 = powf(fabsf(state[off + 21]) + 1e-6f, 3.0f) - t22 * 0.518f;
	deriv[soff + 15] = t14 + t20 + t10;
	deriv[soff + 16] = t22 + t10 + t5;
	deriv[soff + 17] = t19 + t6 + t20;
	deriv[soff + 18] = t13 + t5 + t26;
	deriv[soff + 19] = t30 + t1 + t3;
}

__device__ void module_26(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 44;
	fp t0 = 0.1310f * t_now + state[off + 6];
	fp t1 = expf(-state[off + 21] / 32.0f);
	fp t2 = state[off + 3] * params[poff + 2] - t1 * 0.070f;
	fp t3 = state[off + 5] * params[poff + 3] - t0 * 0.081f;
	fp t4 = powf(fabsf(state[off + 15]) + 1e-6f, 2.0f) - t0 * 0.929f;
	fp t5 = state[off + 2] * params[poff + 5] - t4 * 0.655f;
	fp t6 = 0.4670f * t_now + state[off + 13] - t5 * 0.979f;
	fp t7 = 0.9889f * t_now + state[off + 21] - t6 * 0.483f;
	fp t8 = state[off + 18] * params[poff + 8] - t5 * 0.573f;
	fp t9 = powf(fabsf(state[off + 6]) + 1e-6f, 1.5f) - t1 * 0.097f;
	fp t10 = 0.8090f * t_now + state[off + 29] - t8 * 0.578f;
	fp t11 = 1.0f / (1.0f + expf((state[off + 17] + 80.0f) / 10.0f)) - t0 * 0.777f;
	fp t12 = 1.0f / (1.0f + expf((state[off + 16] + 23.0f) / 9.0f)) - t11 * 0.015f;
	fp t13 = 0.9741f * t_now + state[off + 10] - t10 * 0.285f;
	fp t14 = 1.0f / (1.0f + expf((state[off + 29] + 61.0f) / 8.0f)) - t13 * 0.929f;
	fp t15 = powf(fabsf(state[off + 18]) + 1e-6f, 2.0f) - t3 * 0.131f;
	fp t16 = state[off + 7] * params[poff + 0] - t2 * 0.575f;
	fp t17 = powf(fabsf(state[off + 15]) + 1e-6f, 2.0f) - t6 * 0.567f;
	fp t18 = 0.6913f * t_now + state[off + 23] - t4 * 0.654f;
	fp t19 = powf(fabsf(state[off + 2]) + 1e-6f, 2.0f) - t13 * 0.458f;
	deriv[soff + 18] = t9 + t19 + t7;
	deriv[soff + 19] = t15 + t2 + t13;
	deriv[soff + 20] = t4 + t6 + t14;
	deriv[soff + 21] = t18 + t16 + t16;
	deriv[soff + 22] = t17 + t7 + t10;
}

__device__ void module_27(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 5;
	fp t0 = powf(fabsf(state[off + 0]) + 1e-6f, 1.5f);
	fp t1 = expf(-state[off + 15] / 10.0f);
	fp t2 = powf(fabsf(state[off + 27]) + 1e-6f, 2.0f) - t1 * 0.250f;
	fp t3 = 1.0f / (1.0f + expf((state[off + 6] + 4.0f) / 6.0f)) - t0 * 0.394f;
	fp t4 = expf(-state[off + 15] / 34.0f) - t1 * 0.141f;
	fp t5 = powf(fabsf(state[off + 27]) + 1e-6f, 0.5f) - t4 * 0.956f;
	fp t6 = powf(fabsf(state[off + 13]) + 1e-6f, 3.0f) - t4 * 0.001f;
	fp t7 = expf(-state[off + 28] / 29.0f) - t3 * 0.311f;
	fp t8 = expf(-state[off + 11] / 17.0f) - t2 * 0.067f;
	fp t9 = 1.0f / (1.0f + expf((state[off + 8] + 6.0f) / 2.0f)) - t1 * 0.588f;
	fp t10 = state[off + 5] * params[poff + 10] - t3 * 0.905f;
	fp t11 = state[off + 12] * params[poff + 11] - t0 * 0.597f;
	fp t12 = state[off + 16] * params[poff + 12] - t1 * 0.562f;
	fp t13 = state[off + 13] * params[poff + 13] - t5 * 0.107f;
	fp t14 = expf(-state[off + 0] / 35.0f) - t13 * 0.046f;
	fp t15 = powf(fabsf(state[off + 9]) + 1e-6f, 3.0f) - t5 * 0.495f;
	fp t16 = state[off + 4] * params[poff + 0] - t4 * 0.355f;
	fp t17 = powf(fabsf(state[off + 18]) + 1e-6f, 2.0f) - t8 * 0.113f;
	fp t18 = state[off + 27] * params[poff + 2] - t16 * 0.930f;
	fp t19 = 0.7868f * t_now + state[off + 10] - t1 * 0.768f;
	fp t20 = powf(fabsf(state[off + 29]) + 1e-6f, 0.5f) - t19 * 0.089f;
	fp t21 = 1.0f / (1.0f + expf((state[off + 11] + 45.0f) / 8.0f)) - t15 * 0.441f;
	fp t22 = 0.9066f * t_now + state[off + 23] - t20 * 0.319f;
	fp t23 = powf(fabsf(state[off + 13]) + 1e-6f, 1.5f) - t11 * 0.182f;
	fp t24 = powf(fabsf(state[off + 25]) + 1e-6f, 1.5f) - t6 * 0.305f;
	fp t25 = 1.0f / (1.0f + expf((state[off + 29] + 56.0f) / 11.0f)) - t22 * 0.383f;
	fp t26 = expf(-state[off + 28] / 26.0f) - t13 * 0.334f;
	fp t27 = 0.0288f * t_now + state[off + 4] - t20 * 0.003f;
	fp t28 = powf(fabsf(state[off + 12]) + 1e-6f, 1.5f) - t16 * 0.253f;
	deriv[soff + 21] = t12 + t24 + t1;
	deriv[soff + 22] = t2 + t12 + t2;
	deriv[soff + 23] = t25 + t24 + t16;
}

__device__ void module_28(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 28;
	fp t0 = expf(-state[off + 15] / 32.0f);
	fp t1 = state[off + 25] * params[poff + 1];
	fp t2 = 1.0f / (1.0f + expf((state[off + 26] + 67.0f) / 8.0f)) - t0 * 0.160f;
	fp t3 = powf(fabsf(state[off + 1]) + 1e-6f, 1.5f) - t1 * 0.874f;
	fp t4 = expf(-state[off + 17] / 9.0f) - t2 * 0.528f;
	fp t5 = 1.0f / (1.0f + expf((state[off + 28] + 11.0f) / 11.0f)) - t0 * 0.066f;
	fp t6 = state[off + 26] * params[poff + 6] - t1 * 0.033f;
	fp t7 = state[off + 5] * params[poff + 7] - t5 * 0.393f;
	fp t8 = 0.8511f * t_now + state[off + 20] - t2 * 0.615f;
	fp t9 = 1.0f / (1.0f + expf((state[off + 2] + 78.0f) / 5.0f)) - t8 * 0.350f;
	fp t10 = powf(fabsf(state[off + 25]) + 1e-6f, 3.0f) - t2 * 0.141f;
	fp t11 = 1.0f / (1.0f + expf((state[off + 2] + 25.0f) / 2.0f)) - t0 * 0.947f;
	fp t12 = state[off + 21] * params[poff + 12] - t6 * 0.541f;
	fp t13 = 1.0f / (1.0f + expf((state[off + 18] + 10.0f) / 4.0f)) - t12 * 0.672f;
	fp t14 = powf(fabsf(state[off + 6]) + 1e-6f, 1.5f) - t3 * 0.568f;
	fp t15 = 1.0f / (1.0f + expf((state[off + 7] + 29.0f) / 11.0f)) - t4 * 0.981f;
	fp t16 = 1.0f / (1.0f + expf((state[off + 24] + 57.0f) / 10.0f)) - t0 * 0.757f;
	fp t17 = powf(fabsf(state[off + 19]) + 1e-6f, 0.5f) - t8 * 0.639f;
	fp t18 = expf(-state[off + 3] / 3.0f) - t4 * 0.067f;
	fp t19 = expf(-state[off + 25] / 11.0f) - t2 * 0.929f;
	fp t20 = expf(-state[off + 20] / 33.0f) - t12 * 0.734f;
	fp t21 = state[off + 11] * params[poff + 5] - t12 * 0.673f;
	fp t22 = 1.0f / (1.0f + expf((state[off + 15] + 39.0f) / 4.0f)) - t13 * 0.693f;
	fp t23 = state[off + 12] * params[poff + 7] - t17 * 0.775f;
	fp t24 = state[off + 7] * params[poff + 8] - t7 * 0.343f;
	fp t25 = 1.0f / (1.0f + expf((state[off + 7] + 57.0f) / 7.0f)) - t5 * 0.729f;
	fp t26 = 0.8146f * t_now + state[off + 0] - t9 * 0.307f;
	fp t27 = state[off + 14] * params[poff + 11] - t26 * 0.177f;
	fp t28 = 1.0f / (1.0f + expf((state[off + 16] + 9.0f) / 4.0f)) - t23 * 0.475f;
	fp t29 = expf(-state[off + 19] / 40.0f) - t10 * 0.730f;
	fp t30 = 1.0f / (1.0f + expf((state[off + 29] + 61.0f) / 5.0f)) - t3 * 0.597f;
	fp t31 = 1.0f / (1.0f + expf((state[off + 29] + 71.0f) / 8.0f)) - t26 * 0.180f;
	fp t32 = 0.5170f * t_now + state[off + 9] - t8 * 0.620f;
	fp t33 = state[off + 28] * params[poff + 1] - t1 * 0.940f;
	fp t34 = 0.0357f * t_now + state[off + 5] - t23 * 0.186f;
	fp t35 = powf(fabsf(state[off + 10]) + 1e-6f, 2.0f) - t11 * 0.093f;
	fp t36 = state[off + 9] * params[poff + 4] - t26 * 0.140f;
	fp t37 = expf(-state[off + 10] / 2.0f) - t35 * 0.405f;
	fp t38 = 0.8208f * t_now + state[off + 27] - t14 * 0.620f;
	deriv[soff + 24] = t30 + t26 + t8;
	deriv[soff + 25] = t14 + t6 + t32;
}

__device__ void module_29(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 31;
	fp t0 = 1.0f / (1.0f + expf((state[off + 9] + 19.0f) / 10.0f));
	fp t1 = expf(-state[off + 23] / 9.0f);
	fp t2 = 1.0f / (1.0f + expf((state[off + 8] + 18.0f) / 3.0f)) - t1 * 0.012f;
	fp t3 = expf(-state[off + 12] / 25.0f) - t0 * 0.860f;
	fp t4 = powf(fabsf(state[off + 24]) + 1e-6f, 3.0f) - t2 * 0.347f;
	fp t5 = powf(fabsf(state[off + 26]) + 1e-6f, 0.5f) - t0 * 0.611f;
	fp t6 = 0.2035f * t_now + state[off + 19] - t4 * 0.933f;
	fp t7 = state[off + 12] * params[poff + 7] - t2 * 0.053f;
	fp t8 = 0.0613f * t_now + state[off + 3] - t7 * 0.722f;
	fp t9 = 1.0f / (1.0f + expf((state[off + 20] + 43.0f) / 2.0f)) - t4 * 0.171f;
	fp t10 = 0.4378f * t_now + state[off + 21] - t5 * 0.772f;
	fp t11 = 1.0f / (1.0f + expf((state[off + 9] + 10.0f) / 7.0f)) - t1 * 0.142f;
	fp t12 = powf(fabsf(state[off + 22]) + 1e-6f, 0.5f) - t4 * 0.764f;
	fp t13 = powf(fabsf(state[off + 6]) + 1e-6f, 1.5f) - t3 * 0.968f;
	fp t14 = state[off + 9] * params[poff + 14] - t9 * 0.191f;
	fp t15 = state[off + 20] * params[poff + 15] - t0 * 0.415f;
	fp t16 = 0.9978f * t_now + state[off + 8] - t2 * 0.813f;
	fp t17 = expf(-state[off + 6] / 40.0f) - t3 * 0.068f;
	fp t18 = 1.0f / (1.0f + expf((state[off + 7] + 12.0f) / 8.0f)) - t6 * 0.711f;
	fp t19 = expf(-state[off + 20] / 27.0f) - t17 * 0.340f;
	fp t20 = powf(fabsf(state[off + 22]) + 1e-6f, 1.5f) - t4 * 0.596f;
	fp t21 = expf(-state[off + 15] / 10.0f) - t20 * 0.945f;
	fp t22 = expf(-state[off + 24] / 35.0f) - t3 * 0.300f;
	fp t23 = state[off + 2] * params[poff + 7] - t15 * 0.040f;
	fp t24 = state[off + 9] * params[poff + 8] - t3 * 0.994f;
	fp t25 = 0.9921f * t_now + state[off + 5] - t2 * 0.499f;
	fp t26 = 0.1678f * t_now + state[off + 27] - t22 * 0.747f;
	fp t27 = powf(fabsf(state[off + 23]) + 1e-6f, 0.5f) - t15 * 0.729f;
	fp t28 = state[off + 19] * params[poff + 12] - t4 * 0.313f;
	fp t29 = powf(fabsf(state[off + 0]) + 1e-6f, 2.0f) - t18 * 0.717f;
	fp t30 = state[off + 4] * params[poff + 14] - t1 * 0.709f;
	fp t31 = 1.0f / (1.0f + expf((state[off + 17] + 16.0f) / 8.0f)) - t25 * 0.119f;
	deriv[soff + 27] = t15 + t21 + t7;
	deriv[soff + 28] = t0 + t27 + t13;
}

__device__ void module_30(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 40;
	fp t0 = 1.0f / (1.0f + expf((state[off + 7] + 30.0f) / 8.0f));
	fp t1 = 1.0f / (1.0f + expf((state[off + 7] + 51.0f) / 10.0f));
	fp t2 = expf(-state[off + 6] / 34.0f) - t1 * 0.707f;
	fp t3 = state[off + 21] * params[poff + 3] - t0 * 0.224f;
	fp t4 = 1.0f / (1.0f + expf((state[off + 14] + 65.0f) / 8.0f)) - t2 * 0.079f;
	fp t5 = 0.7916f * t_now + state[off + 20] - t0 * 0.003f;
	fp t6 = 1.0f / (1.0f + expf((state[off + 14] + 9.0f) / 12.0f)) - t0 * 0.816f;
	fp t7 = 1.0f / (1.0f + expf((state[off + 22] + 36.0f) / 4.0f)) - t0 * 0.938f;
	fp t8 = 0.9990f * t_now + state[off + 21] - t4 * 0.438f;
	fp t9 = expf(-state[off + 21] / 13.0f) - t2 * 0.693f;
	fp t10 = powf(fabsf(state[off + 2]) + 1e-6f, 1.5f) - t3 * 0.519f;
	fp t11 = expf(-state[off + 4] / 9.0f) - t8 * 0.512f;
	fp t12 = state[off + 19] * params[poff + 12] - t1 * 0.110f;
	fp t13 = 0.1602f * t_now + state[off + 24] - t10 * 0.698f;
	fp t14 = state[off + 29] * params[poff + 14] - t12 * 0.281f;
	fp t15 = 0.0188f * t_now + state[off + 25] - t14 * 0.892f;
	fp t16 = 1.0f / (1.0f + expf((state[off + 27] + 53.0f) / 4.0f)) - t14 * 0.265f;
	fp t17 = 1.0f / (1.0f + expf((state[off + 12] + 77.0f) / 10.0f)) - t2 * 0.671f;
	fp t18 = state[off + 16] * params[poff + 2] - t7 * 0.642f;
	deriv[soff + 30] = t15 + t14 + t17;
	deriv[soff + 31] = t7 + t6 + t12;
	deriv[soff + 32] = t15 + t5 + t11;
}

__device__ void module_31(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 35;
	fp t0 = state[off + 19] * params[poff + 0];
	fp t1 = state[off + 25] * params[poff + 1];
	fp t2 = expf(-state[off + 23] / 8.0f) - t1 * 0.339f;
	fp t3 = expf(-state[off + 17] / 5.0f) - t2 * 0.518f;
	fp t4 = 1.0f / (1.0f + expf((state[off + 1] + 23.0f) / 11.0f)) - t0 * 0.232f;
	fp t5 = state[off + 25] * params[poff + 5] - t3 * 0.865f;
	fp t6 = state[off + 14] * params[poff + 6] - t5 * 0.600f;
	fp t7 = 0.4409f * t_now + state[off + 8] - t4 * 0.790f;
	fp t8 = expf(-state[off + 14] / 33.0f) - t1 * 0.975f;
	fp t9 = state[off + 28] * params[poff + 9] - t4 * 0.423f;
	fp t10 = powf(fabsf(state[off + 5]) + 1e-6f, 0.5f) - t1 * 0.407f;
	fp t11 = expf(-state[off + 12] / 39.0f) - t3 * 0.829f;
	fp t12 = state[off + 2] * params[poff + 12] - t2 * 0.011f;
	fp t13 = powf(fabsf(state[off + 5]) + 1e-6f, 0.5f) - t3 * 0.461f;
	fp t14 = 1.0f / (1.0f + expf((state[off + 17] + 10.0f) / 5.0f)) - t13 * 0.380f;
	fp t15 = expf(-state[off + 5] / 35.0f) - t4 * 0.639f;
	fp t16 = 0.1941f * t_now + state[off + 20] - t15 * 0.063f;
	fp t17 = 1.0f / (1.0f + expf((state[off + 29] + 70.0f) / 12.0f)) - t13 * 0.614f;
	fp t18 = 1.0f / (1.0f + expf((state[off + 26] + 30.0f) / 5.0f)) - t5 * 0.368f;
	fp t19 = expf(-state[off + 20] / 36.0f) - t0 * 0.906f;
	deriv[soff + 33] = t11 + t0 + t17;
	deriv[soff + 34] = t5 + t3 + t3;
	deriv[soff + 35] = t2 + t9 + t17;
	deriv[soff + 36] = t1 + t7 + t12;
	deriv[soff + 37] = t3 + t11 + t15;
}

__device__ void module_32(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 37;
	fp t0 = state[off + 2] * params[poff + 0];
	fp t1 = 0.8042f * t_now + state[off + 13];
	fp t2 = powf(fabsf(state[off + 8]) + 1e-6f, 3.0f) - t0 * 0.546f;
	fp t3 = state[off + 1] * params[poff + 3] - t2 * 0.806f;
	fp t4 = 1.0f / (1.0f + expf((state[off + 24] + 66.0f) / 10.0f)) - t3 * 0.547f;
	fp t5 = 1.0f / (1.0f + expf((state[off + 4] + 51.0f) / 10.0f)) - t4 * 0.497f;
	fp t6 = 0.0441f * t_now + state[off + 7] - t1 * 0.407f;
	fp t7 = 1.0f / (1.0f + expf((state[off + 22] + 59.0f) / 5.0f)) - t4 * 0.165f;
	fp t8 = state[off + 0] * params[poff + 8] - t5 * 0.308f;
	fp t9 = state[off + 8] * params[poff + 9] - t4 * 0.339f;
	fp t10 = 1.0f / (1.0f + expf((state[off + 3] + 67.0f) / 3.0f)) - t2 * 0.343f;
	fp t11 = powf(fabsf(state[off + 27]) + 1e-6f, 3.0f) - t10 * 0.734f;
	fp t12 = 1.0f / (1.0f + expf((state[off + 0] + 40.0f) / 12.0f)) - t0 * 0.016f;
	fp t13 = 1.0f / (1.0f + expf((state[off + 3] + 35.0f) / 4.0f)) - t8 * 0.878f;
	fp t14 = expf(-state[off + 5] / 28.0f) - t7 * 0.480f;
	fp t15 = state[off + 21] * params[poff + 15] - t7 * 0.885f;
	fp t16 = 1.0f / (1.0f + expf((state[off + 2] + 5.0f) / 4.0f)) - t6 * 0.407f;
	fp t17 = 0.9298f * t_now + state[off + 22] - t13 * 0.910f;
	fp t18 = 0.1804f * t_now + state[off + 14] - t7 * 0.936f;
	fp t19 = state[off + 19] * params[poff + 3] - t10 * 0.418f;
	fp t20 = 0.5042f * t_now + state[off + 25] - t15 * 0.613f;
	fp t21 = state[off + 24] * params[poff + 5] - t17 * 0.659f;
	fp t22 = state[off + 4] * params[poff + 6] - t10 * 0.355f;
	fp t23 = 0.6908f * t_now + state[off + 24] - t10 * 0.226f;
	fp t24 = 0.5139f * t_now + state[off + 24] - t6 * 0.186f;
	fp t25 = 1.0f / (1.0f + expf((state[off + 0] + 13.0f) / 5.0f)) - t19 * 0.264f;
	fp t26 = 0.4815f * t_now + state[off + 4] - t13 * 0.137f;
	fp t27 = 1.0f / (1.0f + expf((state[off + 21] + 25.0f) / 6.0f)) - t9 * 0.141f;
	fp t28 = 1.0f / (1.0f + expf((state[off + 15] + 8.0f) / 9.0f)) - t4 * 0.174f;
	fp t29 = 0.9602f * t_now + state[off + 20] - t19 * 0.399f;
	fp t30 = 0.3756f * t_now + state[off + 27] - t8 * 0.427f;
	fp t31 = 1.0f / (1.0f + expf((state[off + 4] + 18.0f) / 7.0f)) - t16 * 0.312f;
	fp t32 = expf(-state[off + 0] / 40.0f) - t0 * 0.299f;
	fp t33 = 1.0f / (1.0f + expf((state[off + 6] + 43.0f) / 10.0f)) - t26 * 0.248f;
	deriv[soff + 36] = t5 + t25 + t2;
	deriv[soff + 37] = t32 + t27 + t0;
	deriv[soff + 38] = t1 + t2 + t11;
	deriv[soff + 39] = t26 + t14 + t33;
	deriv[soff + 40] = t2 + t23 + t18;
}

__device__ void module_33(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 18;
	fp t0 = 1.0f / (1.0f + expf((state[off + 6] + 54.0f) / 4.0f));
	fp t1 = 0.4779f * t_now + state[off + 9];
	fp t2 = expf(-state[off + 24] / 4.0f) - t0 * 0.275f;
	fp t3 = expf(-state[off + 28] / 10.0f) - t2 * 0.177f;
	fp t4 = expf(-state[off + 5] / 40.0f) - t2 * 0.953f;
	fp t5 = 1.0f / (1.0f + expf((state[off + 7] + 79.0f) / 8.0f)) - t2 * 0.801f;
	fp t6 = expf(-state[off + 14] / 16.0f) - t2 * 0.146f;
	fp t7 = 1.0f / (1.0f + expf((state[off + 6] + 67.0f) / 10.0f)) - t4 * 0.591f;
	fp t8 = powf(fabsf(state[off + 17]) + 1e-6f, 0.5f) - t7 * 0.383f;
	fp t9 = 0.2584f * t_now + state[off + 19] - t5 * 0.557f;
	fp t10 = state[off + 23] * params[poff + 10] - t8 * 0.337f;
	fp t11 = 1.0f / (1.0f + expf((state[off + 1] + 13.0f) / 6.0f)) - t4 * 0.131f;
	fp t12 = state[off + 11] * params[poff + 12] - t0 * 0.403f;
	fp t13 = expf(-state[off + 9] / 37.0f) - t6 * 0.364f;
	fp t14 = 0.0259f * t_now + state[off + 15] - t0 * 0.582f;
	fp t15 = 0.0575f * t_now + state[off + 8] - t4 * 0.932f;
	fp t16 = state[off + 21] * params[poff + 0] - t10 * 0.273f;
	fp t17 = powf(fabsf(state[off + 8]) + 1e-6f, 0.5f) - t8 * 0.137f;
	fp t18 = expf(-state[off + 3] / 18.0f) - t15 * 0.519f;
	fp t19 = expf(-state[off + 8] / 11.0f) - t12 * 0.750f;
	fp t20 = state[off + 26] * params[poff + 4] - t18 * 0.099f;
	fp t21 = 1.0f / (1.0f + expf((state[off + 23] + 33.0f) / 5.0f)) - t16 * 0.615f;
	fp t22 = 0.2523f * t_now + state[off + 19] - t21 * 0.294f;
	fp t23 = 0.6405f * t_now + state[off + 16] - t3 * 0.383f;
	fp t24 = 1.0f / (1.0f + expf((state[off + 0] + 66.0f) / 3.0f)) - t20 * 0.431f;
	fp t25 = 0.9798f * t_now + state[off + 7] - t12 * 0.812f;
	fp t26 = 0.7653f * t_now + state[off + 27] - t7 * 0.710f;
	fp t27 = powf(fabsf(state[off + 24]) + 1e-6f, 1.5f) - t0 * 0.990f;
	fp t28 = expf(-state[off + 8] / 12.0f) - t20 * 0.649f;
	fp t29 = 0.3393f * t_now + state[off + 18] - t9 * 0.811f;
	fp t30 = powf(fabsf(state[off + 17]) + 1e-6f, 3.0f) - t7 * 0.657f;
	fp t31 = 0.1714f * t_now + state[off + 20] - t4 * 0.063f;
	fp t32 = expf(-state[off + 17] / 30.0f) - t22 * 0.584f;
	fp t33 = state[off + 25] * params[poff + 1] - t6 * 0.806f;
	fp t34 = state[off + 6] * params[poff + 2] - t17 * 0.395f;
	fp t35 = 1.0f / (1.0f + expf((state[off + 13] + 55.0f) / 7.0f)) - t34 * 0.069f;
	fp t36 = 1.0f / (1.0f + expf((state[off + 19] + 42.0f) / 6.0f)) - t6 * 0.607f;
	deriv[soff + 39] = t13 + t32 + t11;
	deriv[soff + 40] = t33 + t21 + t21;
	deriv[soff + 41] = t5 + t26 + t0;
	deriv[soff + 42] = t29 + t27 + t1;
}

__device__ void module_34(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 2;
	fp t0 = expf(-state[off + 4] / 30.0f);
	fp t1 = powf(fabsf(state[off + 15]) + 1e-6f, 3.0f);
	fp t2 = expf(-state[off + 23] / 29.0f) - t1 * 0.753f;
	fp t3 = 1.0f / (1.0f + expf((state[off + 15] + 64.0f) / 10.0f)) - t2 * 0.510f;
	fp t4 = state[off + 14] * params[poff + 4] - t0 * 0.093f;
	fp t5 = 0.4602f * t_now + state[off + 27] - t0 * 0.137f;
	fp t6 = state[off + 20] * params[poff + 6] - t4 * 0.240f;
	fp t7 = 1.0f / (1.0f + expf((state[off + 13] + 8.0f) / 2.0f)) - t0 * 0.781f;
	fp t8 = state[off + 27] * params[poff + 8] - t5 * 0.067f;
	fp t9 = 1.0f / (1.0f + expf((state[off + 1] + 69.0f) / 2.0f)) - t3 * 0.763f;
	fp t10 = powf(fabsf(state[off + 5]) + 1e-6f, 0.5f) - t6 * 0.856f;
	fp t11 = 0.4977f * t_now + state[off + 29] - t5 * 0.114f;
	fp t12 = 1.0f / (1.0f + expf((state[off + 0] + 43.0f) / 2.0f)) - t7 * 0.240f;
	fp t13 = expf(-state[off + 6] / 38.0f) - t11 * 0.192f;
	fp t14 = powf(fabsf(state[off + 10]) + 1e-6f, 1.5f) - t10 * 0.863f;
	fp t15 = 1.0f / (1.0f + expf((state[off + 11] + 36.0f) / 2.0f)) - t8 * 0.257f;
	fp t16 = expf(-state[off + 7] / 32.0f) - t11 * 0.344f;
	fp t17 = state[off + 23] * params[poff + 1] - t11 * 0.571f;
	fp t18 = powf(fabsf(state[off + 15]) + 1e-6f, 0.5f) - t13 * 0.352f;
	fp t19 = 0.6782f * t_now + state[off + 3] - t8 * 0.404f;
	fp t20 = expf(-state[off + 16] / 34.0f) - t10 * 0.461f;
	fp t21 = state[off + 20] * params[poff + 5] - t16 * 0.436f;
	fp t22 = 1.0f / (1.0f + expf((state[off + 18] + 29.0f) / 4.0f)) - t14 * 0.919f;
	fp t23 = 1.0f / (1.0f + expf((state[off + 8] + 48.0f) / 8.0f)) - t4 * 0.928f;
	fp t24 = 1.0f / (1.0f + expf((state[off + 9] + 68.0f) / 9.0f)) - t17 * 0.981f;
	fp t25 = 1.0f / (1.0f + expf((state[off + 0] + 10.0f) / 6.0f)) - t16 * 0.070f;
	deriv[soff + 42] = t1 + t3 + t23;
	deriv[soff + 43] = t22 + t4 + t12;
	deriv[soff + 44] = t18 + t12 + t3;
	deriv[soff + 45] = t13 + t25 + t8;
	deriv[soff + 46] = t24 + t8 + t13;
}

__device__ void module_35(fp t_now, const fp *state, int soff, const fp *params,
			  int poff, fp *deriv)
{
	int off = soff + 39;
	fp t0 = 1.0f / (1.0f + expf((state[off + 20] + 32.0f) / 2.0f));
	fp t1 = 0.1895f * t_now + state[off + 12];
	fp t2 = 1.0f / (1.0f + expf((state[off + 7] + 50.0f) / 9.0f)) - t1 * 0.770f;
	fp t3 = 0.4049f * t_now + state[off + 1] - t0 * 0.079f;
	fp t4 = 0.5076f * t_now + state[off + 3] - t1 * 0.412f;
	fp t5 = 0.8275f * t_now + state[off + 3] - t2 * 0.248f;
	fp t6 = state[off + 26] * params[poff + 6] - t1 * 0.699f;
	fp t7 = 1.0f / (1.0f + expf((state[off + 8] + 19.0f) / 9.0f)) - t5 * 0.952f;
	fp t8 = 1.0f / (1.0f + expf((state[off + 5] + 35.0f) / 12.0f)) - t3 * 0.429f;
	fp t9 = expf(-state[off + 12] / 15.0f) - t8 * 0.705f;
	fp t10 = 0.2552f * t_now + state[off + 22] - t2 * 0.720f;
	fp t11 = 0.4031f * t_now + state[off + 16] - t10 * 0.199f;
	fp t12 = 1.0f / (1.0f + expf((state[off + 18] + 11.0f) / 10.0f)) - t6 * 0.508f;
	fp t13 = state[off + 3] * params[poff + 13] - t5 * 0.128f;
	fp t14 = state[off + 9] * params[poff + 14] - t10 * 0.758f;
	fp t15 = 1.0f / (1.0f + expf((state[off + 5] + 10.0f) / 8.0f)) - t12 * 0.035f;
	fp t16 = expf(-state[off + 0] / 16.0f) - t5 * 0.059f;
	fp t17 = powf(fabsf(state[off + 4]) + 1e-6f, 3.0f) - t3 * 0.446f;
	fp t18 = powf(fabsf(state[off + 25]) + 1e-6f, 2.0f) - t8 * 0.870f;
	fp t19 = powf(fabsf(state[off + 9]) + 1e-6f, 1.5f) - t15 * 0.850f;
	fp t20 = 0.9304f * t_now + state[off + 10] - t13 * 0.622f;
	fp t21 = 1.0f / (1.0f + expf((state[off + 12] + 77.0f) / 5.0f)) - t6 * 0.254f;
	fp t22 = 1.0f / (1.0f + expf((state[off + 11] + 20.0f) / 3.0f)) - t4 * 0.422f;
	fp t23 = state[off + 0] * params[poff + 7] - t10 * 0.194f;
	fp t24 = 0.0004f * t_now + state[off + 3] - t4 * 0.625f;
	fp t25 = expf(-state[off + 29] / 6.0f) - t3 * 0.408f;
	fp t26 = expf(-state[off + 28] / 5.0f) - t11 * 0.443f;
	deriv[soff + 45] = t9 + t21 + t7;
	deriv[soff + 46] = t24 + t25 + t13;
}

__global__ void
integrate_cells(int t_now, fp *d_state, fp *d_deriv, fp *d_params, fp *d_probe, int ncells)
{
	int bx = blockIdx.x;
	int tx = threadIdx.x;
	int cell = bx * blockDim.x + tx;
	if (cell >= ncells)
		return;
	int ioff = cell * NSTATE;
	int poff = cell * NPARAM;
	module_00((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_01((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_02((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_03((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_04((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_05((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_06((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_07((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_08((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_09((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_10((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_11((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_12((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_13((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_14((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_15((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_16((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_17((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_18((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_19((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_20((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_21((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_22((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_23((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_24((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_25((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_26((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_27((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_28((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_29((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_30((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_31((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_32((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_33((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_34((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	module_35((fp)t_now, d_state, ioff, d_params, poff, d_deriv);
	d_probe[cell] = d_deriv[ioff];
}

static int read_ode_0(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static void mm_ode_1(const float *A, const float *B, float *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			float acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static void dump_ode_2(const char *path, const float *data, int rows, int cols)
{
	FILE *fp;
	int i, j;
	fp = fopen(path, "w");
	if (fp == NULL) {
		fprintf(stderr, "cannot open %s\n", path);
		return;
	}
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++)
			fprintf(fp, "%d %d %g\n", i, j, (double)data[i * cols + j]);
	}
	fclose(fp);
}

static double sum_ode_3(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static int cmp_ode_4(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_ode_4: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static int cmp_ode_5(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_ode_5: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static double sum_ode_6(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static void mm_ode_7(const float *A, const float *B, float *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			float acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static float norm_ode_8(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static double sum_ode_9(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static void transpose_ode_10(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static void hist_ode_11(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void blur_ode_12(const float *in, float *out, int w, int h)
{
	int x, y, dx, dy;
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			float s = 0.0f;
			int cnt = 0;
			for (dy = -1; dy <= 1; dy++)
				for (dx = -1; dx <= 1; dx++) {
					int xx = x + dx, yy = y + dy;
					if (xx < 0 || yy < 0 || xx >= w || yy >= h)
						continue;
					s += in[yy * w + xx];
					cnt++;
				}
			out[y * w + x] = (float)(s / cnt);
		}
	}
}

static double sum_ode_13(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static void blur_ode_14(const float *in, float *out, int w, int h)
{
	int x, y, dx, dy;
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			float s = 0.0f;
			int cnt = 0;
			for (dy = -1; dy <= 1; dy++)
				for (dx = -1; dx <= 1; dx++) {
					int xx = x + dx, yy = y + dy;
					if (xx < 0 || yy < 0 || xx >= w || yy >= h)
						continue;
					s += in[yy * w + xx];
					cnt++;
				}
			out[y * w + x] = (float)(s / cnt);
		}
	}
}

static void blur_ode_15(const float *in, float *out, int w, int h)
{
	int x, y, dx, dy;
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			float s = 0.0f;
			int cnt = 0;
			for (dy = -1; dy <= 1; dy++)
				for (dx = -1; dx <= 1; dx++) {
					int xx = x + dx, yy = y + dy;
					if (xx < 0 || yy < 0 || xx >= w || yy >= h)
						continue;
					s += in[yy * w + xx];
					cnt++;
				}
			out[y * w + x] = (float)(s / cnt);
		}
	}
}

static void init_ode_16(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 1000) / 100.0f;
		}
	}
}

static float norm_ode_17(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void init_ode_18(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 100) / 3.0f;
		}
	}
}

static double sum_ode_19(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static void blur_ode_20(const float *in, float *out, int w, int h)
{
	int x, y, dx, dy;
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			float s = 0.0f;
			int cnt = 0;
			for (dy = -1; dy <= 1; dy++)
				for (dx = -1; dx <= 1; dx++) {
					int xx = x + dx, yy = y + dy;
					if (xx < 0 || yy < 0 || xx >= w || yy >= h)
						continue;
					s += in[yy * w + xx];
					cnt++;
				}
			out[y * w + x] = (float)(s / cnt);
		}
	}
}

static int read_ode_21(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static void dump_ode_22(const char *path, const float *data, int rows, int cols)
{
	FILE *fp;
	int i, j;
	fp = fopen(path, "w");
	if (fp == NULL) {
		fprintf(stderr, "cannot open %s\n", path);
		return;
	}
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++)
			fprintf(fp, "%d %d %g\n", i, j, (double)data[i * cols + j]);
	}
	fclose(fp);
}

static int read_ode_23(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static void hist_ode_24(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static int read_ode_25(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static void blur_ode_26(const float *in, float *out, int w, int h)
{
	int x, y, dx, dy;
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			float s = 0.0f;
			int cnt = 0;
			for (dy = -1; dy <= 1; dy++)
				for (dx = -1; dx <= 1; dx++) {
					int xx = x + dx, yy = y + dy;
					if (xx < 0 || yy < 0 || xx >= w || yy >= h)
						continue;
					s += in[yy * w + xx];
					cnt++;
				}
			out[y * w + x] = (float)(s / cnt);
		}
	}
}

static void hist_ode_27(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void transpose_ode_28(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static int cmp_ode_29(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_ode_29: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void mm_ode_30(const float *A, const float *B, float *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			float acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static void init_ode_31(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 4096) / 100.0f;
		}
	}
}

static void blur_ode_32(const float *in, float *out, int w, int h)
{
	int x, y, dx, dy;
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			float s = 0.0f;
			int cnt = 0;
			for (dy = -1; dy <= 1; dy++)
				for (dx = -1; dx <= 1; dx++) {
					int xx = x + dx, yy = y + dy;
					if (xx < 0 || yy < 0 || xx >= w || yy >= h)
						continue;
					s += in[yy * w + xx];
					cnt++;
				}
			out[y * w + x] = (float)(s / cnt);
		}
	}
}

static void mm_ode_33(const float *A, const float *B, float *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			float acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static float norm_ode_34(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void hist_ode_35(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static double sum_ode_36(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static void mm_ode_37(const float *A, const float *B, float *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			float acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static double sum_ode_38(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static double sum_ode_39(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static void stencil_ode_40(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.125f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static void init_ode_41(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 100) / 1000.0f;
		}
	}
}

static float norm_ode_42(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static float norm_ode_43(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static int read_ode_44(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static void hist_ode_45(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static float norm_ode_46(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static int read_ode_47(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static double sum_ode_48(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static void blur_ode_49(const float *in, float *out, int w, int h)
{
	int x, y, dx, dy;
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			float s = 0.0f;
			int cnt = 0;
			for (dy = -1; dy <= 1; dy++)
				for (dx = -1; dx <= 1; dx++) {
					int xx = x + dx, yy = y + dy;
					if (xx < 0 || yy < 0 || xx >= w || yy >= h)
						continue;
					s += in[yy * w + xx];
					cnt++;
				}
			out[y * w + x] = (float)(s / cnt);
		}
	}
}

int main(int argc, char *argv[])
{
	int ncells = argc > 1 ? atoi(argv[1]) : 1024, steps = 100, t;
	fp *d_y, *d_f, *d_p, *d_probe;
	cudaMalloc((void **)&d_y, sizeof(fp) * ncells * NSTATE);
	cudaMalloc((void **)&d_f, sizeof(fp) * ncells * NSTATE);
	cudaMalloc((void **)&d_p, sizeof(fp) * ncells * NPARAM);
	cudaMalloc((void **)&d_probe, sizeof(fp) * ncells);
	for (t = 0; t < steps; t++)
		integrate_cells<<<(ncells + 127) / 128, 128>>>(t, d_y, d_f, d_p, d_probe, ncells);
	cudaDeviceSynchronize();
	cudaFree(d_y);
	cudaFree(d_f);
	cudaFree(d_p);
	cudaFree(d_probe);
	return 0;
}
