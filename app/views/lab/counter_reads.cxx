#include "views/lab/counter_reads.hpp"

#include "model/format.hpp"

namespace ts::views {

std::string counters_key(const model::KernelConfig& kernel, const model::Problem& problem) {
    std::string key = model::format_text("{} {} {}×{}×{}", model::describe(kernel), model::dtype_name(problem.dtype),
                                         problem.m, problem.n, problem.k);
    if (problem.batch > 1) key += model::format_text(" ×{}", problem.batch);
    return key;
}

gpu::RunRequest counters_request(const model::KernelConfig& kernel, const model::Problem& problem) {
    gpu::RunRequest request;
    request.kind = gpu::RequestKind::Counters;
    request.kernel = kernel;
    request.problem = problem;
    return request;
}

bool is_permission_error(const std::string& error) {
    return error.find("NVreg_RestrictProfilingToAdminUsers") != std::string::npos;
}

void take_counters_result(CounterReads& reads, const gpu::RunResult& result) {
    // A newer request of the same key is still to come back and will settle the entry.
    if (result.superseded_by != 0) return;
    CounterRead& read = reads[counters_key(result.request.kernel, result.request.problem)];
    read.pending = false;
    if (result.ok && result.counters) {
        read.report = result.counters;
        read.error.clear();
        return;
    }
    read.error = result.ok ? "the GPU worker sent no counters back" : result.error;
}

}  // namespace ts::views
