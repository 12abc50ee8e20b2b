// Kernel traces as files: written and read back unchanged, broken files refused with
// where and why, and the traces committed in assets/traces (made on an NVIDIA H200)
// still load and still match the model's schedule load for load.
#include <gtest/gtest.h>

#include <filesystem>

#include "model/kernel_trace.hpp"
#include "model/tensor_core/stage_record.hpp"
#include "record/trace_file.hpp"
#include "support/parse_result.hpp"
#include "support/problems.hpp"
#include "support/synthetic_trace.hpp"

namespace ts::record {
namespace {

using testing_support::make_problem;

model::KernelTrace parsed(const std::string& text) {
    return testing_support::value_or_failure(parse_trace(text, "t.json"));
}

std::string error_of(const std::string& text) { return testing_support::message_of(parse_trace(text, "t.json")); }

// `text` with `erase` characters cut and `insert` put in just after the first `after`.
std::string edited_after(std::string text, std::string_view after, std::size_t erase, std::string_view insert) {
    text.replace(text.find(after) + after.size(), erase, insert);
    return text;
}

// A trace of a tensor-core rung on 300×200×100 in BF16 with its blocks' SMs and clocks filled
// in; the rung's own records are the test's to add.
model::KernelTrace tensor_core_trace(model::KernelKind kind) {
    model::KernelTrace trace;
    trace.config = {kind};
    trace.problem = {300, 200, 100, 1, model::Dtype::BFloat16};
    trace.device = "Synthetic GPU";
    trace.sm_count = 4;
    trace.block_sm.assign(static_cast<std::size_t>(trace.blocks()), 1);
    trace.clocks.assign(static_cast<std::size_t>(model::clock_records(trace.config, trace.problem)), {1, 2, 3, 4});
    return trace;
}

TEST(TraceFile, RoundTripKeepsEveryRecord) {
    for (const model::KernelConfig& config :
         {model::KernelConfig{model::KernelKind::Tiled, 8, 8, 8}, model::KernelConfig{model::KernelKind::Naive, 4, 2, 8},
          model::KernelConfig{model::KernelKind::RegTile2d}, model::KernelConfig{model::KernelKind::Warptile}}) {
        const model::KernelTrace trace = testing_support::synthetic_trace(config, make_problem(40, 28, 36), 4);
        const model::KernelTrace back = parsed(trace_to_json(trace));
        EXPECT_EQ(back.config.kind, config.kind);
        EXPECT_EQ(back.config.block_x, config.block_x);
        EXPECT_EQ(back.device, "Synthetic GPU");
        EXPECT_EQ(back.sm_count, 4);
        ASSERT_EQ(back.loads.size(), trace.loads.size());
        for (std::size_t i = 0; i < trace.loads.size(); ++i) {
            ASSERT_EQ(back.loads[i].row, trace.loads[i].row);
            ASSERT_EQ(back.loads[i].loaded, trace.loads[i].loaded);
        }
        ASSERT_EQ(back.clocks.size(), trace.clocks.size());
        EXPECT_EQ(back.clocks.back().end_ns, trace.clocks.back().end_ns);
        EXPECT_EQ(back.block_sm, trace.block_sm);
        EXPECT_EQ(model::compare_with_model(back), std::nullopt);
    }
}

// A learner's kernel recorded as the tiled rung keeps whose it is and its source.
TEST(TraceFile, ALearnersTraceKeepsItsLabelAndSource) {
    model::KernelTrace trace =
        testing_support::synthetic_trace(model::KernelConfig{model::KernelKind::Tiled, 8, 8, 8}, make_problem(16, 16, 16), 4);
    EXPECT_EQ(trace_to_json(trace).find("\"label\""), std::string::npos);  // a rung's has none
    trace.label = "yours: mine.cu";
    trace.source = "// grid: 1, 1\nextern \"C\" __global__ void matmul(…) { “✓” }\n";
    const model::KernelTrace back = parsed(trace_to_json(trace));
    EXPECT_EQ(back.label, trace.label);
    EXPECT_EQ(back.source, trace.source);
}

TEST(TraceFile, BrokenFilesSayWhereAndWhy) {
    EXPECT_EQ(error_of("{\"format\": \"tilescope-trace\",\n \"format_version\": }"),
              "t.json:2:20: not valid JSON: syntax error while parsing value - unexpected '}'; expected '[', '{', or a literal");
    EXPECT_EQ(error_of("{\"format\": \"tilescope-bench\", \"format_version\": 1}"),
              "t.json: document: \"format\" is \"tilescope-bench\", not \"tilescope-trace\"");

    std::string text = trace_to_json(testing_support::synthetic_trace({model::KernelKind::Tiled, 2, 2, 2}, make_problem(4, 4, 4)));
    EXPECT_EQ(error_of(edited_after(text, "\"kernel\":", 7, "\"cublas\"")),
              "t.json: kernel: \"cublas\" has no trace; expected \"naive\", \"tiled\", \"regtile-2d\", \"warptile\", "
              "\"mma\", \"wgmma\" or \"warp-specialized\"");

    EXPECT_EQ(error_of(edited_after(text, "\"loads\":[", 0, "1,2,3,4,")),
              "t.json: loads: 65 loads; this grid needs 64");

    EXPECT_EQ(error_of(edited_after(text, "\"block_sm\":[", 0, "\"x\",")),
              "t.json: document.block_sm[0]: expected a whole number, got string");

    EXPECT_EQ(std::get<std::string>(load_trace("/nonexistent/t.json")),
              "/nonexistent/t.json: cannot open the file (missing, or no permission to read it)");
}

// The wgmma rung's trace keeps its stage word for word; a stage of the wrong size, or a word
// that is not 16 bits, is refused.
TEST(TraceFile, AWgmmaTraceKeepsItsStage) {
    model::KernelTrace trace = tensor_core_trace(model::KernelKind::Wgmma);
    trace.stage_words = model::stage_words_expected(model::kRecordedStageShape, trace.problem);
    const std::string text = trace_to_json(trace);
    const model::KernelTrace back = parsed(text);
    EXPECT_EQ(back.stage_words, trace.stage_words);
    EXPECT_EQ(back.problem.dtype, model::Dtype::BFloat16);
    EXPECT_EQ(back.phases(), 2) << "K = 100 in steps of 64";
    EXPECT_EQ(model::compare_with_model(back), std::nullopt);

    EXPECT_EQ(error_of(edited_after(text, "\"stage_words\":[", 2, "")),
              "t.json: stage_words: 16383 words; the wgmma rung's stage holds 16384");
    EXPECT_EQ(error_of(edited_after(text, "\"stage_words\":[", 0, "70000,")),
              "t.json: stage_words: 70000 is not a 16-bit word");
}

// The mma rung's trace keeps warp 0's registers; a record of the wrong size is refused.
TEST(TraceFile, AnMmaTraceKeepsItsRegisters) {
    model::KernelTrace trace = tensor_core_trace(model::KernelKind::Mma);
    trace.fragment_words = model::fragment_words_expected(trace.problem);
    const std::string text = trace_to_json(trace);
    const model::KernelTrace back = parsed(text);
    EXPECT_EQ(back.fragment_words, trace.fragment_words);
    EXPECT_EQ(back.problem.dtype, model::Dtype::BFloat16);
    EXPECT_EQ(back.phases(), 4) << "K = 100 in steps of 32";
    EXPECT_EQ(back.blocks(), 2 * 3) << "200 / 128 by 300 / 128, rounded up";
    EXPECT_EQ(model::compare_with_model(back), std::nullopt);
    EXPECT_EQ(error_of(edited_after(text, "\"fragment_words\":[", 2, "")),
              "t.json: fragment_words: 511 words; 32 lanes × 16 halves are 512");
}

// The warp-specialized rung's trace keeps its role clocks; a list of the wrong length is refused.
TEST(TraceFile, AWarpSpecializedTraceKeepsItsRoleClocks) {
    model::KernelTrace trace = tensor_core_trace(model::KernelKind::WarpSpecialized);
    for (std::int64_t i = 0; i < model::role_clock_records(trace.config, trace.problem); ++i)
        trace.role_clocks.push_back({static_cast<std::uint64_t>(10 * i + 1), static_cast<std::uint64_t>(10 * i + 2),
                                     static_cast<std::uint64_t>(10 * i + 3)});
    const std::string text = trace_to_json(trace);
    const model::KernelTrace back = parsed(text);
    ASSERT_EQ(back.role_clocks.size(), trace.role_clocks.size());
    EXPECT_EQ(back.role_clocks.back().done, trace.role_clocks.back().done);
    // Cuts "1,2,3,": one role clock.
    EXPECT_EQ(error_of(edited_after(text, "\"role_clocks\":[", 6, "")),
              "t.json: role_clocks: 17 role clocks; this trace needs 18");
}

TEST(TraceFile, CommittedTracesMatchTheModel) {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(TILESCOPE_TRACES_DIR)) {
        SCOPED_TRACE(entry.path().string());
        auto loaded = load_trace(entry.path());
        ASSERT_TRUE(std::holds_alternative<model::KernelTrace>(loaded)) << std::get<std::string>(loaded);
        const model::KernelTrace& trace = std::get<model::KernelTrace>(loaded);
        EXPECT_EQ(trace.device.rfind("NVIDIA H", 0), 0u) << trace.device;
        // The mma and wgmma traces' inputs are element numbers: their registers or stage are what
        // is compared.
        if (trace.config.kind != model::KernelKind::Wgmma && trace.config.kind != model::KernelKind::Mma) {
            EXPECT_TRUE(trace.check_passed) << trace.check_summary;
        }
        EXPECT_EQ(model::compare_with_model(trace), std::nullopt);
        const model::SmTimeline timeline = model::sm_timeline(trace);
        EXPECT_GE(timeline.waves, 1);
        ++files;
    }
    EXPECT_GE(files, 5);
}

}  // namespace
}  // namespace ts::record
