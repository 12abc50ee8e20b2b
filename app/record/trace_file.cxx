#include "trace_file.hpp"

#include "json_document.hpp"
#include "model/format.hpp"
#include "model/tensor_core/stage_record.hpp"

namespace ts::record {

namespace {

using model::format_text;

model::KernelTrace read_trace(const Json& root) {
    const Fields top(root, "document");
    if (top.text("format") != kTraceFormat)
        throw FormatError(format_text("document: \"format\" is \"{}\", not \"{}\"", top.text("format"), kTraceFormat));
    if (const std::int64_t version = top.integer("format_version"); version != kTraceFormatVersion)
        throw FormatError(format_text("document: format_version {}; this TileScope reads {}", version, kTraceFormatVersion));

    model::KernelTrace trace;
    const auto kind = model::parse_kernel(top.text("kernel"));
    if (!kind || !model::recorded_kind(*kind))
        throw FormatError(format_text("kernel: \"{}\" has no trace; expected \"naive\", \"tiled\", \"regtile-2d\", "
                                      "\"warptile\", \"mma\", \"wgmma\" or \"warp-specialized\"",
                                      top.text("kernel")));
    const bool wgmma = *kind == model::KernelKind::Wgmma, mma = *kind == model::KernelKind::Mma;
    const bool tensor_cores = wgmma || mma || *kind == model::KernelKind::WarpSpecialized;
    trace.config = {*kind, static_cast<int>(top.integer("block_x")), static_cast<int>(top.integer("block_y")),
                    static_cast<int>(top.integer("tile"))};
    trace.problem.m = top.integer("m");
    trace.problem.n = top.integer("n");
    trace.problem.k = top.integer("k");
    trace.problem.batch = 1;
    // The FP32 kernels are recorded in float, the tensor-core rungs in BF16 (the mma and wgmma
    // rungs' inputs are element numbers as bit patterns: model/tensor_core/stage_record.hpp).
    trace.problem.dtype = tensor_cores ? model::Dtype::BFloat16 : model::Dtype::Float32;
    if (auto why = model::check_recordable(trace.config, trace.problem)) throw FormatError(*why);
    trace.device = top.text("device");
    trace.sm_count = static_cast<int>(top.integer("sm_count"));
    trace.recorded_at = top.text("recorded_at");
    // Optional: only a learner's kernel's trace has one.
    if (top.has("label")) trace.label = top.text("label");
    if (top.has("source")) trace.source = top.text("source");
    trace.check_passed = top.flag("check_passed");
    trace.check_summary = top.text("check_summary");

    for (std::int64_t sm : top.integers("block_sm")) trace.block_sm.push_back(static_cast<std::uint32_t>(sm));
    const std::vector<std::int64_t> clocks = top.integers("clocks");
    if (clocks.size() % 4 != 0) throw FormatError("clocks: expected four numbers per phase clock");
    for (std::size_t i = 0; i < clocks.size(); i += 4)
        trace.clocks.push_back({static_cast<std::uint64_t>(clocks[i]), static_cast<std::uint64_t>(clocks[i + 1]),
                                static_cast<std::uint64_t>(clocks[i + 2]), static_cast<std::uint64_t>(clocks[i + 3])});
    const std::vector<std::int64_t> loads = top.integers("loads");
    if (loads.size() % 4 != 0) throw FormatError("loads: expected four numbers per load");
    for (std::size_t i = 0; i < loads.size(); i += 4)
        trace.loads.push_back({static_cast<std::int32_t>(loads[i]), static_cast<std::int32_t>(loads[i + 1]),
                               static_cast<std::int32_t>(loads[i + 2]), static_cast<std::int32_t>(loads[i + 3])});
    const auto words16 = [&](const char* key, std::vector<std::uint16_t>& into) {
        if (!top.has(key)) return;
        for (std::int64_t word : top.integers(key)) {
            if (word < 0 || word > 0xFFFF) throw FormatError(format_text("{}: {} is not a 16-bit word", key, word));
            into.push_back(static_cast<std::uint16_t>(word));
        }
    };
    words16("stage_words", trace.stage_words);
    words16("fragment_words", trace.fragment_words);
    if (top.has("role_clocks")) {
        const std::vector<std::int64_t> role = top.integers("role_clocks");
        if (role.size() % 3 != 0) throw FormatError("role_clocks: expected three numbers per role clock");
        for (std::size_t i = 0; i < role.size(); i += 3)
            trace.role_clocks.push_back({static_cast<std::uint64_t>(role[i]), static_cast<std::uint64_t>(role[i + 1]),
                                         static_cast<std::uint64_t>(role[i + 2])});
    }
    if (static_cast<std::int64_t>(trace.role_clocks.size()) != model::role_clock_records(trace.config, trace.problem))
        throw FormatError(format_text("role_clocks: {} role clocks; this trace needs {}", trace.role_clocks.size(),
                                      model::role_clock_records(trace.config, trace.problem)));
    if (mma && trace.fragment_words.size() != static_cast<std::size_t>(model::kRecordedFragmentWords))
        throw FormatError(format_text("fragment_words: {} words; 32 lanes × 16 halves are {}", trace.fragment_words.size(),
                                      model::kRecordedFragmentWords));
    if (wgmma && trace.stage_words.size() != static_cast<std::size_t>(model::kRecordedStageWords))
        throw FormatError(format_text("stage_words: {} words; the wgmma rung's stage holds {}", trace.stage_words.size(),
                                      model::kRecordedStageWords));

    const std::int64_t blocks = trace.blocks();
    if (static_cast<std::int64_t>(trace.block_sm.size()) != blocks)
        throw FormatError(format_text("block_sm: {} entries for a grid of {} blocks", trace.block_sm.size(), blocks));
    if (static_cast<std::int64_t>(trace.clocks.size()) != model::clock_records(trace.config, trace.problem))
        throw FormatError(format_text("clocks: {} phase clocks; {} blocks × {} phases need {}", trace.clocks.size(), blocks,
                                 trace.phases(), model::clock_records(trace.config, trace.problem)));
    if (trace.has_loads() &&
        static_cast<std::int64_t>(trace.loads.size()) != model::load_records(trace.config, trace.problem))
        throw FormatError(format_text("loads: {} loads; this grid needs {}", trace.loads.size(),
                                 model::load_records(trace.config, trace.problem)));
    return trace;
}

}  // namespace

std::string trace_to_json(const model::KernelTrace& trace) {
    Json root;
    root["format"] = kTraceFormat;
    root["format_version"] = kTraceFormatVersion;
    root["kernel"] = model::kernel_name(trace.config.kind);
    root["block_x"] = trace.config.block_x;
    root["block_y"] = trace.config.block_y;
    root["tile"] = trace.config.tile;
    root["m"] = trace.problem.m;
    root["n"] = trace.problem.n;
    root["k"] = trace.problem.k;
    root["device"] = trace.device;
    root["sm_count"] = trace.sm_count;
    root["recorded_at"] = trace.recorded_at;
    if (!trace.label.empty()) root["label"] = trace.label;
    if (!trace.source.empty()) root["source"] = trace.source;
    root["check_passed"] = trace.check_passed;
    root["check_summary"] = trace.check_summary;
    root["block_sm"] = trace.block_sm;
    Json clocks = Json::array();
    for (const model::PhaseClock& c : trace.clocks) {
        clocks.push_back(c.start_ns);
        clocks.push_back(c.end_ns);
        clocks.push_back(c.start_cycles);
        clocks.push_back(c.end_cycles);
    }
    root["clocks"] = std::move(clocks);
    Json loads = Json::array();
    for (const model::RecordedLoad& l : trace.loads) {
        loads.push_back(l.row);
        loads.push_back(l.col);
        loads.push_back(l.slot);
        loads.push_back(l.loaded);
    }
    root["loads"] = std::move(loads);
    if (!trace.stage_words.empty()) root["stage_words"] = trace.stage_words;
    if (!trace.fragment_words.empty()) root["fragment_words"] = trace.fragment_words;
    if (!trace.role_clocks.empty()) {
        Json role = Json::array();
        for (const model::RoleClock& c : trace.role_clocks) {
            role.push_back(c.wait_start);
            role.push_back(c.ready);
            role.push_back(c.done);
        }
        root["role_clocks"] = std::move(role);
    }
    // Compact: a trace holds tens of thousands of numbers and no one reads them by eye.
    return root.dump() + "\n";
}

std::variant<model::KernelTrace, std::string> parse_trace(std::string_view text, std::string_view source) {
    return read_document<model::KernelTrace>(text, source, read_trace);
}

std::variant<model::KernelTrace, std::string> load_trace(const std::filesystem::path& file) {
    return load_document<model::KernelTrace>(file, read_trace);
}

}  // namespace ts::record
