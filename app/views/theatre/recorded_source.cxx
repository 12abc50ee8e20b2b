#include "views/theatre/recorded_source.hpp"

#include "model/format.hpp"

namespace ts::views {

using model::format_text;

namespace {

bool same_product(const model::Problem& a, const model::Problem& b) {
    return a.m == b.m && a.n == b.n && a.k == b.k && a.batch == b.batch;
}

}  // namespace

RecordedSource::RecordedSource(std::shared_ptr<const model::KernelTrace> naive,
                               std::shared_ptr<const model::KernelTrace> tiled) {
    for (auto [trace, slot] : {std::pair{naive, &m_naive}, std::pair{tiled, &m_tiled}}) {
        if (!trace || !trace->has_loads()) continue;
        slot->trace = trace;
        slot->reads.emplace(*trace);
    }
    const model::KernelTrace* any = m_tiled.trace ? m_tiled.trace.get() : m_naive.trace.get();
    const std::string device = any ? any->device : "a GPU";
    m_label = "recorded on " + device;
    // A learner's kernel recorded through its accessors plays as the tiled rung: say whose it is.
    if (m_tiled.trace && !m_tiled.trace->label.empty()) m_label = m_tiled.trace->label + ", " + m_label;
    if (!m_naive.trace || !m_tiled.trace)
        m_label += m_tiled.trace ? " (tiled; naive from the model)" : " (naive; tiled from the model)";
    m_description = format_text("the loads each thread wrote down when the instrumented kernels ran on the {}{}; the "
                           "counters of global loads and of each element's reads are counted from them, the shared "
                           "reads of the k loop and the stores to C from the model",
                           device, any ? " (" + any->recorded_at + ")" : "");
}

const RecordedSource::Recorded* RecordedSource::fitting(model::KernelKind kind, const model::Problem& problem,
                                                       int tile) const {
    const Recorded& r = kind == model::KernelKind::Tiled ? m_tiled : m_naive;
    if (!r.trace || !same_product(r.trace->problem, problem) || r.trace->config.tile != tile) return nullptr;
    return &r;
}

std::vector<model::TileLoad> RecordedSource::tile_loads(const model::Problem& problem, int tile, model::Index2 block,
                                                        int phase, model::Operand operand) const {
    if (const Recorded* r = fitting(model::KernelKind::Tiled, problem, tile))
        return model::recorded_tile_loads(*r->trace, block, phase, operand);
    return model_source().tile_loads(problem, tile, block, phase, operand);
}

model::TrafficSoFar RecordedSource::traffic(model::KernelKind kind, const model::Problem& problem, int tile,
                                            model::KernelStep step) const {
    if (const Recorded* r = fitting(kind, problem, tile)) return r->reads->traffic(step);
    return model_source().traffic(kind, problem, tile, step);
}

std::int64_t RecordedSource::element_reads(model::KernelKind kind, const model::Problem& problem, int tile,
                                           model::KernelStep step, model::Operand operand, int row, int col) const {
    if (const Recorded* r = fitting(kind, problem, tile)) return r->reads->element_reads(step, operand, row, col);
    return model_source().element_reads(kind, problem, tile, step, operand, row, col);
}

}  // namespace ts::views
