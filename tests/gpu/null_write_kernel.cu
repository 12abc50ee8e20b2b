// A kernel that faults on purpose, for the worker-process tests only: it writes through a
// null pointer, which the GPU reports as an illegal address and which leaves the CUDA
// context of the process unusable. Nothing outside tests/ can launch it.
#include <cuda_runtime.h>

namespace {

__global__ void write_through_null(float* nowhere) { nowhere[threadIdx.x] = 1.0f; }

}  // namespace

namespace ts::test {

cudaError_t launch_null_write() {
    write_through_null<<<1, 32>>>(nullptr);
    const cudaError_t launched = cudaGetLastError();
    return launched != cudaSuccess ? launched : cudaDeviceSynchronize();
}

}  // namespace ts::test
