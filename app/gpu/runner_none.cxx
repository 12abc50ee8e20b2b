// runner_none.cxx — the backend of a build without CUDA: the app and the tools keep working
// on the model, and every GPU request fails with the reason.
#include "runner.hpp"
#include "user_kernel_compile.hpp"

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
    // Compiling the learner's kernel needs NVRTC, not CUDA's runtime: for the architecture asked.
    if (request.kind == RequestKind::UserCompile && request.user) {
        result.compile = compile_user_source(*request.user, request.user->arch, nullptr);
        result.ok = result.compile->ok;
        result.error = result.compile->why;
        return result;
    }
    result.error = kNoCuda;
    if (request.kind == RequestKind::Accumulator)
        result.error += std::string("; the accumulator experiment needs an H100/H200: wgmma is sm_90a");
    return result;
}

bool cuda_context_lost() { return false; }

void release_gpu_resources() {}

}  // namespace ts::gpu
