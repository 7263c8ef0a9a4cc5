// cudaperf declaration shim for Thrust (every <thrust/...> header is this one file): used by the clang
// frontend only, and only where the CUDA toolkit's Thrust is not found (searched after every include path).
// Declarations for type checking host code that launches kernels: containers, pointers, iterators, the
// algorithms as variadic declarations returning `_any` (a value of whatever type the caller wants).
#pragma once

#define THRUST_VERSION 200200
#define THRUST_MAJOR_VERSION 2
#define THRUST_MINOR_VERSION 2

namespace thrust {

struct _any {
  template <class T> __host__ __device__ operator T() const;
  template <class T> __host__ __device__ _any& operator=(const T& value);
};

struct _policy { _policy on(cudaStream_t stream) const; };
extern const _policy device, host, seq;
namespace cuda { extern const _policy par, par_nosync; }
namespace system { namespace cuda { extern const _policy par, par_nosync; } }

template <class T> class device_reference {
 public:
  __host__ __device__ operator T() const;
  __host__ __device__ device_reference& operator=(const T& value);
};

template <class T> class device_ptr {
 public:
  typedef T element_type;
  __host__ __device__ device_ptr();
  __host__ __device__ explicit device_ptr(T* p);
  __host__ __device__ T* get() const;
  __host__ __device__ device_reference<T> operator*() const;
  __host__ __device__ device_reference<T> operator[](long long n) const;
  __host__ __device__ device_ptr operator+(long long n) const;
  __host__ __device__ device_ptr operator-(long long n) const;
  __host__ __device__ long long operator-(const device_ptr& other) const;
  __host__ __device__ device_ptr& operator++();
};
template <class T> __host__ __device__ T* raw_pointer_cast(const device_ptr<T>& p);
template <class T> __host__ __device__ T* raw_pointer_cast(T* p);
template <class T> __host__ __device__ device_ptr<T> device_pointer_cast(T* p);
template <class T> device_ptr<T> device_malloc(size_t n);
device_ptr<void> device_malloc(size_t bytes);
template <class T> void device_free(device_ptr<T> p);

#define CUDAPERF_THRUST_VECTOR(NAME, REFERENCE, ITERATOR)               \
  template <class T, class Alloc = void> class NAME {                  \
   public:                                                             \
    typedef T value_type;                                              \
    typedef ITERATOR iterator;                                         \
    typedef ITERATOR const_iterator;                                   \
    NAME();                                                            \
    explicit NAME(size_t n);                                           \
    NAME(size_t n, const T& value);                                    \
    template <class It> NAME(It first, It last);                       \
    template <class V> NAME(const V& other);                           \
    template <class V> NAME& operator=(const V& other);                \
    size_t size() const;                                               \
    bool empty() const;                                                \
    iterator begin() const;                                            \
    iterator end() const;                                              \
    ITERATOR data() const;                                             \
    REFERENCE operator[](size_t n) const;                              \
    REFERENCE front() const;                                           \
    REFERENCE back() const;                                            \
    void resize(size_t n);                                             \
    void resize(size_t n, const T& value);                             \
    void reserve(size_t n);                                            \
    void clear();                                                      \
    void push_back(const T& value);                                    \
    void shrink_to_fit();                                              \
  };
CUDAPERF_THRUST_VECTOR(device_vector, device_reference<T>, device_ptr<T>)
CUDAPERF_THRUST_VECTOR(host_vector, T&, T*)
#undef CUDAPERF_THRUST_VECTOR

template <class T = void> struct plus { __host__ __device__ T operator()(const T& a, const T& b) const; };
template <class T = void> struct minus { __host__ __device__ T operator()(const T& a, const T& b) const; };
template <class T = void> struct multiplies { __host__ __device__ T operator()(const T& a, const T& b) const; };
template <class T = void> struct divides { __host__ __device__ T operator()(const T& a, const T& b) const; };
template <class T = void> struct maximum { __host__ __device__ T operator()(const T& a, const T& b) const; };
template <class T = void> struct minimum { __host__ __device__ T operator()(const T& a, const T& b) const; };
template <class T = void> struct less { __host__ __device__ bool operator()(const T& a, const T& b) const; };
template <class T = void> struct greater { __host__ __device__ bool operator()(const T& a, const T& b) const; };
template <class T = void> struct equal_to { __host__ __device__ bool operator()(const T& a, const T& b) const; };
template <class T = void> struct not_equal_to { __host__ __device__ bool operator()(const T& a, const T& b) const; };
template <class T = void> struct negate { __host__ __device__ T operator()(const T& a) const; };
template <class T = void> struct identity { __host__ __device__ const T& operator()(const T& a) const; };

template <class... T> class tuple {
 public:
  __host__ __device__ tuple();
  __host__ __device__ tuple(const T&... values);
};
template <class... T> __host__ __device__ tuple<T...> make_tuple(T... values);
template <int N, class Tuple> __host__ __device__ _any& get(Tuple&& t);
template <class A, class B> struct pair {
  A first;
  B second;
  __host__ __device__ pair();
  __host__ __device__ pair(const A& a, const B& b);
};
template <class A, class B> __host__ __device__ pair<A, B> make_pair(A a, B b);

// iterators: random access, whatever they adapt
#define CUDAPERF_THRUST_ITERATOR(NAME, MAKE)                                             \
  template <class... T> class NAME {                                                    \
   public:                                                                              \
    template <class... A> __host__ __device__ NAME(A&&... args);                        \
    __host__ __device__ _any operator*() const;                                         \
    __host__ __device__ _any operator[](long long n) const;                             \
    __host__ __device__ NAME operator+(long long n) const;                              \
    __host__ __device__ NAME operator-(long long n) const;                              \
    __host__ __device__ long long operator-(const NAME& other) const;                   \
    __host__ __device__ NAME& operator++();                                             \
  };                                                                                    \
  template <class... A> __host__ __device__ NAME<A...> MAKE(A... args);
CUDAPERF_THRUST_ITERATOR(counting_iterator, make_counting_iterator)
CUDAPERF_THRUST_ITERATOR(constant_iterator, make_constant_iterator)
CUDAPERF_THRUST_ITERATOR(zip_iterator, make_zip_iterator)
CUDAPERF_THRUST_ITERATOR(transform_iterator, make_transform_iterator)
CUDAPERF_THRUST_ITERATOR(permutation_iterator, make_permutation_iterator)
CUDAPERF_THRUST_ITERATOR(discard_iterator, make_discard_iterator)
CUDAPERF_THRUST_ITERATOR(reverse_iterator, make_reverse_iterator)
#undef CUDAPERF_THRUST_ITERATOR

// the algorithms (<thrust/sort.h>, <thrust/reduce.h> ...): any arguments, a result of any type
#define CUDAPERF_THRUST_ALGORITHM(F) template <class... A> __host__ __device__ _any F(A&&... args);
CUDAPERF_THRUST_ALGORITHM(sort) CUDAPERF_THRUST_ALGORITHM(stable_sort) CUDAPERF_THRUST_ALGORITHM(sort_by_key)
CUDAPERF_THRUST_ALGORITHM(stable_sort_by_key) CUDAPERF_THRUST_ALGORITHM(reduce) CUDAPERF_THRUST_ALGORITHM(reduce_by_key)
CUDAPERF_THRUST_ALGORITHM(inclusive_scan) CUDAPERF_THRUST_ALGORITHM(exclusive_scan)
CUDAPERF_THRUST_ALGORITHM(inclusive_scan_by_key) CUDAPERF_THRUST_ALGORITHM(exclusive_scan_by_key)
CUDAPERF_THRUST_ALGORITHM(transform) CUDAPERF_THRUST_ALGORITHM(transform_reduce) CUDAPERF_THRUST_ALGORITHM(copy)
CUDAPERF_THRUST_ALGORITHM(copy_if) CUDAPERF_THRUST_ALGORITHM(copy_n) CUDAPERF_THRUST_ALGORITHM(fill)
CUDAPERF_THRUST_ALGORITHM(fill_n) CUDAPERF_THRUST_ALGORITHM(sequence) CUDAPERF_THRUST_ALGORITHM(count)
CUDAPERF_THRUST_ALGORITHM(count_if) CUDAPERF_THRUST_ALGORITHM(unique) CUDAPERF_THRUST_ALGORITHM(unique_by_key)
CUDAPERF_THRUST_ALGORITHM(remove) CUDAPERF_THRUST_ALGORITHM(remove_if) CUDAPERF_THRUST_ALGORITHM(for_each)
CUDAPERF_THRUST_ALGORITHM(for_each_n) CUDAPERF_THRUST_ALGORITHM(generate) CUDAPERF_THRUST_ALGORITHM(find)
CUDAPERF_THRUST_ALGORITHM(find_if) CUDAPERF_THRUST_ALGORITHM(gather) CUDAPERF_THRUST_ALGORITHM(scatter)
CUDAPERF_THRUST_ALGORITHM(replace) CUDAPERF_THRUST_ALGORITHM(replace_if) CUDAPERF_THRUST_ALGORITHM(inner_product)
CUDAPERF_THRUST_ALGORITHM(min_element) CUDAPERF_THRUST_ALGORITHM(max_element)
CUDAPERF_THRUST_ALGORITHM(minmax_element) CUDAPERF_THRUST_ALGORITHM(binary_search)
CUDAPERF_THRUST_ALGORITHM(lower_bound) CUDAPERF_THRUST_ALGORITHM(upper_bound)
CUDAPERF_THRUST_ALGORITHM(adjacent_difference) CUDAPERF_THRUST_ALGORITHM(shuffle) CUDAPERF_THRUST_ALGORITHM(equal)
CUDAPERF_THRUST_ALGORITHM(tabulate) CUDAPERF_THRUST_ALGORITHM(partition) CUDAPERF_THRUST_ALGORITHM(swap)
#undef CUDAPERF_THRUST_ALGORITHM

namespace random {
class default_random_engine {
 public:
  __host__ __device__ explicit default_random_engine(unsigned int seed = 1);
  __host__ __device__ void discard(unsigned long long n);
  __host__ __device__ unsigned int operator()();
};
typedef default_random_engine minstd_rand;
typedef default_random_engine taus88;
template <class T = float> class uniform_real_distribution {
 public:
  __host__ __device__ explicit uniform_real_distribution(T a = 0, T b = 1);
  template <class E> __host__ __device__ T operator()(E& engine);
};
template <class T = int> class uniform_int_distribution {
 public:
  __host__ __device__ explicit uniform_int_distribution(T a = 0, T b = 2147483647);
  template <class E> __host__ __device__ T operator()(E& engine);
};
template <class T = float> class normal_distribution {
 public:
  __host__ __device__ explicit normal_distribution(T mean = 0, T stddev = 1);
  template <class E> __host__ __device__ T operator()(E& engine);
};
}  // namespace random
using random::default_random_engine;
using random::minstd_rand;
using random::normal_distribution;
using random::uniform_int_distribution;
using random::uniform_real_distribution;

// thrust::complex<T>: the toolkit's layout (two T, aligned to their pair)
template <class T> struct alignas(2 * sizeof(T)) complex {
  T _real, _imag;
  __host__ __device__ complex(const T& re = T(), const T& im = T());
  template <class U> __host__ __device__ complex(const complex<U>& other);
  __host__ __device__ T real() const;
  __host__ __device__ T imag() const;
  template <class U> __host__ __device__ complex& operator+=(const U& other);
  template <class U> __host__ __device__ complex& operator-=(const U& other);
  template <class U> __host__ __device__ complex& operator*=(const U& other);
  template <class U> __host__ __device__ complex& operator/=(const U& other);
};
#define CUDAPERF_THRUST_COMPLEX(OP)                                                                          \
  template <class T> __host__ __device__ complex<T> operator OP(const complex<T>& a, const complex<T>& b);  \
  template <class T> __host__ __device__ complex<T> operator OP(const complex<T>& a, const T& b);           \
  template <class T> __host__ __device__ complex<T> operator OP(const T& a, const complex<T>& b);
CUDAPERF_THRUST_COMPLEX(+) CUDAPERF_THRUST_COMPLEX(-) CUDAPERF_THRUST_COMPLEX(*) CUDAPERF_THRUST_COMPLEX(/)
#undef CUDAPERF_THRUST_COMPLEX
template <class T> __host__ __device__ complex<T> operator-(const complex<T>& a);
template <class T> __host__ __device__ T abs(const complex<T>& z);
template <class T> __host__ __device__ T arg(const complex<T>& z);
template <class T> __host__ __device__ T norm(const complex<T>& z);
template <class T> __host__ __device__ complex<T> conj(const complex<T>& z);
template <class T> __host__ __device__ complex<T> exp(const complex<T>& z);
template <class T> __host__ __device__ complex<T> sqrt(const complex<T>& z);
template <class T> __host__ __device__ complex<T> polar(const T& m, const T& theta = T());

}  // namespace thrust

// complete, so that a kernel's `thrust::complex<float>*` parameter has its element's size
template struct thrust::complex<float>;
template struct thrust::complex<double>;
