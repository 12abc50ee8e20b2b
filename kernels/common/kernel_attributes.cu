// What CUDA knows about each kernel TileScope launches: registers, static shared memory and
// blocks per SM, for the occupancy view and for checking the model's occupancy against
// the GPU's. Each kernel file hands out the handle of the kernel its launcher would run.
#include "kernels/common/launch_common.cuh"

namespace ts::kernels {

const char* tensor_core_rung_unavailable(model::KernelKind kind) {
    if (!model::is_tensor_core(kind)) return nullptr;
    if (model::needs_sm90a(kind)) return sm90a_unavailable();
    int device = 0, major = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess)
        return "no CUDA device to ask";
    if (major < 8)
        return "the wmma, mma and mma-async rungs use BF16 tensor cores and cp.async, which arrive with compute capability 8.0 "
               "(Ampere): this GPU is older";
    return nullptr;
}

namespace {

TcKernelHandle tensor_core_handle(const model::KernelConfig& config, const model::Problem& problem) {
    switch (config.kind) {
        case model::KernelKind::Wmma: return wmma_handle(problem);
        case model::KernelKind::Mma: return mma_handle(problem);
        case model::KernelKind::MmaAsync: return mma_async_handle(problem);
        case model::KernelKind::Wgmma: return wgmma_handle(problem);
        case model::KernelKind::WarpSpecialized: return warp_specialized_handle(problem);
        case model::KernelKind::Persistent: return persistent_handle(problem);
        case model::KernelKind::TcTuned: return tc_tuned_handle(config, problem);
        case model::KernelKind::Fp8: return fp8_handle();
        case model::KernelKind::Fp8Blocks: return fp8_blocks_handle();
        default: return {};
    }
}

cudaError_t attributes_of(const void* handle, int threads, int dynamic_shared, KernelAttributes& attributes) {
    cudaFuncAttributes compiled{};
    if (const cudaError_t error = cudaFuncGetAttributes(&compiled, handle); error != cudaSuccess) return error;
    if (const cudaError_t error = allow_dynamic_shared(handle, dynamic_shared); error != cudaSuccess) return error;
    int blocks = 0;
    if (const cudaError_t error = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, handle, threads, dynamic_shared);
        error != cudaSuccess)
        return error;
    attributes.registers_per_thread = compiled.numRegs;
    attributes.static_shared_bytes = static_cast<int>(compiled.sharedSizeBytes) + dynamic_shared;
    attributes.local_bytes_per_thread = static_cast<int>(compiled.localSizeBytes);
    attributes.max_threads_per_block = compiled.maxThreadsPerBlock;
    attributes.blocks_per_sm = blocks;
    return cudaSuccess;
}

}  // namespace

cudaError_t kernel_attributes(const model::KernelConfig& config, const model::Problem& problem,
                              KernelAttributes& attributes) {
    if (model::is_tensor_core(config.kind)) {
        const TcKernelHandle tc = tensor_core_handle(config, problem);
        if (!tc.kernel) return cudaErrorInvalidValue;
        return attributes_of(tc.kernel, tc.threads, tc.dynamic_shared, attributes);
    }
    const void* handle = nullptr;
    switch (config.kind) {
        case model::KernelKind::Naive: handle = naive_handle(config, problem); break;
        case model::KernelKind::NaiveRowFromX: handle = naive_row_from_x_handle(config, problem); break;
        case model::KernelKind::RowPerThread: handle = row_per_thread_handle(config, problem); break;
        case model::KernelKind::ColumnPerThread: handle = column_per_thread_handle(config, problem); break;
        case model::KernelKind::Tiled:
            handle = tiled_handle(config, problem);
            if (!handle) return cudaErrorInvalidConfiguration;
            break;
        case model::KernelKind::RegTile1d: handle = regtile_1d_handle(config, problem); break;
        case model::KernelKind::RegTile2d: handle = regtile_2d_handle(config, problem); break;
        case model::KernelKind::Vectorized: handle = vectorized_handle(config, problem); break;
        case model::KernelKind::ConflictFree: handle = conflict_free_handle(config, problem); break;
        case model::KernelKind::Warptile: handle = warptile_handle(config, problem); break;
        case model::KernelKind::Pipelined: handle = pipelined_handle(config, problem); break;
        case model::KernelKind::Tuned: handle = tuned_handle(config, problem); break;
        default: return cudaErrorInvalidValue;  // cuBLAS: not a kernel of ours
    }
    if (!handle) return cudaErrorInvalidValue;

    // The pipelined rungs hold their stages in dynamic shared memory (as much as the model
    // plans); the other kernels declare their tiles statically.
    const model::LaunchGeometry g = model::plan_launch(config, problem);
    return attributes_of(handle, static_cast<int>(g.block.volume()), dynamic_shared_bytes(config, g), attributes);
}

}  // namespace ts::kernels
