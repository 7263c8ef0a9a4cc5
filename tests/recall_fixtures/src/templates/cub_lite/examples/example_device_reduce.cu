/* Device-wide sum of a million floats using the dispatch layer; no kernels of its own. */
#include <cstdio>
#include <vector>
#include "../cub_lite/device/dispatch_reduce.cuh"

int main() {
  const int n = 1 << 20;
  std::vector<float> h(n, 1.0f);
  float *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, sizeof(float) * n);
  cudaMalloc(&d_out, sizeof(float));
  cudaMemcpy(d_in, h.data(), sizeof(float) * n, cudaMemcpyHostToDevice);
  size_t temp_storage_bytes = 0;
  void* d_temp_storage = nullptr;
  cub_lite::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, d_in, d_out, n);
  cudaMalloc(&d_temp_storage, temp_storage_bytes);
  cub_lite::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, d_in, d_out, n);
  float result = 0;
  cudaMemcpy(&result, d_out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("sum = %f (expected %d)\n", result, n);
  int segments[3] = {0, 1000, 4000};
  int* d_offsets;
  cudaMalloc(&d_offsets, sizeof(segments));
  cudaMemcpy(d_offsets, segments, sizeof(segments), cudaMemcpyHostToDevice);
  cub_lite::DeviceReduce::SegmentedSum(d_in, d_out, 2, d_offsets, d_offsets + 1);
  cudaFree(d_offsets);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_temp_storage);
  return 0;
}
