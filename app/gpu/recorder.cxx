#include "recorder.hpp"

#include <cstdint>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "device_operands.hpp"
#include "kernels/common/launchers.hpp"
#include "model/format.hpp"
#include "model/launch_geometry.hpp"
#include "model/tensor_core/stage_record.hpp"
#include "record/utc_time.hpp"

namespace ts::gpu {

namespace {

using model::format_text;

template <typename T>
std::vector<T> copy_back(const DeviceBuffer<T>& buffer, std::int64_t count, cudaStream_t stream) {
    std::vector<T> host(static_cast<std::size_t>(count));
    TS_CUDA_CHECK(cudaMemcpyAsync(host.data(), buffer.get(), buffer.bytes(), cudaMemcpyDeviceToHost, stream));
    return host;
}

// What every trace keeps of each block: a clock per block and phase (zeros until stamped) and
// the SM it ran on (all bits set, kNoSm, until the block writes it); read back with where, on
// what and when it was recorded.
struct BlockRecords {
    std::int64_t clock_count, blocks;
    DeviceBuffer<model::PhaseClock> clocks;
    DeviceBuffer<std::uint32_t> block_sm;
    BlockRecords(std::int64_t clock_count_, std::int64_t blocks_, cudaStream_t stream)
        : clock_count(clock_count_), blocks(blocks_), clocks(clock_count_), block_sm(blocks_) {
        TS_CUDA_CHECK(cudaMemsetAsync(clocks.get(), 0, clocks.bytes(), stream));
        TS_CUDA_CHECK(cudaMemsetAsync(block_sm.get(), 0xFF, block_sm.bytes(), stream));
    }
    void read_into(model::KernelTrace& trace, const DeviceInfo& device, cudaStream_t stream) const {
        trace.device = device.limits.name;
        trace.sm_count = device.limits.sm_count;
        trace.recorded_at = record::utc_now(record::kUtcToTheMinute);
        trace.clocks = copy_back(clocks, clock_count, stream);
        trace.block_sm = copy_back(block_sm, blocks, stream);
    }
};

// A and B of a trace whose inputs are element numbers (model::stage_element_number: A cut in
// tiles of a_rows × k_cols, B in k_cols × b_cols), on the device, with room for C.
struct NumberedOperands {
    DeviceBuffer<std::uint16_t> a, b, c;
    NumberedOperands(const model::Problem& p, int a_rows, int k_cols, int b_cols, cudaStream_t stream)
        : a(p.m * p.k), b(p.k * p.n), c(p.m * p.n) {
        std::vector<std::uint16_t> host_a(static_cast<std::size_t>(p.m * p.k)), host_b(static_cast<std::size_t>(p.k * p.n));
        for (std::int64_t r = 0; r < p.m; ++r)
            for (std::int64_t col = 0; col < p.k; ++col)
                host_a[static_cast<std::size_t>(r * p.k + col)] = model::stage_element_number(r, col, a_rows, k_cols);
        for (std::int64_t r = 0; r < p.k; ++r)
            for (std::int64_t col = 0; col < p.n; ++col)
                host_b[static_cast<std::size_t>(r * p.n + col)] = model::stage_element_number(r, col, k_cols, b_cols);
        TS_CUDA_CHECK(cudaMemcpyAsync(a.get(), host_a.data(), a.bytes(), cudaMemcpyHostToDevice, stream));
        TS_CUDA_CHECK(cudaMemcpyAsync(b.get(), host_b.data(), b.bytes(), cudaMemcpyHostToDevice, stream));
        // The copies read the host vectors before they go.
        TS_CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    kernels::Operands<std::uint16_t> operands() const { return {a.get(), b.get(), c.get()}; }
};

// How to take a trace whose inputs are element numbers (A cut in a_rows × k_cols tiles, B in k_cols ×
// b_cols) and whose kernel writes `word_count` 16-bit words of what it saw into the trace buffer
// `buffer`, read back into the trace's `into`. C is not checked: it is made of numbers.
struct NumberedTracing {
    const char* name;
    int a_rows, k_cols, b_cols, word_count;
    std::uint16_t* kernels::TraceBuffers::*buffer;
    std::vector<std::uint16_t> model::KernelTrace::*into;
    cudaError_t (*launch)(const model::Problem&, kernels::Operands<std::uint16_t>, kernels::TraceBuffers, cudaStream_t);
};

// The mma rung's trace (14_mma_recorded.cu): the registers warp 0 writes out say which
// element reached which lane.
constexpr model::MmaShape kMma = model::kRecordedFragmentShape;
constexpr NumberedTracing kMmaTracing{"mma", kMma.bm, kMma.bk, kMma.bn, model::kRecordedFragmentWords,
                                          &kernels::TraceBuffers::fragment_words, &model::KernelTrace::fragment_words,
                                          kernels::launch_mma_recorded};
// The wgmma rung's trace (16_wgmma_recorded.cu): the stage it writes out says where each
// element went.
constexpr model::WgmmaShape kWgmma = model::kRecordedStageShape;
constexpr NumberedTracing kWgmmaTracing{"wgmma", kWgmma.bm, kWgmma.bk, kWgmma.bn, model::kRecordedStageWords,
                                            &kernels::TraceBuffers::stage_words, &model::KernelTrace::stage_words,
                                            kernels::launch_wgmma_recorded};

void record_numbered(const NumberedTracing& tracing, const RunRequest& request, const DeviceInfo& device,
                     cudaStream_t stream, RunResult& result) {
    model::Problem problem = request.problem;
    problem.dtype = model::Dtype::BFloat16;
    const NumberedOperands inputs(problem, tracing.a_rows, tracing.k_cols, tracing.b_cols, stream);
    model::KernelTrace trace;
    trace.config = request.kernel;
    trace.problem = problem;
    const BlockRecords records(model::clock_records(request.kernel, problem), trace.blocks(), stream);
    const DeviceBuffer<std::uint16_t> words(tracing.word_count);
    // A word no element holds: what is left where the kernel wrote nothing.
    TS_CUDA_CHECK(cudaMemsetAsync(words.get(), 0xFF, words.bytes(), stream));
    kernels::TraceBuffers buffers{nullptr, records.clocks.get(), records.block_sm.get()};
    buffers.*tracing.buffer = words.get();
    cuda_check(tracing.launch(problem, inputs.operands(), buffers, stream),
               format_text("launching the recorded {} kernel on {}×{}×{}", tracing.name, problem.m, problem.n,
                           problem.k),
               __FILE__, __LINE__);
    records.read_into(trace, device, stream);
    trace.*tracing.into = copy_back(words, tracing.word_count, stream);
    TS_CUDA_CHECK(cudaStreamSynchronize(stream));
    trace.check_passed = false;
    trace.check_summary = "C not checked: this trace's A and B hold element numbers, not values";
    result.checked = false;
    result.trace = std::move(trace);
}

// The warp-specialized rung's trace (17_warp_specialized_recorded.cu): real BF16 inputs, C
// checked, and each role's clocks.
void record_warp_specialized(const RunRequest& request, const DeviceInfo& device, cudaStream_t stream,
                             RunResult& result) {
    RunRequest bf16_request = request;
    bf16_request.problem.dtype = model::Dtype::BFloat16;
    const model::Problem& problem = bf16_request.problem;
    model::KernelTrace trace;
    trace.config = request.kernel;
    trace.problem = problem;
    const std::int64_t role_count = model::role_clock_records(request.kernel, problem);

    const DeviceOperands operands(bf16_request, stream);
    const BlockRecords records(model::clock_records(request.kernel, problem), trace.blocks(), stream);
    DeviceBuffer<model::RoleClock> role_clocks(role_count);
    TS_CUDA_CHECK(cudaMemsetAsync(role_clocks.get(), 0, role_clocks.bytes(), stream));
    operands.poison(stream);
    const DevicePointers p = operands.pointers();
    kernels::TraceBuffers buffers{nullptr, records.clocks.get(), records.block_sm.get()};
    buffers.role_clocks = role_clocks.get();
    cuda_check(kernels::launch_warp_specialized_recorded(
                   problem,
                   {static_cast<const std::uint16_t*>(p.a), static_cast<const std::uint16_t*>(p.b),
                    static_cast<std::uint16_t*>(p.c)},
                   buffers, stream),
               format_text("launching the recorded warp-specialized kernel on {}×{}×{}", problem.m, problem.n,
                           problem.k),
               __FILE__, __LINE__);
    records.read_into(trace, device, stream);
    trace.role_clocks = copy_back(role_clocks, role_count, stream);
    TS_CUDA_CHECK(cudaStreamSynchronize(stream));
    operands.check(result, stream);
    trace.check_passed = result.check_passed;
    trace.check_summary = result.check_summary;
    result.trace = std::move(trace);
}

// The launcher of a recorded kernel in float, or null: check_recordable lets only these four
// through.
using RecordedFloatLauncher = cudaError_t (*)(const model::KernelConfig&, const model::Problem&,
                                              kernels::Operands<float>, kernels::TraceBuffers, cudaStream_t);
RecordedFloatLauncher recorded_float_launcher(model::KernelKind kind) {
    switch (kind) {
        case model::KernelKind::Naive: return kernels::launch_naive_recorded;
        case model::KernelKind::Tiled: return kernels::launch_tiled_recorded;
        case model::KernelKind::RegTile2d: return kernels::launch_regtile_2d_recorded;
        case model::KernelKind::Warptile: return kernels::launch_warptile_recorded;
        default: return nullptr;
    }
}

}  // namespace

void record_kernel(const RunRequest& request, const DeviceInfo& device, cudaStream_t stream, RunResult& result) {
    if (request.kernel.kind == model::KernelKind::Mma) {
        record_numbered(kMmaTracing, request, device, stream, result);
        return;
    }
    if (request.kernel.kind == model::KernelKind::Wgmma) {
        record_numbered(kWgmmaTracing, request, device, stream, result);
        return;
    }
    if (request.kernel.kind == model::KernelKind::WarpSpecialized) {
        record_warp_specialized(request, device, stream, result);
        return;
    }
    // The indices a thread computes do not depend on the element type, so every trace
    // runs in float; the check below is float's.
    RunRequest float_request = request;
    float_request.problem.dtype = model::Dtype::Float32;
    const model::KernelConfig& config = request.kernel;
    const model::Problem& problem = float_request.problem;

    const std::int64_t load_count = model::load_records(config, problem);
    const bool with_loads = load_count <= model::kMaxLoadRecords;
    const model::LaunchGeometry g = model::plan_launch(config, problem);

    const DeviceOperands operands(float_request, stream);
    DeviceBuffer<model::RecordedLoad> loads(with_loads ? load_count : 1);
    const BlockRecords records(model::clock_records(config, problem), g.grid.x * g.grid.y, stream);
    // All bits set: a load slot no thread writes reads kNotRecorded.
    TS_CUDA_CHECK(cudaMemsetAsync(loads.get(), 0xFF, loads.bytes(), stream));
    operands.poison(stream);

    const DevicePointers device_pointers = operands.pointers();
    const kernels::Operands<float> floats{static_cast<const float*>(device_pointers.a),
                                          static_cast<const float*>(device_pointers.b),
                                          static_cast<float*>(device_pointers.c)};
    const kernels::TraceBuffers trace_buffers{with_loads ? loads.get() : nullptr, records.clocks.get(),
                                              records.block_sm.get()};
    const auto launch = recorded_float_launcher(config.kind);
    const cudaError_t launched =
        launch ? launch(config, problem, floats, trace_buffers, stream) : cudaErrorInvalidValue;
    cuda_check(launched,
               format_text("launching the recorded {} <<<({}, {}), ({}, {})>>>", model::describe(config), g.grid.x,
                      g.grid.y, g.block.x, g.block.y),
               __FILE__, __LINE__);

    model::KernelTrace trace;
    trace.config = config;
    trace.problem = problem;
    records.read_into(trace, device, stream);
    if (with_loads) trace.loads = copy_back(loads, load_count, stream);
    TS_CUDA_CHECK(cudaStreamSynchronize(stream));

    operands.check(result, stream);
    trace.check_passed = result.check_passed;
    trace.check_summary = result.check_summary;
    if (!with_loads)
        result.timing_warning = format_text("{} loads are more than a trace keeps ({}): only the SMs and the clocks "
                                       "were recorded",
                                       load_count, model::kMaxLoadRecords);
    result.trace = std::move(trace);
}

}  // namespace ts::gpu
