// accumulator_runner.cxx — RequestKind::Accumulator (accumulator_runner.hpp): the model's probes
// through kernels/experiments/accumulator_probe.cu, read back and decoded.
#include "accumulator_runner.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "kernels/experiments/accumulator_probe.hpp"
#include "model/accumulator.hpp"
#include "model/format.hpp"

namespace ts::gpu {

namespace {

using model::AccumulatorInput;

template <typename T>
void upload(DeviceBuffer<T>& buffer, const std::vector<T>& host, cudaStream_t stream) {
    TS_CUDA_CHECK(cudaMemcpyAsync(buffer.get(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
}

template <typename T>
std::vector<T> download(const DeviceBuffer<T>& buffer, cudaStream_t stream) {
    std::vector<T> host(static_cast<std::size_t>(buffer.size()));
    TS_CUDA_CHECK(cudaMemcpyAsync(host.data(), buffer.get(), buffer.bytes(), cudaMemcpyDeviceToHost, stream));
    TS_CUDA_CHECK(cudaStreamSynchronize(stream));
    return host;
}

kernels::ProbeOffsets offsets_of(AccumulatorInput input, bool swapped) {
    const model::SmemDescriptor a = model::operand_descriptor(input, model::kProbeRows, swapped);
    const model::SmemDescriptor b = model::operand_descriptor(input, model::kProbeCols, swapped);
    return {a.leading_byte_offset, a.stride_byte_offset, b.leading_byte_offset, b.stride_byte_offset};
}

// One wgmma of `probe`, its 64 × 8 outputs.
std::vector<float> run_probe(const model::ProbeOperands& probe, kernels::ProbeOffsets offsets, cudaStream_t stream) {
    const std::vector<std::uint8_t> a = model::operand_image(probe.input, model::probe_a_bits(probe), model::kProbeRows,
                                                             model::operand_layout(probe.input, model::kProbeRows));
    const std::vector<std::uint8_t> b = model::operand_image(probe.input, model::probe_b_bits(probe), model::kProbeCols,
                                                             model::operand_layout(probe.input, model::kProbeCols));
    DeviceBuffer<std::uint8_t> a_device(static_cast<std::int64_t>(a.size())), b_device(static_cast<std::int64_t>(b.size()));
    DeviceBuffer<float> c_device(static_cast<std::int64_t>(probe.c_start.size()));
    DeviceBuffer<float> out_device(static_cast<std::int64_t>(probe.c_start.size()));
    upload(a_device, a, stream);
    upload(b_device, b, stream);
    upload(c_device, probe.c_start, stream);
    // NaN in every cell first: a cell the kernel never wrote cannot pass for a result.
    TS_CUDA_CHECK(cudaMemsetAsync(out_device.get(), 0xFF, out_device.bytes(), stream));
    TS_CUDA_CHECK(kernels::launch_accumulator_probe(probe.input, a_device.get(), b_device.get(), offsets,
                                                    c_device.get(), probe.accumulate, out_device.get(), stream));
    return download(out_device, stream);
}

// The identity probes with one reading of the descriptors: nullopt when both are exact.
std::optional<std::string> identity_fails(AccumulatorInput input, kernels::ProbeOffsets offsets, cudaStream_t stream) {
    for (model::ProbeKind kind : {model::ProbeKind::Identity, model::ProbeKind::IdentityAcross}) {
        const model::ProbeOperands probe = model::make_probe(input, kind);
        if (auto why = model::check_identity(probe, run_probe(probe, offsets, stream)))
            return std::string(kind == model::ProbeKind::Identity ? "inside one wgmma: " : "added to the accumulators: ") + *why;
    }
    return std::nullopt;
}

std::vector<model::GrowthPoint> run_growth(AccumulatorInput input, kernels::ProbeOffsets offsets, std::uint64_t seed,
                                           cudaStream_t stream) {
    const model::GrowthInputs inputs = model::make_growth_inputs(input, model::kGrowthLargestK, seed);
    const std::vector<std::uint8_t> a = model::growth_a_images(inputs, model::operand_layout(input, model::kProbeRows));
    const std::vector<std::uint8_t> b = model::growth_b_images(inputs, model::operand_layout(input, model::kProbeCols));
    const std::vector<int> ks = model::growth_ks();
    constexpr std::size_t kCells = static_cast<std::size_t>(model::kProbeRows) * model::kProbeCols;
    DeviceBuffer<std::uint8_t> a_device(static_cast<std::int64_t>(a.size())), b_device(static_cast<std::int64_t>(b.size()));
    DeviceBuffer<float> out_device(static_cast<std::int64_t>(ks.size() * 2 * kCells));
    upload(a_device, a, stream);
    upload(b_device, b, stream);
    TS_CUDA_CHECK(cudaMemsetAsync(out_device.get(), 0xFF, out_device.bytes(), stream));
    TS_CUDA_CHECK(kernels::launch_accumulator_growth(input, a_device.get(), b_device.get(), offsets, inputs.k,
                                                     out_device.get(), stream));
    const std::vector<float> out = download(out_device, stream);
    std::vector<model::GrowthPoint> points;
    for (std::size_t i = 0; i < ks.size(); ++i) {
        const auto tile = out.begin() + static_cast<std::ptrdiff_t>(i * 2 * kCells);
        const std::vector<float> never(tile, tile + kCells), promoted(tile + kCells, tile + 2 * kCells);
        points.push_back(model::growth_point(ks[i], model::growth_reference(inputs, ks[i]), never, promoted));
    }
    return points;
}

model::AccumulatorTypeReport measure_type(AccumulatorInput input, std::uint64_t seed, cudaStream_t stream) {
    model::AccumulatorTypeReport report;
    report.input = input;
    // The documented reading of LBO and SBO first; the traded one only if that fails, so that a
    // misread descriptor shows as a failed identity, never as a number of bits.
    kernels::ProbeOffsets offsets = offsets_of(input, false);
    const std::optional<std::string> documented = identity_fails(input, offsets, stream);
    report.identity_passed = !documented;
    if (documented && !identity_fails(input, offsets_of(input, true), stream)) {
        offsets = offsets_of(input, true);
        report.identity_passed = report.layout_swapped = true;
    }
    if (documented) report.identity_note = *documented;

    const model::ProbeOperands inside = model::make_probe(input, model::ProbeKind::InsideWgmma);
    report.inside = model::decode_probe(inside, run_probe(inside, offsets, stream));
    const model::ProbeOperands across = model::make_probe(input, model::ProbeKind::AcrossSteps);
    report.across = model::decode_probe(across, run_probe(across, offsets, stream));
    report.growth = run_growth(input, offsets, seed, stream);
    return report;
}

}  // namespace

const char* accumulator_unavailable() {
    if (kernels::accumulator_probe_unavailable())
        return "needs an H100/H200: wgmma is sm_90a (Hopper, compute capability 9.0), and this GPU is not one";
    return nullptr;
}

void run_accumulator(const RunRequest& request, const DeviceInfo& device, cudaStream_t stream, RunResult& result) {
    const std::vector<AccumulatorInput> inputs = model::accumulator_inputs_named(request.accumulator_input);
    if (inputs.empty())
        throw std::invalid_argument(model::format_text("no input type \"{}\": fp8, bf16, fp16 or all", request.accumulator_input));
    model::AccumulatorReport report;
    report.device = device.limits.name;
    for (AccumulatorInput input : inputs) report.types.push_back(measure_type(input, request.seed, stream));
    result.accumulator = std::move(report);
}

}  // namespace ts::gpu
