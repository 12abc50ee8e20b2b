// Not a rung of the ladder: fills a measurement's A or B on the GPU from the hash in
// model/input_values.hpp, so a request of 2048³ needs no host random numbers and no upload.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/common/fill_inputs.hpp"
#include "model/half_values.hpp"
#include "model/input_values.hpp"

namespace ts::kernels {

namespace {

template <typename T>
__global__ void fill_inputs_kernel(T* out, std::int64_t count, std::uint64_t seed, int matrix, std::int32_t bound) {
    // A grid-stride loop: any count, with a grid of a few thousand blocks.
    for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
         i += std::int64_t{gridDim.x} * blockDim.x) {
        if constexpr (std::is_integral_v<T>) out[i] = model::input_integer(seed, matrix, i, bound);
        else out[i] = static_cast<T>(model::input_real(seed, matrix, i));
    }
}

__global__ void fill_half_inputs_kernel(std::uint16_t* out, std::int64_t count, std::uint64_t seed, int matrix,
                                        model::HalfFormat format) {
    for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
         i += std::int64_t{gridDim.x} * blockDim.x)
        out[i] = model::round_to_half(model::input_real(seed, matrix, i), format);
}

constexpr int kFillThreads = 256;
unsigned fill_blocks(std::int64_t count) {
    return static_cast<unsigned>(std::min<std::int64_t>((count + kFillThreads - 1) / kFillThreads, 4096));
}

}  // namespace

cudaError_t fill_half_inputs(std::uint16_t* out, std::int64_t count, std::uint64_t seed, int matrix, bool bf16,
                             cudaStream_t stream) {
    if (count <= 0) return cudaSuccess;
    fill_half_inputs_kernel<<<fill_blocks(count), kFillThreads, 0, stream>>>(
        out, count, seed, matrix, bf16 ? model::kBf16Format : model::kFp16Format);
    return cudaGetLastError();
}

template <typename T>
cudaError_t fill_inputs(T* out, std::int64_t count, std::uint64_t seed, int matrix, std::int32_t bound,
                        cudaStream_t stream) {
    if (count <= 0) return cudaSuccess;
    fill_inputs_kernel<T><<<fill_blocks(count), kFillThreads, 0, stream>>>(out, count, seed, matrix, bound);
    return cudaGetLastError();
}

template cudaError_t fill_inputs<std::int32_t>(std::int32_t*, std::int64_t, std::uint64_t, int, std::int32_t,
                                               cudaStream_t);
template cudaError_t fill_inputs<float>(float*, std::int64_t, std::uint64_t, int, std::int32_t, cudaStream_t);
template cudaError_t fill_inputs<double>(double*, std::int64_t, std::uint64_t, int, std::int32_t, cudaStream_t);

}  // namespace ts::kernels
