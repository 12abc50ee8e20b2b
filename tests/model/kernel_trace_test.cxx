// The trace model: slots, comparison with the model's schedule (which must catch a wrong
// load and name it), and the SM timeline's waves, on traces made without a GPU.
#include <gtest/gtest.h>

#include "model/kernel_trace.hpp"
#include "model/tensor_core/pipeline.hpp"
#include "model/recorded_reads.hpp"
#include "support/problems.hpp"
#include "support/synthetic_trace.hpp"

namespace ts::model {
namespace {

using ts::testing_support::synthetic_trace;

using ts::testing_support::make_problem;

const KernelConfig kTiled8{KernelKind::Tiled, 8, 8, 8};
const KernelConfig kNaive8{KernelKind::Naive, 8, 8, 8};

TEST(KernelTrace, SlotsCoverEveryRecordOnce) {
    const Problem p = make_problem(40, 28, 36);
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
    for (const Problem& p : {make_problem(4, 4, 4), make_problem(40, 28, 36), make_problem(1, 1, 1), make_problem(33, 17, 65)}) {
        for (const int t : {1, 2, 8, 32}) {
            EXPECT_EQ(compare_with_model(synthetic_trace({KernelKind::Tiled, t, t, t}, p)), std::nullopt)
                << p.m << "×" << p.n << "×" << p.k << " T=" << t;
            EXPECT_EQ(compare_with_model(synthetic_trace({KernelKind::Naive, t, t, t}, p)), std::nullopt);
        }
    }
    EXPECT_EQ(compare_with_model(synthetic_trace({KernelKind::Naive, 32, 4, 8}, make_problem(40, 28, 36))), std::nullopt);
}

TEST(KernelTrace, AWrongLoadIsFoundAndNamed) {
    KernelTrace trace = synthetic_trace(kTiled8, make_problem(40, 28, 36));
    // Block (3, 2), phase 4, B, thread (5, 0): the model says B[32][29] is padding (past N = 28).
    RecordedLoad& load = trace.loads[static_cast<std::size_t>(tiled_load_slot(block_linear(3, 2, 4), 5, 4, 1, 8, 5, 0))];
    EXPECT_EQ(load.loaded, RecordedLoad::kPadding);
    load.loaded = RecordedLoad::kLoaded;
    const auto difference = compare_with_model(trace);
    ASSERT_TRUE(difference);
    EXPECT_EQ(*difference,
              "block (3, 2) phase 4, thread (x=5, y=0): recorded B[32][29] into slot 5, model: padding (0 into slot "
              "5, for B[32][29])");

    KernelTrace naive = synthetic_trace(kNaive8, make_problem(40, 28, 36));
    naive.loads[static_cast<std::size_t>(naive_load_slot(0, 8, 8, 1, 0, 36, 7, 0))].col = 8;
    ASSERT_TRUE(compare_with_model(naive));
    EXPECT_EQ(*compare_with_model(naive),
              "block (0, 0) thread (x=1, y=0) at k = 7: recorded A[0][8] into slot 7, model: A[0][7] into slot 7");
}

TEST(KernelTrace, ABlockOnAnSmTheGpuLacksIsReported) {
    KernelTrace trace = synthetic_trace(kTiled8, make_problem(40, 28, 36), 16);
    trace.block_sm[3] = 16;
    ASSERT_TRUE(compare_with_model(trace));
    EXPECT_EQ(*compare_with_model(trace), "block 3 (in launch order) names SM 16, but the GPU has 16 SMs");
    trace.block_sm[3] = kNoSm;
    EXPECT_TRUE(compare_with_model(trace));
}

TEST(KernelTrace, RecordedTileLoadsEqualTheSchedule) {
    const Problem p = make_problem(40, 28, 36);
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
                if (!model[i].padding) {
                    EXPECT_EQ(recorded[i].global_row, model[i].global_row);
                }
            }
        }
}

TEST(KernelTrace, TimelineCountsWavesPerSm) {
    // 20 blocks on 4 SMs, one at a time: five waves of four.
    const SmTimeline four_sms = sm_timeline(synthetic_trace(kTiled8, make_problem(40, 28, 36), 4, 1, 1000));
    EXPECT_EQ(four_sms.waves, 5);
    EXPECT_EQ(four_sms.most_at_once, 4);
    EXPECT_EQ(four_sms.sms_used, (std::vector<std::uint32_t>{0, 1, 2, 3}));
    EXPECT_DOUBLE_EQ(four_sms.span_us, 25.0);  // 5 waves × 5 phases × 1 µs
    EXPECT_EQ(four_sms.blocks[0].wave, 1);
    EXPECT_EQ(four_sms.blocks[19].wave, 5);
    EXPECT_DOUBLE_EQ(four_sms.blocks[19].start_us, 20.0);

    // On 132 SMs all 20 blocks start together: one wave.
    const SmTimeline many = sm_timeline(synthetic_trace(kTiled8, make_problem(40, 28, 36)));
    EXPECT_EQ(many.waves, 1);
    EXPECT_EQ(many.most_at_once, 20);
    EXPECT_EQ(many.sms_used.size(), 20u);

    const PhaseSpan span = phase_span(synthetic_trace(kTiled8, make_problem(40, 28, 36), 4), {3, 2}, 4);
    // Block (3, 2) is block 11: wave 3 on SM 3, starting at 10 µs; phase 4 is its fifth µs.
    EXPECT_DOUBLE_EQ(span.start_us, 14.0);
    EXPECT_DOUBLE_EQ(span.end_us, 15.0);
    EXPECT_EQ(span.cycles, 10000u);
}

TEST(KernelTrace, WhatCannotBeRecordedSaysWhy) {
    EXPECT_EQ(check_recordable(kTiled8, make_problem(40, 28, 36)), std::nullopt);
    Problem batched = make_problem(40, 28, 36);
    batched.batch = 2;
    EXPECT_EQ(*check_recordable(kTiled8, batched), "a trace covers one matrix product: set the batch to 1 (it is 2)");
    EXPECT_EQ(*check_recordable({KernelKind::Cublas, 16, 16, 16}, make_problem(8, 8, 8)),
              "only the naive, tiled, regtile-2d, warptile, mma, wgmma and warp-specialized kernels have recorded "
              "variants, "
              "not cublas");
    EXPECT_TRUE(check_recordable({KernelKind::Tiled, 1, 1, 1}, make_problem(4096, 4096, 4096)));  // 16.7 M blocks
    EXPECT_EQ(check_recordable({KernelKind::Tiled, 32, 32, 32}, make_problem(4096, 4096, 4096)), std::nullopt);
    EXPECT_GT(load_records({KernelKind::Tiled, 32, 32, 32}, make_problem(4096, 4096, 4096)), kMaxLoadRecords);
}

// ---- The ladder rungs: regtile-2d and warptile ---------------------------------------------

const KernelConfig kRegTile2d{KernelKind::RegTile2d};
const KernelConfig kWarptile{KernelKind::Warptile};

TEST(KernelTrace, LadderRecordCountsAndPhases) {
    // regtile-2d on 200×130×37: grid ceil(130/128) × ceil(200/128) = 2 × 2, ceil(37/8) = 5 K
    // steps, 4 loads of A and 4 of B per thread, 256 threads.
    const Problem p = make_problem(200, 130, 37);
    EXPECT_EQ(kRegTile2dShape.a_loads_per_thread(), 4);
    EXPECT_EQ(kRegTile2dShape.b_loads_per_thread(), 4);
    EXPECT_EQ(ladder_loads_per_operand(kRegTile2dShape), 4);
    EXPECT_EQ(load_records(kRegTile2d, p), 4 * 5 * 2 * 4 * 256);
    EXPECT_EQ(clock_records(kRegTile2d, p), 4 * 5);
    KernelTrace trace;
    trace.config = kRegTile2d;
    trace.problem = p;
    EXPECT_EQ(trace.phases(), 5);
    EXPECT_EQ(trace.grid(), (Index2{2, 2}));
    // warptile on 130×131×37: 2 × 2 blocks, ceil(37/16) = 3 K steps, 4 float4 of A and 4 of B
    // per thread, 128 threads.
    const Problem q = make_problem(130, 131, 37);
    EXPECT_EQ(kWarptileShape.a_loads_per_thread(), 4);
    EXPECT_EQ(kWarptileShape.b_loads_per_thread(), 4);
    EXPECT_EQ(load_records(kWarptile, q), 4 * 3 * 2 * 4 * 128);
    EXPECT_EQ(clock_records(kWarptile, q), 4 * 3);
    // The tile field means nothing to a rung: T = 0 or 99 changes nothing.
    EXPECT_EQ(load_records({KernelKind::Warptile, 16, 16, 99}, q), load_records(kWarptile, q));
    EXPECT_EQ(check_recordable({KernelKind::Warptile, 16, 16, 99}, q), std::nullopt);
    EXPECT_EQ(check_recordable({KernelKind::RegTile2d, 16, 16, 0}, p), std::nullopt);
}

TEST(KernelTrace, LadderSlotsCoverEveryRecordOnce) {
    for (const auto& [config, p] : {std::pair{kRegTile2d, make_problem(200, 130, 37)}, std::pair{kWarptile, make_problem(130, 131, 37)},
                                    std::pair{kRegTile2d, make_problem(128, 128, 16)}, std::pair{kWarptile, make_problem(1, 1, 1)}}) {
        const LadderShape s = ladder_shape(config);
        KernelTrace trace;
        trace.config = config;
        trace.problem = p;
        const int blocks = trace.blocks(), steps = trace.phases(), per_operand = ladder_loads_per_operand(s);
        const std::int64_t records = load_records(config, p);
        ASSERT_EQ(records, std::int64_t{blocks} * steps * 2 * per_operand * s.threads());
        std::vector<int> seen(static_cast<std::size_t>(records), 0);
        for (int b = 0; b < blocks; ++b)
            for (int step = 0; step < steps; ++step)
                for (int operand = 0; operand < 2; ++operand)
                    for (int i = 0; i < per_operand; ++i)
                        for (int t = 0; t < s.threads(); ++t) {
                            const std::int64_t slot =
                                ladder_load_record_slot(b, steps, step, operand, per_operand, i, s.threads(), t);
                            ASSERT_GE(slot, 0);
                            ASSERT_LT(slot, records);
                            ++seen[static_cast<std::size_t>(slot)];
                        }
        for (int count : seen) ASSERT_EQ(count, 1);
    }
    // The layout [block][step][operand][instruction][thread], worked by hand for 3 loads per
    // operand and 8 threads.
    EXPECT_EQ(ladder_load_record_slot(0, 1, 0, 1, 3, 0, 8, 0), 3 * 8);
    EXPECT_EQ(ladder_load_record_slot(1, 2, 1, 1, 3, 2, 8, 7), ((1 * 2 + 1) * 2 + 1) * 3 * 8 + 2 * 8 + 7);
}

// The model's loads, walked independently of ladder_load_record_slot: in every block and K
// step the instructions of all threads read every element of the BM×BK tile of A and of the
// BK×BN tile of B exactly once (a float4: four neighbours in one row), write every slot of As
// (padding columns aside) and Bs exactly once, at the slot the layout gives, and are padding
// exactly where the element lies outside the matrix.
TEST(KernelTrace, LadderModelLoadsCoverTheTilesOnce) {
    for (const auto& [config, p] : {std::pair{kRegTile2d, make_problem(200, 130, 37)}, std::pair{kWarptile, make_problem(130, 131, 37)},
                                    std::pair{kWarptile, make_problem(128, 128, 16)}}) {
        const LadderShape s = ladder_shape(config);
        KernelTrace trace;
        trace.config = config;
        trace.problem = p;
        const Index2 grid = trace.grid();
        const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.k);
        for (int by = 0; by < grid.y; ++by)
            for (int bx = 0; bx < grid.x; ++bx)
                for (int step = 0; step < trace.phases(); ++step) {
                    std::vector<int> a_elements(static_cast<std::size_t>(s.bm * s.bk), 0);
                    std::vector<int> as_slots(static_cast<std::size_t>(s.as_slots()), 0);
                    std::vector<int> b_elements(static_cast<std::size_t>(s.bk * s.bn), 0);
                    for (int t = 0; t < s.threads(); ++t) {
                        for (int i = 0; i < s.a_loads_per_thread(); ++i) {
                            const RecordedLoad l = ladder_model_load(config, p, {bx, by}, step, Operand::A, i, t);
                            const int r = l.row - by * s.bm, c = l.col - step * s.bk;
                            ASSERT_TRUE(r >= 0 && r < s.bm && c >= 0 && c + s.a_vec() <= s.bk);
                            ASSERT_EQ(l.slot, s.as_transposed ? c * (s.bm + s.as_pad) + r : r * s.bk + c);
                            ASSERT_EQ(l.loaded, l.row < m && l.col < k ? RecordedLoad::kLoaded : RecordedLoad::kPadding);
                            for (int j = 0; j < s.a_vec(); ++j) {
                                ++a_elements[static_cast<std::size_t>(r * s.bk + c + j)];
                                ++as_slots[static_cast<std::size_t>(ladder_as_slot(s, r, c + j))];
                            }
                        }
                        for (int i = 0; i < s.b_loads_per_thread(); ++i) {
                            const RecordedLoad l = ladder_model_load(config, p, {bx, by}, step, Operand::B, i, t);
                            const int r = l.row - step * s.bk, c = l.col - bx * s.bn;
                            ASSERT_TRUE(r >= 0 && r < s.bk && c >= 0 && c + s.vec <= s.bn);
                            ASSERT_EQ(l.slot, r * s.bn + c);
                            ASSERT_EQ(l.loaded, l.row < k && l.col < n ? RecordedLoad::kLoaded : RecordedLoad::kPadding);
                            for (int j = 0; j < s.vec; ++j) ++b_elements[static_cast<std::size_t>(r * s.bn + c + j)];
                        }
                        // Past the operand's loads: nothing.
                        EXPECT_EQ(ladder_model_load(config, p, {bx, by}, step, Operand::A, s.a_loads_per_thread(), t).loaded,
                                  RecordedLoad::kNotRecorded);
                    }
                    for (int count : a_elements) ASSERT_EQ(count, 1);
                    for (int count : b_elements) ASSERT_EQ(count, 1);
                    for (int slot = 0; slot < s.as_slots(); ++slot)
                        ASSERT_EQ(as_slots[static_cast<std::size_t>(slot)],
                                  slot % s.as_row() < (s.as_transposed ? s.bm : s.bk) ? 1 : 0)
                            << "As slot " << slot;
                }
    }
}

TEST(KernelTrace, LadderModelLoadsWorkedByHand) {
    // warptile, thread 7, A instruction 2: vector (7 + 2·128) = 263 of the 128×16 tile, its
    // elements 1052..1055: row 65, columns 12..15; As is transposed with rows of 128 + 4,
    // so the first slot is 12·132 + 65 = 1649.
    const Problem q = make_problem(130, 131, 37);
    EXPECT_EQ(ladder_model_load(kWarptile, q, {1, 0}, 1, Operand::A, 2, 7).row, 65);
    EXPECT_EQ(ladder_model_load(kWarptile, q, {1, 0}, 1, Operand::A, 2, 7).col, 16 + 12);
    EXPECT_EQ(ladder_model_load(kWarptile, q, {1, 0}, 1, Operand::A, 2, 7).slot, 1649);
    EXPECT_EQ(ladder_model_load(kWarptile, q, {1, 0}, 1, Operand::A, 2, 7).loaded, RecordedLoad::kLoaded);
    // K step 2: column 32 + 12 = 44, past K = 37; block row 1: row 128 + 65, past M = 130.
    EXPECT_EQ(ladder_model_load(kWarptile, q, {1, 0}, 2, Operand::A, 2, 7).loaded, RecordedLoad::kPadding);
    EXPECT_EQ(ladder_model_load(kWarptile, q, {0, 1}, 1, Operand::A, 2, 7).loaded, RecordedLoad::kPadding);
    // warptile, thread 3, B instruction 1: vector 131 of the 16×128 tile, elements 524..527:
    // row 4, columns 12..15; block (1, ·) adds 128 columns: B[4][140], past N = 131.
    const RecordedLoad b = ladder_model_load(kWarptile, q, {0, 0}, 0, Operand::B, 1, 3);
    EXPECT_EQ(b.row, 4);
    EXPECT_EQ(b.col, 12);
    EXPECT_EQ(b.slot, 524);
    EXPECT_EQ(b.loaded, RecordedLoad::kLoaded);
    EXPECT_EQ(ladder_model_load(kWarptile, q, {1, 0}, 0, Operand::B, 1, 3).col, 140);
    EXPECT_EQ(ladder_model_load(kWarptile, q, {1, 0}, 0, Operand::B, 1, 3).loaded, RecordedLoad::kPadding);
    // B's first vector in block column 1 is B[·][128..131]: 128 is inside N = 131 (the
    // unaligned form reads 128..130 and zeros 131): loaded.
    EXPECT_EQ(ladder_model_load(kWarptile, q, {1, 0}, 0, Operand::B, 0, 0).col, 128);
    EXPECT_EQ(ladder_model_load(kWarptile, q, {1, 0}, 0, Operand::B, 0, 0).loaded, RecordedLoad::kLoaded);
    // regtile-2d, thread 200, B instruction 3: element 200 + 3·256 = 968 of the 8×128 tile:
    // row 7, column 72; K step 1, block column 1: B[15][200], past N = 130; slot 968.
    const RecordedLoad r = ladder_model_load(kRegTile2d, make_problem(200, 130, 37), {1, 0}, 1, Operand::B, 3, 200);
    EXPECT_EQ(r.row, 15);
    EXPECT_EQ(r.col, 200);
    EXPECT_EQ(r.slot, 968);
    EXPECT_EQ(r.loaded, RecordedLoad::kPadding);
    // regtile-2d, thread 5, A instruction 0: element 5 of the 128×8 tile: row 0, column 5;
    // block row 1, K step 4: A[128][37], past K = 37; As is row-major, 8 to a row: slot 5.
    const RecordedLoad a = ladder_model_load(kRegTile2d, make_problem(200, 130, 37), {1, 1}, 4, Operand::A, 0, 5);
    EXPECT_EQ(a.row, 128);
    EXPECT_EQ(a.col, 37);
    EXPECT_EQ(a.slot, 5);
    EXPECT_EQ(a.loaded, RecordedLoad::kPadding);
}

TEST(KernelTrace, LadderModelTraceMatchesTheModel) {
    for (const Problem& p : {make_problem(128, 128, 16), make_problem(200, 130, 37), make_problem(130, 131, 37), make_problem(1, 1, 1),
                             make_problem(257, 3, 64)}) {
        EXPECT_EQ(compare_with_model(synthetic_trace(kRegTile2d, p)), std::nullopt) << p.m << "×" << p.n << "×" << p.k;
        EXPECT_EQ(compare_with_model(synthetic_trace(kWarptile, p)), std::nullopt) << p.m << "×" << p.n << "×" << p.k;
    }
}

TEST(KernelTrace, AWrongLadderLoadIsFoundAndNamed) {
    const Problem p = make_problem(200, 130, 37);
    KernelTrace trace = synthetic_trace(kRegTile2d, p);
    const int per_operand = ladder_loads_per_operand(kRegTile2dShape);
    // Block (1, 1), K step 4, A, instruction 0 of thread 5: A[128][37] is past K = 37.
    RecordedLoad& a = trace.loads[static_cast<std::size_t>(
        ladder_load_record_slot(block_linear(1, 1, 2), 5, 4, 0, per_operand, 0, 256, 5))];
    EXPECT_EQ(a.loaded, RecordedLoad::kPadding);
    a.loaded = RecordedLoad::kLoaded;
    ASSERT_TRUE(compare_with_model(trace));
    EXPECT_EQ(*compare_with_model(trace),
              "block (1, 1) K step 4, A load 0 of thread 5: recorded A[128][37] into slot 5, model: padding (0 into "
              "slot 5, for A[128][37])");

    KernelTrace warptile = synthetic_trace(kWarptile, make_problem(130, 131, 37));
    RecordedLoad& b = warptile.loads[static_cast<std::size_t>(
        ladder_load_record_slot(0, 3, 0, 1, ladder_loads_per_operand(kWarptileShape), 1, 128, 3))];
    EXPECT_EQ(b.col, 12);
    b.col = 13;
    ASSERT_TRUE(compare_with_model(warptile));
    EXPECT_EQ(*compare_with_model(warptile),
              "block (0, 0) K step 0, B load 1 of thread 3: recorded B[4][13] into slot 524, model: B[4][12] into slot 524");
    b.col = 12;
    EXPECT_EQ(compare_with_model(warptile), std::nullopt);
    // A thread that never wrote its last load of the last block is missed too.
    warptile.loads.back().loaded = RecordedLoad::kNotRecorded;
    ASSERT_TRUE(compare_with_model(warptile));
    EXPECT_NE(compare_with_model(warptile)->find("block (1, 1) K step 2, B load 3 of thread 127: recorded nothing"),
              std::string::npos)
        << *compare_with_model(warptile);
}

TEST(KernelTrace, RecordedLadderLoadReadsTheTraceWithinBounds) {
    const Problem q = make_problem(130, 131, 37);
    const KernelTrace trace = synthetic_trace(kWarptile, q);
    for (int by = 0; by < 2; ++by)
        for (int bx = 0; bx < 2; ++bx)
            for (int step = 0; step < 3; ++step)
                for (const Operand operand : {Operand::A, Operand::B})
                    for (int i = 0; i < 4; ++i)
                        for (int t = 0; t < 128; ++t) {
                            const auto got = recorded_ladder_load(trace, {bx, by}, step, operand, i, t);
                            ASSERT_TRUE(got);
                            const RecordedLoad want = ladder_model_load(kWarptile, q, {bx, by}, step, operand, i, t);
                            ASSERT_EQ(got->row, want.row);
                            ASSERT_EQ(got->col, want.col);
                            ASSERT_EQ(got->slot, want.slot);
                            ASSERT_EQ(got->loaded, want.loaded);
                        }
    EXPECT_EQ(recorded_ladder_load(trace, {2, 0}, 0, Operand::A, 0, 0), std::nullopt);   // grid is 2 × 2
    EXPECT_EQ(recorded_ladder_load(trace, {0, 2}, 0, Operand::A, 0, 0), std::nullopt);
    EXPECT_EQ(recorded_ladder_load(trace, {-1, 0}, 0, Operand::A, 0, 0), std::nullopt);
    EXPECT_EQ(recorded_ladder_load(trace, {0, 0}, 3, Operand::A, 0, 0), std::nullopt);   // 3 K steps
    EXPECT_EQ(recorded_ladder_load(trace, {0, 0}, -1, Operand::A, 0, 0), std::nullopt);
    EXPECT_EQ(recorded_ladder_load(trace, {0, 0}, 0, Operand::B, 4, 0), std::nullopt);   // 4 loads of B
    EXPECT_EQ(recorded_ladder_load(trace, {0, 0}, 0, Operand::A, -1, 0), std::nullopt);
    EXPECT_EQ(recorded_ladder_load(trace, {0, 0}, 0, Operand::A, 0, 128), std::nullopt); // 128 threads
    EXPECT_EQ(recorded_ladder_load(trace, {0, 0}, 0, Operand::A, 0, -1), std::nullopt);
    EXPECT_TRUE(recorded_ladder_load(trace, {1, 1}, 2, Operand::B, 3, 127));
    KernelTrace without_loads = trace;
    without_loads.loads.clear();
    EXPECT_EQ(recorded_ladder_load(without_loads, {0, 0}, 0, Operand::A, 0, 0), std::nullopt);
    KernelTrace cut_short = trace;
    cut_short.loads.pop_back();
    EXPECT_EQ(recorded_ladder_load(cut_short, {0, 0}, 0, Operand::A, 0, 0), std::nullopt);
    EXPECT_EQ(recorded_ladder_load(synthetic_trace(kTiled8, make_problem(40, 28, 36)), {0, 0}, 0, Operand::A, 0, 0),
              std::nullopt);
}

TEST(KernelTrace, LadderTracesAreRefusedOrCutLikeTheOthers) {
    EXPECT_EQ(*check_recordable({KernelKind::RegTile1d}, make_problem(64, 64, 64)),
              "only the naive, tiled, regtile-2d, warptile, mma, wgmma and warp-specialized kernels have recorded "
              "variants, "
              "not regtile-1d");
    Problem batched = make_problem(128, 128, 16);
    batched.batch = 2;
    EXPECT_EQ(*check_recordable(kWarptile, batched), "a trace covers one matrix product: set the batch to 1 (it is 2)");
    // 4096³: 32 × 32 blocks × 256 K steps of clocks are kept, the loads are not.
    EXPECT_EQ(check_recordable(kWarptile, make_problem(4096, 4096, 4096)), std::nullopt);
    EXPECT_GT(load_records(kWarptile, make_problem(4096, 4096, 4096)), kMaxLoadRecords);
    // The SM timeline walks K steps as phases.
    const SmTimeline timeline = sm_timeline(synthetic_trace(kWarptile, make_problem(130, 131, 37), 2, 1, 1000));
    EXPECT_EQ(timeline.blocks.size(), 4u);
    EXPECT_EQ(timeline.waves, 2);
    EXPECT_DOUBLE_EQ(timeline.span_us, 6.0);  // 2 waves × 3 K steps × 1 µs
}

}  // namespace
}  // namespace ts::model

namespace ts::model {
namespace {

// A trace of a GPU that does what the model says counts what the model counts, at every
// step of the player, for both kernels.
TEST(RecordedReads, CountWhatTheModelCountsAtEveryStep) {
    const Problem p = make_problem(40, 28, 36);
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

TEST(RecordedReads, ALoadMissingFromTheTraceShowsInTheCounts) {
    const Problem p = make_problem(40, 28, 36);
    KernelTrace trace = synthetic_trace(kTiled8, p);
    // Block (0, 0), phase 0: the thread that loads A[0][0] recorded padding instead.
    trace.loads[static_cast<std::size_t>(tiled_load_slot(0, 5, 0, 0, 8, 0, 0))].loaded = RecordedLoad::kPadding;
    const RecordedReads reads(trace);
    const KernelStep store{4, SubStep::Store, -1};
    EXPECT_EQ(reads.traffic(store).global_loads_a, traffic_so_far(KernelKind::Tiled, p, 8, store).global_loads_a - 1);
    EXPECT_EQ(reads.element_reads(store, Operand::A, 0, 0), 3);  // grid.x = 4 blocks, one missing
}

// A warp-specialized trace against the ring's protocol: clocks made to obey it pass, and each
// way of breaking it is named (a consumer seeing a stage before it was armed, a stage refilled
// before a consumer was done, clocks out of order).
TEST(KernelTrace, WarpSpecializedRoleClocksFollowTheRing) {
    KernelTrace trace;
    trace.config = {KernelKind::WarpSpecialized};
    trace.problem = {256, 512, 512, 1, Dtype::BFloat16};  // 2 × 2 blocks, 8 K steps of 64
    trace.sm_count = 4;
    const int steps = trace.phases(), stages = kWarpSpecializedShape.stages;
    ASSERT_EQ(steps, 8);
    trace.block_sm.assign(static_cast<std::size_t>(trace.blocks()), 0);
    trace.clocks.resize(static_cast<std::size_t>(clock_records(trace.config, trace.problem)));
    trace.role_clocks.resize(static_cast<std::size_t>(role_clock_records(trace.config, trace.problem)));
    ASSERT_EQ(trace.role_clocks.size(), 4u * 3 * 8);
    // The model's order in whole cycles: the producer arms step j at 10·j (after the consumers were
    // done with j − stages), the consumers wait from 10·j, see it full at 10·j + 5, are done at +8.
    for (int b = 0; b < trace.blocks(); ++b)
        for (int j = 0; j < steps; ++j) {
            const std::uint64_t base = 100 + 10 * static_cast<std::uint64_t>(j) + (j >= stages ? 40 : 0);
            trace.role_clocks[static_cast<std::size_t>(role_clock_slot(b, steps, 0, j))] = {base - 1, base, base + 1};
            for (int role = 1; role < kRecordedRoles; ++role)
                trace.role_clocks[static_cast<std::size_t>(role_clock_slot(b, steps, role, j))] = {base, base + 5, base + 8};
        }
    EXPECT_EQ(compare_with_model(trace), std::nullopt);
    const RoleTimes times = role_times(trace);
    EXPECT_DOUBLE_EQ(times.wait_cycles[1], 5.0);
    EXPECT_DOUBLE_EQ(times.work_cycles[2], 3.0);

    KernelTrace early = trace;
    early.role_clocks[static_cast<std::size_t>(role_clock_slot(1, steps, 2, 3))].ready = 1;
    EXPECT_NE(compare_with_model(early)->find("block 1, K step 3: consumer 1's clocks are out of order"), std::string::npos);
    KernelTrace unarmed = trace;
    auto& producer = unarmed.role_clocks[static_cast<std::size_t>(role_clock_slot(0, steps, 0, 2))];
    producer.ready = producer.done = 10000;
    EXPECT_NE(compare_with_model(unarmed)->find("block 0, K step 2: consumer 0 saw the stage full before the producer armed it"),
              std::string::npos);
    KernelTrace refilled = trace;
    refilled.role_clocks[static_cast<std::size_t>(role_clock_slot(0, steps, 1, 1))].done = 5000;
    EXPECT_NE(compare_with_model(refilled)->find("the producer refilled stage 1 before consumer 0 was done with K step 1"),
              std::string::npos)
        << *compare_with_model(refilled);
    KernelTrace cut = trace;
    cut.role_clocks.pop_back();
    EXPECT_NE(compare_with_model(cut)->find("role clocks"), std::string::npos);
}

}  // namespace
}  // namespace ts::model
