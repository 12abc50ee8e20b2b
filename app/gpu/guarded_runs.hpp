// guarded_runs.hpp — launches checked cell by cell between guard zones: what the break-it
// experiments (experiment_runner.hpp) and the learner's own kernels (user_kernel_runner.hpp) run.
//
// Each operand lies between two guard zones filled with model::kGuardPoisonBits: a kernel that
// reads past an end reads the poison (a NaN that shows in C), one that writes there is counted
// (stray writes). C's own cells hold kUnwrittenBits before each launch, so a cell no thread wrote
// is told apart from a wrong one. Every launch's C is compared with one reference, the real
// check's rule per cell, and added to a model::ExperimentRun: its wrong-cell map, counts and note.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <vector>

#include "cpu_reference.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "model/experiment.hpp"

namespace ts::gpu {

// What C's cells hold before each launch: all bits set, a NaN that neither the guard's poison
// (0x7FC0DEAD) nor arithmetic (the GPU's NaN is 0x7FFFFFFF) gives, so a cell still holding it
// was never written.
inline constexpr std::uint32_t kUnwrittenBits = 0xFFFFFFFFu;

// One operand on the GPU between two guard zones: [guard | matrix | guard]. The kernels get
// matrix(); what a kernel reads past either end is the poison, what it stores there is found by
// count_stray_writes.
class GuardedMatrix {
public:
    GuardedMatrix(std::int64_t elements, std::int64_t guard);

    float* matrix() const { return m_buffer.get() + m_guard; }
    std::int64_t elements() const { return m_elements; }

    void poison_guards(cudaStream_t stream) const;
    // Fills the matrix's own cells with kUnwrittenBits (before each launch).
    void mark_unwritten(cudaStream_t stream) const;
    // The whole buffer, guard zones and matrix, on the host (waits for `stream`).
    std::vector<float> copy_back(cudaStream_t stream) const;
    std::span<const float> matrix_of(const std::vector<float>& whole) const;
    // Guard elements of `whole` (a copy_back) that no longer hold the poison; when there are
    // any, the guard zones are poisoned again for the next launch.
    std::int64_t count_stray_writes(const std::vector<float>& whole, cudaStream_t stream) const;

private:
    DeviceBuffer<float> m_buffer;
    std::int64_t m_elements;
    std::int64_t m_guard;
    std::vector<float> m_poison;  // one guard zone's worth, the source of both copies
};

template <typename T>
std::vector<T> copy_to_host(const T* device, std::int64_t count, cudaStream_t stream) {
    std::vector<T> host(static_cast<std::size_t>(count));
    if (count > 0)
        TS_CUDA_CHECK(cudaMemcpyAsync(host.data(), device, host.size() * sizeof(T), cudaMemcpyDeviceToHost, stream));
    TS_CUDA_CHECK(cudaStreamSynchronize(stream));
    return host;
}

// The exact product of float inputs and Σ|a·b| per cell: on the CPU, or above
// kCpuReferenceLimit multiply-adds by cuBLAS in FP64 on the GPU when cuBLAS is loaded.
Reference reference_for(const std::vector<float>& a, const std::vector<float>& b, const model::Problem& p,
                        cudaStream_t stream);

// A, B and C of one float problem between guard zones, A and B filled from `seed` as every
// request's inputs are (model/input_values.hpp), and the reference of their product.
struct GuardedOperands {
    GuardedOperands(const model::Problem& p, std::int64_t guard, std::uint64_t seed, cudaStream_t stream);
    GuardedMatrix a, b, c;
    Reference reference;
};

// Adds each launch's C to a model::ExperimentRun.
class Tally {
public:
    Tally(const model::Problem& p, const Reference& ref);
    // One launch's C (its own cells): wrong cells, the map, the largest error.
    void add(std::span<const float> c, model::ExperimentRun& run);
    // After the last launch: cells ever wrong, NaN cells, and a note on cells never written.
    void finish(model::ExperimentRun& run) const;

private:
    double relative_error(float got, std::size_t i) const;

    const model::Problem& m_problem;
    const Reference& m_ref;
    double m_factor;
    std::vector<std::uint8_t> m_wrong, m_ever_wrong, m_ever_nan, m_ever_unwritten;
};

// One checked launch: C marked unwritten, `launch` enqueued, waited for (a fault shows here, as
// `call`, run `run` of `runs`), C read back, tallied, and stray writes counted.
template <typename Launch>
void checked_launch(const GuardedOperands& operands, Tally& tally, model::ExperimentRun& run, cudaStream_t stream,
                    const Launch& launch) {
    operands.c.mark_unwritten(stream);
    launch();
    const std::vector<float> whole = operands.c.copy_back(stream);
    tally.add(operands.c.matrix_of(whole), run);
    run.stray_writes += operands.c.count_stray_writes(whole, stream);
}

}  // namespace ts::gpu
