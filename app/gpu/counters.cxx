// counters.cxx — one launch under CUPTI's range profiler (CUDA 13).
//
// CUPTI is loaded at run time with dlopen("libcupti.so.13"), as cuBLAS is
// (cublas_library.cxx): TileScope starts, and does everything else, on machines without it.
//
// The steps, each a CUPTI call whose failure becomes an exception naming it:
// - the host side (cupti_profiler_host.h) turns the metric names into a config image for
//   this GPU's chip, and says how many passes the metrics need;
// - the range profiler (cupti_range_profiler.h) is enabled on the context, given the config
//   and a counter data image, and then one range, pushed and popped around exactly one
//   launch, is replayed by us (user replay) until CUPTI says every pass was submitted;
// - the data is decoded into the image, and the host side evaluates each metric from it.
// Before every pass L2 is left holding only clean lines (kernels/common/l2_clean.hpp), so the
// launch finds what `ncu --cache-control all` gives it. Whatever happens, the profiler is
// disabled again before read_counters returns or throws, so the worker can go on.
#include "counters.hpp"

#include <cuda.h>  // CUcontext, CUresult: types only, the one driver function comes from cudaGetDriverEntryPoint
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>  // declarations only: every function comes from dlsym
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "cublas_library.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "device_operands.hpp"
#include "kernels/common/l2_clean.hpp"
#include "kernels/common/launchers.hpp"
#include "model/counters.hpp"
#include "model/format.hpp"
#include "toolkit_library.hpp"

#ifndef TILESCOPE_CUDA_LIBRARY_DIR
#define TILESCOPE_CUDA_LIBRARY_DIR ""
#endif
#ifndef TILESCOPE_CUDA_ROOT
#define TILESCOPE_CUDA_ROOT ""
#endif

namespace ts::gpu {

namespace {

using model::format_text;

constexpr const char* kCuptiSoname = "libcupti.so.13";

// The CUPTI functions TileScope calls, each member named as the function it holds.
#define TS_CUPTI_FUNCTIONS(X)                                                                                \
    X(cuptiGetResultString)                                                                                  \
    X(cuptiProfilerInitialize)                                                                               \
    X(cuptiProfilerDeInitialize)                                                                             \
    X(cuptiDeviceGetChipName)                                                                                \
    X(cuptiProfilerGetCounterAvailability)                                                                   \
    X(cuptiProfilerHostInitialize)                                                                           \
    X(cuptiProfilerHostDeinitialize)                                                                         \
    X(cuptiProfilerHostConfigAddMetrics)                                                                     \
    X(cuptiProfilerHostGetConfigImageSize)                                                                   \
    X(cuptiProfilerHostGetConfigImage)                                                                       \
    X(cuptiProfilerHostGetNumOfPasses)                                                                       \
    X(cuptiProfilerHostEvaluateToGpuValues)                                                                  \
    X(cuptiRangeProfilerEnable)                                                                              \
    X(cuptiRangeProfilerDisable)                                                                             \
    X(cuptiRangeProfilerGetCounterDataSize)                                                                  \
    X(cuptiRangeProfilerCounterDataImageInitialize)                                                          \
    X(cuptiRangeProfilerSetConfig)                                                                           \
    X(cuptiRangeProfilerStart)                                                                               \
    X(cuptiRangeProfilerStop)                                                                                \
    X(cuptiRangeProfilerPushRange)                                                                           \
    X(cuptiRangeProfilerPopRange)                                                                            \
    X(cuptiRangeProfilerDecodeData)                                                                          \
    X(cuptiRangeProfilerGetCounterDataInfo)

struct CuptiApi {
#define TS_CUPTI_MEMBER(name) decltype(&::name) name = nullptr;
    TS_CUPTI_FUNCTIONS(TS_CUPTI_MEMBER)
#undef TS_CUPTI_MEMBER
};

// One per process: the library and its functions, loaded on first use and kept (CUPTI
// must not be unloaded while a context it has seen lives). One reading at a time.
struct Cupti {
    std::mutex mutex;
    bool tried = false;
    std::string why_not;
    CuptiApi api;
};

Cupti& cupti() {
    static Cupti instance;
    return instance;
}

// Loads the library and resolves every function; on failure leaves the reason in why_not.
// Called with the mutex held.
void load(Cupti& c) {
    c.tried = true;
    std::string first_error;
    void* library = open_toolkit_library(kCuptiSoname, first_error);
    if (!library) {
        c.why_not = format_text("CUPTI ({}) was not found: {}. It comes with the CUDA 13 toolkit (in its lib64 "
                                "folder); put that folder on LD_LIBRARY_PATH or set CUDA_HOME to the toolkit",
                                kCuptiSoname, first_error);
        return;
    }
#define TS_CUPTI_RESOLVE(name)                                                                               \
    c.api.name = reinterpret_cast<decltype(c.api.name)>(dlsym(library, #name));                              \
    if (!c.api.name) {                                                                                       \
        c.why_not = format_text("CUPTI ({}) lacks {}: {}; it must be CUPTI of CUDA 13 or newer", kCuptiSoname, #name, \
                                dlerror());                                                                  \
        return;                                                                                              \
    }
    TS_CUPTI_FUNCTIONS(TS_CUPTI_RESOLVE)
#undef TS_CUPTI_RESOLVE
}

// The loaded library with its mutex held, or an exception saying why there is none.
std::unique_lock<std::mutex> ready(Cupti& c) {
    std::unique_lock lock(c.mutex);
    if (!c.tried) load(c);
    if (!c.why_not.empty()) throw std::runtime_error(c.why_not);
    return lock;
}

// A failed CUPTI call as an exception: without the profiling permission, the words that say
// why and how to allow it (model::counters_permission_help); otherwise the call, CUPTI's
// words for the error, and where.
void cupti_check(const CuptiApi& api, CUptiResult result, const char* call, const char* file, int line) {
    if (result == CUPTI_SUCCESS) return;
    if (result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || result == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
        throw std::runtime_error(model::counters_permission_help());
    const char* text = nullptr;
    if (api.cuptiGetResultString(result, &text) != CUPTI_SUCCESS || !text) text = "unknown CUPTI error";
    throw std::runtime_error(format_text("{}: {} (CUPTI error {} at {}:{})", call, text, static_cast<int>(result), file,
                                         line));
}

// A CUPTI parameter struct, zeroed, with its size set as every CUPTI call wants it.
template <typename Params>
Params zeroed_params(std::size_t struct_size) {
    Params params{};
    params.structSize = struct_size;
    return params;
}
#define TS_CUPTI_PARAMS(type) zeroed_params<type>(type##_STRUCT_SIZE)

// TS_CUPTI(api, cuptiRangeProfilerStart, &params) calls api.cuptiRangeProfilerStart(&params)
// and throws, naming cuptiRangeProfilerStart, when it fails.
#define TS_CUPTI(api, function, params) cupti_check((api), (api).function(params), #function, __FILE__, __LINE__)

// The context the runtime made current on this thread (the primary context of device 0),
// which the range profiler is enabled on. cuCtxGetCurrent is a driver function: it comes
// through the runtime, so TileScope links no libcuda.
CUcontext current_context() {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    TS_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &function, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || !function)
        throw std::runtime_error(format_text("the CUDA driver has no cuCtxGetCurrent (at {}:{})", __FILE__, __LINE__));
    CUcontext context = nullptr;
    const CUresult got = reinterpret_cast<CUresult (*)(CUcontext*)>(function)(&context);
    if (got != CUDA_SUCCESS || !context)
        throw std::runtime_error(format_text("cuCtxGetCurrent found no CUDA context (error {} at {}:{})",
                                             static_cast<int>(got), __FILE__, __LINE__));
    return context;
}

// Everything one reading holds of CUPTI; the destructor gives it back in the reverse order,
// whatever state an exception left it in, ignoring errors (the first one is already being
// reported), so that the next request starts from nothing.
class CuptiReading {
public:
    explicit CuptiReading(const CuptiApi& api) : m_api(api) {}
    ~CuptiReading() {
        if (range) {
            if (pushed) {
                auto pop = TS_CUPTI_PARAMS(CUpti_RangeProfiler_PopRange_Params);
                pop.pRangeProfilerObject = range;
                m_api.cuptiRangeProfilerPopRange(&pop);
            }
            if (started) {
                auto stop = TS_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
                stop.pRangeProfilerObject = range;
                m_api.cuptiRangeProfilerStop(&stop);
            }
            auto disable = TS_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
            disable.pRangeProfilerObject = range;
            m_api.cuptiRangeProfilerDisable(&disable);
        }
        if (host) {
            auto deinitialize = TS_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
            deinitialize.pHostObject = host;
            m_api.cuptiProfilerHostDeinitialize(&deinitialize);
        }
        if (initialized) {
            auto deinitialize = TS_CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params);
            m_api.cuptiProfilerDeInitialize(&deinitialize);
        }
    }
    CuptiReading(const CuptiReading&) = delete;
    CuptiReading& operator=(const CuptiReading&) = delete;

    bool initialized = false;
    CUpti_Profiler_Host_Object* host = nullptr;
    CUpti_RangeProfiler_Object* range = nullptr;
    bool started = false;
    bool pushed = false;

private:
    const CuptiApi& m_api;
};

// What the profiler read for the one range.
struct Collected {
    std::vector<double> values;  // one per metric, in the order asked
    int passes = 0;
};

// L2's size several times over, read before each pass: see kernels/common/l2_clean.hpp.
class L2Cleaner {
public:
    L2Cleaner(std::int64_t l2_bytes, cudaStream_t stream)
        : m_buffer(4 * std::max<std::int64_t>(l2_bytes, 8 << 20) / 16), m_sink(1) {
        TS_CUDA_CHECK(cudaMemsetAsync(m_buffer.get(), 0, m_buffer.bytes(), stream));
    }
    void clean(cudaStream_t stream) const {
        // The buffer holds zeros, which never XOR to 1: nothing is ever written to the sink.
        cuda_check(kernels::launch_l2_clean(m_buffer.get(), m_buffer.bytes(), 1u, m_sink.get(), stream),
                   "launching the L2 clean-up before a counted pass", __FILE__, __LINE__);
    }
    std::int64_t bytes() const { return static_cast<std::int64_t>(m_buffer.bytes()); }

private:
    DeviceBuffer<uint4> m_buffer;
    DeviceBuffer<std::uint32_t> m_sink;
};

// `prepare` runs before each pass, outside it; `launch` inside the range, and must have
// finished when it returns.
template <typename Prepare, typename Launch>
Collected collect(const CuptiApi& api, const std::vector<const char*>& metrics, const Prepare& prepare,
                  const Launch& launch) {
    CuptiReading reading(api);
    auto initialize = TS_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
    TS_CUPTI(api, cuptiProfilerInitialize, &initialize);
    reading.initialized = true;

    const CUcontext context = current_context();
    int device = 0;
    TS_CUDA_CHECK(cudaGetDevice(&device));
    auto chip = TS_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    chip.deviceIndex = static_cast<std::size_t>(device);
    TS_CUPTI(api, cuptiDeviceGetChipName, &chip);

    // Which counters this GPU, driver and configuration make available: asked once for the
    // size, once for the image.
    auto availability = TS_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    availability.ctx = context;
    TS_CUPTI(api, cuptiProfilerGetCounterAvailability, &availability);
    std::vector<std::uint8_t> availability_image(availability.counterAvailabilityImageSize);
    availability.pCounterAvailabilityImage = availability_image.data();
    TS_CUPTI(api, cuptiProfilerGetCounterAvailability, &availability);

    // The host side: which counters to program, in how many passes.
    auto host = TS_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    host.pChipName = chip.pChipName;
    host.pCounterAvailabilityImage = availability_image.data();
    TS_CUPTI(api, cuptiProfilerHostInitialize, &host);
    reading.host = host.pHostObject;

    std::vector<const char*> names = metrics;
    auto add = TS_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    add.pHostObject = reading.host;
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    TS_CUPTI(api, cuptiProfilerHostConfigAddMetrics, &add);

    auto config_size = TS_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
    config_size.pHostObject = reading.host;
    TS_CUPTI(api, cuptiProfilerHostGetConfigImageSize, &config_size);
    std::vector<std::uint8_t> config_image(config_size.configImageSize);
    auto config = TS_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
    config.pHostObject = reading.host;
    config.configImageSize = config_image.size();
    config.pConfigImage = config_image.data();
    TS_CUPTI(api, cuptiProfilerHostGetConfigImage, &config);

    auto pass_count = TS_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
    pass_count.configImageSize = config_image.size();
    pass_count.pConfigImage = config_image.data();
    TS_CUPTI(api, cuptiProfilerHostGetNumOfPasses, &pass_count);

    // The target side: the range profiler on this context, with room for one range.
    auto enable = TS_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
    enable.ctx = context;
    TS_CUPTI(api, cuptiRangeProfilerEnable, &enable);
    reading.range = enable.pRangeProfilerObject;

    auto data_size = TS_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
    data_size.pRangeProfilerObject = reading.range;
    data_size.pMetricNames = names.data();
    data_size.numMetrics = names.size();
    data_size.maxNumOfRanges = 1;
    data_size.maxNumRangeTreeNodes = 1;
    TS_CUPTI(api, cuptiRangeProfilerGetCounterDataSize, &data_size);
    std::vector<std::uint8_t> counter_data(data_size.counterDataSize);
    auto data_init = TS_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    data_init.pRangeProfilerObject = reading.range;
    data_init.counterDataSize = counter_data.size();
    data_init.pCounterData = counter_data.data();
    TS_CUPTI(api, cuptiRangeProfilerCounterDataImageInitialize, &data_init);

    // One range that we push and pop ourselves (user range) and replay ourselves (user
    // replay), one nesting level.
    auto set = TS_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
    set.pRangeProfilerObject = reading.range;
    set.configSize = config_image.size();
    set.pConfig = config_image.data();
    set.counterDataImageSize = counter_data.size();
    set.pCounterDataImage = counter_data.data();
    set.range = CUPTI_UserRange;
    set.replayMode = CUPTI_UserReplay;
    set.maxRangesPerPass = 1;
    set.numNestingLevels = 1;
    set.minNestingLevel = 1;
    set.passIndex = 0;
    set.targetNestingLevel = 1;
    TS_CUPTI(api, cuptiRangeProfilerSetConfig, &set);

    Collected collected;
    // CUPTI says how many passes it needs; a few more are allowed before giving up, so a
    // profiler that never says "all submitted" cannot keep the worker forever.
    const int most_passes = static_cast<int>(pass_count.numOfPasses) + 4;
    for (bool all_submitted = false; !all_submitted;) {
        if (collected.passes >= most_passes)
            throw std::runtime_error(format_text("CUPTI asked for more than {} passes though it said it needs {} (at "
                                                 "{}:{})",
                                                 most_passes, pass_count.numOfPasses, __FILE__, __LINE__));
        prepare();
        auto start = TS_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
        start.pRangeProfilerObject = reading.range;
        TS_CUPTI(api, cuptiRangeProfilerStart, &start);
        reading.started = true;
        auto push = TS_CUPTI_PARAMS(CUpti_RangeProfiler_PushRange_Params);
        push.pRangeProfilerObject = reading.range;
        push.pRangeName = "tilescope launch";
        TS_CUPTI(api, cuptiRangeProfilerPushRange, &push);
        reading.pushed = true;
        launch();
        auto pop = TS_CUPTI_PARAMS(CUpti_RangeProfiler_PopRange_Params);
        pop.pRangeProfilerObject = reading.range;
        TS_CUPTI(api, cuptiRangeProfilerPopRange, &pop);
        reading.pushed = false;
        auto stop = TS_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
        stop.pRangeProfilerObject = reading.range;
        TS_CUPTI(api, cuptiRangeProfilerStop, &stop);
        reading.started = false;
        all_submitted = stop.isAllPassSubmitted != 0;
        ++collected.passes;
    }

    auto decode = TS_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    decode.pRangeProfilerObject = reading.range;
    TS_CUPTI(api, cuptiRangeProfilerDecodeData, &decode);
    if (decode.numOfRangeDropped > 0)
        throw std::runtime_error(format_text("CUPTI dropped {} range(s) of the launch (at {}:{})",
                                             decode.numOfRangeDropped, __FILE__, __LINE__));
    auto info = TS_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
    info.pCounterDataImage = counter_data.data();
    info.counterDataImageSize = counter_data.size();
    TS_CUPTI(api, cuptiRangeProfilerGetCounterDataInfo, &info);
    if (info.numTotalRanges < 1)
        throw std::runtime_error(format_text("CUPTI recorded no range around the launch (at {}:{})", __FILE__, __LINE__));

    collected.values.assign(names.size(), std::nan(""));
    auto evaluate = TS_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    evaluate.pHostObject = reading.host;
    evaluate.pCounterDataImage = counter_data.data();
    evaluate.counterDataImageSize = counter_data.size();
    evaluate.rangeIndex = 0;
    evaluate.ppMetricNames = names.data();
    evaluate.numMetrics = names.size();
    evaluate.pMetricValues = collected.values.data();
    TS_CUPTI(api, cuptiProfilerHostEvaluateToGpuValues, &evaluate);
    return collected;
}

// Registers per thread of the compiled kernel, for the occupancy the model predicts; nullopt
// for cuBLAS or where CUDA cannot say (the model then estimates).
std::optional<int> compiled_registers(const model::KernelConfig& config, const model::Problem& problem) {
    if (!model::is_modelled(config.kind)) return std::nullopt;
    kernels::KernelAttributes attributes;
    if (kernels::kernel_attributes(config, problem, attributes) != cudaSuccess) {
        cudaGetLastError();  // a failed query must not be reported by the next launch
        return std::nullopt;
    }
    return attributes.registers_per_thread;
}

}  // namespace

void read_counters(const RunRequest& request, const DeviceInfo& device, cudaStream_t stream, RunResult& result) {
    const model::KernelConfig& config = request.kernel;
    const model::Problem& problem = request.problem;
    if (config.kind == model::KernelKind::Cublas) {
        if (auto why = cublas_unavailable(problem.dtype)) {
            result.unsupported = true;
            throw std::runtime_error(*why);
        }
    }
    Cupti& c = cupti();
    const auto lock = ready(c);  // throws "CUPTI (libcupti.so.13) was not found: ..."
    const std::optional<int> registers = compiled_registers(config, problem);

    const DeviceOperands operands(request, stream);
    // One launch outside the range first: it loads the kernel's module (CUDA loads modules
    // lazily) and lets cuBLAS make its handle and workspace, none of which should be counted.
    operands.launch(stream);
    TS_CUDA_CHECK(cudaStreamSynchronize(stream));
    const L2Cleaner cleaner(device.l2_cache_bytes, stream);

    std::vector<std::string> metric_names;
    for (const std::string_view name : model::all_counter_metrics()) metric_names.emplace_back(name);
    std::vector<const char*> metrics;
    for (const std::string& name : metric_names) metrics.push_back(name.c_str());

    const auto prepare = [&] {
        cleaner.clean(stream);
        TS_CUDA_CHECK(cudaStreamSynchronize(stream));
    };
    // Exactly one launch in the range: for cuBLAS, every kernel its one call launches.
    const auto launch = [&] {
        operands.launch(stream);
        TS_CUDA_CHECK(cudaStreamSynchronize(stream));
    };
    const Collected collected = collect(c.api, metrics, prepare, launch);

    model::CounterReport report;
    report.kernel = config;
    report.problem = problem;
    report.device = device.limits.name;
    for (std::size_t i = 0; i < metric_names.size(); ++i) report.metrics.emplace_back(metric_names[i], collected.values[i]);
    for (const model::Counter counter : model::kAllCounters) {
        const double measured = model::counter_value(counter, report.metrics).value_or(std::nan(""));
        report.readings.push_back(model::make_reading(counter, measured, config, problem, device.limits, registers));
    }
    report.passes = collected.passes;
    report.note = format_text("one launch, replayed in {} pass{}; before each, L2 was left holding only clean lines "
                              "(a read of {}), as ncu --cache-control all leaves it",
                              collected.passes, collected.passes == 1 ? "" : "es", model::human_bytes(cleaner.bytes()));
    result.counters = std::move(report);
}

}  // namespace ts::gpu
