// runner_cuda.cxx — the CUDA backend of the runner: probe the driver and device 0, and run
// one request (inputs, launches, timing, check). Host code only, compiled by the host
// compiler; the kernels it launches live in kernels/.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <new>
#include <stdexcept>
#include <span>
#include <utility>

#include "cublas_library.hpp"
#include "cublaslt_library.hpp"
#include "counters.hpp"
#include "cuda_check.hpp"
#include "device_operands.hpp"
#include "accumulator_runner.hpp"
#include "experiment_runner.hpp"
#include "kernels/common/launchers.hpp"
#include "measure.hpp"
#include "recorder.hpp"
#include "model/format.hpp"
#include "model/launch_geometry.hpp"
#include "roofline.hpp"
#include "runner.hpp"
#include "tuned_shapes.hpp"
#include "user_kernel_runner.hpp"

namespace ts::gpu {

namespace {

using model::format_text;

// CUDA encodes versions as 1000·major + 10·minor: 12080 is 12.8.
std::string version_text(int version) { return format_text("{}.{}", version / 1000, (version % 1000) / 10); }

// A device 0 attribute, or 0 where the driver cannot say. The failure is cleared, so the
// next launch's cudaGetLastError() does not report it.
int attribute_or_zero(cudaDeviceAttr attribute) {
    int value = 0;
    if (cudaDeviceGetAttribute(&value, attribute, 0) == cudaSuccess) return value;
    cudaGetLastError();
    return 0;
}

// ---- Owners of CUDA resources: every path out of run_request frees them ---------------
// Destructors ignore errors: after a failed launch there is nothing better to do, and the
// first error has already been reported.

class Stream {
public:
    // Non-blocking: the work of this request never waits for the legacy default stream.
    Stream() { TS_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking)); }
    ~Stream() { cudaStreamDestroy(m_stream); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return m_stream; }

private:
    cudaStream_t m_stream = nullptr;
};

// Why the request cannot run, or nullopt. A naive launch that only the device's limits
// reject (a 64×32 block, say) is allowed through, with the model's explanation left in
// `expected_failure`: the student should see CUDA's own error next to the model's words.
// The tiled kernel has no instantiation for T > 32, so there the model's reason is final.
std::optional<std::string> check_request(const RunRequest& request, const DeviceInfo& device,
                                         std::string& expected_failure) {
    const model::Problem& problem = request.problem;
    // An occupancy query allocates nothing, so only a measurement must fit in free memory.
    const bool allocates = request.kind != RequestKind::Occupancy;
    if (auto why = model::validate(problem, allocates ? device.free_memory_bytes : 0)) return why;
    if (auto why = model::check_config(request.kernel)) return why;
    if (request.warmup_launches < 0 || request.timed_launches < 1)
        return format_text("need at least 0 warm-up and 1 timed launch (got {} and {})", request.warmup_launches,
                      request.timed_launches);
    if (request.max_samples < request.timed_launches || request.max_noise < 0 || request.min_time_s < 0 ||
        request.budget_s < 0 || request.end_to_end_runs < 0)
        return format_text("timing settings out of range: max_samples {} (needs ≥ {} timed launches), max_noise {}, "
                      "min_time_s {}, budget_s {}, end_to_end_runs {}",
                      request.max_samples, request.timed_launches, request.max_noise, request.min_time_s,
                      request.budget_s, request.end_to_end_runs);
    if (auto why = model::check_launch(request.kernel, problem, device.limits)) {
        if (request.kernel.kind == model::KernelKind::Tiled) return why;
        expected_failure = *why;
    }
    return std::nullopt;
}

// What CUDA says about the kernel the request launches. Throws CudaError.
KernelOccupancy query_occupancy(const RunRequest& request) {
    kernels::KernelAttributes attributes;
    cuda_check(kernels::kernel_attributes(request.kernel, request.problem, attributes),
               format_text("cudaFuncGetAttributes and cudaOccupancyMaxActiveBlocksPerMultiprocessor for {}",
                      model::describe(request.kernel)),
               __FILE__, __LINE__);
    KernelOccupancy occupancy;
    occupancy.registers_per_thread = attributes.registers_per_thread;
    occupancy.static_shared_bytes = attributes.static_shared_bytes;
    occupancy.local_bytes_per_thread = attributes.local_bytes_per_thread;
    occupancy.max_threads_per_block = attributes.max_threads_per_block;
    occupancy.blocks_per_sm = attributes.blocks_per_sm;
    return occupancy;
}

// "GPU-5f3c1e2a-…", as nvidia-smi -L writes a GPU's UUID: the same on every process that sees it.
std::string uuid_text(const cudaUUID_t& uuid) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string text = "GPU-";
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
        const auto byte = static_cast<unsigned char>(uuid.bytes[i]);
        text += kHex[byte >> 4];
        text += kHex[byte & 15];
    }
    return text;
}

}  // namespace

DeviceInfo probe_device() {
    DeviceInfo info;
    int runtime = 0;
    cudaRuntimeGetVersion(&runtime);
    info.runtime_version = version_text(runtime);

    // With no driver installed CUDA reports version 0 rather than an error.
    int driver = 0;
    if (cudaDriverGetVersion(&driver) != cudaSuccess || driver == 0) {
        info.why_not = "no NVIDIA driver found (libcuda could not be loaded): install the NVIDIA driver to run "
                       "kernels; until then TileScope works in model mode";
        return info;
    }
    info.driver_version = version_text(driver);
    // A driver runs every runtime of its own major version and older ones, never newer.
    if (driver / 1000 < runtime / 1000) {
        info.why_not = format_text("the NVIDIA driver supports CUDA {} but TileScope needs CUDA {}.0 or newer: update "
                              "the NVIDIA driver",
                              info.driver_version, runtime / 1000);
        return info;
    }

    int count = 0;
    const cudaError_t counted = cudaGetDeviceCount(&count);
    if (counted == cudaErrorNoDevice || (counted == cudaSuccess && count == 0)) {
        info.why_not = "no CUDA device: the NVIDIA driver is installed but sees no GPU (check nvidia-smi and "
                       "CUDA_VISIBLE_DEVICES)";
        return info;
    }
    if (counted != cudaSuccess) {
        info.why_not = format_text("CUDA could not start: {} ({})", cudaGetErrorString(counted), cudaGetErrorName(counted));
        return info;
    }

    try {
        cudaDeviceProp prop{};
        TS_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
        model::DeviceLimits& limits = info.limits;
        limits.name = prop.name;
        limits.is_preset = false;
        limits.compute_major = prop.major;
        limits.compute_minor = prop.minor;
        limits.sm_count = prop.multiProcessorCount;
        limits.max_threads_per_block = prop.maxThreadsPerBlock;
        limits.max_block_dim_x = prop.maxThreadsDim[0];
        limits.max_block_dim_y = prop.maxThreadsDim[1];
        limits.max_block_dim_z = prop.maxThreadsDim[2];
        limits.max_grid_x = prop.maxGridSize[0];
        limits.max_grid_y = prop.maxGridSize[1];
        limits.max_grid_z = prop.maxGridSize[2];
        limits.static_shared_per_block = static_cast<int>(prop.sharedMemPerBlock);
        limits.optin_shared_per_block = static_cast<int>(prop.sharedMemPerBlockOptin);
        limits.warp_size = prop.warpSize;
        limits.global_memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
        limits.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
        limits.max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
        limits.registers_per_sm = prop.regsPerMultiprocessor;
        limits.max_registers_per_block = prop.regsPerBlock;
        limits.shared_per_sm = static_cast<int>(prop.sharedMemPerMultiprocessor);
        limits.reserved_shared_per_block = static_cast<int>(prop.reservedSharedMemPerBlock);
        info.l2_cache_bytes = prop.l2CacheSize;
        info.uuid = uuid_text(prop.uuid);
        // CUDA 13 dropped the clocks from cudaDeviceProp; the attributes remain.
        info.clock_khz = attribute_or_zero(cudaDevAttrClockRate);
        info.memory_clock_khz = attribute_or_zero(cudaDevAttrMemoryClockRate);
        info.memory_bus_bits = attribute_or_zero(cudaDevAttrGlobalMemoryBusWidth);

        TS_CUDA_CHECK(cudaSetDevice(0));
        // The scratch buffers a launch allocates with cudaMallocAsync (the TMA rungs' padded A and
        // B) stay in the device's pool between launches, as a library keeps its workspace: with
        // the default threshold of 0 the pool hands them back at every synchronisation, and each
        // timed launch would pay for a fresh allocation of the GPU's memory.
        cudaMemPool_t pool = nullptr;
        TS_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
        std::uint64_t keep_all = UINT64_MAX;
        TS_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all));
        std::size_t free_bytes = 0;
        std::size_t total_bytes = 0;
        TS_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
        info.free_memory_bytes = static_cast<std::int64_t>(free_bytes);

        if (auto too_old = model::gpu_too_old(prop.name, prop.major, prop.minor, runtime / 1000)) {
            info.why_not = *too_old;
            return info;
        }
        if (const cudaError_t image = kernels::kernel_image_status(); image != cudaSuccess) {
            info.why_not = format_text("TileScope's kernels were not compiled for the {} (compute capability {}.{}): {}; "
                                  "rebuild with -DCMAKE_CUDA_ARCHITECTURES={}{}",
                                  prop.name, prop.major, prop.minor, cudaGetErrorString(image), prop.major,
                                  prop.minor);
            return info;
        }
    } catch (const CudaError& e) {
        info.why_not = format_text("CUDA could not query the GPU: {}", e.what());
        return info;
    }
    info.usable = true;
    return info;
}

RunResult run_request(const RunRequest& asked) {
    RunResult result;
    result.request = asked;
    RunRequest request = asked;  // the tuned rung's variant resolved, below
    // The recorded tensor-core rungs (mma, wgmma, warp-specialized) are recorded in BF16 whatever type
    // was asked (mma's and wgmma's inputs are bit patterns: recorder.cxx); the FP32 kernels'
    // traces run in float.
    if (request.kind == RequestKind::Record && model::is_tensor_core(request.kernel.kind))
        request.problem.dtype = model::Dtype::BFloat16;
    const model::Problem& p = request.problem;
    std::string expected_failure;
    try {
        const DeviceInfo device = probe_device();
        // A request refused before it runs: why, and whether it is refused because this GPU or
        // this build lacks the kernel or the type (RunResult::unsupported).
        const auto refused = [&](std::string why, bool unsupported = false) {
            result.error = std::move(why);
            result.unsupported = unsupported;
            return result;
        };
        // A request that `step` runs whole, on a stream of its own.
        const auto on_own_stream = [&](auto step) {
            const Stream stream;
            step(request, device, stream.get(), result);
            result.ok = true;
            return result;
        };
        // Compiling needs no GPU: without one the kernel is compiled for the architecture asked.
        if (request.kind == RequestKind::UserCompile) {
            compile_user_request(request, device, result);
            return result;
        }
        if (!device.usable) return refused(device.why_not);
        if (request.user) {
            const Stream stream;
            if (request.kind == RequestKind::UserCheck) check_user_kernel(request, device, stream.get(), result);
            else if (request.kind == RequestKind::Measure) measure_user_kernel(request, device, stream.get(), result);
            else if (request.kind == RequestKind::Record) record_user_kernel(request, device, stream.get(), result);
            else throw std::invalid_argument("your kernel can be compiled, checked and measured; not asked that way");
            result.ok = true;
            return result;
        }
        if (request.kind == RequestKind::UserCheck)
            throw std::invalid_argument("a check of your kernel came without the kernel");
        if (auto why = model::dtype_unsupported(request.kernel.kind, p.dtype)) return refused(*why, true);
        if (model::is_fp8(p.dtype))
            if (auto why = model::fp8_scaling_unsupported(request.kernel.kind, p.fp8_scaling)) return refused(*why, true);
        if (const char* why = kernels::tensor_core_rung_unavailable(request.kernel.kind)) return refused(why, true);
        if (model::is_tuned(request.kernel.kind) && request.kernel.variant < 0) {
            const TunedChoice choice = choose_tuned_variant(request.kernel.kind, device.limits.name, p);
            request.kernel.variant = result.tuned_variant = choice.variant;
            result.tuned_source = choice.source;
        }
        if (request.kind == RequestKind::Memory) {
            std::size_t free_bytes = 0, total_bytes = 0;
            TS_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
            result.device_free_bytes = static_cast<std::int64_t>(free_bytes);
            result.device_total_bytes = static_cast<std::int64_t>(total_bytes);
            result.ok = true;
            return result;
        }
        if (request.kind == RequestKind::Roofline) {
            const Stream stream;
            result.roofline = measure_roofline(device.free_memory_bytes, stream.get());
            result.ok = true;
            return result;
        }
        if (request.kind == RequestKind::Accumulator) {
            if (const char* why = accumulator_unavailable()) return refused(why, true);
            return on_own_stream(run_accumulator);
        }
        if (auto why = check_request(request, device, expected_failure)) return refused(*why);
        if (request.kind == RequestKind::Record) {
            if (auto why = model::check_recordable(request.kernel, p)) return refused(*why);
            if (!expected_failure.empty()) return refused(expected_failure);
            return on_own_stream(record_kernel);
        }
        if (request.kind == RequestKind::Experiment) {
            const model::ExperimentCase c{request.problem, request.kernel};
            if (auto why = model::check_experiment_case(request.experiment, c)) return refused(*why);
            return on_own_stream(run_experiment);
        }
        if (request.kind == RequestKind::Counters) {
            if (!expected_failure.empty()) return refused(expected_failure);
            return on_own_stream(read_counters);
        }
        const bool ours = request.kernel.kind != model::KernelKind::Cublas;
        if (request.kind == RequestKind::Occupancy) {
            if (!ours) {
                result.error = "cuBLAS picks its own kernels at run time: there is no one kernel to ask about";
                result.unsupported = true;
            } else if (!expected_failure.empty()) {
                result.error = expected_failure;  // no block of this shape can run at all
            } else {
                result.occupancy = query_occupancy(request);
                result.ok = true;
            }
            return result;
        }
        // Asked before the launch: a launch the model already expects to fail has no blocks.
        if (ours && expected_failure.empty()) result.occupancy = query_occupancy(request);
        if (request.kernel.kind == model::KernelKind::Cublas) {
            if (auto why = cublas_unavailable(p.dtype)) return refused(*why, true);
            // FP8: whether cuBLASLt has a GEMM for this shape and scaling on this GPU, in its words.
            if (model::is_fp8(p.dtype))
                if (auto why = cublaslt_fp8_unsupported(p)) return refused(*why, true);
        }

        // Inputs, poison, the launch and the check: device_operands.hpp.
        Stream stream;
        const DeviceOperands operands(request, stream.get());
        auto poison_c = [&] { operands.poison(stream.get()); };
        auto launch_once = [&] { operands.launch(stream.get()); };

        // Timing: app/gpu/measure.cxx (warm-up, L2 flush, one event pair per launch).
        const Measurement measured =
            measure(settings_for(request), stream.get(), [&](cudaStream_t) { launch_once(); },
                    [&](cudaStream_t) { poison_c(); });
        store_timing(measured, result);
        result.quantize_ms = operands.quantize_ms();
        if (request.end_to_end_runs > 0) {
            std::vector<std::byte> c_out(operands.c_bytes());
            const HostOperands host{operands.host_a(), operands.host_b(), c_out};
            result.end_to_end_ms = time_end_to_end(
                request.end_to_end_runs, host, stream.get(),
                [&](const void* ad, const void* bd, void* cd, cudaStream_t s) { operands.launch_on(ad, bd, cd, s); });
            result.end_to_end_median_ms = summarize(result.end_to_end_ms).median;
        }

        if (request.check) operands.check(result, stream.get());
        else result.check_summary = "not checked";
        result.ok = true;
    } catch (const CudaError& e) {
        result.error = expected_failure.empty() ? e.what() : format_text("{}; CUDA reports: {}", expected_failure, e.what());
    } catch (const std::bad_alloc&) {
        result.error = format_text("not enough host memory for the inputs and the CPU reference of {} × {} × {}", p.m, p.n,
                              p.k);
    } catch (const std::exception& e) {
        result.error = e.what();
    }
    return result;
}

void release_gpu_resources() {
    release_user_kernel();
    release_cublas();
    release_cublaslt();
}

bool cuda_context_lost() {
    // A sticky error is returned by every call from then on; a synchronize asks without
    // launching anything. An ordinary failure (a refused launch) was already consumed.
    const cudaError_t state = cudaDeviceSynchronize();
    return state != cudaSuccess && state != cudaErrorNoDevice && state != cudaErrorInsufficientDriver;
}

}  // namespace ts::gpu
