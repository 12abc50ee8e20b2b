#include "user_kernel_runner.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "device_operands.hpp"
#include "guarded_runs.hpp"
#include "measure.hpp"
#include "model/format.hpp"
#include "record/utc_time.hpp"
#include "user_kernel_compile.hpp"
#include "recorder.hpp"
#include "user_kernel_tracing.hpp"

namespace ts::gpu {

namespace {

using model::format_text;

// The module the worker compiled and loaded last. `source` and `arch` say what it is; a kernel
// that failed to compile is not kept (compiling it again gives the same messages).
struct KeptModule {
    std::string source;
    std::string arch;
    std::vector<char> cubin;
    UserCompileReport report;
    cudaLibrary_t library = nullptr;
    cudaKernel_t kernel = nullptr;

    void unload() {
        // Ignored: after a lost context there is nothing to give back; the process ends soon.
        if (library) cudaLibraryUnload(library);
        library = nullptr;
        kernel = nullptr;
    }
};

KeptModule& kept() {
    static KeptModule module;
    return module;
}

std::string arch_of(int major, int minor) { return format_text("sm_{}{}", major, minor); }

// Compiles `user` for `arch` unless the kept module is that very source; the report either way.
const KeptModule* compile(const UserKernelSource& user, const std::string& arch, UserCompileReport& report) {
    KeptModule& module = kept();
    if (module.source == user.source && module.arch == arch && module.report.ok) {
        report = module.report;
        report.reused = true;
        return &module;
    }
    std::vector<char> cubin;
    report = compile_user_source(user, arch, &cubin);
    if (!report.ok) return nullptr;
    module.unload();
    module.source = user.source;
    module.arch = arch;
    module.cubin = std::move(cubin);
    module.report = report;
    return &module;
}

// The kept module on the GPU, loaded once. Throws CudaError.
cudaKernel_t load(KeptModule& module, const std::string& name) {
    if (module.kernel) return module.kernel;
    cuda_check(cudaLibraryLoadData(&module.library, module.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
               format_text("loading {}'s machine code (cudaLibraryLoadData)", name), __FILE__, __LINE__);
    cuda_check(cudaLibraryGetKernel(&module.kernel, module.library, std::string(model::kUserKernelName).c_str()),
               format_text("finding the kernel called {} in {} (cudaLibraryGetKernel)", model::kUserKernelName, name),
               __FILE__, __LINE__);
    return module.kernel;
}

const void* entry(cudaKernel_t kernel) { return reinterpret_cast<const void*>(kernel); }

// What CUDA says about the loaded kernel for a block of `threads` threads. Throws CudaError.
KernelOccupancy occupancy_of(cudaKernel_t kernel, const model::UserLaunchShape& shape) {
    cudaFuncAttributes attributes{};
    TS_CUDA_CHECK(cudaFuncGetAttributes(&attributes, entry(kernel)));
    KernelOccupancy occupancy;
    occupancy.registers_per_thread = attributes.numRegs;
    occupancy.static_shared_bytes = static_cast<int>(attributes.sharedSizeBytes);
    occupancy.local_bytes_per_thread = static_cast<int>(attributes.localSizeBytes);
    occupancy.max_threads_per_block = attributes.maxThreadsPerBlock;
    const std::int64_t threads = shape.block_x * shape.block_y;
    if (threads <= attributes.maxThreadsPerBlock)
        TS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occupancy.blocks_per_sm, entry(kernel),
                                                                    static_cast<int>(threads),
                                                                    static_cast<std::size_t>(shape.shared_bytes)));
    return occupancy;
}

// Everything a run needs: the kernel compiled and loaded, its shape for this problem within the
// GPU's limits. Throws std::invalid_argument with the reason, CudaError when loading fails.
struct Prepared {
    cudaKernel_t kernel = nullptr;
    model::UserLaunchShape shape;
    std::string call;  // "launching yours: mine.cu <<<(8, 8), (16, 16), 0>>>"
    // The tracing build's shared arrays by id, or why shared memory is not recorded.
    std::vector<std::string> shared_names;
    std::string shared_not_recorded;
};

// `tracing`: the build that records itself (user_kernel_tracing.hpp) instead of the plain one.
Prepared prepare(const RunRequest& request, const DeviceInfo& device, RunResult& result, bool tracing = false) {
    UserKernelSource user = *request.user;
    const std::string plain_source = user.source;
    TracingBuild build;
    if (tracing) {
        auto built = tracing_source(user.source);
        if (built.index() == 1)
            throw std::invalid_argument(format_text("{} cannot be recorded: {}", user.name, std::get<1>(built)));
        build = std::move(std::get<0>(built));
        user.source = build.source;
    }
    const model::Problem& p = request.problem;
    if (p.dtype != model::Dtype::Float32 || p.batch != 1)
        throw std::invalid_argument(format_text("your kernel takes float matrices, one product at a time; {} with "
                                                "batch {} was asked",
                                                model::dtype_name(p.dtype), p.batch));
    if (auto why = model::validate(p, device.free_memory_bytes)) throw std::invalid_argument(*why);
    // int M, N, K: the signature's own types.
    if (p.m > INT32_MAX || p.n > INT32_MAX || p.k > INT32_MAX || p.a_elements() > INT32_MAX ||
        p.b_elements() > INT32_MAX || p.c_elements() > INT32_MAX)
        throw std::invalid_argument("your kernel indexes with int: M·K, K·N and M·N must stay below 2^31");
    const auto resolved = model::resolve_launch(user.launch, p);
    if (const auto* why = std::get_if<std::string>(&resolved))
        throw std::invalid_argument(format_text("the launch shape has no value at {} × {} × {}: {}", p.m, p.n, p.k,
                                                *why));
    Prepared prepared;
    prepared.shape = std::get<model::UserLaunchShape>(resolved);
    result.user_launch = prepared.shape;
    if (auto why = model::launch_refused(prepared.shape, device.limits))
        throw std::invalid_argument(format_text("the GPU would refuse this launch: {}", *why));

    const std::string arch = arch_of(device.limits.compute_major, device.limits.compute_minor);
    const KeptModule* module = compile(user, arch, result.compile.emplace());
    // Shared arrays used other than by index (a pointer taken from one, say) do not compile as
    // accessors: record the global accesses alone then, and say why shared memory is not there.
    if (!module && tracing && !build.shared_names.empty() && !result.compile->diagnostics.empty()) {
        const model::Diagnostic first = result.compile->diagnostics.front();
        auto global_only = tracing_source(plain_source, false);
        if (global_only.index() == 0) {
            build = std::move(std::get<0>(global_only));
            build.shared_not_recorded = format_text(
                "its shared arrays are used other than as name[i] or name[row][col] (the compiler, on line {}: {})",
                first.line, first.message);
            user.source = build.source;
            module = compile(user, arch, result.compile.emplace());
        }
    }
    if (!module && tracing && !result.compile->diagnostics.empty())
        throw std::invalid_argument(format_text(
            "{} compiles, but not to record itself: the trace reads A and B and writes C only as A[i], B[i] and "
            "C[i] (not A + i, nor through a float4). The compiler: line {}: {}",
            user.name, result.compile->diagnostics.front().line, result.compile->diagnostics.front().message));
    if (!module)
        throw std::invalid_argument(format_text("{}: {}", user.name, result.compile->why));
    prepared.kernel = load(kept(), user.name);
    prepared.shared_names = build.shared_names;
    prepared.shared_not_recorded = build.shared_not_recorded;
    const model::UserLaunchShape& s = prepared.shape;
    prepared.call = format_text("launching yours: {} <<<({}, {}), ({}, {}), {}>>>", user.name, s.grid_x, s.grid_y,
                                s.block_x, s.block_y, s.shared_bytes);
    // Above 48 KiB of dynamic shared memory a kernel must opt in; below it this changes nothing.
    if (s.shared_bytes > 0)
        cuda_check(cudaFuncSetAttribute(entry(prepared.kernel), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(s.shared_bytes)),
                   format_text("asking for {} bytes of dynamic shared memory for yours: {}", s.shared_bytes, user.name),
                   __FILE__, __LINE__);
    result.occupancy = occupancy_of(prepared.kernel, s);
    return prepared;
}

// Enqueues one launch. Throws CudaError naming the launch when CUDA refuses it.
void launch(const Prepared& prepared, const model::Problem& p, const float* a, const float* b, float* c,
            cudaStream_t stream) {
    const model::UserLaunchShape& s = prepared.shape;
    int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.k);
    void* arguments[] = {&a, &b, &c, &m, &n, &k};
    cuda_check(cudaLaunchKernel(entry(prepared.kernel), dim3(static_cast<unsigned>(s.grid_x), static_cast<unsigned>(s.grid_y)),
                                dim3(static_cast<unsigned>(s.block_x), static_cast<unsigned>(s.block_y)), arguments,
                                static_cast<std::size_t>(s.shared_bytes), stream),
               prepared.call, __FILE__, __LINE__);
}

}  // namespace

void compile_user_request(const RunRequest& request, const DeviceInfo& device, RunResult& result) {
    if (!request.user) throw std::invalid_argument("a compile request carries no kernel");
    const std::string arch = device.usable ? arch_of(device.limits.compute_major, device.limits.compute_minor)
                                           : request.user->arch;
    UserCompileReport& report = result.compile.emplace();
    const KeptModule* module = compile(*request.user, arch, report);
    if (!module) {
        result.error = report.why;
        return;
    }
    if (device.usable) {
        const auto resolved = model::resolve_launch(request.user->launch, request.problem);
        const auto* shape = std::get_if<model::UserLaunchShape>(&resolved);
        const cudaKernel_t kernel = load(kept(), request.user->name);
        if (shape && !model::launch_refused(*shape, device.limits)) result.occupancy = occupancy_of(kernel, *shape);
    }
    result.ok = true;
}

void check_user_kernel(const RunRequest& request, const DeviceInfo& device, cudaStream_t stream, RunResult& result) {
    if (request.runs < 1 || request.runs > model::kMaxExperimentRuns)
        throw std::invalid_argument(format_text("a check runs your kernel 1 to {} times, not {}",
                                                model::kMaxExperimentRuns, request.runs));
    const Prepared prepared = prepare(request, device, result);
    const model::Problem& p = request.problem;
    model::ExperimentRun run;
    run.c = {p, request.kernel};
    run.blocks = prepared.shape.grid_x * prepared.shape.grid_y;
    run.map = model::make_wrong_cell_map(p.m, p.n);
    // Guard zones as wide as no-bounds-check's with 32-wide tiles: a row or two past an end.
    const GuardedOperands guarded(p, model::guard_elements(p, 32), request.seed, stream);
    Tally tally(p, guarded.reference);
    for (int i = 0; i < request.runs; ++i) {
        checked_launch(guarded, tally, run, stream, [&] {
            launch(prepared, p, guarded.a.matrix(), guarded.b.matrix(), guarded.c.matrix(), stream);
            // A fault (an illegal address) shows here, named after the launch; the context is lost
            // then, and the supervisor restarts the worker.
            cuda_check(cudaStreamSynchronize(stream),
                       format_text("{}, run {} of {}", prepared.call, i + 1, request.runs), __FILE__, __LINE__);
        });
    }
    tally.finish(run);
    result.experiment = std::move(run);
}

void measure_user_kernel(const RunRequest& request, const DeviceInfo& device, cudaStream_t stream, RunResult& result) {
    const Prepared prepared = prepare(request, device, result);
    const model::Problem& p = request.problem;
    const DeviceOperands operands(request, stream);
    const DevicePointers d = operands.pointers();
    const auto* a = static_cast<const float*>(d.a);
    const auto* b = static_cast<const float*>(d.b);
    auto* c = static_cast<float*>(d.c);
    const Measurement measured =
        measure(settings_for(request), stream, [&](cudaStream_t s) { launch(prepared, p, a, b, c, s); },
                [&](cudaStream_t s) { operands.poison(s); });
    store_timing(measured, result);
    // The model knows nothing of the learner's kernel: no traffic to put beside the time.
    result.model_traffic_bytes = 0;
    result.model_bandwidth_gbs = 0.0;
    if (request.check) {
        // One more launch on a freshly poisoned C, checked: a cell no thread writes fails.
        operands.poison(stream);
        launch(prepared, p, a, b, c, stream);
        cuda_check(cudaStreamSynchronize(stream), prepared.call, __FILE__, __LINE__);
        operands.check(result, stream);
    } else {
        result.check_summary = "not checked";
    }
}

void record_user_kernel(const RunRequest& request, const DeviceInfo& device, cudaStream_t stream, RunResult& result) {
    const Prepared prepared = prepare(request, device, result, true);
    const model::Problem& p = request.problem;
    if (auto why = model::user_trace_problem(p, prepared.shape)) throw std::invalid_argument(*why);

    // The notes' buffers: at most every thread's every k of A and B (the naive kernel's), and C.
    model::UserTrace user_trace;
    user_trace.problem = p;
    user_trace.shape = prepared.shape;
    const std::int64_t blocks = prepared.shape.grid_x * prepared.shape.grid_y;
    const std::int64_t threads = blocks * prepared.shape.block_x * prepared.shape.block_y;
    // Shared memory adds as many again: a tiled kernel reads its tiles as often as the naive one
    // reads A and B, over the whole tiles the grid covers.
    const std::int64_t covered_m = std::max(p.m, prepared.shape.grid_y * prepared.shape.block_y);
    const std::int64_t covered_n = std::max(p.n, prepared.shape.grid_x * prepared.shape.block_x);
    const std::int64_t capacity = std::min<std::int64_t>(
        model::kMostUserEvents, 4 * covered_m * covered_n * (p.k + 32) + 2 * covered_m * covered_n + 4096);
    const std::int64_t stride = model::kMostTimedBarriers + 1;
    DeviceBuffer<model::UserEvent> events(capacity);
    DeviceBuffer<unsigned long long> count(1);
    DeviceBuffer<int> barriers(threads);
    DeviceBuffer<unsigned int> block_sm(blocks);
    DeviceBuffer<std::uint64_t> times_ns(blocks * stride);
    DeviceBuffer<std::uint64_t> times_cycles(blocks * stride);
    DeviceBuffer<unsigned int> shared_info(3 * model::kMostSharedArrays);
    TS_CUDA_CHECK(cudaMemsetAsync(count.get(), 0, count.bytes(), stream));
    TS_CUDA_CHECK(cudaMemsetAsync(barriers.get(), 0, barriers.bytes(), stream));
    TS_CUDA_CHECK(cudaMemsetAsync(block_sm.get(), 0xFF, block_sm.bytes(), stream));
    TS_CUDA_CHECK(cudaMemsetAsync(times_ns.get(), 0, times_ns.bytes(), stream));
    TS_CUDA_CHECK(cudaMemsetAsync(times_cycles.get(), 0, times_cycles.bytes(), stream));
    TS_CUDA_CHECK(cudaMemsetAsync(shared_info.get(), 0, shared_info.bytes(), stream));
    // The prelude's Buffers, field for field (user_kernel_tracing.cxx).
    struct Buffers {
        model::UserEvent* events;
        unsigned long long capacity;
        unsigned long long* count;
        int* barriers;
        unsigned int* block_sm;
        std::uint64_t* times_ns;  // unsigned long long on the device: both 64 bits
        std::uint64_t* times_cycles;
        int timed_barriers;
        unsigned int* shared_info;
    } buffers{events.get(),    static_cast<unsigned long long>(capacity), count.get(),
              barriers.get(),  block_sm.get(), times_ns.get(), times_cycles.get(), model::kMostTimedBarriers,
              shared_info.get()};
    void* global = nullptr;
    std::size_t global_bytes = 0;
    cuda_check(cudaLibraryGetGlobal(&global, &global_bytes, kept().library, kTracingBuffersName),
               format_text("finding {} in the tracing build (cudaLibraryGetGlobal)", kTracingBuffersName), __FILE__,
               __LINE__);
    if (global_bytes != sizeof buffers)
        throw std::runtime_error(format_text("the tracing prelude's buffers are {} bytes, the worker's {}",
                                             global_bytes, sizeof buffers));
    TS_CUDA_CHECK(cudaMemcpyAsync(global, &buffers, sizeof buffers, cudaMemcpyHostToDevice, stream));

    // One launch between guard zones, checked as a check's run is.
    const GuardedOperands guarded(p, model::guard_elements(p, 32), request.seed, stream);
    Tally tally(p, guarded.reference);
    model::ExperimentRun run;
    run.map = model::make_wrong_cell_map(p.m, p.n);
    checked_launch(guarded, tally, run, stream, [&] {
        launch(prepared, p, guarded.a.matrix(), guarded.b.matrix(), guarded.c.matrix(), stream);
        cuda_check(cudaStreamSynchronize(stream), prepared.call + " (traced launch)", __FILE__, __LINE__);
    });
    tally.finish(run);

    const std::int64_t noted = static_cast<std::int64_t>(copy_to_host(count.get(), 1, stream)[0]);
    user_trace.events = copy_to_host(events.get(), std::min(noted, capacity), stream);
    user_trace.events_dropped = std::max<std::int64_t>(0, noted - capacity);
    user_trace.block_sm = copy_to_host(block_sm.get(), blocks, stream);
    user_trace.times_ns = copy_to_host(times_ns.get(), blocks * stride, stream);
    user_trace.times_cycles = copy_to_host(times_cycles.get(), blocks * stride, stream);
    user_trace.shared_names = prepared.shared_names;
    user_trace.shared_info = copy_to_host(shared_info.get(), 3 * model::kMostSharedArrays, stream);
    user_trace.shared_not_recorded = prepared.shared_not_recorded;

    UserTraceReport& report = result.user_trace.emplace();
    report.counts = model::count_user_events(user_trace);
    report.counts_text = model::describe_counts(report.counts);
    report.shared = model::shared_report_of(user_trace);
    report.events = noted;
    report.c_right = run.wrong_runs == 0 && run.stray_writes == 0;
    report.c_summary = report.c_right ? std::string("C of the traced launch was right")
                                      : format_text("C of the traced launch had {} wrong cells and {} stores past "
                                                    "its ends",
                                                    run.wrong_cells_worst, run.stray_writes);
    auto trace = model::tiled_trace_of(user_trace, device.limits.name, device.limits.sm_count);
    if (auto* why = std::get_if<std::string>(&trace)) {
        report.theatre_note = *why;
        return;
    }
    model::KernelTrace& t = std::get<model::KernelTrace>(trace);
    t.recorded_at = record::utc_now(record::kUtcToTheMinute);
    t.check_passed = report.c_right;
    t.check_summary = report.c_summary;
    t.label = format_text("yours: {}", request.user->name);
    t.source = request.user->source;
    result.trace = std::move(t);
}

void release_user_kernel() { kept().unload(); }

}  // namespace ts::gpu
