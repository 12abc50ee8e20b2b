// Not a rung of the ladder: reads a large buffer so that L2 holds only clean lines before a
// launch whose DRAM traffic is counted (kernels/common/l2_clean.hpp says why).
#include <algorithm>

#include "kernels/common/l2_clean.hpp"

namespace ts::kernels {

namespace {

__global__ void l2_clean_kernel(const uint4* data, std::size_t count, std::uint32_t never, std::uint32_t* sink) {
    std::uint32_t mixed = 0;
    // A grid-stride loop: any size, with a grid of a few thousand blocks.
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
         i += std::size_t{gridDim.x} * blockDim.x) {
        const uint4 v = data[i];
        mixed ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (mixed == never) *sink = mixed;
}

}  // namespace

cudaError_t launch_l2_clean(const void* buffer, std::size_t bytes, std::uint32_t never, std::uint32_t* sink,
                            cudaStream_t stream) {
    const std::size_t count = bytes / sizeof(uint4);
    if (count == 0) return cudaSuccess;
    constexpr int kThreads = 256;
    const std::size_t blocks = std::min<std::size_t>((count + kThreads - 1) / kThreads, 4096);
    l2_clean_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(static_cast<const uint4*>(buffer), count,
                                                                            never, sink);
    return cudaGetLastError();
}

}  // namespace ts::kernels
