/***********************************************************************
 * Part of a GPU benchmark collection.  2019-2021.
 * Permission is granted to use, copy and modify this file for research.
 ***********************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/time.h>
#include <cuda.h>
#include <cuda_runtime.h>

#define ATOMS_PER_CELL 64
#define CELL_THREADS 64
#define NEIGHBOR_CELLS 26

struct atom { float x, y, z, q; };
struct force { float fx, fy, fz, u; };
struct cell_info {
	int first;	/* index of the cell's first atom */
	int natoms;
	int nbr[NEIGHBOR_CELLS];	/* -1 outside the box */
};
struct lj_params { float eps; float sigma2; float rcut2; };

__global__ void cell_forces(struct lj_params p, const struct cell_info *cells, int ncells,
		 const struct atom *atoms, struct force *forces)
{
	const int cell = blockIdx.x;
	const int t = threadIdx.x;
	if (cell >= ncells)
		return;
	__shared__ struct atom mine[ATOMS_PER_CELL];
	__shared__ struct atom other[ATOMS_PER_CELL];
	const struct cell_info ci = cells[cell];
	if (t < ci.natoms)
		mine[t] = atoms[ci.first + t];
	float fx = 0.0f, fy = 0.0f, fz = 0.0f, u = 0.0f;
	__syncthreads();
	/* cell 0 of 27 */
	{
		const int oc = cell;
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 1 of 27 */
	{
		const int oc = ci.nbr[0];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 2 of 27 */
	{
		const int oc = ci.nbr[1];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 3 of 27 */
	{
		const int oc = ci.nbr[2];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 4 of 27 */
	{
		const int oc = ci.nbr[3];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 5 of 27 */
	{
		const int oc = ci.nbr[4];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 6 of 27 */
	{
		const int oc = ci.nbr[5];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 7 of 27 */
	{
		const int oc = ci.nbr[6];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 8 of 27 */
	{
		const int oc = ci.nbr[7];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 9 of 27 */
	{
		const int oc = ci.nbr[8];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 10 of 27 */
	{
		const int oc = ci.nbr[9];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 11 of 27 */
	{
		const int oc = ci.nbr[10];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 12 of 27 */
	{
		const int oc = ci.nbr[11];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 13 of 27 */
	{
		const int oc = ci.nbr[12];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 14 of 27 */
	{
		const int oc = ci.nbr[13];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 15 of 27 */
	{
		const int oc = ci.nbr[14];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 16 of 27 */
	{
		const int oc = ci.nbr[15];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 17 of 27 */
	{
		const int oc = ci.nbr[16];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 18 of 27 */
	{
		const int oc = ci.nbr[17];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 19 of 27 */
	{
		const int oc = ci.nbr[18];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 20 of 27 */
	{
		const int oc = ci.nbr[19];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 21 of 27 */
	{
		const int oc = ci.nbr[20];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 22 of 27 */
	{
		const int oc = ci.nbr[21];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 23 of 27 */
	{
		const int oc = ci.nbr[22];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 24 of 27 */
	{
		const int oc = ci.nbr[23];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 25 of 27 */
	{
		const int oc = ci.nbr[24];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	/* cell 26 of 27 */
	{
		const int oc = ci.nbr[25];
		if (oc >= 0) {
			const int on = cells[oc].natoms;
			if (t < on)
				other[t] = atoms[cells[oc].first + t];
			__syncthreads();
			if (t < ci.natoms) {
				for (int j = 0; j < on; j++) {
					const float dx = mine[t].x - other[j].x;
					const float dy = mine[t].y - other[j].y;
					const float dz = mine[t].z - other[j].z;
					const float r2 = dx * dx + dy * dy + dz * dz;
					if (r2 > 0.0f && r2 < p.rcut2) {
						const float s2 = p.sigma2 / r2;
						const float s6 = s2 * s2 * s2;
						const float mag = 24.0f * p.eps * s6 * (2.0f * s6 - 1.0f) / r2;
						fx += mag * dx;
						fy += mag * dy;
						fz += mag * dz;
						u += 2.0f * p.eps * s6 * (s6 - 1.0f);
					}
				}
			}
			__syncthreads();
		}
	}
	if (t < ci.natoms) {
		struct force f;
		f.fx = fx;
		f.fy = fy;
		f.fz = fz;
		f.u = u;
		forces[ci.first + t] = f;
	}
}

static void hist_md_0(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void dump_md_1(const char *path, const float *data, int rows, int cols)
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

static float norm_md_2(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void blur_md_3(const float *in, float *out, int w, int h)
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

static int cmp_md_4(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_md_4: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void dump_md_5(const char *path, const float *data, int rows, int cols)
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

static void init_md_6(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 100) / 3.0f;
		}
	}
}

static void init_md_7(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 4096) / 100.0f;
		}
	}
}

static void mm_md_8(const float *A, const float *B, float *C, int M, int N, int K)
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

static void mm_md_9(const float *A, const float *B, float *C, int M, int N, int K)
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

static void hist_md_10(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void init_md_11(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 1000) / 100.0f;
		}
	}
}

static int cmp_md_12(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_md_12: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void mm_md_13(const float *A, const float *B, float *C, int M, int N, int K)
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

static void blur_md_14(const float *in, float *out, int w, int h)
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

static double sum_md_15(const float *v, long n)
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

static void blur_md_16(const float *in, float *out, int w, int h)
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

static void blur_md_17(const float *in, float *out, int w, int h)
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

static void transpose_md_18(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static int cmp_md_19(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_md_19: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void transpose_md_20(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static int read_md_21(const char *path, float *buf, int max)
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

static float norm_md_22(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void stencil_md_23(const float *in, float *out, int nx, int ny, int iters)
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

static void hist_md_24(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

int main(int argc, char *argv[])
{
	int side = argc > 1 ? atoi(argv[1]) : 8;
	int ncells = side * side * side;
	struct lj_params p;
	struct cell_info *d_cells;
	struct atom *d_atoms;
	struct force *d_forces;
	p.eps = 1.0f;
	p.sigma2 = 1.0f;
	p.rcut2 = 6.25f;
	cudaMalloc((void **)&d_cells, sizeof(struct cell_info) * ncells);
	cudaMalloc((void **)&d_atoms, sizeof(struct atom) * ncells * ATOMS_PER_CELL);
	cudaMalloc((void **)&d_forces, sizeof(struct force) * ncells * ATOMS_PER_CELL);
	cudaMemset(d_cells, 0, sizeof(struct cell_info) * ncells);
	cell_forces<<<ncells, CELL_THREADS>>>(p, d_cells, ncells, d_atoms, d_forces);
	cudaDeviceSynchronize();
	cudaFree(d_cells);
	cudaFree(d_atoms);
	cudaFree(d_forces);
	return 0;
}
