#include <algorithm>
#include <vector>

#include "caffe_lite/layers.cuh"

namespace caffe {

template <typename Dtype>
__global__ void DropoutForward(
    const int n,
    const Dtype* in,
    Dtype* out,
    unsigned char* mask,
    float p,
    float scale,
    unsigned long long seed) {
    CUDA_KERNEL_LOOP(index, n) {
        unsigned int h = static_cast<unsigned int>(index) * 2654435761u ^ static_cast<unsigned int>(seed);
        h ^= h >> 16;
        h *= 0x7feb352du;
        h ^= h >> 15;
        const float u = (h & 0x00ffffffu) * (1.f / 16777216.f);
        const bool keep = u >= p;
        mask[index] = keep;
        out[index] = keep ? static_cast<Dtype>(static_cast<float>(in[index]) * scale) : static_cast<Dtype>(0.f);
    }
}

template <typename Dtype>
__global__ void DropoutBackward(
    const int n,
    const Dtype* a,
    const Dtype* b,
    Dtype* out) {
    CUDA_KERNEL_LOOP(index, n) {
        const float x = static_cast<float>(a[index]);
        const float y = static_cast<float>(b[index]);
        out[index] = static_cast<Dtype>(x * y);
    }
}

template <typename Dtype>
void DropoutLayer<Dtype>::Forward_gpu(const vector<Blob<Dtype>*>& bottom,
    const vector<Blob<Dtype>*>& top) {
  const Dtype* bottom_data = bottom[0]->gpu_data();
  Dtype* top_data = top[0]->mutable_gpu_data();
  const int count = bottom[0]->count();
  // NOLINT_NEXT_LINE(whitespace/operators)
  DropoutForward<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, top_data, this->aux_uchar_.mutable_gpu_data(), 0.1f, 1.1111f, 42ull);
  CUDA_POST_KERNEL_CHECK;
}

template <typename Dtype>
void DropoutLayer<Dtype>::Backward_gpu(const vector<Blob<Dtype>*>& top,
    const vector<bool>& propagate_down,
    const vector<Blob<Dtype>*>& bottom) {
  if (!propagate_down[0]) {
    return;
  }
  const Dtype* top_diff = top[0]->gpu_diff();
  const Dtype* bottom_data = bottom[0]->gpu_data();
  Dtype* bottom_diff = bottom[0]->mutable_gpu_diff();
  const int count = bottom[0]->count();
  // NOLINT_NEXT_LINE(whitespace/operators)
  DropoutBackward<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(
      count, bottom_data, bottom_data, bottom_diff);
  CUDA_POST_KERNEL_CHECK;
}

INSTANTIATE_LAYER_GPU_FUNCS(DropoutLayer);

}  // namespace caffe
