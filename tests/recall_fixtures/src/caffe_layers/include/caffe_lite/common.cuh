#ifndef CAFFE_LITE_COMMON_CUH_
#define CAFFE_LITE_COMMON_CUH_

#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>

namespace caffe {

using std::vector;

// CUDA: grid stride looping
#define CUDA_KERNEL_LOOP(i, n) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; \
       i < (n); \
       i += blockDim.x * gridDim.x)

#define CUDA_CHECK(condition) \
  do { \
    cudaError_t error = condition; \
    if (error != cudaSuccess) { \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(error), __FILE__, __LINE__); \
      abort(); \
    } \
  } while (0)

#define CUDA_POST_KERNEL_CHECK CUDA_CHECK(cudaPeekAtLastError())
#define NOT_IMPLEMENTED fprintf(stderr, "not implemented\n")

const int CAFFE_CUDA_NUM_THREADS = 512;

inline int CAFFE_GET_BLOCKS(const int N) {
  return (N + CAFFE_CUDA_NUM_THREADS - 1) / CAFFE_CUDA_NUM_THREADS;
}

template <typename Dtype>
class Blob {
 public:
  Blob() : data_(nullptr), diff_(nullptr), count_(0) {}
  const Dtype* gpu_data() const { return data_; }
  const Dtype* gpu_diff() const { return diff_; }
  Dtype* mutable_gpu_data() { return data_; }
  Dtype* mutable_gpu_diff() { return diff_; }
  int count() const { return count_; }
  int num() const { return shape_[0]; }
  int channels() const { return shape_[1]; }
  int height() const { return shape_[2]; }
  int width() const { return shape_[3]; }
  int shape(int i) const { return shape_[i]; }

 private:
  Dtype* data_;
  Dtype* diff_;
  int count_;
  int shape_[4] = {1, 1, 1, 1};
};

struct LayerParameter {
  float negative_slope = 0.f;
  float threshold = 0.f;
  int kernel_size = 3;
  int stride = 1;
  int pad = 0;
};

template <typename Dtype>
class Layer {
 public:
  explicit Layer(const LayerParameter& param) : layer_param_(param) {}
  virtual ~Layer() {}
  virtual void Forward_gpu(const vector<Blob<Dtype>*>& bottom, const vector<Blob<Dtype>*>& top) = 0;
  virtual void Backward_gpu(const vector<Blob<Dtype>*>& top, const vector<bool>& propagate_down,
                            const vector<Blob<Dtype>*>& bottom) = 0;

 protected:
  LayerParameter layer_param_;
  // scratch blobs shared by the layers' GPU code
  Blob<Dtype> scratch_;
  Blob<float> aux_float_;
  Blob<int> aux_int_;
  Blob<int64_t> aux_int64_;
  Blob<unsigned int> aux_uint_;
  Blob<unsigned char> aux_uchar_;
  Blob<bool> aux_bool_;
  Blob<float4> aux_float4_;
};

// Instantiate a class with float and double specifications.
#define INSTANTIATE_CLASS(classname) \
  template class classname<float>; \
  template class classname<double>

#define INSTANTIATE_LAYER_GPU_FORWARD(classname) \
  template void classname<float>::Forward_gpu( \
      const std::vector<Blob<float>*>& bottom, \
      const std::vector<Blob<float>*>& top); \
  template void classname<double>::Forward_gpu( \
      const std::vector<Blob<double>*>& bottom, \
      const std::vector<Blob<double>*>& top);

#define INSTANTIATE_LAYER_GPU_BACKWARD(classname) \
  template void classname<float>::Backward_gpu( \
      const std::vector<Blob<float>*>& top, \
      const std::vector<bool>& propagate_down, \
      const std::vector<Blob<float>*>& bottom); \
  template void classname<double>::Backward_gpu( \
      const std::vector<Blob<double>*>& top, \
      const std::vector<bool>& propagate_down, \
      const std::vector<Blob<double>*>& bottom)

#define INSTANTIATE_LAYER_GPU_FUNCS(classname) \
  INSTANTIATE_LAYER_GPU_FORWARD(classname); \
  INSTANTIATE_LAYER_GPU_BACKWARD(classname)

}  // namespace caffe

#endif  // CAFFE_LITE_COMMON_CUH_
