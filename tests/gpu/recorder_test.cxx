// gpu: the recorded kernels on a real device. Every load each thread made must be the one
// the model schedules (the same index functions run on both sides, and this proves it), C
// must be right, and the SMs and clocks must make sense. Skips without a usable GPU.
#include <gtest/gtest.h>

#include "gpu/runner.hpp"
#include "model/kernel_trace.hpp"
#include "model/tensor_core/stage_record.hpp"
#include "support/gpu_skip.hpp"

namespace ts::gpu {
namespace {

RunResult record(model::KernelConfig config, std::int64_t m, std::int64_t n, std::int64_t k) {
    RunRequest request;
    request.kind = RequestKind::Record;
    request.kernel = config;
    request.problem.m = m;
    request.problem.n = n;
    request.problem.k = k;
    return run_request(request);
}

void expect_sane_clocks(const model::KernelTrace& trace) {
    const int phases = trace.phases();
    for (int b = 0; b < trace.blocks(); ++b)
        for (int phase = 0; phase < phases; ++phase) {
            const model::PhaseClock& c = trace.clocks[model::phase_clock_slot(b, phases, phase)];
            ASSERT_GT(c.start_ns, 0u) << "block " << b << " phase " << phase << " was never stamped";
            ASSERT_GE(c.end_ns, c.start_ns);
            ASSERT_GE(c.end_cycles, c.start_cycles);
            if (phase > 0) {
                ASSERT_GE(c.start_ns, trace.clocks[model::phase_clock_slot(b, phases, phase - 1)].end_ns);
            }
        }
}

struct Case {
    model::KernelConfig config;
    std::int64_t m, n, k;
};

// Records each case and hands its result and trace to `check`, the case named in any failure.
// Every trace must be the model's schedule (compare_with_model) with sane clocks. Where the
// recorder refuses because this GPU lacks what a tensor-core kernel needs (`needs`, a part of its
// message: "sm_90a", "compute capability 8.0"), the test is skipped instead.
template <typename Cases, typename Check>
void record_each(const Cases& cases, Check check, const char* needs = nullptr) {
    for (const Case& c : cases) {
        SCOPED_TRACE(model::describe(c.config) + " on " + std::to_string(c.m) + "×" + std::to_string(c.n) + "×" +
                     std::to_string(c.k));
        const RunResult result = record(c.config, c.m, c.n, c.k);
        if (needs && !result.ok && result.error.find(needs) != std::string::npos) GTEST_SKIP() << result.error;
        ASSERT_TRUE(result.ok) << result.error;
        ASSERT_TRUE(result.trace);
        EXPECT_EQ(model::compare_with_model(*result.trace), std::nullopt);
        expect_sane_clocks(*result.trace);
        check(c, result, *result.trace);
    }
}

// A grid too large for every load to be kept: the trace holds the SMs and the clocks alone, and
// says so.
void expect_sms_and_clocks_only(const RunResult& result, const model::KernelTrace& trace) {
    EXPECT_FALSE(trace.has_loads());
    EXPECT_NE(result.timing_warning.find("only the SMs and the clocks"), std::string::npos);
    EXPECT_TRUE(result.check_passed) << result.check_summary;
}

TEST(Recorder, RecordedLoadsAreTheModelsSchedule) {
    SKIP_WITHOUT_GPU();
    using model::KernelKind;
    const Case cases[] = {
        {{KernelKind::Tiled, 2, 2, 2}, 4, 4, 4},      // the textbook's 4×4 with 2×2 blocks
        {{KernelKind::Naive, 2, 2, 2}, 4, 4, 4},
        {{KernelKind::Tiled, 8, 8, 8}, 40, 28, 36},   // tiles over the right edge and past K
        {{KernelKind::Naive, 8, 8, 8}, 40, 28, 36},   // ghost threads record nothing
        {{KernelKind::Naive, 32, 4, 8}, 40, 28, 36},
        {{KernelKind::Tiled, 1, 1, 1}, 5, 3, 7},
        {{KernelKind::Tiled, 32, 32, 32}, 70, 33, 65},
        {{KernelKind::Tiled, 5, 5, 5}, 1, 1, 1},
    };
    record_each(cases, [](const Case&, const RunResult& result, const model::KernelTrace& trace) {
        EXPECT_TRUE(result.check_passed) << result.check_summary;
        ASSERT_TRUE(trace.has_loads());
        EXPECT_EQ(trace.device, testing_support::device().limits.name);
        const model::SmTimeline timeline = model::sm_timeline(trace);
        EXPECT_GE(timeline.waves, 1);
        EXPECT_GE(timeline.most_at_once, 1);
    });
}

// The ladder rungs: one record per load instruction (a float4 is one), a phase per K step.
TEST(Recorder, LadderRungsRecordTheModelsLoads) {
    SKIP_WITHOUT_GPU();
    using model::KernelKind;
    const Case cases[] = {
        {{KernelKind::RegTile2d}, 128, 128, 16},  // one whole tile, two whole K steps
        {{KernelKind::RegTile2d}, 200, 130, 37},  // tiles over the bottom and right edges, a partial K step
        {{KernelKind::RegTile2d}, 1, 1, 1},
        {{KernelKind::Warptile}, 128, 128, 16},   // K and N multiples of 4: the aligned form, 128-bit loads
        {{KernelKind::Warptile}, 200, 132, 36},   // aligned, over the edges, a partial K step (36 = 2·16 + 4)
        {{KernelKind::Warptile}, 130, 131, 37},   // unaligned: four guarded loads, vectors half inside
        {{KernelKind::Warptile}, 3, 5, 7},
    };
    record_each(cases, [](const Case& c, const RunResult& result, const model::KernelTrace& trace) {
        EXPECT_TRUE(result.check_passed) << result.check_summary;
        EXPECT_EQ(trace.config.kind, c.config.kind);
        ASSERT_TRUE(trace.has_loads());
        EXPECT_EQ(static_cast<std::int64_t>(trace.loads.size()), model::load_records(c.config, trace.problem));
        EXPECT_EQ(trace.phases(), model::ladder_steps(model::ladder_shape(c.config), static_cast<int>(c.k)));
        // What the theatre reads: the first and the last instruction of the last thread.
        const model::Index2 last{trace.grid().x - 1, trace.grid().y - 1};
        const int threads = model::ladder_shape(c.config).threads();
        const auto first = model::recorded_ladder_load(trace, {0, 0}, 0, model::Operand::A, 0, 0);
        ASSERT_TRUE(first);
        EXPECT_EQ(first->row, 0);
        EXPECT_EQ(first->col, 0);
        EXPECT_EQ(first->loaded, model::RecordedLoad::kLoaded);
        EXPECT_TRUE(model::recorded_ladder_load(trace, last, trace.phases() - 1, model::Operand::B, 3, threads - 1));
        EXPECT_EQ(trace.device, testing_support::device().limits.name);
        const model::SmTimeline timeline = model::sm_timeline(trace);
        EXPECT_EQ(timeline.blocks.size(), static_cast<std::size_t>(trace.blocks()));
        EXPECT_GE(timeline.waves, 1);
        EXPECT_GE(timeline.most_at_once, 1);
    });
}

TEST(Recorder, LargeLadderGridsKeepSmsAndClocks) {
    SKIP_WITHOUT_GPU();
    // 8 × 8 blocks × 65 K steps × 1024 load records: past model::kMaxLoadRecords.
    const Case large[] = {{{model::KernelKind::Warptile}, 1024, 1024, 1040}};
    record_each(large, [](const Case&, const RunResult& result, const model::KernelTrace& trace) {
        expect_sms_and_clocks_only(result, trace);
        EXPECT_EQ(model::recorded_ladder_load(trace, {0, 0}, 0, model::Operand::A, 0, 0), std::nullopt);
        EXPECT_EQ(trace.phases(), 65);
    });
}

TEST(Recorder, LargeGridsKeepSmsAndClocksAndRunInWaves) {
    SKIP_WITHOUT_GPU();
    // 128 × 128 blocks of 1024 threads: far more than fit on the GPU at once.
    const Case large[] = {{{model::KernelKind::Tiled, 32, 32, 32}, 4096, 4096, 256}};
    record_each(large, [](const Case&, const RunResult& result, const model::KernelTrace& trace) {
        expect_sms_and_clocks_only(result, trace);
        const model::SmTimeline timeline = model::sm_timeline(trace);
        const int sms = testing_support::device().limits.sm_count;
        EXPECT_EQ(static_cast<int>(timeline.sms_used.size()), sms);
        EXPECT_GT(timeline.waves, 1);
        // A 1024-thread block: at most 2 per SM on an H100/H200 (2048 threads per SM).
        EXPECT_LE(timeline.most_at_once, sms * testing_support::device().limits.max_threads_per_sm / 1024);
    });
}

// The wgmma rung's recorded stage: every word where the model's 128-byte swizzle puts it, TMA's
// zeros where the tile overhangs the matrix, and a clock per block and K step. An sm_90a kernel:
// elsewhere the recorder says why not.
TEST(Recorder, TheWgmmaStageIsWhereTheModelPutsIt) {
    SKIP_WITHOUT_GPU();
    const Case cases[] = {
        {{model::KernelKind::Wgmma}, 128, 128, 64},   // one block, one K step
        {{model::KernelKind::Wgmma}, 300, 200, 100},  // B by slab (N not a multiple of 64), 2 K steps
        {{model::KernelKind::Wgmma}, 100, 72, 40},    // smaller than a tile: TMA's zero fill
        {{model::KernelKind::Wgmma}, 513, 256, 700},  // B's slabs in one copy, 11 K steps
    };
    record_each(
        cases,
        [](const Case&, const RunResult&, const model::KernelTrace& trace) {
            EXPECT_EQ(trace.stage_words.size(), static_cast<std::size_t>(model::kRecordedStageWords));
            for (std::uint32_t sm : trace.block_sm) EXPECT_LT(sm, static_cast<std::uint32_t>(trace.sm_count));
        },
        "sm_90a");
}

// The mma rung's registers after ldmatrix: every lane holds the elements the PTX ISA's mma layout
// gives it, zeros where the 16×16 squares overhang the matrix, and a clock per block and K step.
TEST(Recorder, TheMmaRegistersHoldWhatTheLayoutSays) {
    SKIP_WITHOUT_GPU();
    const Case cases[] = {
        {{model::KernelKind::Mma}, 128, 128, 32},     // one block, one K step
        {{model::KernelKind::Mma}, 1000, 1000, 100},  // edges, 4 K steps, 64 blocks
        {{model::KernelKind::Mma}, 10, 12, 9},        // smaller than one mma: the copies' zero fill
    };
    record_each(
        cases,
        [](const Case&, const RunResult&, const model::KernelTrace& trace) {
            EXPECT_EQ(trace.fragment_words.size(), static_cast<std::size_t>(model::kRecordedFragmentWords));
            for (std::uint32_t sm : trace.block_sm) EXPECT_LT(sm, static_cast<std::uint32_t>(trace.sm_count));
        },
        "compute capability 8.0");
}

// The warp-specialized rung's role clocks keep the ring's protocol at every K step of every block
// (compare_with_model), C is right, and the waits add up to something.
TEST(Recorder, TheWarpSpecializedRolesKeepTheRingsProtocol) {
    SKIP_WITHOUT_GPU();
    const Case cases[] = {
        {{model::KernelKind::WarpSpecialized}, 256, 512, 1024},  // 4 blocks, 16 K steps: the ring turns 4 times
        {{model::KernelKind::WarpSpecialized}, 300, 200, 100},   // edges, 2 K steps
        {{model::KernelKind::WarpSpecialized}, 2048, 2048, 512}, // 128 blocks at once
    };
    record_each(
        cases,
        [](const Case&, const RunResult& result, const model::KernelTrace& trace) {
            EXPECT_TRUE(result.check_passed) << result.check_summary;
            const model::RoleTimes times = model::role_times(trace);
            for (int role = 1; role < model::kRecordedRoles; ++role) EXPECT_GT(times.work_cycles[role], 0.0);
        },
        "sm_90a");
}

TEST(Recorder, RefusesWhatItCannotRecord) {
    SKIP_WITHOUT_GPU();
    RunRequest request;
    request.kind = RequestKind::Record;
    request.kernel = {model::KernelKind::Cublas, 16, 16, 16};
    request.problem.m = request.problem.n = request.problem.k = 64;
    const RunResult cublas = run_request(request);
    EXPECT_FALSE(cublas.ok);
    EXPECT_EQ(cublas.error, "only the naive, tiled, regtile-2d, warptile, mma, wgmma and warp-specialized kernels have recorded "
              "variants, "
              "not cublas");
    request.kernel = {model::KernelKind::Vectorized};
    EXPECT_EQ(run_request(request).error,
              "only the naive, tiled, regtile-2d, warptile, mma, wgmma and warp-specialized kernels have recorded "
              "variants, "
              "not vectorized");
    request.kernel = {model::KernelKind::Tiled, 8, 8, 8};
    request.problem.batch = 3;
    EXPECT_EQ(run_request(request).error, "a trace covers one matrix product: set the batch to 1 (it is 3)");
}

}  // namespace
}  // namespace ts::gpu
