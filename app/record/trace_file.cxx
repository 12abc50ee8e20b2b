#include "trace_file.hpp"

#include "json_document.hpp"
#include "model/format.hpp"
#include "model/tensor_core/stage_record.hpp"

#include <tuple>

namespace ts::record {

namespace {

using model::format_text;

// A list of records travels as one flat list of their numbers, each record's in the order
// `numbers` returns them (a tuple), to keep a trace of tens of thousands of records small.
template <typename Record, typename Numbers>
Json flat_list(const std::vector<Record>& records, Numbers numbers) {
    Json flat = Json::array();
    for (const Record& record : records)
        std::apply([&](const auto&... number) { (flat.push_back(number), ...); }, numbers(record));
    return flat;
}

// The records of the flat list under `key`, `Width` numbers each, that `make` builds from a pointer
// to a record's first number; `expected` says what a record holds, for a list that does not divide.
template <typename Record, std::size_t Width, typename Make>
std::vector<Record> flat_records(const Fields& top, const char* key, const char* expected, Make make) {
    const std::vector<std::int64_t> flat = top.integers(key);
    if (flat.size() % Width != 0) throw FormatError(format_text("{}: expected {}", key, expected));
    std::vector<Record> records;
    records.reserve(flat.size() / Width);
    for (std::size_t i = 0; i < flat.size(); i += Width) records.push_back(make(flat.data() + i));
    return records;
}

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
    trace.clocks = flat_records<model::PhaseClock, 4>(top, "clocks", "four numbers per phase clock", [](const auto* n) {
        return model::PhaseClock{static_cast<std::uint64_t>(n[0]), static_cast<std::uint64_t>(n[1]),
                                 static_cast<std::uint64_t>(n[2]), static_cast<std::uint64_t>(n[3])};
    });
    trace.loads = flat_records<model::RecordedLoad, 4>(top, "loads", "four numbers per load", [](const auto* n) {
        return model::RecordedLoad{static_cast<std::int32_t>(n[0]), static_cast<std::int32_t>(n[1]),
                                   static_cast<std::int32_t>(n[2]), static_cast<std::int32_t>(n[3])};
    });
    const auto words16 = [&](const char* key, std::vector<std::uint16_t>& into) {
        if (!top.has(key)) return;
        for (std::int64_t word : top.integers(key)) {
            if (word < 0 || word > 0xFFFF) throw FormatError(format_text("{}: {} is not a 16-bit word", key, word));
            into.push_back(static_cast<std::uint16_t>(word));
        }
    };
    words16("stage_words", trace.stage_words);
    words16("fragment_words", trace.fragment_words);
    const auto role_clock = [](const auto* n) {
        return model::RoleClock{static_cast<std::uint64_t>(n[0]), static_cast<std::uint64_t>(n[1]),
                                static_cast<std::uint64_t>(n[2])};
    };
    if (top.has("role_clocks"))
        trace.role_clocks =
            flat_records<model::RoleClock, 3>(top, "role_clocks", "three numbers per role clock", role_clock);
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
    root["clocks"] = flat_list(trace.clocks, [](const model::PhaseClock& c) {
        return std::tuple(c.start_ns, c.end_ns, c.start_cycles, c.end_cycles);
    });
    root["loads"] = flat_list(trace.loads, [](const model::RecordedLoad& l) {
        return std::tuple(l.row, l.col, l.slot, l.loaded);
    });
    if (!trace.stage_words.empty()) root["stage_words"] = trace.stage_words;
    if (!trace.fragment_words.empty()) root["fragment_words"] = trace.fragment_words;
    if (!trace.role_clocks.empty())
        root["role_clocks"] = flat_list(trace.role_clocks, [](const model::RoleClock& c) {
            return std::tuple(c.wait_start, c.ready, c.done);
        });
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
