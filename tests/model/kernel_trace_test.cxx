// The recording model: slots, comparison with the model's schedule (which must catch a wrong
// load and name it), and the SM timeline's waves, on recordings made without a GPU.
#include <gtest/gtest.h>

#include "model/kernel_trace.hpp"
#include "model/recorded_reads.hpp"
#include "support/synthetic_trace.hpp"

namespace ts::model {
namespace {

using testing_support::synthetic_trace;

Problem problem(std::int64_t m, std::int64_t n, std::int64_t k) {
    Problem p;
    p.m = m;
    p.n = n;
    p.k = k;
    return p;
}

const KernelConfig kTiled8{KernelKind::Tiled, 8, 8, 8};
const KernelConfig kNaive8{KernelKind::Naive, 8, 8, 8};

TEST(KernelTrace, SlotsCoverEveryRecordOnce) {
    const Problem p = problem(40, 28, 36);
    EXPECT_EQ(load_records(kTiled8, p), 4 * 5 * 5 * 2 * 64);  // grid 4 × 5, 5 phases, A and B, 8×8 threads
    EXPECT_EQ(clock_records(kTiled8, p), 4 * 5 * 5);
    EXPECT_EQ(load_records(kNaive8, p), 4 * 5 * 64 * 36 * 2);
    std::vector<int> seen(static_cast<std::size_t>(load_records(kTiled8, p)), 0);
    for (int b = 0; b < 20; ++b)
        for (int phase = 0; phase < 5; ++phase)
            for (int operand = 0; operand < 2; ++operand)
                for (int ty = 0; ty < 8; ++ty)
                    for (int tx = 0; tx < 8; ++tx) ++seen[static_cast<std::size_t>(tiled_load_slot(b, 5, phase, operand, 8, tx, ty))];
    for (int count : seen) ASSERT_EQ(count, 1);
}

TEST(KernelTrace, ModelTraceMatchesTheModel) {
    for (const Problem& p : {problem(4, 4, 4), problem(40, 28, 36), problem(1, 1, 1), problem(33, 17, 65)}) {
        for (const int t : {1, 2, 8, 32}) {
            EXPECT_EQ(compare_with_model(synthetic_trace({KernelKind::Tiled, t, t, t}, p)), std::nullopt)
                << p.m << "×" << p.n << "×" << p.k << " T=" << t;
            EXPECT_EQ(compare_with_model(synthetic_trace({KernelKind::Naive, t, t, t}, p)), std::nullopt);
        }
    }
    EXPECT_EQ(compare_with_model(synthetic_trace({KernelKind::Naive, 32, 4, 8}, problem(40, 28, 36))), std::nullopt);
}

TEST(KernelTrace, AWrongLoadIsFoundAndNamed) {
    KernelTrace trace = synthetic_trace(kTiled8, problem(40, 28, 36));
    // Block (3, 2), phase 4, B, thread (5, 0): the model says B[32][29] is padding (past N = 28).
    RecordedLoad& load = trace.loads[static_cast<std::size_t>(tiled_load_slot(block_linear(3, 2, 4), 5, 4, 1, 8, 5, 0))];
    EXPECT_EQ(load.loaded, RecordedLoad::kPadding);
    load.loaded = RecordedLoad::kLoaded;
    const auto difference = compare_with_model(trace);
    ASSERT_TRUE(difference);
    EXPECT_EQ(*difference,
              "block (3, 2) phase 4, thread (x=5, y=0): recorded B[32][29] into slot 5, model: padding (0 into slot "
              "5, for B[32][29])");

    KernelTrace naive = synthetic_trace(kNaive8, problem(40, 28, 36));
    naive.loads[static_cast<std::size_t>(naive_load_slot(0, 8, 8, 1, 0, 36, 7, 0))].col = 8;
    ASSERT_TRUE(compare_with_model(naive));
    EXPECT_EQ(*compare_with_model(naive),
              "block (0, 0) thread (x=1, y=0) at k = 7: recorded A[0][8] into slot 7, model: A[0][7] into slot 7");
}

TEST(KernelTrace, ABlockOnAnSmTheGpuLacksIsReported) {
    KernelTrace trace = synthetic_trace(kTiled8, problem(40, 28, 36), 16);
    trace.block_sm[3] = 16;
    ASSERT_TRUE(compare_with_model(trace));
    EXPECT_EQ(*compare_with_model(trace), "block 3 (in launch order) names SM 16, but the GPU has 16 SMs");
    trace.block_sm[3] = kNoSm;
    EXPECT_TRUE(compare_with_model(trace));
}

TEST(KernelTrace, RecordedTileLoadsEqualTheSchedule) {
    const Problem p = problem(40, 28, 36);
    const KernelTrace trace = synthetic_trace(kTiled8, p);
    for (int phase = 0; phase < 5; ++phase)
        for (Operand operand : {Operand::A, Operand::B}) {
            const auto recorded = recorded_tile_loads(trace, {3, 2}, phase, operand);
            const auto model = tile_loads(p, 8, {3, 2}, phase, operand);
            ASSERT_EQ(recorded.size(), model.size());
            for (std::size_t i = 0; i < model.size(); ++i) {
                EXPECT_EQ(recorded[i].thread, model[i].thread);
                EXPECT_EQ(recorded[i].smem_row, model[i].smem_row);
                EXPECT_EQ(recorded[i].smem_col, model[i].smem_col);
                EXPECT_EQ(recorded[i].padding, model[i].padding);
                EXPECT_EQ(recorded[i].address, model[i].address);
                if (!model[i].padding) EXPECT_EQ(recorded[i].global_row, model[i].global_row);
            }
        }
}

TEST(KernelTrace, TimelineCountsWavesPerSm) {
    // 20 blocks on 4 SMs, one at a time: five waves of four.
    const SmTimeline four_sms = sm_timeline(synthetic_trace(kTiled8, problem(40, 28, 36), 4, 1, 1000));
    EXPECT_EQ(four_sms.waves, 5);
    EXPECT_EQ(four_sms.most_at_once, 4);
    EXPECT_EQ(four_sms.sms_used, (std::vector<std::uint32_t>{0, 1, 2, 3}));
    EXPECT_DOUBLE_EQ(four_sms.span_us, 25.0);  // 5 waves × 5 phases × 1 µs
    EXPECT_EQ(four_sms.blocks[0].wave, 1);
    EXPECT_EQ(four_sms.blocks[19].wave, 5);
    EXPECT_DOUBLE_EQ(four_sms.blocks[19].start_us, 20.0);

    // On 132 SMs all 20 blocks start together: one wave.
    const SmTimeline many = sm_timeline(synthetic_trace(kTiled8, problem(40, 28, 36)));
    EXPECT_EQ(many.waves, 1);
    EXPECT_EQ(many.most_at_once, 20);
    EXPECT_EQ(many.sms_used.size(), 20u);

    const PhaseSpan span = phase_span(synthetic_trace(kTiled8, problem(40, 28, 36), 4), {3, 2}, 4);
    // Block (3, 2) is block 11: wave 3 on SM 3, starting at 10 µs; phase 4 is its fifth µs.
    EXPECT_DOUBLE_EQ(span.start_us, 14.0);
    EXPECT_DOUBLE_EQ(span.end_us, 15.0);
    EXPECT_EQ(span.cycles, 10000u);
}

TEST(KernelTrace, WhatCannotBeRecordedSaysWhy) {
    EXPECT_EQ(check_recordable(kTiled8, problem(40, 28, 36)), std::nullopt);
    Problem batched = problem(40, 28, 36);
    batched.batch = 2;
    EXPECT_EQ(*check_recordable(kTiled8, batched), "a recording covers one matrix product: set the batch to 1 (it is 2)");
    EXPECT_EQ(*check_recordable({KernelKind::Cublas, 16, 16, 16}, problem(8, 8, 8)),
              "only the naive and tiled kernels have recording variants, not cublas");
    EXPECT_TRUE(check_recordable({KernelKind::Tiled, 1, 1, 1}, problem(4096, 4096, 4096)));  // 16.7 M blocks
    EXPECT_EQ(check_recordable({KernelKind::Tiled, 32, 32, 32}, problem(4096, 4096, 4096)), std::nullopt);
    EXPECT_GT(load_records({KernelKind::Tiled, 32, 32, 32}, problem(4096, 4096, 4096)), kMaxLoadRecords);
}

}  // namespace
}  // namespace ts::model

namespace ts::model {
namespace {

// A recording of a GPU that does what the model says counts what the model counts, at every
// step of the player, for both kernels.
TEST(RecordedReads, CountWhatTheModelCountsAtEveryStep) {
    const Problem p = problem(40, 28, 36);
    for (const KernelConfig& config : {kTiled8, kNaive8, KernelConfig{KernelKind::Naive, 32, 4, 8}}) {
        const RecordedReads reads(synthetic_trace(config, p));
        const bool naive = config.kind != KernelKind::Tiled;
        for (const bool each_k : {false, true}) {
            const Timeline timeline = make_timeline(p, 8, naive, each_k);
            for (int i = 0; i < timeline.count(); ++i) {
                const KernelStep step = step_at(timeline, i);
                ASSERT_EQ(reads.traffic(step), traffic_so_far(config.kind, p, 8, step)) << describe(config) << " step " << i;
                for (const Cell cell : {Cell{0, 0}, Cell{5, 33}, Cell{39, 35}, Cell{17, 8}})
                    ASSERT_EQ(reads.element_reads(step, Operand::A, cell.row, cell.col),
                              element_reads_so_far(config.kind, p, 8, step, Operand::A, cell.row, cell.col));
                for (const Cell cell : {Cell{0, 0}, Cell{33, 5}, Cell{35, 27}, Cell{8, 17}})
                    ASSERT_EQ(reads.element_reads(step, Operand::B, cell.row, cell.col),
                              element_reads_so_far(config.kind, p, 8, step, Operand::B, cell.row, cell.col));
            }
        }
    }
}

TEST(RecordedReads, ALoadMissingFromTheRecordingShowsInTheCounts) {
    const Problem p = problem(40, 28, 36);
    KernelTrace trace = synthetic_trace(kTiled8, p);
    // Block (0, 0), phase 0: the thread that loads A[0][0] recorded padding instead.
    trace.loads[static_cast<std::size_t>(tiled_load_slot(0, 5, 0, 0, 8, 0, 0))].loaded = RecordedLoad::kPadding;
    const RecordedReads reads(trace);
    const KernelStep store{4, SubStep::Store, -1};
    EXPECT_EQ(reads.traffic(store).global_loads_a, traffic_so_far(KernelKind::Tiled, p, 8, store).global_loads_a - 1);
    EXPECT_EQ(reads.element_reads(store, Operand::A, 0, 0), 3);  // grid.x = 4 blocks, one missing
}

}  // namespace
}  // namespace ts::model
