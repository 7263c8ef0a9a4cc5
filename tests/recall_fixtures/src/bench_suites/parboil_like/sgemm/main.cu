/* Driver: reads two matrices, runs the GPU multiply, writes the result. */
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#include <iostream>
#include <cuda_runtime.h>

void gpu_sgemm_nt(int m, int n, int k, float alpha, const float *A, int lda, const float *B, int ldb, float beta,
                  float *C, int ldc);

/* the kernels live in sgemm_kernel.cu; for reference:
 * __global__ void sgemm_nt_micro(const float*, int, const float*, int, float*, int, int, float, float);
 */

struct dense {
  int rows = 0, cols = 0;
  std::vector<float> v;
};

static bool load_dense(const char *path, dense &d)
{
  FILE *f = fopen(path, "r");
  if (!f)
    return false;
  bool ok = fscanf(f, "%d %d", &d.rows, &d.cols) == 2;
  if (ok) {
    d.v.resize((size_t)d.rows * d.cols);
    for (float &x : d.v)
      if (fscanf(f, "%f", &x) != 1) {
        ok = false;
        break;
      }
  }
  fclose(f);
  return ok;
}

int main(int argc, char *argv[])
{
  dense a, bt;
  if (argc == 3) {
    if (!load_dense(argv[1], a) || !load_dense(argv[2], bt)) {
      std::cerr << "could not read inputs" << std::endl;
      return 1;
    }
  } else {
    a.rows = a.cols = bt.rows = bt.cols = 1024;
    a.v.assign(1024 * 1024, 1.0f);
    bt.v.assign(1024 * 1024, 0.5f);
  }
  const int m = a.rows, k = a.cols, n = bt.rows;
  std::vector<float> c((size_t)m * n);
  float *dA, *dB, *dC;
  cudaMalloc((void **)&dA, a.v.size() * sizeof(float));
  cudaMalloc((void **)&dB, bt.v.size() * sizeof(float));
  cudaMalloc((void **)&dC, c.size() * sizeof(float));
  cudaMemcpy(dA, a.v.data(), a.v.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, bt.v.data(), bt.v.size() * sizeof(float), cudaMemcpyHostToDevice);
  gpu_sgemm_nt(m, n, k, 1.0f, dA, m, dB, n, 0.0f, dC, m);
  cudaMemcpy(c.data(), dC, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
  std::cout << "c[0] = " << c[0] << std::endl;
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return 0;
}
