/***********************************************************************
 * Part of a GPU benchmark collection.  2017-2025.
 * Permission is granted to use, copy and modify this file for research.
 ***********************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/time.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <iostream>
#include <vector>
#include <fstream>

#define CELL_BLOCK 192
#define CELL_BLOCK 192
#define BLOCK_SIZE_2 192
#define BLOCK_SIZE_3 192
#define BLOCK_SIZE_4 192

#define GAMMA 1.4f
#define NSTEPS 2000
#define NDIM 3
#define NFACE 4
#define RK 3	/* Runge-Kutta stages */
#define MACH_INF 1.2f
#define AOA_DEG 0.0f

#define Q_RHO 0
#define Q_MOM 1
#define Q_ENERGY (Q_MOM + NDIM)
#define NQ (Q_ENERGY + 1)

static double gettime(void)
{
	struct timeval t;
	gettimeofday(&t, NULL);
	return t.tv_sec + t.tv_usec * 1e-6;
}

__constant__ float inflow_state[NQ];
__constant__ float3 inflow_fmx;
__constant__ float3 inflow_fmy;
__constant__ float3 inflow_fmz;
__constant__ float3 inflow_fe;
__constant__ float face_geom[NFACE * 4];

/* device helpers */
__device__ __host__ inline float dot3(float3 a, float3 b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

__device__ inline float3 velocity_from(float rho, float3 mom)
{
	float3 v;
	v.x = mom.x / rho;
	v.y = mom.y / rho;
	v.z = mom.z / rho;
	return v;
}

__device__ inline float eos_pressure(float rho, float rhoE, float vel2)
{
	return (GAMMA - 1.0f) * (rhoE - 0.5f * rho * vel2);
}

__device__ inline float eos_csound(float rho, float pressure)
{
	return sqrtf(GAMMA * pressure / rho);
}

__device__ __host__ inline void convective_terms(float rho, float3 mom, float rhoE,
		float pressure, float3 velocity, float3 &fc_mom_x, float3 &fc_mom_y,
		float3 &fc_mom_z, float3 &fc_rhoE)
{
	fc_mom_x.x = velocity.x * mom.x + pressure;
	fc_mom_x.y = velocity.x * mom.y;
	fc_mom_x.z = velocity.x * mom.z;
	fc_mom_y.x = fc_mom_x.y;
	fc_mom_y.y = velocity.y * mom.y + pressure;
	fc_mom_y.z = velocity.y * mom.z;
	fc_mom_z.x = fc_mom_x.z;
	fc_mom_z.y = fc_mom_y.z;
	fc_mom_z.z = velocity.z * mom.z + pressure;
	float de_p = rhoE + pressure;
	fc_rhoE.x = velocity.x * de_p;
	fc_rhoE.y = velocity.y * de_p;
	fc_rhoE.z = velocity.z * de_p;
	(void)rho;
}

__global__ void init_state(int nelr, float *q)
{
	const int i = blockDim.x * blockIdx.x + threadIdx.x;
	if (i >= nelr)
		return;
	for (int j = 0; j < NQ; j++)
		q[i + j * nelr] = inflow_state[j];
}

__global__ void local_step_factor(int nelr, const float *q, const float *areas, float *dt_local)
{
	const int i = blockDim.x * blockIdx.x + threadIdx.x;
	if (i >= nelr)
		return;
	float rho = q[i + Q_RHO * nelr];
	float3 mom;
	mom.x = q[i + (Q_MOM + 0) * nelr];
	mom.y = q[i + (Q_MOM + 1) * nelr];
	mom.z = q[i + (Q_MOM + 2) * nelr];
	float rhoE = q[i + Q_ENERGY * nelr];
	float3 velocity = velocity_from(rho, mom);
	float vel2 = dot3(velocity, velocity);
	float pressure = eos_pressure(rho, rhoE, vel2);
	float c = eos_csound(rho, pressure);
	/* the original scheme uses a per-cell CFL-like bound */
	dt_local[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(vel2) + c));
}

__global__ void
rk_advance(int j, int nelr, const float *q_old, float *q, const float *dt_local, const float *res)
{
	const int i = blockDim.x * blockIdx.x + threadIdx.x;
	if (i >= nelr)
		return;
	float factor = dt_local[i] / float(RK + 1 - j);
	q[i + Q_RHO * nelr] = q_old[i + Q_RHO * nelr] + factor * res[i + Q_RHO * nelr];
	q[i + Q_ENERGY * nelr] = q_old[i + Q_ENERGY * nelr] + factor * res[i + Q_ENERGY * nelr];
	q[i + (Q_MOM + 0) * nelr] = q_old[i + (Q_MOM + 0) * nelr] + factor * res[i + (Q_MOM + 0) * nelr];
	q[i + (Q_MOM + 1) * nelr] = q_old[i + (Q_MOM + 1) * nelr] + factor * res[i + (Q_MOM + 1) * nelr];
	q[i + (Q_MOM + 2) * nelr] = q_old[i + (Q_MOM + 2) * nelr] + factor * res[i + (Q_MOM + 2) * nelr];
}

#ifndef COMPUTED_NORMALS
__global__ void
face_flux(int nelr, const int *face_nbr, const float *normals,
	  const float *q, float *res)
{
	const float visc_k = 0.2f;
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= nelr)
		return;
	float rho_c = q[i + Q_RHO * nelr];
	float3 mom_c;
	mom_c.x = q[i + (Q_MOM + 0) * nelr];
	mom_c.y = q[i + (Q_MOM + 1) * nelr];
	mom_c.z = q[i + (Q_MOM + 2) * nelr];
	float rhoE_c = q[i + Q_ENERGY * nelr];
	float3 velocity_c = velocity_from(rho_c, mom_c);
	float vel2_c = dot3(velocity_c, velocity_c);
	float speed_c = sqrtf(vel2_c);
	float pressure_c = eos_pressure(rho_c, rhoE_c, vel2_c);
	float csound_c = eos_csound(rho_c, pressure_c);
	float3 cf_mom_x, cf_mom_y, cf_mom_z, cf_rhoE;
	convective_terms(rho_c, mom_c, rhoE_c, pressure_c, velocity_c,
			   cf_mom_x, cf_mom_y, cf_mom_z, cf_rhoE);
	float r_rho = 0.0f;
	float3 r_mom = make_float3(0.0f, 0.0f, 0.0f);
	float r_rhoE = 0.0f;
	/* face 0 */
	{
		const int nb0 = face_nbr[i + 0 * nelr];
		float3 normal;
		normal.x = normals[i + (0 * NDIM + 0) * nelr];
		normal.y = normals[i + (0 * NDIM + 1) * nelr];
		normal.z = normals[i + (0 * NDIM + 2) * nelr];
		const float area = sqrtf(dot3(normal, normal));
		if (nb0 >= 0) {
			const float rho_j = q[nb0 + Q_RHO * nelr];
			float3 mom_j;
			mom_j.x = q[nb0 + (Q_MOM + 0) * nelr];
			mom_j.y = q[nb0 + (Q_MOM + 1) * nelr];
			mom_j.z = q[nb0 + (Q_MOM + 2) * nelr];
			const float rhoE_j = q[nb0 + Q_ENERGY * nelr];
			const float3 velocity_j = velocity_from(rho_j, mom_j);
			const float vel2_j = dot3(velocity_j, velocity_j);
			const float pressure_j = eos_pressure(rho_j, rhoE_j, vel2_j);
			const float csound_j = eos_csound(rho_j, pressure_j);
			float3 cfn_mom_x, cfn_mom_y, cfn_mom_z, cfn_rhoE;
			convective_terms(rho_j, mom_j, rhoE_j, pressure_j, velocity_j,
					   cfn_mom_x, cfn_mom_y, cfn_mom_z, cfn_rhoE);
			/* artificial viscosity */
			float factor = -area * visc_k * 0.5f *
				(speed_c + sqrtf(vel2_j) + csound_c + csound_j);
			r_rho += factor * (rho_c - rho_j);
			r_rhoE += factor * (rhoE_c - rhoE_j);
			r_mom.x += factor * (mom_c.x - mom_j.x);
			r_mom.y += factor * (mom_c.y - mom_j.y);
			r_mom.z += factor * (mom_c.z - mom_j.z);
			/* accumulate cell-centred res */
			factor = 0.5f * normal.x;
			r_rho += factor * (mom_j.x + mom_c.x);
			r_rhoE += factor * (cfn_rhoE.x + cf_rhoE.x);
			r_mom.x += factor * (cfn_mom_x.x + cf_mom_x.x);
			r_mom.y += factor * (cfn_mom_y.x + cf_mom_y.x);
			r_mom.z += factor * (cfn_mom_z.x + cf_mom_z.x);
			factor = 0.5f * normal.y;
			r_rho += factor * (mom_j.y + mom_c.y);
			r_rhoE += factor * (cfn_rhoE.y + cf_rhoE.y);
			r_mom.x += factor * (cfn_mom_x.y + cf_mom_x.y);
			r_mom.y += factor * (cfn_mom_y.y + cf_mom_y.y);
			r_mom.z += factor * (cfn_mom_z.y + cf_mom_z.y);
			factor = 0.5f * normal.z;
			r_rho += factor * (mom_j.z + mom_c.z);
			r_rhoE += factor * (cfn_rhoE.z + cf_rhoE.z);
			r_mom.x += factor * (cfn_mom_x.z + cf_mom_x.z);
			r_mom.y += factor * (cfn_mom_y.z + cf_mom_y.z);
			r_mom.z += factor * (cfn_mom_z.z + cf_mom_z.z);
		} else if (nb0 == -1) {
			/* wall boundary */
			r_mom.x += normal.x * pressure_c;
			r_mom.y += normal.y * pressure_c;
			r_mom.z += normal.z * pressure_c;
		} else if (nb0 == -2) {
			/* far field */
			const float factor = 0.5f;
			r_rho += factor * (inflow_state[Q_MOM + 0] * normal.x + mom_c.x * normal.x);
			r_rhoE += factor * (inflow_fe.x + cf_rhoE.x) * normal.x;
			r_mom.x += factor * (inflow_fmx.x + cf_mom_x.x) * normal.x;
			r_mom.y += factor * (inflow_fmy.x + cf_mom_y.x) * normal.x;
			r_mom.z += factor * (inflow_fmz.x + cf_mom_z.x) * normal.x;
		}
	}
	/* face 1 */
	{
		const int nb1 = face_nbr[i + 1 * nelr];
		float3 normal;
		normal.x = normals[i + (1 * NDIM + 0) * nelr];
		normal.y = normals[i + (1 * NDIM + 1) * nelr];
		normal.z = normals[i + (1 * NDIM + 2) * nelr];
		const float area = sqrtf(dot3(normal, normal));
		if (nb1 >= 0) {
			const float rho_j = q[nb1 + Q_RHO * nelr];
			float3 mom_j;
			mom_j.x = q[nb1 + (Q_MOM + 0) * nelr];
			mom_j.y = q[nb1 + (Q_MOM + 1) * nelr];
			mom_j.z = q[nb1 + (Q_MOM + 2) * nelr];
			const float rhoE_j = q[nb1 + Q_ENERGY * nelr];
			const float3 velocity_j = velocity_from(rho_j, mom_j);
			const float vel2_j = dot3(velocity_j, velocity_j);
			const float pressure_j = eos_pressure(rho_j, rhoE_j, vel2_j);
			const float csound_j = eos_csound(rho_j, pressure_j);
			float3 cfn_mom_x, cfn_mom_y, cfn_mom_z, cfn_rhoE;
			convective_terms(rho_j, mom_j, rhoE_j, pressure_j, velocity_j,
					   cfn_mom_x, cfn_mom_y, cfn_mom_z, cfn_rhoE);
			/* artificial viscosity */
			float factor = -area * visc_k * 0.5f *
				(speed_c + sqrtf(vel2_j) + csound_c + csound_j);
			r_rho += factor * (rho_c - rho_j);
			r_rhoE += factor * (rhoE_c - rhoE_j);
			r_mom.x += factor * (mom_c.x - mom_j.x);
			r_mom.y += factor * (mom_c.y - mom_j.y);
			r_mom.z += factor * (mom_c.z - mom_j.z);
			/* accumulate cell-centred res */
			factor = 0.5f * normal.x;
			r_rho += factor * (mom_j.x + mom_c.x);
			r_rhoE += factor * (cfn_rhoE.x + cf_rhoE.x);
			r_mom.x += factor * (cfn_mom_x.x + cf_mom_x.x);
			r_mom.y += factor * (cfn_mom_y.x + cf_mom_y.x);
			r_mom.z += factor * (cfn_mom_z.x + cf_mom_z.x);
			factor = 0.5f * normal.y;
			r_rho += factor * (mom_j.y + mom_c.y);
			r_rhoE += factor * (cfn_rhoE.y + cf_rhoE.y);
			r_mom.x += factor * (cfn_mom_x.y + cf_mom_x.y);
			r_mom.y += factor * (cfn_mom_y.y + cf_mom_y.y);
			r_mom.z += factor * (cfn_mom_z.y + cf_mom_z.y);
			factor = 0.5f * normal.z;
			r_rho += factor * (mom_j.z + mom_c.z);
			r_rhoE += factor * (cfn_rhoE.z + cf_rhoE.z);
			r_mom.x += factor * (cfn_mom_x.z + cf_mom_x.z);
			r_mom.y += factor * (cfn_mom_y.z + cf_mom_y.z);
			r_mom.z += factor * (cfn_mom_z.z + cf_mom_z.z);
		} else if (nb1 == -1) {
			/* wall boundary */
			r_mom.x += normal.x * pressure_c;
			r_mom.y += normal.y * pressure_c;
			r_mom.z += normal.z * pressure_c;
		} else if (nb1 == -2) {
			/* far field */
			const float factor = 0.5f;
			r_rho += factor * (inflow_state[Q_MOM + 0] * normal.x + mom_c.x * normal.x);
			r_rhoE += factor * (inflow_fe.x + cf_rhoE.x) * normal.x;
			r_mom.x += factor * (inflow_fmx.x + cf_mom_x.x) * normal.x;
			r_mom.y += factor * (inflow_fmy.x + cf_mom_y.x) * normal.x;
			r_mom.z += factor * (inflow_fmz.x + cf_mom_z.x) * normal.x;
		}
	}
	/* face 2 */
	{
		const int nb2 = face_nbr[i + 2 * nelr];
		float3 normal;
		normal.x = normals[i + (2 * NDIM + 0) * nelr];
		normal.y = normals[i + (2 * NDIM + 1) * nelr];
		normal.z = normals[i + (2 * NDIM + 2) * nelr];
		const float area = sqrtf(dot3(normal, normal));
		if (nb2 >= 0) {
			const float rho_j = q[nb2 + Q_RHO * nelr];
			float3 mom_j;
			mom_j.x = q[nb2 + (Q_MOM + 0) * nelr];
			mom_j.y = q[nb2 + (Q_MOM + 1) * nelr];
			mom_j.z = q[nb2 + (Q_MOM + 2) * nelr];
			const float rhoE_j = q[nb2 + Q_ENERGY * nelr];
			const float3 velocity_j = velocity_from(rho_j, mom_j);
			const float vel2_j = dot3(velocity_j, velocity_j);
			const float pressure_j = eos_pressure(rho_j, rhoE_j, vel2_j);
			const float csound_j = eos_csound(rho_j, pressure_j);
			float3 cfn_mom_x, cfn_mom_y, cfn_mom_z, cfn_rhoE;
			convective_terms(rho_j, mom_j, rhoE_j, pressure_j, velocity_j,
					   cfn_mom_x, cfn_mom_y, cfn_mom_z, cfn_rhoE);
			/* artificial viscosity */
			float factor = -area * visc_k * 0.5f *
				(speed_c + sqrtf(vel2_j) + csound_c + csound_j);
			r_rho += factor * (rho_c - rho_j);
			r_rhoE += factor * (rhoE_c - rhoE_j);
			r_mom.x += factor * (mom_c.x - mom_j.x);
			r_mom.y += factor * (mom_c.y - mom_j.y);
			r_mom.z += factor * (mom_c.z - mom_j.z);
			/* accumulate cell-centred res */
			factor = 0.5f * normal.x;
			r_rho += factor * (mom_j.x + mom_c.x);
			r_rhoE += factor * (cfn_rhoE.x + cf_rhoE.x);
			r_mom.x += factor * (cfn_mom_x.x + cf_mom_x.x);
			r_mom.y += factor * (cfn_mom_y.x + cf_mom_y.x);
			r_mom.z += factor * (cfn_mom_z.x + cf_mom_z.x);
			factor = 0.5f * normal.y;
			r_rho += factor * (mom_j.y + mom_c.y);
			r_rhoE += factor * (cfn_rhoE.y + cf_rhoE.y);
			r_mom.x += factor * (cfn_mom_x.y + cf_mom_x.y);
			r_mom.y += factor * (cfn_mom_y.y + cf_mom_y.y);
			r_mom.z += factor * (cfn_mom_z.y + cf_mom_z.y);
			factor = 0.5f * normal.z;
			r_rho += factor * (mom_j.z + mom_c.z);
			r_rhoE += factor * (cfn_rhoE.z + cf_rhoE.z);
			r_mom.x += factor * (cfn_mom_x.z + cf_mom_x.z);
			r_mom.y += factor * (cfn_mom_y.z + cf_mom_y.z);
			r_mom.z += factor * (cfn_mom_z.z + cf_mom_z.z);
		} else if (nb2 == -1) {
			/* wall boundary */
			r_mom.x += normal.x * pressure_c;
			r_mom.y += normal.y * pressure_c;
			r_mom.z += normal.z * pressure_c;
		} else if (nb2 == -2) {
			/* far field */
			const float factor = 0.5f;
			r_rho += factor * (inflow_state[Q_MOM + 0] * normal.x + mom_c.x * normal.x);
			r_rhoE += factor * (inflow_fe.x + cf_rhoE.x) * normal.x;
			r_mom.x += factor * (inflow_fmx.x + cf_mom_x.x) * normal.x;
			r_mom.y += factor * (inflow_fmy.x + cf_mom_y.x) * normal.x;
			r_mom.z += factor * (inflow_fmz.x + cf_mom_z.x) * normal.x;
		}
	}
	/* face 3 */
	{
		const int nb3 = face_nbr[i + 3 * nelr];
		float3 normal;
		normal.x = normals[i + (3 * NDIM + 0) * nelr];
		normal.y = normals[i + (3 * NDIM + 1) * nelr];
		normal.z = normals[i + (3 * NDIM + 2) * nelr];
		const float area = sqrtf(dot3(normal, normal));
		if (nb3 >= 0) {
			const float rho_j = q[nb3 + Q_RHO * nelr];
			float3 mom_j;
			mom_j.x = q[nb3 + (Q_MOM + 0) * nelr];
			mom_j.y = q[nb3 + (Q_MOM + 1) * nelr];
			mom_j.z = q[nb3 + (Q_MOM + 2) * nelr];
			const float rhoE_j = q[nb3 + Q_ENERGY * nelr];
			const float3 velocity_j = velocity_from(rho_j, mom_j);
			const float vel2_j = dot3(velocity_j, velocity_j);
			const float pressure_j = eos_pressure(rho_j, rhoE_j, vel2_j);
			const float csound_j = eos_csound(rho_j, pressure_j);
			float3 cfn_mom_x, cfn_mom_y, cfn_mom_z, cfn_rhoE;
			convective_terms(rho_j, mom_j, rhoE_j, pressure_j, velocity_j,
					   cfn_mom_x, cfn_mom_y, cfn_mom_z, cfn_rhoE);
			/* artificial viscosity */
			float factor = -area * visc_k * 0.5f *
				(speed_c + sqrtf(vel2_j) + csound_c + csound_j);
			r_rho += factor * (rho_c - rho_j);
			r_rhoE += factor * (rhoE_c - rhoE_j);
			r_mom.x += factor * (mom_c.x - mom_j.x);
			r_mom.y += factor * (mom_c.y - mom_j.y);
			r_mom.z += factor * (mom_c.z - mom_j.z);
			/* accumulate cell-centred res */
			factor = 0.5f * normal.x;
			r_rho += factor * (mom_j.x + mom_c.x);
			r_rhoE += factor * (cfn_rhoE.x + cf_rhoE.x);
			r_mom.x += factor * (cfn_mom_x.x + cf_mom_x.x);
			r_mom.y += factor * (cfn_mom_y.x + cf_mom_y.x);
			r_mom.z += factor * (cfn_mom_z.x + cf_mom_z.x);
			factor = 0.5f * normal.y;
			r_rho += factor * (mom_j.y + mom_c.y);
			r_rhoE += factor * (cfn_rhoE.y + cf_rhoE.y);
			r_mom.x += factor * (cfn_mom_x.y + cf_mom_x.y);
			r_mom.y += factor * (cfn_mom_y.y + cf_mom_y.y);
			r_mom.z += factor * (cfn_mom_z.y + cf_mom_z.y);
			factor = 0.5f * normal.z;
			r_rho += factor * (mom_j.z + mom_c.z);
			r_rhoE += factor * (cfn_rhoE.z + cf_rhoE.z);
			r_mom.x += factor * (cfn_mom_x.z + cf_mom_x.z);
			r_mom.y += factor * (cfn_mom_y.z + cf_mom_y.z);
			r_mom.z += factor * (cfn_mom_z.z + cf_mom_z.z);
		} else if (nb3 == -1) {
			/* wall boundary */
			r_mom.x += normal.x * pressure_c;
			r_mom.y += normal.y * pressure_c;
			r_mom.z += normal.z * pressure_c;
		} else if (nb3 == -2) {
			/* far field */
			const float factor = 0.5f;
			r_rho += factor * (inflow_state[Q_MOM + 0] * normal.x + mom_c.x * normal.x);
			r_rhoE += factor * (inflow_fe.x + cf_rhoE.x) * normal.x;
			r_mom.x += factor * (inflow_fmx.x + cf_mom_x.x) * normal.x;
			r_mom.y += factor * (inflow_fmy.x + cf_mom_y.x) * normal.x;
			r_mom.z += factor * (inflow_fmz.x + cf_mom_z.x) * normal.x;
		}
	}
	res[i + Q_RHO * nelr] = r_rho;
	res[i + (Q_MOM + 0) * nelr] = r_mom.x;
	res[i + (Q_MOM + 1) * nelr] = r_mom.y;
	res[i + (Q_MOM + 2) * nelr] = r_mom.z;
	res[i + Q_ENERGY * nelr] = r_rhoE;
}
#else
__global__ void
face_flux(int nelr, const int *face_nbr, const float *normals,
	  const float *q, float *res)
{
	const float visc_k = 0.2f;
	(void)normals;
	const int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= nelr)
		return;
	float rho_c = q[i + Q_RHO * nelr];
	float3 mom_c;
	mom_c.x = q[i + (Q_MOM + 0) * nelr];
	mom_c.y = q[i + (Q_MOM + 1) * nelr];
	mom_c.z = q[i + (Q_MOM + 2) * nelr];
	float rhoE_c = q[i + Q_ENERGY * nelr];
	float3 velocity_c = velocity_from(rho_c, mom_c);
	float vel2_c = dot3(velocity_c, velocity_c);
	float speed_c = sqrtf(vel2_c);
	float pressure_c = eos_pressure(rho_c, rhoE_c, vel2_c);
	float csound_c = eos_csound(rho_c, pressure_c);
	float3 cf_mom_x, cf_mom_y, cf_mom_z, cf_rhoE;
	convective_terms(rho_c, mom_c, rhoE_c, pressure_c, velocity_c,
			   cf_mom_x, cf_mom_y, cf_mom_z, cf_rhoE);
	float r_rho = 0.0f;
	float3 r_mom = make_float3(0.0f, 0.0f, 0.0f);
	float r_rhoE = 0.0f;
	/* face 0 */
	{
		const int nb0 = face_nbr[i + 0 * nelr];
		float3 normal;
		normal.x = face_geom[0 * 4 + 0] * cosf(0.1f * 0);
		normal.y = face_geom[0 * 4 + 1] * sinf(0.1f * 0);
		normal.z = face_geom[0 * 4 + 2];
		const float area = sqrtf(dot3(normal, normal));
		if (nb0 >= 0) {
			const float rho_j = q[nb0 + Q_RHO * nelr];
			float3 mom_j;
			mom_j.x = q[nb0 + (Q_MOM + 0) * nelr];
			mom_j.y = q[nb0 + (Q_MOM + 1) * nelr];
			mom_j.z = q[nb0 + (Q_MOM + 2) * nelr];
			const float rhoE_j = q[nb0 + Q_ENERGY * nelr];
			const float3 velocity_j = velocity_from(rho_j, mom_j);
			const float vel2_j = dot3(velocity_j, velocity_j);
			const float pressure_j = eos_pressure(rho_j, rhoE_j, vel2_j);
			const float csound_j = eos_csound(rho_j, pressure_j);
			float3 cfn_mom_x, cfn_mom_y, cfn_mom_z, cfn_rhoE;
			convective_terms(rho_j, mom_j, rhoE_j, pressure_j, velocity_j,
					   cfn_mom_x, cfn_mom_y, cfn_mom_z, cfn_rhoE);
			/* artificial viscosity */
			float factor = -area * visc_k * 0.5f *
				(speed_c + sqrtf(vel2_j) + csound_c + csound_j);
			r_rho += factor * (rho_c - rho_j);
			r_rhoE += factor * (rhoE_c - rhoE_j);
			r_mom.x += factor * (mom_c.x - mom_j.x);
			r_mom.y += factor * (mom_c.y - mom_j.y);
			r_mom.z += factor * (mom_c.z - mom_j.z);
			/* accumulate cell-centred res */
			factor = 0.5f * normal.x;
			r_rho += factor * (mom_j.x + mom_c.x);
			r_rhoE += factor * (cfn_rhoE.x + cf_rhoE.x);
			r_mom.x += factor * (cfn_mom_x.x + cf_mom_x.x);
			r_mom.y += factor * (cfn_mom_y.x + cf_mom_y.x);
			r_mom.z += factor * (cfn_mom_z.x + cf_mom_z.x);
			factor = 0.5f * normal.y;
			r_rho += factor * (mom_j.y + mom_c.y);
			r_rhoE += factor * (cfn_rhoE.y + cf_rhoE.y);
			r_mom.x += factor * (cfn_mom_x.y + cf_mom_x.y);
			r_mom.y += factor * (cfn_mom_y.y + cf_mom_y.y);
			r_mom.z += factor * (cfn_mom_z.y + cf_mom_z.y);
			factor = 0.5f * normal.z;
			r_rho += factor * (mom_j.z + mom_c.z);
			r_rhoE += factor * (cfn_rhoE.z + cf_rhoE.z);
			r_mom.x += factor * (cfn_mom_x.z + cf_mom_x.z);
			r_mom.y += factor * (cfn_mom_y.z + cf_mom_y.z);
			r_mom.z += factor * (cfn_mom_z.z + cf_mom_z.z);
		} else if (nb0 == -1) {
			/* wall boundary */
			r_mom.x += normal.x * pressure_c;
			r_mom.y += normal.y * pressure_c;
			r_mom.z += normal.z * pressure_c;
		} else if (nb0 == -2) {
			/* far field */
			const float factor = 0.5f;
			r_rho += factor * (inflow_state[Q_MOM + 0] * normal.x + mom_c.x * normal.x);
			r_rhoE += factor * (inflow_fe.x + cf_rhoE.x) * normal.x;
			r_mom.x += factor * (inflow_fmx.x + cf_mom_x.x) * normal.x;
			r_mom.y += factor * (inflow_fmy.x + cf_mom_y.x) * normal.x;
			r_mom.z += factor * (inflow_fmz.x + cf_mom_z.x) * normal.x;
		}
	}
	/* face 1 */
	{
		const int nb1 = face_nbr[i + 1 * nelr];
		float3 normal;
		normal.x = face_geom[1 * 4 + 0] * cosf(0.1f * 1);
		normal.y = face_geom[1 * 4 + 1] * sinf(0.1f * 1);
		normal.z = face_geom[1 * 4 + 2];
		const float area = sqrtf(dot3(normal, normal));
		if (nb1 >= 0) {
			const float rho_j = q[nb1 + Q_RHO * nelr];
			float3 mom_j;
			mom_j.x = q[nb1 + (Q_MOM + 0) * nelr];
			mom_j.y = q[nb1 + (Q_MOM + 1) * nelr];
			mom_j.z = q[nb1 + (Q_MOM + 2) * nelr];
			const float rhoE_j = q[nb1 + Q_ENERGY * nelr];
			const float3 velocity_j = velocity_from(rho_j, mom_j);
			const float vel2_j = dot3(velocity_j, velocity_j);
			const float pressure_j = eos_pressure(rho_j, rhoE_j, vel2_j);
			const float csound_j = eos_csound(rho_j, pressure_j);
			float3 cfn_mom_x, cfn_mom_y, cfn_mom_z, cfn_rhoE;
			convective_terms(rho_j, mom_j, rhoE_j, pressure_j, velocity_j,
					   cfn_mom_x, cfn_mom_y, cfn_mom_z, cfn_rhoE);
			/* artificial viscosity */
			float factor = -area * visc_k * 0.5f *
				(speed_c + sqrtf(vel2_j) + csound_c + csound_j);
			r_rho += factor * (rho_c - rho_j);
			r_rhoE += factor * (rhoE_c - rhoE_j);
			r_mom.x += factor * (mom_c.x - mom_j.x);
			r_mom.y += factor * (mom_c.y - mom_j.y);
			r_mom.z += factor * (mom_c.z - mom_j.z);
			/* accumulate cell-centred res */
			factor = 0.5f * normal.x;
			r_rho += factor * (mom_j.x + mom_c.x);
			r_rhoE += factor * (cfn_rhoE.x + cf_rhoE.x);
			r_mom.x += factor * (cfn_mom_x.x + cf_mom_x.x);
			r_mom.y += factor * (cfn_mom_y.x + cf_mom_y.x);
			r_mom.z += factor * (cfn_mom_z.x + cf_mom_z.x);
			factor = 0.5f * normal.y;
			r_rho += factor * (mom_j.y + mom_c.y);
			r_rhoE += factor * (cfn_rhoE.y + cf_rhoE.y);
			r_mom.x += factor * (cfn_mom_x.y + cf_mom_x.y);
			r_mom.y += factor * (cfn_mom_y.y + cf_mom_y.y);
			r_mom.z += factor * (cfn_mom_z.y + cf_mom_z.y);
			factor = 0.5f * normal.z;
			r_rho += factor * (mom_j.z + mom_c.z);
			r_rhoE += factor * (cfn_rhoE.z + cf_rhoE.z);
			r_mom.x += factor * (cfn_mom_x.z + cf_mom_x.z);
			r_mom.y += factor * (cfn_mom_y.z + cf_mom_y.z);
			r_mom.z += factor * (cfn_mom_z.z + cf_mom_z.z);
		} else if (nb1 == -1) {
			/* wall boundary */
			r_mom.x += normal.x * pressure_c;
			r_mom.y += normal.y * pressure_c;
			r_mom.z += normal.z * pressure_c;
		} else if (nb1 == -2) {
			/* far field */
			const float factor = 0.5f;
			r_rho += factor * (inflow_state[Q_MOM + 0] * normal.x + mom_c.x * normal.x);
			r_rhoE += factor * (inflow_fe.x + cf_rhoE.x) * normal.x;
			r_mom.x += factor * (inflow_fmx.x + cf_mom_x.x) * normal.x;
			r_mom.y += factor * (inflow_fmy.x + cf_mom_y.x) * normal.x;
			r_mom.z += factor * (inflow_fmz.x + cf_mom_z.x) * normal.x;
		}
	}
	/* face 2 */
	{
		const int nb2 = face_nbr[i + 2 * nelr];
		float3 normal;
		normal.x = face_geom[2 * 4 + 0] * cosf(0.1f * 2);
		normal.y = face_geom[2 * 4 + 1] * sinf(0.1f * 2);
		normal.z = face_geom[2 * 4 + 2];
		const float area = sqrtf(dot3(normal, normal));
		if (nb2 >= 0) {
			const float rho_j = q[nb2 + Q_RHO * nelr];
			float3 mom_j;
			mom_j.x = q[nb2 + (Q_MOM + 0) * nelr];
			mom_j.y = q[nb2 + (Q_MOM + 1) * nelr];
			mom_j.z = q[nb2 + (Q_MOM + 2) * nelr];
			const float rhoE_j = q[nb2 + Q_ENERGY * nelr];
			const float3 velocity_j = velocity_from(rho_j, mom_j);
			const float vel2_j = dot3(velocity_j, velocity_j);
			const float pressure_j = eos_pressure(rho_j, rhoE_j, vel2_j);
			const float csound_j = eos_csound(rho_j, pressure_j);
			float3 cfn_mom_x, cfn_mom_y, cfn_mom_z, cfn_rhoE;
			convective_terms(rho_j, mom_j, rhoE_j, pressure_j, velocity_j,
					   cfn_mom_x, cfn_mom_y, cfn_mom_z, cfn_rhoE);
			/* artificial viscosity */
			float factor = -area * visc_k * 0.5f *
				(speed_c + sqrtf(vel2_j) + csound_c + csound_j);
			r_rho += factor * (rho_c - rho_j);
			r_rhoE += factor * (rhoE_c - rhoE_j);
			r_mom.x += factor * (mom_c.x - mom_j.x);
			r_mom.y += factor * (mom_c.y - mom_j.y);
			r_mom.z += factor * (mom_c.z - mom_j.z);
			/* accumulate cell-centred res */
			factor = 0.5f * normal.x;
			r_rho += factor * (mom_j.x + mom_c.x);
			r_rhoE += factor * (cfn_rhoE.x + cf_rhoE.x);
			r_mom.x += factor * (cfn_mom_x.x + cf_mom_x.x);
			r_mom.y += factor * (cfn_mom_y.x + cf_mom_y.x);
			r_mom.z += factor * (cfn_mom_z.x + cf_mom_z.x);
			factor = 0.5f * normal.y;
			r_rho += factor * (mom_j.y + mom_c.y);
			r_rhoE += factor * (cfn_rhoE.y + cf_rhoE.y);
			r_mom.x += factor * (cfn_mom_x.y + cf_mom_x.y);
			r_mom.y += factor * (cfn_mom_y.y + cf_mom_y.y);
			r_mom.z += factor * (cfn_mom_z.y + cf_mom_z.y);
			factor = 0.5f * normal.z;
			r_rho += factor * (mom_j.z + mom_c.z);
			r_rhoE += factor * (cfn_rhoE.z + cf_rhoE.z);
			r_mom.x += factor * (cfn_mom_x.z + cf_mom_x.z);
			r_mom.y += factor * (cfn_mom_y.z + cf_mom_y.z);
			r_mom.z += factor * (cfn_mom_z.z + cf_mom_z.z);
		} else if (nb2 == -1) {
			/* wall boundary */
			r_mom.x += normal.x * pressure_c;
			r_mom.y += normal.y * pressure_c;
			r_mom.z += normal.z * pressure_c;
		} else if (nb2 == -2) {
			/* far field */
			const float factor = 0.5f;
			r_rho += factor * (inflow_state[Q_MOM + 0] * normal.x + mom_c.x * normal.x);
			r_rhoE += factor * (inflow_fe.x + cf_rhoE.x) * normal.x;
			r_mom.x += factor * (inflow_fmx.x + cf_mom_x.x) * normal.x;
			r_mom.y += factor * (inflow_fmy.x + cf_mom_y.x) * normal.x;
			r_mom.z += factor * (inflow_fmz.x + cf_mom_z.x) * normal.x;
		}
	}
	/* face 3 */
	{
		const int nb3 = face_nbr[i + 3 * nelr];
		float3 normal;
		normal.x = face_geom[3 * 4 + 0] * cosf(0.1f * 3);
		normal.y = face_geom[3 * 4 + 1] * sinf(0.1f * 3);
		normal.z = face_geom[3 * 4 + 2];
		const float area = sqrtf(dot3(normal, normal));
		if (nb3 >= 0) {
			const float rho_j = q[nb3 + Q_RHO * nelr];
			float3 mom_j;
			mom_j.x = q[nb3 + (Q_MOM + 0) * nelr];
			mom_j.y = q[nb3 + (Q_MOM + 1) * nelr];
			mom_j.z = q[nb3 + (Q_MOM + 2) * nelr];
			const float rhoE_j = q[nb3 + Q_ENERGY * nelr];
			const float3 velocity_j = velocity_from(rho_j, mom_j);
			const float vel2_j = dot3(velocity_j, velocity_j);
			const float pressure_j = eos_pressure(rho_j, rhoE_j, vel2_j);
			const float csound_j = eos_csound(rho_j, pressure_j);
			float3 cfn_mom_x, cfn_mom_y, cfn_mom_z, cfn_rhoE;
			convective_terms(rho_j, mom_j, rhoE_j, pressure_j, velocity_j,
					   cfn_mom_x, cfn_mom_y, cfn_mom_z, cfn_rhoE);
			/* artificial viscosity */
			float factor = -area * visc_k * 0.5f *
				(speed_c + sqrtf(vel2_j) + csound_c + csound_j);
			r_rho += factor * (rho_c - rho_j);
			r_rhoE += factor * (rhoE_c - rhoE_j);
			r_mom.x += factor * (mom_c.x - mom_j.x);
			r_mom.y += factor * (mom_c.y - mom_j.y);
			r_mom.z += factor * (mom_c.z - mom_j.z);
			/* accumulate cell-centred res */
			factor = 0.5f * normal.x;
			r_rho += factor * (mom_j.x + mom_c.x);
			r_rhoE += factor * (cfn_rhoE.x + cf_rhoE.x);
			r_mom.x += factor * (cfn_mom_x.x + cf_mom_x.x);
			r_mom.y += factor * (cfn_mom_y.x + cf_mom_y.x);
			r_mom.z += factor * (cfn_mom_z.x + cf_mom_z.x);
			factor = 0.5f * normal.y;
			r_rho += factor * (mom_j.y + mom_c.y);
			r_rhoE += factor * (cfn_rhoE.y + cf_rhoE.y);
			r_mom.x += factor * (cfn_mom_x.y + cf_mom_x.y);
			r_mom.y += factor * (cfn_mom_y.y + cf_mom_y.y);
			r_mom.z += factor * (cfn_mom_z.y + cf_mom_z.y);
			factor = 0.5f * normal.z;
			r_rho += factor * (mom_j.z + mom_c.z);
			r_rhoE += factor * (cfn_rhoE.z + cf_rhoE.z);
			r_mom.x += factor * (cfn_mom_x.z + cf_mom_x.z);
			r_mom.y += factor * (cfn_mom_y.z + cf_mom_y.z);
			r_mom.z += factor * (cfn_mom_z.z + cf_mom_z.z);
		} else if (nb3 == -1) {
			/* wall boundary */
			r_mom.x += normal.x * pressure_c;
			r_mom.y += normal.y * pressure_c;
			r_mom.z += normal.z * pressure_c;
		} else if (nb3 == -2) {
			/* far field */
			const float factor = 0.5f;
			r_rho += factor * (inflow_state[Q_MOM + 0] * normal.x + mom_c.x * normal.x);
			r_rhoE += factor * (inflow_fe.x + cf_rhoE.x) * normal.x;
			r_mom.x += factor * (inflow_fmx.x + cf_mom_x.x) * normal.x;
			r_mom.y += factor * (inflow_fmy.x + cf_mom_y.x) * normal.x;
			r_mom.z += factor * (inflow_fmz.x + cf_mom_z.x) * normal.x;
		}
	}
	res[i + Q_RHO * nelr] = r_rho;
	res[i + (Q_MOM + 0) * nelr] = r_mom.x;
	res[i + (Q_MOM + 1) * nelr] = r_mom.y;
	res[i + (Q_MOM + 2) * nelr] = r_mom.z;
	res[i + Q_ENERGY * nelr] = r_rhoE;
}
#endif

/* ---------------- host reference (for --verify) ---------------- */

static void blur_cfd_0(const float *in, float *out, int w, int h)
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

static void mm_cfd_1(const float *A, const float *B, float *C, int M, int N, int K)
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

static void stencil_cfd_2(const float *in, float *out, int nx, int ny, int iters)
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

static int read_cfd_3(const char *path, float *buf, int max)
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

static double sum_cfd_4(const float *v, long n)
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

static int read_cfd_5(const char *path, float *buf, int max)
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

static void transpose_cfd_6(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static void init_cfd_7(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 4096) / 1000.0f;
		}
	}
}

static int read_cfd_8(const char *path, float *buf, int max)
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

static void dump_cfd_9(const char *path, const float *data, int rows, int cols)
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

static double sum_cfd_10(const float *v, long n)
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

static void mm_cfd_11(const float *A, const float *B, float *C, int M, int N, int K)
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

static int cmp_cfd_12(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_cfd_12: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void hist_cfd_13(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void hist_cfd_14(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void blur_cfd_15(const float *in, float *out, int w, int h)
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

static float norm_cfd_16(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static int read_cfd_17(const char *path, float *buf, int max)
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

static int read_cfd_18(const char *path, float *buf, int max)
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

static void mm_cfd_19(const float *A, const float *B, float *C, int M, int N, int K)
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

static void stencil_cfd_20(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.2f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static void dump_cfd_21(const char *path, const float *data, int rows, int cols)
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

static void transpose_cfd_22(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static int read_cfd_23(const char *path, float *buf, int max)
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

static void dump_cfd_24(const char *path, const float *data, int rows, int cols)
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

static int cmp_cfd_25(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_cfd_25: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void stencil_cfd_26(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.2f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static void mm_cfd_27(const float *A, const float *B, float *C, int M, int N, int K)
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

static int read_cfd_28(const char *path, float *buf, int max)
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

static void stencil_cfd_29(const float *in, float *out, int nx, int ny, int iters)
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

static void stencil_cfd_30(const float *in, float *out, int nx, int ny, int iters)
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

static void init_cfd_31(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 100) / 1000.0f;
		}
	}
}

static void mm_cfd_32(const float *A, const float *B, float *C, int M, int N, int K)
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

static void transpose_cfd_33(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static int cmp_cfd_34(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_cfd_34: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void transpose_cfd_35(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static void hist_cfd_36(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void blur_cfd_37(const float *in, float *out, int w, int h)
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

static double sum_cfd_38(const float *v, long n)
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

static int cmp_cfd_39(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_cfd_39: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static int read_cfd_40(const char *path, float *buf, int max)
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

static void blur_cfd_41(const float *in, float *out, int w, int h)
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

static int cmp_cfd_42(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_cfd_42: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void mm_cfd_43(const float *A, const float *B, float *C, int M, int N, int K)
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

static void transpose_cfd_44(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static void hist_cfd_45(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static double sum_cfd_46(const float *v, long n)
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

static void stencil_cfd_47(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.2f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static double sum_cfd_48(const float *v, long n)
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

static void blur_cfd_49(const float *in, float *out, int w, int h)
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

static int cmp_cfd_50(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_cfd_50: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void blur_cfd_51(const float *in, float *out, int w, int h)
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

static void blur_cfd_52(const float *in, float *out, int w, int h)
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

static void mm_cfd_53(const float *A, const float *B, float *C, int M, int N, int K)
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

static void hist_cfd_54(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void init_cfd_55(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 4096) / 100.0f;
		}
	}
}

static float norm_cfd_56(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void dump_cfd_57(const char *path, const float *data, int rows, int cols)
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

static void mm_cfd_58(const float *A, const float *B, float *C, int M, int N, int K)
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

static void stencil_cfd_59(const float *in, float *out, int nx, int ny, int iters)
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

static void init_cfd_60(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 1000) / 1000.0f;
		}
	}
}

static int read_cfd_61(const char *path, float *buf, int max)
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

static void hist_cfd_62(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static double sum_cfd_63(const float *v, long n)
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

static void mm_cfd_64(const float *A, const float *B, float *C, int M, int N, int K)
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

static int cmp_cfd_65(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_cfd_65: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static int read_cfd_66(const char *path, float *buf, int max)
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

static float norm_cfd_67(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static float norm_cfd_68(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void transpose_cfd_69(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static int read_cfd_70(const char *path, float *buf, int max)
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

static void dump_cfd_71(const char *path, const float *data, int rows, int cols)
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

static double sum_cfd_72(const float *v, long n)
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

static double sum_cfd_73(const float *v, long n)
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

static void blur_cfd_74(const float *in, float *out, int w, int h)
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

static void mm_cfd_75(const float *A, const float *B, float *C, int M, int N, int K)
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

static float norm_cfd_76(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void hist_cfd_77(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void transpose_cfd_78(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static float norm_cfd_79(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void init_cfd_80(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 4096) / 100.0f;
		}
	}
}

static double sum_cfd_81(const float *v, long n)
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

static float norm_cfd_82(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static int read_cfd_83(const char *path, float *buf, int max)
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

static void transpose_cfd_84(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static void stencil_cfd_85(const float *in, float *out, int nx, int ny, int iters)
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

static void hist_cfd_86(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static float norm_cfd_87(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void transpose_cfd_88(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static int read_cfd_89(const char *path, float *buf, int max)
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

static int cmp_cfd_90(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_cfd_90: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static int read_cfd_91(const char *path, float *buf, int max)
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

static void init_cfd_92(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 100) / 100.0f;
		}
	}
}

static int read_cfd_93(const char *path, float *buf, int max)
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

static void mm_cfd_94(const float *A, const float *B, float *C, int M, int N, int K)
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

static int read_cfd_95(const char *path, float *buf, int max)
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

static void stencil_cfd_96(const float *in, float *out, int nx, int ny, int iters)
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

static void transpose_cfd_97(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static int read_cfd_98(const char *path, float *buf, int max)
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

static int cmp_cfd_99(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_cfd_99: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static double sum_cfd_100(const float *v, long n)
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

static void hist_cfd_101(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void transpose_cfd_102(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static int cmp_cfd_103(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_cfd_103: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static int cmp_cfd_104(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_cfd_104: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static double sum_cfd_105(const float *v, long n)
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

static void mm_cfd_106(const float *A, const float *B, float *C, int M, int N, int K)
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

static void blur_cfd_107(const float *in, float *out, int w, int h)
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

static int cmp_cfd_108(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_cfd_108: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void dump_cfd_109(const char *path, const float *data, int rows, int cols)
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

static float norm_cfd_110(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void blur_cfd_111(const float *in, float *out, int w, int h)
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

static double sum_cfd_112(const float *v, long n)
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

static float norm_cfd_113(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static int read_cfd_114(const char *path, float *buf, int max)
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

static void transpose_cfd_115(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static int read_cfd_116(const char *path, float *buf, int max)
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

static void mm_cfd_117(const float *A, const float *B, float *C, int M, int N, int K)
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

static void blur_cfd_118(const float *in, float *out, int w, int h)
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

static int read_cfd_119(const char *path, float *buf, int max)
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

/* mesh file: ncells, then per cell its volume and NFACE x (neighbour, nx, ny, nz) */
struct mesh {
	int ncells, padded;
	std::vector<float> volume, normal;
	std::vector<int> nbr;
};

static bool read_mesh(const char *path, mesh &m)
{
	std::ifstream in(path);
	if (!in)
		return false;
	in >> m.ncells;
	m.padded = (m.ncells + CELL_BLOCK - 1) / CELL_BLOCK * CELL_BLOCK;
	m.volume.assign(m.padded, 1.0f);
	m.nbr.assign((size_t)m.padded * NFACE, -1);
	m.normal.assign((size_t)m.padded * NFACE * NDIM, 0.0f);
	for (int c = 0; c < m.ncells; c++) {
		in >> m.volume[c];
		for (int f = 0; f < NFACE; f++) {
			int j;
			in >> j;
			m.nbr[c + f * m.padded] = j > 0 ? j - 1 : (j == 0 ? -1 : -2);
			for (int d = 0; d < NDIM; d++)
				in >> m.normal[c + (f * NDIM + d) * m.padded];
		}
	}
	return true;
}

struct device_buffers {
	float *volume, *normal, *q, *q_old, *res, *dt_local;
	int *nbr;
};

static void to_device(const mesh &m, device_buffers &b)
{
	const size_t n = m.padded;
	cudaMalloc((void **)&b.volume, n * sizeof(float));
	cudaMalloc((void **)&b.normal, n * NFACE * NDIM * sizeof(float));
	cudaMalloc((void **)&b.nbr, n * NFACE * sizeof(int));
	cudaMalloc((void **)&b.q, n * NQ * sizeof(float));
	cudaMalloc((void **)&b.q_old, n * NQ * sizeof(float));
	cudaMalloc((void **)&b.res, n * NQ * sizeof(float));
	cudaMalloc((void **)&b.dt_local, n * sizeof(float));
	cudaMemcpy(b.volume, m.volume.data(), n * sizeof(float), cudaMemcpyHostToDevice);
	cudaMemcpy(b.normal, m.normal.data(), n * NFACE * NDIM * sizeof(float), cudaMemcpyHostToDevice);
	cudaMemcpy(b.nbr, m.nbr.data(), n * NFACE * sizeof(int), cudaMemcpyHostToDevice);
}

static void release(device_buffers &b)
{
	cudaFree(b.volume);
	cudaFree(b.normal);
	cudaFree(b.nbr);
	cudaFree(b.q);
	cudaFree(b.q_old);
	cudaFree(b.res);
	cudaFree(b.dt_local);
}

int main(int argc, char **argv)
{
	mesh m;
	device_buffers b;
	if (argc < 2 || !read_mesh(argv[1], m)) {
		std::cerr << "usage: " << argv[0] << " mesh.dat" << std::endl;
		return 1;
	}
	to_device(m, b);
	const int nelr = m.padded;
	dim3 grid(nelr / CELL_BLOCK), block(CELL_BLOCK);
	init_state<<<grid, block>>>(nelr, b.q);
	init_state<<<grid, block>>>(nelr, b.res);
	double t0 = gettime();
	for (int step = 0; step < NSTEPS; step++) {
		cudaMemcpy(b.q_old, b.q, sizeof(float) * nelr * NQ, cudaMemcpyDeviceToDevice);
		local_step_factor<<<grid, block>>>(nelr, b.q, b.volume, b.dt_local);
		for (int stage = 0; stage < RK; stage++) {
			face_flux<<<grid, block>>>(nelr, b.nbr, b.normal, b.q, b.res);
			rk_advance<<<grid, block>>>(stage, nelr, b.q_old, b.q, b.dt_local, b.res);
		}
	}
	cudaDeviceSynchronize();
	std::cout << (gettime() - t0) / NSTEPS << " s/step" << std::endl;
	release(b);
	return 0;
}
