// Issue #25 on a real GPU, through the supervised worker as the window and `tilescope-cli kernel`
// use it: the learner's kernel compiled with NVRTC in the worker, checked between guard zones and
// measured; and the kernels that go wrong: a missing barrier, an endless loop, stores past C and
// far away, launches the GPU refuses. Skips without a usable device.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <string>

#include "gpu/runner.hpp"
#include "gpu/supervisor.hpp"
#include "model/user_kernel/source.hpp"
#include "model/user_kernel/launch.hpp"
#include "model/user_kernel/shared_memory.hpp"
#include "support/gpu_skip.hpp"

namespace {

using namespace ts::gpu;
using ts::model::Problem;

const std::string kSignature(ts::model::kUserKernelSignature);

UserKernelSource user_kernel(const std::string& name, const std::string& source) {
    UserKernelSource user;
    user.name = name;
    user.source = source;
    user.launch = ts::model::launch_from_source(source);
    return user;
}

RunRequest user_request(RequestKind kind, const UserKernelSource& user, Problem problem, int runs = 5) {
    RunRequest request;
    request.kind = kind;
    request.user = user;
    request.problem = problem;
    request.runs = runs;
    request.timed_launches = 5;
    return request;
}

Problem cube(std::int64_t size) { return {.m = size, .n = size, .k = size}; }

// The tiled starter with one line removed (a barrier, say), or replaced.
std::string tiled_with(const std::string& line, const std::string& instead) {
    std::string source = ts::model::starter_kernel(ts::model::Starter::Tiled);
    const std::size_t at = source.find(line);
    EXPECT_NE(at, std::string::npos) << line;
    if (at != std::string::npos) source.replace(at, line.size(), instead);
    return source;
}

class UserKernelOnGpu : public ::testing::Test {
protected:
    void SetUp() override {
        SKIP_WITHOUT_GPU();
        stats = std::make_shared<SupervisorStats>();
        runner = std::make_unique<Runner>(
            supervised_backend({.worker_command = {WORKER_PATH, "worker"}, .min_deadline_s = 8.0}, stats));
        ASSERT_TRUE(runner->wait_for_device().usable) << runner->wait_for_device().why_not;
    }
    RunResult run(const RunRequest& request) { return runner->wait(runner->submit(request)); }

    std::shared_ptr<SupervisorStats> stats;
    std::unique_ptr<Runner> runner;
};

TEST_F(UserKernelOnGpu, TheTiledStarterCompilesChecksAndMeasuresBesideTheRung) {
    const UserKernelSource tiled = user_kernel("tiled.cu", ts::model::starter_kernel(ts::model::Starter::Tiled));
    const RunResult compiled = run(user_request(RequestKind::UserCompile, tiled, cube(512)));
    ASSERT_TRUE(compiled.ok) << compiled.error;
    ASSERT_TRUE(compiled.compile);
    EXPECT_TRUE(compiled.compile->ok);
    EXPECT_FALSE(compiled.compile->reused);
    EXPECT_GT(compiled.compile->cubin_bytes, 0);
    ASSERT_TRUE(compiled.occupancy);
    EXPECT_EQ(compiled.occupancy->static_shared_bytes, 2 * 16 * 16 * 4);
    EXPECT_GT(compiled.occupancy->blocks_per_sm, 0);

    for (const Problem& p : ts::model::user_check_problems()) {
        const RunResult checked = run(user_request(RequestKind::UserCheck, tiled, p));
        SCOPED_TRACE(describe_point(checked.request));
        ASSERT_TRUE(checked.ok) << checked.error;
        EXPECT_TRUE(checked.compile->reused);  // compiled once, above
        ASSERT_TRUE(checked.experiment);
        const ts::model::ExperimentRun& r = *checked.experiment;
        EXPECT_EQ(r.runs, 5);
        EXPECT_EQ(r.wrong_runs, 0);
        EXPECT_EQ(r.cells_ever_wrong, 0);
        EXPECT_EQ(r.stray_writes, 0);
        ASSERT_TRUE(checked.user_launch);
        EXPECT_EQ(checked.user_launch->grid_x, (p.n + 15) / 16);
        EXPECT_EQ(checked.user_launch->grid_y, (p.m + 15) / 16);
        EXPECT_EQ(r.blocks, checked.user_launch->grid_x * checked.user_launch->grid_y);
    }

    const RunResult mine = run(user_request(RequestKind::Measure, tiled, cube(1024)));
    ASSERT_TRUE(mine.ok) << mine.error;
    EXPECT_TRUE(mine.check_passed) << mine.check_summary;
    EXPECT_EQ(mine.samples_ms.size(), 5u);
    EXPECT_EQ(mine.model_traffic_bytes, 0);  // the model knows nothing of a learner's kernel
    RunRequest rung;
    rung.kernel = {ts::model::KernelKind::Tiled, 16, 16, 16};
    rung.problem = cube(1024);
    rung.timed_launches = 5;
    const RunResult theirs = run(rung);
    ASSERT_TRUE(theirs.ok) << theirs.error;
    std::cout << "yours: tiled.cu " << mine.median_ms << " ms, tiled T=16 " << theirs.median_ms << " ms at 1024³\n";
    // The same loop as the rung's: the same time within a wide margin (clocks, the L2 flush).
    EXPECT_LT(mine.median_ms, 2.0 * theirs.median_ms);
    EXPECT_GT(mine.median_ms, 0.5 * theirs.median_ms);
    EXPECT_EQ(stats->restarts, 0);
}

TEST_F(UserKernelOnGpu, AMissingBarrierShowsAsWrongRuns) {
    const std::string barrier = "        __syncthreads();\n        for (int i = 0; i < TILE; ++i)";
    const UserKernelSource broken = user_kernel(
        "no_first_sync.cu", tiled_with(barrier, "        for (int i = 0; i < TILE; ++i)"));
    const RunResult checked = run(user_request(RequestKind::UserCheck, broken, cube(512), 20));
    ASSERT_TRUE(checked.ok) << checked.error;
    const ts::model::ExperimentRun& r = *checked.experiment;
    std::cout << "without the first barrier at 512³: " << r.wrong_runs << " of 20 runs wrong, up to "
              << r.wrong_cells_worst << " cells\n";
    EXPECT_GT(r.wrong_runs, 0);
    EXPECT_EQ(r.stray_writes, 0);
}

// A loop on clock64() is not endless: a kernel preempted while other processes share the GPU may
// come back on another SM, whose counter is behind, and leave it (seen under ctest -j4). This one is.
TEST_F(UserKernelOnGpu, AnEndlessLoopCostsARestartAndASentence) {
    const UserKernelSource endless = user_kernel(
        "endless.cu", kSignature + " {\n    for (int i = 0; i < K; i += 0) __nanosleep(1000);  // a typo: i never grows\n}\n");
    const RunResult compiled = run(user_request(RequestKind::UserCompile, endless, cube(64)));
    ASSERT_TRUE(compiled.ok) << compiled.error;
    const auto started = std::chrono::steady_clock::now();
    const RunResult stuck = run(user_request(RequestKind::UserCheck, endless, cube(64), 1));
    const double waited_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    EXPECT_FALSE(stuck.ok);
    std::cout << stuck.error << " (after " << waited_s << " s)\n";
    EXPECT_NE(stuck.error.find("yours: endless.cu"), std::string::npos) << stuck.error;
    EXPECT_NE(stuck.error.find("restarted"), std::string::npos) << stuck.error;
    EXPECT_LT(waited_s, 30.0);
    EXPECT_EQ(stats->restarts, 1);
    // The new worker compiles the next kernel afresh and runs it.
    const UserKernelSource naive = user_kernel("naive.cu", ts::model::starter_kernel(ts::model::Starter::Naive));
    const RunResult after = run(user_request(RequestKind::UserCheck, naive, cube(64)));
    ASSERT_TRUE(after.ok) << after.error;
    EXPECT_EQ(after.experiment->wrong_runs, 0);
}

TEST_F(UserKernelOnGpu, StoresPastCAreCountedAndFarOnesCostARestart) {
    // Every thread also stores one cell further on: the last threads land in C's guard zone.
    const UserKernelSource past = user_kernel(
        "past.cu", tiled_with("    if (row < M && col < N) C[row * N + col] = sum;",
                              "    if (row < M && col < N) C[row * N + col] = sum;\n"
                              "    if (row == M - 1 && col < N) C[M * N + col] = 1.0f;  // one row past C"));
    const RunResult guarded = run(user_request(RequestKind::UserCheck, past, {.m = 127, .n = 129, .k = 65}, 3));
    ASSERT_TRUE(guarded.ok) << guarded.error;
    EXPECT_EQ(guarded.experiment->stray_writes, 3 * 129);
    EXPECT_EQ(guarded.experiment->wrong_runs, 0);

    const UserKernelSource far = user_kernel(
        "far.cu", kSignature + " {\n    C[(long long)1 << 40] = 1.0f;  // a terabyte past C\n}\n");
    const RunResult faulted = run(user_request(RequestKind::UserCheck, far, cube(64), 1));
    EXPECT_FALSE(faulted.ok);
    std::cout << faulted.error << "\n";
    EXPECT_NE(faulted.error.find("restarted"), std::string::npos) << faulted.error;
    EXPECT_EQ(stats->restarts, 1);
}

TEST_F(UserKernelOnGpu, LaunchesTheGpuRefusesGetASentenceAndNoRestart) {
    std::string wide = ts::model::starter_kernel(ts::model::Starter::Naive);
    wide = ts::model::with_launch(wide, {.grid_x = "1", .grid_y = "1", .block_x = "64", .block_y = "32"});
    const RunResult too_many = run(user_request(RequestKind::UserCheck, user_kernel("wide.cu", wide), cube(64)));
    EXPECT_FALSE(too_many.ok);
    EXPECT_NE(too_many.error.find("2048 threads"), std::string::npos) << too_many.error;

    std::string greedy = ts::model::starter_kernel(ts::model::Starter::Naive);
    greedy = ts::model::with_launch(greedy, {.shared = "1 << 20"});
    const RunResult shared = run(user_request(RequestKind::UserCheck, user_kernel("greedy.cu", greedy), cube(64)));
    EXPECT_FALSE(shared.ok);
    EXPECT_NE(shared.error.find("the launch shape has no value"), std::string::npos) << shared.error;  // no <<

    greedy = ts::model::with_launch(greedy, {.shared = "1024 * 1024"});
    const RunResult megabyte = run(user_request(RequestKind::UserCheck, user_kernel("greedy.cu", greedy), cube(64)));
    EXPECT_FALSE(megabyte.ok);
    EXPECT_NE(megabyte.error.find("1048576 bytes of dynamic shared memory"), std::string::npos) << megabyte.error;

    EXPECT_EQ(stats->restarts, 0);
    const RunResult still = run(user_request(RequestKind::UserCheck,
                                             user_kernel("naive.cu", ts::model::starter_kernel(ts::model::Starter::Naive)),
                                             cube(64)));
    EXPECT_TRUE(still.ok) << still.error;
}

// The tracing build: the tiled starter's trace is the tiled rung's, as the model has it (issue
// 25: record == model for a kernel equal to 05_tiled); the naive starter's is counted but not drawn.
TEST_F(UserKernelOnGpu, TheTiledStartersTraceIsTheModels) {
    const UserKernelSource tiled = user_kernel("tiled.cu", ts::model::starter_kernel(ts::model::Starter::Tiled));
    for (const Problem& p : {cube(64), Problem{.m = 127, .n = 129, .k = 65}}) {
        const RunResult recorded = run(user_request(RequestKind::Record, tiled, p));
        SCOPED_TRACE(describe_point(recorded.request));
        ASSERT_TRUE(recorded.ok) << recorded.error;
        ASSERT_TRUE(recorded.user_trace);
        const UserTraceReport& report = *recorded.user_trace;
        std::cout << report.counts_text << "\n";
        EXPECT_TRUE(report.c_right) << report.c_summary;
        EXPECT_EQ(report.counts.loads_a + report.counts.loads_b, report.counts.tiled_loads);
        EXPECT_EQ(report.counts.stores_c, p.m * p.n);
        ASSERT_TRUE(recorded.trace) << report.theatre_note;
        EXPECT_EQ(recorded.trace->config.tile, 16);
        EXPECT_EQ(recorded.trace->label, "yours: tiled.cu");
        EXPECT_EQ(ts::model::compare_with_model(*recorded.trace), std::nullopt);
    }
    // Its shared memory as recorded: 64³ in 16 blocks of 16 × 16, 4 phases; each thread writes one
    // slot of as and bs a phase and reads 16 of each; no bank conflicts, no races.
    const RunResult at64 = run(user_request(RequestKind::Record, tiled, cube(64)));
    ASSERT_TRUE(at64.ok) << at64.error;
    const ts::model::SharedReport& shared = at64.user_trace->shared;
    for (const ts::model::SharedSentence& line : ts::model::describe_shared(shared)) std::cout << line.text << "\n";
    EXPECT_EQ(shared.not_recorded, "");
    ASSERT_EQ(shared.arrays.size(), 2u);
    EXPECT_EQ(shared.arrays[0].name, "as");
    EXPECT_EQ(shared.arrays[0].rows, 16);
    EXPECT_EQ(shared.arrays[0].cols, 16);
    for (const ts::model::SharedArrayUse& array : shared.arrays) {
        EXPECT_EQ(array.writes, 16 * 256 * 4);
        EXPECT_EQ(array.reads, 16 * 256 * 4 * 16);
    }
    EXPECT_EQ(shared.wavefronts, shared.warp_accesses);
    EXPECT_EQ(shared.races, 0);

    const UserKernelSource naive = user_kernel("naive.cu", ts::model::starter_kernel(ts::model::Starter::Naive));
    const RunResult counted = run(user_request(RequestKind::Record, naive, cube(64)));
    ASSERT_TRUE(counted.ok) << counted.error;
    EXPECT_FALSE(counted.trace);
    EXPECT_EQ(counted.user_trace->counts.loads_a + counted.user_trace->counts.loads_b, 2 * 64 * 64 * 64);
    EXPECT_NE(counted.user_trace->theatre_note.find("yours passed 0"), std::string::npos)
        << counted.user_trace->theatre_note;
    // A kernel that takes A's address compiles, but cannot record through the accessors.
    const UserKernelSource pointer =
        user_kernel("pointer.cu", kSignature + " {\n    const float* row = A + 1;\n    C[0] = row[0];\n}\n");
    const RunResult refused = run(user_request(RequestKind::Record, pointer, cube(8)));
    EXPECT_FALSE(refused.ok);
    EXPECT_NE(refused.error.find("not to record itself"), std::string::npos) << refused.error;
    EXPECT_EQ(stats->restarts, 0);
}

// Watched: the tiled starter without its first barrier records races (a thread reads a slot
// another wrote between the same two barriers) where the right kernel has none; a 32 × 32 tile of
// B stored and read down its columns is a 32-way bank conflict, and one padded column removes it.
TEST_F(UserKernelOnGpu, TheTraceFindsRacesAndBankConflicts) {
    const std::string barrier = "        __syncthreads();\n        for (int i = 0; i < TILE; ++i)";
    const UserKernelSource broken =
        user_kernel("no_first_sync.cu", tiled_with(barrier, "        for (int i = 0; i < TILE; ++i)"));
    const RunResult raced = run(user_request(RequestKind::Record, broken, cube(64)));
    ASSERT_TRUE(raced.ok) << raced.error;
    for (const ts::model::SharedSentence& line : ts::model::describe_shared(raced.user_trace->shared)) std::cout << line.text << "\n";
    EXPECT_GT(raced.user_trace->shared.races, 0);
    ASSERT_FALSE(raced.user_trace->shared.examples.empty());
    const auto line_of = [&](const std::string& text) {
        const std::size_t at = broken.source.find(text);
        return 1 + static_cast<int>(std::count(broken.source.begin(), broken.source.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    };
    // The first race is at the lowest word: as[0][0] or bs[0][0], whichever the compiler put first.
    const int writer = raced.user_trace->shared.examples[0].writer_line;
    EXPECT_TRUE(writer == line_of("as[ty][tx] =") || writer == line_of("bs[ty][tx] =")) << writer;
    EXPECT_EQ(raced.user_trace->shared.examples[0].other_line, line_of("sum += as[ty][i]"));

    for (const int cols : {32, 33}) {
        std::string text = kSignature + R"( {
    __shared__ float as[32][32];
    __shared__ float bs[32][COLS];  // bs[x][y] holds B's element (y, x): a column of B is a row here
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
    float sum = 0;
    for (int phase = 0; phase < (K + 31) / 32; ++phase) {
        as[ty][tx] = row < M && phase * 32 + tx < K ? A[row * K + phase * 32 + tx] : 0.0f;
        bs[tx][ty] = phase * 32 + ty < K && col < N ? B[(phase * 32 + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < 32; ++i) sum += as[ty][i] * bs[tx][i];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = sum;
}
)";
        text = "// grid: cdiv(N, 32), cdiv(M, 32)\n// block: 32, 32\n// shared: 0\n" + text;
        text.replace(text.find("COLS"), 4, std::to_string(cols));
        const RunResult recorded = run(user_request(RequestKind::Record, user_kernel("columns.cu", text), cube(64)));
        ASSERT_TRUE(recorded.ok) << recorded.error;
        const ts::model::SharedReport& report = recorded.user_trace->shared;
        std::cout << cols << " columns:\n";
        for (const ts::model::SharedSentence& line : ts::model::describe_shared(report)) std::cout << line.text << "\n";
        EXPECT_TRUE(recorded.user_trace->c_right) << recorded.user_trace->c_summary;
        EXPECT_EQ(report.races, 0);
        int worst = 0;
        for (const ts::model::SharedLineUse& line : report.lines)
            if (report.arrays[static_cast<std::size_t>(line.array)].name == "bs") worst = std::max(worst, line.worst);
        EXPECT_EQ(worst, cols == 32 ? 32 : 1);
    }
    EXPECT_EQ(stats->restarts, 0);
}

}  // namespace
