// The tensor-core rungs' Source tab: every sub-step's statement is found in the embedded kernel,
// in the order the K loop runs them, and its words carry the model's numbers for the K step.
#include <gtest/gtest.h>

#include <string>

#include "theatre_support.hpp"
#include "model/kernel_config.hpp"
#include "views/theatre/source_panel.hpp"
#include "views/theatre/tensor_core/source_tab.hpp"
#include "views/theatre/theatre_flags.hpp"
#include "views/theatre/theatre_view.hpp"
#include "views/window/app_state.hpp"

namespace {

using ts::model::KernelKind;

bool holds(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(TcSource, EveryStatementIsFoundInOrder) {
    const std::pair<KernelKind, const char*> files[] = {
        {KernelKind::Wmma, "13_wmma.cu"},         {KernelKind::Mma, "14_mma.cu"},
        {KernelKind::MmaAsync, "15_mma_async.cu"}, {KernelKind::Wgmma, "16_wgmma.cu"},
        {KernelKind::WarpSpecialized, "17_warp_specialized.cu"}, {KernelKind::Persistent, "18_persistent.cuh"},
        {KernelKind::TcTuned, "18_persistent.cuh"}};
    for (const auto& [kind, name] : files) {
        SCOPED_TRACE(std::string(ts::model::kernel_name(kind)));
        const auto file = ts::views::kernel_file(kind);
        EXPECT_EQ(file.file, name);
        const auto lines = ts::views::split_lines(file.text);
        const auto extent = ts::views::kernel_extent(kind, lines);
        ASSERT_TRUE(extent);
        const int steps = static_cast<int>(ts::views::tc_substeps(kind).size());
        EXPECT_GE(steps, 6);
        int previous = extent->first;
        for (int i = 0; i < steps; ++i) {
            const auto at = ts::views::tc_substep_lines(kind, lines, i);
            ASSERT_TRUE(at) << "sub-step " << i << " (" << ts::views::tc_substeps(kind)[i].needle << ") not found";
            EXPECT_GT(at->first, previous);
            EXPECT_LE(at->last, extent->last);
            previous = at->first;
        }
        EXPECT_FALSE(ts::views::tc_substep_lines(kind, lines, steps));
    }
    EXPECT_TRUE(ts::views::tc_substeps(KernelKind::Tiled).empty());
}

TEST(TcSource, WordsCarryTheRingsNumbers) {
    ts::views::AppState state;
    state.kernel.kind = KernelKind::Persistent;  // 3 stages of 48 KiB, clusters of 2, two consumers
    state.problem = {1024, 1024, 1024, 1, ts::model::Dtype::BFloat16};
    // K step 4: stage 1, round 1. Each consumer: two 64-column slices of C by 128 rows, 4 K slices.
    const std::string free = ts::views::tc_substep_words(state, 1, 4);
    EXPECT_TRUE(holds(free, "K step 4 refills stage 1 (round 1): mbarrier.try_wait.parity empty[1], 0 waits for the "
                          "release of K step 1, by all 4 consumer warpgroups of the cluster"))
        << free;
    EXPECT_TRUE(holds(ts::views::tc_substep_words(state, 1, 2), "K step 2 fills stage 2 for the first time (round 0)"));
    const std::string full = ts::views::tc_substep_words(state, 3, 4);
    EXPECT_TRUE(holds(full, "mbarrier.try_wait.parity full[1], 1 returns once the producer's arrival and all 49,152 bytes"))
        << full;
    const std::string wgmmas = ts::views::tc_substep_words(state, 4, 4);
    EXPECT_TRUE(holds(wgmmas, "8 wgmma.mma_async per warpgroup on stage 1 (64×128×16 each, operands swapped")) << wgmmas;
    // Past the last K step (16 of them) the slider's value is clamped.
    EXPECT_TRUE(holds(ts::views::tc_substep_words(state, 3, 99), "K step 15: stage 0, round 5"));
    state.kernel.kind = KernelKind::MmaAsync;  // 4 stages, K steps of 32
    const std::string ahead = ts::views::tc_substep_words(state, 3, 2);
    EXPECT_TRUE(holds(ahead, "columns 160–191") && holds(ahead, "into stage 1 of 4")) << ahead;
    EXPECT_TRUE(holds(ts::views::tc_substep_words(state, 1, 2), "cp.async.wait_group 2"));
    EXPECT_TRUE(holds(ts::views::tc_substep_words(state, 3, 31), "past the last (31)"));
}

// tc-tuned #4 stages C a slab at a time and keeps its last K step's stage for the last slab: the
// release and the epilogue say so, at the tile's last K step; 18's shape releases every stage.
TEST(TcSource, TheLastKStepKeepsItsStageWhereTheLastSlabGoesThere) {
    ts::views::AppState state;
    state.kernel.kind = KernelKind::TcTuned;
    state.kernel.variant = 4;  // 4 stages, clusters of 2, C a slab at a time
    state.problem = {1024, 1024, 1024, 1, ts::model::Dtype::BFloat16};  // 16 K steps
    const std::string last = ts::views::tc_substep_words(state, 6, 15);
    EXPECT_TRUE(holds(last, "K step 15 is the tile's last, and its stage 3 is kept, not released")) << last;
    EXPECT_TRUE(holds(ts::views::tc_substep_words(state, 6, 14), "thread r of the warpgroup arrives on empty[2] of CTA r"));
    EXPECT_TRUE(holds(ts::views::tc_substep_words(state, 7, 15), "the last into the consumer's part of the kept stage"));
    state.kernel.kind = KernelKind::Persistent;
    state.kernel.variant = -1;
    EXPECT_TRUE(holds(ts::views::tc_substep_words(state, 6, 15), "may refill the stage with K step 18"));
    EXPECT_FALSE(holds(ts::views::tc_substep_words(state, 7, 15), "kept stage"));
}

TEST(TcSource, PhaseAndStatementFlags) {
    const auto apply = [](KernelKind kind, std::optional<int> phase, std::optional<int> statement) {
        ts::views::TheatreFlags flags;
        flags.phase = phase;
        flags.statement = statement;
        return ts::test::applied(ts::test::tc_state(kind), flags);
    };
    const auto [ok, theatre] = apply(KernelKind::WarpSpecialized, 5, 3);
    EXPECT_EQ(ok, "");
    EXPECT_EQ(theatre.ring_step, 5);
    EXPECT_EQ(theatre.tc_substep, 2);
    EXPECT_EQ(apply(KernelKind::Wgmma, 16, std::nullopt).first, "--phase 16: this launch's K steps run from 0 to 15");
    EXPECT_EQ(apply(KernelKind::Mma, std::nullopt, 7).first, "--statement must be 1 to 6 for mma");
    EXPECT_EQ(apply(KernelKind::Tiled, std::nullopt, 1).first,
              "--statement is for the tensor-core rungs' Source tab (wmma … tc-tuned)");
}

TEST(TcSource, StepsRunOnAcrossKSteps) {
    ts::views::TheatreState theatre;
    theatre.ring_step = 0;
    theatre.tc_substep = 6;  // the last of 7
    ts::views::step_statement(theatre, 7, 16, 1);
    EXPECT_EQ(theatre.ring_step, 1);
    EXPECT_EQ(theatre.tc_substep, 0);
    ts::views::step_statement(theatre, 7, 16, -1);
    EXPECT_EQ(theatre.ring_step, 0);
    EXPECT_EQ(theatre.tc_substep, 6);
    ts::views::step_statement(theatre, 7, 16, 1000);  // End
    EXPECT_EQ(theatre.ring_step, 15);
    EXPECT_EQ(theatre.tc_substep, 6);
    ts::views::step_statement(theatre, 7, 16, -1000);  // Home
    EXPECT_EQ(theatre.ring_step, 0);
    EXPECT_EQ(theatre.tc_substep, 0);
}

TEST(TcSource, TheTabDrawsForEveryRung) {
    for (KernelKind kind : ts::model::kTensorCoreKinds) {
        if (kind == KernelKind::Cublas) continue;
        ts::views::AppState state = ts::test::tc_state(kind);
        state.theatre.tc_substep = 99;  // clamped to the last
        const std::string text = ts::test::tc_panel_text(state, ts::views::TheatrePanel::Source);
        const std::string name(ts::model::kernel_name(kind));
        EXPECT_TRUE(holds(text, "The real kernel, as compiled. Highlighted: the statement of the step on the left."))
            << name << text;
        EXPECT_EQ(state.theatre.tc_substep, static_cast<int>(ts::views::tc_substeps(kind).size()) - 1) << name;
    }
}

}  // namespace
