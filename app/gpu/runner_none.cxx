// runner_none.cxx — the backend of a build without CUDA: the app and the tools keep working
// on the model, and every GPU request fails with the reason.
#include "runner.hpp"

namespace ts::gpu {

namespace {
constexpr const char* kNoCuda = "TileScope was built without CUDA (" TILESCOPE_NO_CUDA_REASON ") — model mode";
}

DeviceInfo probe_device() {
    DeviceInfo info;
    info.why_not = kNoCuda;
    return info;
}

RunResult run_request(const RunRequest& request) {
    RunResult result;
    result.request = request;
    result.error = kNoCuda;
    return result;
}

bool cuda_context_lost() { return false; }

void release_gpu_resources() {}

}  // namespace ts::gpu
