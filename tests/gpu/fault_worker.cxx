// The real GPU worker with one extra: a request with seed kFaultSeed launches a kernel that
// writes through a null pointer (null_write_kernel.cu). For tests/gpu/worker_gpu_test only.
#include <cuda_runtime_api.h>
#include <unistd.h>

#include "fault_worker.hpp"
#include "gpu/worker.hpp"

namespace ts::test {
cudaError_t launch_null_write();
}

int main() {
    using namespace ts::gpu;
    const auto run = [](const RunRequest& request) {
        if (request.seed != ts::test::kFaultSeed) return run_request(request);
        RunResult result;
        result.request = request;
        const cudaError_t fault = ts::test::launch_null_write();
        result.error = std::string("the null-pointer kernel: ") + cudaGetErrorString(fault) + " (" +
                       cudaGetErrorName(fault) + ")";
        return result;
    };
    return run_worker(STDIN_FILENO, STDOUT_FILENO, RunnerBackend{probe_device, run}, cuda_context_lost);
}
