// runner_cuda.cxx — the CUDA backend of the runner: probe the driver and device 0, and run
// one request (inputs, launches, timing, check). Host code only, compiled by the host
// compiler; the kernels it launches live in kernels/.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <iomanip>
#include <new>
#include <random>
#include <sstream>
#include <utility>

#include "cpu_reference.hpp"
#include "cuda_check.hpp"
#include "kernels/launchers.hpp"
#include "model/format.hpp"
#include "model/launch_geometry.hpp"
#include "runner.hpp"

namespace ts::gpu {

namespace {

using model::format;

// CUDA encodes versions as 1000·major + 10·minor: 12080 is 12.8.
std::string version_text(int version) { return format("{}.{}", version / 1000, (version % 1000) / 10); }

std::string scientific(double value) {
    std::ostringstream out;
    out << std::scientific << std::setprecision(1) << value;
    return out.str();
}

// ---- Owners of CUDA resources: every path out of run_request frees them ---------------
// Destructors ignore errors: after a failed launch there is nothing better to do, and the
// first error has already been reported.

template <typename T>
class DeviceBuffer {
public:
    explicit DeviceBuffer(std::int64_t count) : m_count(count) {
        void* data = nullptr;
        TS_CUDA_CHECK(cudaMalloc(&data, bytes()));
        m_data = static_cast<T*>(data);
    }
    ~DeviceBuffer() { cudaFree(m_data); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    T* get() const { return m_data; }
    std::size_t bytes() const { return static_cast<std::size_t>(m_count) * sizeof(T); }

private:
    T* m_data = nullptr;
    std::int64_t m_count = 0;
};

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

class Event {
public:
    Event() { TS_CUDA_CHECK(cudaEventCreate(&m_event)); }
    ~Event() {
        if (m_event) cudaEventDestroy(m_event);
    }
    Event(Event&& other) noexcept : m_event(std::exchange(other.m_event, nullptr)) {}
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    Event& operator=(Event&&) = delete;
    cudaEvent_t get() const { return m_event; }

private:
    cudaEvent_t m_event = nullptr;
};

cudaError_t launch(const model::KernelConfig& config, const model::Problem& problem,
                   kernels::Operands<float> operands, cudaStream_t stream) {
    switch (config.kind) {
        case model::KernelKind::Naive: return kernels::launch_naive(config, problem, operands, stream);
        case model::KernelKind::NaiveRowFromX:
            return kernels::launch_naive_row_from_x(config, problem, operands, stream);
        case model::KernelKind::Tiled: return kernels::launch_tiled(config, problem, operands, stream);
    }
    return cudaErrorInvalidValue;
}

// Why the request cannot run, or nullopt. A naive launch that only the device's limits
// reject (a 64×32 block, say) is allowed through, with the model's explanation left in
// `expected_failure`: the student should see CUDA's own error next to the model's words.
// The tiled kernel has no instantiation for T > 32, so there the model's reason is final.
std::optional<std::string> check_request(const RunRequest& request, const DeviceInfo& device,
                                         std::string& expected_failure) {
    const model::Problem& problem = request.problem;
    if (auto why = model::validate(problem, device.free_memory_bytes)) return why;
    if (problem.dtype != model::Dtype::Float32)
        return format("the GPU kernels are built for float only so far, not {}", model::dtype_name(problem.dtype));
    if (auto why = model::check_config(request.kernel)) return why;
    if (request.warmup_launches < 0 || request.timed_launches < 1)
        return format("need at least 0 warm-up and 1 timed launch (got {} and {})", request.warmup_launches,
                      request.timed_launches);
    if (auto why = model::check_launch(request.kernel, problem, device.limits)) {
        if (request.kernel.kind == model::KernelKind::Tiled) return why;
        expected_failure = *why;
    }
    return std::nullopt;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2.0;
}

std::string describe_check(const Comparison& cmp, const model::Problem& p) {
    const std::int64_t cells = p.c_elements() * p.batch;
    const std::string tolerance = format("2·K·u·Σ|a·b| with K = {}", p.k);
    if (cmp.passed())
        return format("max rel. error {}; all {} cells within {}: pass", scientific(cmp.max_rel_error), cells,
                      tolerance);
    const std::int64_t at = cmp.first_bad;
    const std::int64_t batch = at / p.c_elements();
    const std::int64_t row = at % p.c_elements() / p.n;
    const std::int64_t col = at % p.n;
    std::string text = format("FAIL: {} of {} cells beyond {}", cmp.mismatches, cells, tolerance);
    if (cmp.non_finite > 0)
        text += format(", {} of them NaN or infinite (a cell the kernel never wrote stays NaN)", cmp.non_finite);
    text += format("; first at C[{}][{}]", row, col);
    if (p.batch > 1) text += format(" of batch {}", batch);
    return text + format("; max rel. error {}", scientific(cmp.max_rel_error));
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
        info.why_not = format("the NVIDIA driver supports CUDA {} but TileScope needs CUDA {}.0 or newer: update "
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
        info.why_not = format("CUDA could not start: {} ({})", cudaGetErrorString(counted), cudaGetErrorName(counted));
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
        limits.warp_size = prop.warpSize;
        limits.global_memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);

        TS_CUDA_CHECK(cudaSetDevice(0));
        std::size_t free_bytes = 0;
        std::size_t total_bytes = 0;
        TS_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
        info.free_memory_bytes = static_cast<std::int64_t>(free_bytes);

        if (const cudaError_t image = kernels::kernel_image_status(); image != cudaSuccess) {
            info.why_not = format("TileScope's kernels were not compiled for the {} (compute capability {}.{}): {}; "
                                  "rebuild with -DCMAKE_CUDA_ARCHITECTURES={}{}",
                                  prop.name, prop.major, prop.minor, cudaGetErrorString(image), prop.major,
                                  prop.minor);
            return info;
        }
    } catch (const CudaError& e) {
        info.why_not = format("CUDA could not query the GPU: {}", e.what());
        return info;
    }
    info.usable = true;
    return info;
}

RunResult run_request(const RunRequest& request) {
    RunResult result;
    result.request = request;
    const model::Problem& p = request.problem;
    std::string expected_failure;
    try {
        const DeviceInfo device = probe_device();
        if (!device.usable) {
            result.error = device.why_not;
            return result;
        }
        if (auto why = check_request(request, device, expected_failure)) {
            result.error = *why;
            return result;
        }

        // Inputs: uniform in [-1, 1], reproducible from the seed.
        std::vector<float> a(static_cast<std::size_t>(p.a_elements() * p.batch));
        std::vector<float> b(static_cast<std::size_t>(p.b_elements() * p.batch));
        std::mt19937_64 rng(request.seed);
        std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
        for (float& x : a) x = uniform(rng);
        for (float& x : b) x = uniform(rng);

        Stream stream;
        DeviceBuffer<float> a_dev(p.a_elements() * p.batch);
        DeviceBuffer<float> b_dev(p.b_elements() * p.batch);
        DeviceBuffer<float> c_dev(p.c_elements() * p.batch);
        TS_CUDA_CHECK(cudaMemcpyAsync(a_dev.get(), a.data(), a_dev.bytes(), cudaMemcpyHostToDevice, stream.get()));
        TS_CUDA_CHECK(cudaMemcpyAsync(b_dev.get(), b.data(), b_dev.bytes(), cudaMemcpyHostToDevice, stream.get()));

        const model::LaunchGeometry g = model::plan_launch(request.kernel, p);
        const std::string launch_call = format("launching {} <<<({}, {}, {}), ({}, {})>>>",
                                               model::describe(request.kernel), g.grid.x, g.grid.y, g.grid.z,
                                               g.block.x, g.block.y);
        const kernels::Operands<float> operands{a_dev.get(), b_dev.get(), c_dev.get()};
        // Every launch starts from a C full of NaN (all bits set), so a cell the kernel
        // never writes fails the check instead of passing with a previous launch's value.
        // The fill is outside the timed region.
        auto poison_c = [&] { TS_CUDA_CHECK(cudaMemsetAsync(c_dev.get(), 0xFF, c_dev.bytes(), stream.get())); };
        auto launch_once = [&] {
            cuda_check(launch(request.kernel, p, operands, stream.get()), launch_call, __FILE__, __LINE__);
        };

        // Warm-up: the first launch pays for loading the module and for cold caches.
        for (int i = 0; i < request.warmup_launches; ++i) {
            poison_c();
            launch_once();
        }
        // One event pair per launch: each sample is one kernel, not an average.
        std::vector<Event> starts(static_cast<std::size_t>(request.timed_launches));
        std::vector<Event> stops(static_cast<std::size_t>(request.timed_launches));
        for (int i = 0; i < request.timed_launches; ++i) {
            poison_c();
            TS_CUDA_CHECK(cudaEventRecord(starts[i].get(), stream.get()));
            launch_once();
            TS_CUDA_CHECK(cudaEventRecord(stops[i].get(), stream.get()));
        }
        // A kernel that faults reports it here, not at its launch.
        TS_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        for (int i = 0; i < request.timed_launches; ++i) {
            float ms = 0.0f;
            TS_CUDA_CHECK(cudaEventElapsedTime(&ms, starts[i].get(), stops[i].get()));
            result.samples_ms.push_back(ms);
        }
        result.median_ms = median(result.samples_ms);
        if (result.median_ms > 0.0)
            result.gflops = 2.0 * static_cast<double>(p.m) * static_cast<double>(p.n) * static_cast<double>(p.k) *
                            static_cast<double>(p.batch) / (result.median_ms * 1e6);

        if (request.check) {
            std::vector<float> c(static_cast<std::size_t>(p.c_elements() * p.batch));
            TS_CUDA_CHECK(cudaMemcpyAsync(c.data(), c_dev.get(), c_dev.bytes(), cudaMemcpyDeviceToHost, stream.get()));
            TS_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
            const Reference ref = reference_matmul(a, b, p);
            const Comparison cmp = compare(c, ref, float_tolerance_factor(p.k));
            result.checked = true;
            result.check_passed = cmp.passed();
            result.max_rel_error = cmp.max_rel_error;
            result.mismatches = cmp.mismatches;
            result.check_summary = describe_check(cmp, p);
        } else {
            result.check_summary = "not checked";
        }
        result.ok = true;
    } catch (const CudaError& e) {
        result.error = expected_failure.empty() ? e.what() : format("{}; CUDA reports: {}", expected_failure, e.what());
    } catch (const std::bad_alloc&) {
        result.error = format("not enough host memory for the inputs and the CPU reference of {} × {} × {}", p.m, p.n,
                              p.k);
    } catch (const std::exception& e) {
        result.error = e.what();
    }
    return result;
}

}  // namespace ts::gpu
