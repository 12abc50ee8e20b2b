// The kernel editor (--view kernel, issue 25) without a window or GPU: it opens on the empty
// kernel, or on the draft a crash left; the launch fields and the source's comment lines stay one;
// files are saved and opened under $XDG_DATA_HOME; the jobs queue a compile first and go no further
// without a GPU, saying why; results that come back (a compile with errors, wrong runs, a worker
// that stopped, a measurement) become the words and marks a user reads; Cancel keeps what came back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "imgui_harness.hpp"
#include "record/kernel_files.hpp"
#include "views/kernel/kernel_editor.hpp"
#include "views/kernel/kernel_state.hpp"
#include "views/kernel/kernel_view.hpp"
#include "views/lab/ladder_view.hpp"
#include "views/lab/latency_view.hpp"
#include "views/lab/roofline_view.hpp"
#include "views/lab/tuning_view.hpp"
#include "views/theatre/theatre_traces.hpp"
#include "views/window/app_state.hpp"
#include "views/window/main_view.hpp"

namespace {

namespace fs = std::filesystem;
using namespace ts::views;
using ts::test::ImGuiHarness;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

ts::gpu::UserCompileReport compiled_report(bool ok) {
    ts::gpu::UserCompileReport report;
    report.ok = ok;
    report.arch = "sm_90";
    report.nvrtc_version = "13.0";
    report.cubin_bytes = ok ? 9000 : 0;
    if (!ok) report.why = "the kernel does not compile";
    return report;
}

// Each test its own data and state folders: the user's own kernels and draft are never touched.
class KernelView : public ::testing::Test {
protected:
    void SetUp() override {
        root = fs::temp_directory_path() /
               ("tilescope-kernel-view-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(root);
        setenv("XDG_DATA_HOME", (root / "data").c_str(), 1);
        setenv("XDG_STATE_HOME", (root / "state").c_str(), 1);
        ts::gpu::DeviceInfo none;
        none.why_not = "no CUDA device: none in this test";
        state.device = none;
        state.view = ViewId::Kernel;
    }
    void TearDown() override {
        unsetenv("XDG_DATA_HOME");
        unsetenv("XDG_STATE_HOME");
    }
    std::string draw() {
        std::string text;
        for (int i = 0; i < 2; ++i)
            text = ui.frame([&] {
                draw_kernel_view(state.kernel_editor, state.lab, state.view, column_edits(state), state, 0.0f);
            });
        return text;
    }
    // A usable GPU, for the jobs that need one.
    ts::gpu::DeviceInfo with_gpu() {
        ts::gpu::DeviceInfo gpu;
        gpu.usable = true;
        gpu.limits.name = "NVIDIA H100 (test)";
        state.device = gpu;
        return gpu;
    }
    // A measurement of `request` coming back to the lab, as the main loop hands it over.
    ts::gpu::RunResult measured(const ts::gpu::RunRequest& request, double ms, double gflops) {
        ts::gpu::RunResult result;
        result.request = request;
        result.ok = true;
        result.median_ms = ms;
        result.samples_ms = {ms};
        result.gflops = gflops;
        state.lab.measured.in_flight = 1;
        take_live_result(state.lab.measured, state.lab.panels, result);
        return result;
    }
    // The request the main loop would submit next, "submitted" under `id`.
    ts::gpu::RunRequest submit(std::uint64_t id) {
        auto request = next_kernel_request(state.kernel_editor, *state.device);
        EXPECT_TRUE(request);
        kernel_submitted(state.kernel_editor, id);
        return request.value_or(ts::gpu::RunRequest{});
    }

    fs::path root;
    AppState state;
    ImGuiHarness ui;
};

TEST_F(KernelView, ItOpensOnTheEmptyKernelAndSaysWhyNothingRunsWithoutAGpu) {
    const std::string text = draw();
    EXPECT_TRUE(has(text, "Your kernel")) << text;
    EXPECT_TRUE(has(text, "Launch"));
    EXPECT_TRUE(has(text, "Compiling needs no GPU; running and measuring do: no CUDA device: none in this test"));
    EXPECT_TRUE(has(text, "at 1024³: 4096 blocks of 256 threads, 0 bytes of dynamic shared memory")) << text;
    EXPECT_EQ(state.kernel_editor.source, ts::model::empty_user_kernel());
    EXPECT_EQ(state.kernel_editor.launch, ts::model::LaunchExpressions{});
    // The main view routes Ctrl+8's view to it.
    const std::string whole = ui.frame([&] { draw_main_view(state); });
    EXPECT_TRUE(has(whole, "Your kernel"));
}

TEST_F(KernelView, TheLaunchFieldsAndTheSourceLinesAreOne) {
    draw();
    KernelEditorState& editor = state.kernel_editor;
    ts::model::LaunchExpressions launch = editor.launch;
    launch.block_x = "32";
    launch.grid_x = "cdiv(N, 32)";
    set_launch(editor, launch);
    EXPECT_TRUE(has(editor.source, "// grid:   cdiv(N, 32), cdiv(M, 16)"));
    EXPECT_TRUE(has(editor.source, "// block:  32, 16"));
    // And back: a line typed in the source is what the fields show.
    editor.source = ts::model::with_launch(editor.source, {.block_x = "64", .block_y = "32"});
    source_changed(editor);
    EXPECT_EQ(editor.launch.block_x, "64");
    const std::string text = draw();
    EXPECT_TRUE(has(text, "the GPU would refuse it: a block of 64 × 32 = 2048 threads")) << text;
    editor.source = "// block: 16\n" + editor.source;
    source_changed(editor);
    EXPECT_TRUE(has(draw(), "line 1: // block: needs two expressions, x and y"));
}

TEST_F(KernelView, FilesAreSavedOpenedAndADraftSurvivesACrash) {
    draw();
    KernelEditorState& editor = state.kernel_editor;
    start_from(editor, ts::model::Starter::Tiled);
    EXPECT_TRUE(unsaved(editor));
    EXPECT_FALSE(save_kernel(editor, "../escape.cu"));
    EXPECT_TRUE(has(editor.notice, "a name, not a path"));
    ASSERT_TRUE(save_kernel(editor, "tiled_mine.cu")) << editor.notice;
    EXPECT_FALSE(unsaved(editor));
    EXPECT_TRUE(fs::exists(root / "data" / "tilescope" / "kernels" / "tiled_mine.cu"));
    EXPECT_EQ(ts::record::list_kernel_files(ts::record::user_kernels_dir()), std::vector<std::string>{"tiled_mine.cu"});

    // An edit, kept as a draft a second later, then "a crash": a new editor restores it.
    editor.source += "// one more line\n";
    source_changed(editor);
    keep_draft(editor, 10.0);
    EXPECT_FALSE(fs::exists(ts::record::kernel_draft_path()));  // not yet: a second after the edit
    keep_draft(editor, 11.5);
    ASSERT_TRUE(fs::exists(ts::record::kernel_draft_path()));
    AppState after_crash;
    after_crash.device = state.device;
    after_crash.view = ViewId::Kernel;
    std::string text;
    for (int i = 0; i < 2; ++i)
        text = ui.frame([&] {
            draw_kernel_view(after_crash.kernel_editor, after_crash.lab, after_crash.view, column_edits(after_crash),
                             after_crash, 0.0f);
        });
    EXPECT_EQ(after_crash.kernel_editor.source, editor.source);
    EXPECT_EQ(after_crash.kernel_editor.name, "tiled_mine.cu");
    EXPECT_TRUE(unsaved(after_crash.kernel_editor));  // against the saved file
    EXPECT_TRUE(has(text, "restored the unsaved edits of tiled_mine.cu")) << text;
    // Saving ends the draft; opening reads the file back.
    ASSERT_TRUE(save_kernel(after_crash.kernel_editor, "tiled_mine.cu"));
    EXPECT_FALSE(fs::exists(ts::record::kernel_draft_path()));
    start_from(after_crash.kernel_editor, ts::model::Starter::Empty);
    ASSERT_TRUE(open_kernel(after_crash.kernel_editor, "tiled_mine.cu")) << after_crash.kernel_editor.notice;
    EXPECT_EQ(after_crash.kernel_editor.source, editor.source);
    EXPECT_FALSE(open_kernel(after_crash.kernel_editor, "missing.cu"));
    EXPECT_TRUE(has(after_crash.kernel_editor.notice, "cannot open"));
}

TEST_F(KernelView, WithoutAGpuAJobCompilesAndStopsThere) {
    draw();
    KernelEditorState& editor = state.kernel_editor;
    start_job(editor, KernelJob::CheckAndMeasure);
    EXPECT_EQ(editor.queue.size(), 1u + 5u + 2u);  // compile, five sizes, yours and the rung
    const ts::gpu::RunRequest compile = submit(1);
    EXPECT_EQ(compile.kind, ts::gpu::RequestKind::UserCompile);
    ASSERT_TRUE(compile.user);
    EXPECT_EQ(compile.user->source, editor.source);
    EXPECT_TRUE(has(job_progress(editor), "compiling (1 of 8)"));
    ts::gpu::RunResult compiled;
    compiled.id = 1;
    compiled.request = compile;
    compiled.ok = true;
    compiled.compile = compiled_report(true);
    ts::gpu::RunResult someone_elses;
    someone_elses.id = 7;
    EXPECT_FALSE(take_kernel_result(editor, someone_elses, ""));  // not the editor's
    ASSERT_TRUE(take_kernel_result(editor, compiled, ""));
    // The checks need a GPU: the queue is dropped with the reason.
    EXPECT_EQ(next_kernel_request(editor, *state.device), std::nullopt);
    EXPECT_FALSE(job_running(editor));
    EXPECT_TRUE(has(editor.job_note, "need a GPU: no CUDA device"));
    const std::string text = draw();
    EXPECT_TRUE(has(text, "compiled for sm_90 with NVRTC 13.0 in 0.00 s: 9000 bytes of machine code")) << text;
}

TEST_F(KernelView, CompilerMessagesAreListedAndAClickGoesToTheLine) {
    draw();
    KernelEditorState& editor = state.kernel_editor;
    start_job(editor, KernelJob::Compile);
    const ts::gpu::RunRequest compile = submit(3);
    ts::gpu::RunResult failed;
    failed.id = 3;
    failed.request = compile;
    failed.error = "the kernel does not compile";
    failed.compile = compiled_report(false);
    failed.compile->diagnostics = {{12, 5, ts::model::Severity::Error, "identifier \"col\" is undefined"},
                                   {9, 11, ts::model::Severity::Warning, "variable \"x\" was declared but never referenced"}};
    ASSERT_TRUE(take_kernel_result(editor, failed, ""));
    EXPECT_FALSE(job_running(editor));
    EXPECT_EQ(worst_on_line(editor, 12), ts::model::Severity::Error);
    EXPECT_EQ(worst_on_line(editor, 9), ts::model::Severity::Warning);
    EXPECT_EQ(worst_on_line(editor, 10), std::nullopt);
    const std::string text = draw();
    EXPECT_TRUE(has(text, "line 12, column 5: error: identifier \"col\" is undefined")) << text;
    EXPECT_TRUE(has(text, "it does not compile: the compiler's messages are below"));
    EXPECT_EQ(line_start_offset("a\nbb\nccc", 3), 5);
    EXPECT_EQ(line_start_offset("a\nbb\nccc", 9), 8);  // past the last line: the end
    editor.jump_to_line = 3;
    draw();  // line 3 scrolled into view, the keys asked for; with ImGui 1.86 the cursor put there
    draw();
    draw();
    EXPECT_FALSE(editor.jump_to_line) << "the jump never ended";
    EXPECT_FALSE(editor.jump_focused);
}

TEST_F(KernelView, ChecksAndMeasurementsComeBackAsAUserReadsThem) {
    const ts::gpu::DeviceInfo gpu = with_gpu();
    draw();
    KernelEditorState& editor = state.kernel_editor;
    start_job(editor, KernelJob::CheckAndMeasure);
    std::uint64_t id = 10;
    const auto answer = [&](const ts::gpu::RunRequest& request, auto fill) {
        ts::gpu::RunResult result;
        result.id = id;
        result.request = request;
        result.ok = true;
        fill(result);
        EXPECT_TRUE(take_kernel_result(editor, result, "NVIDIA H100 (test)"));
    };
    answer(submit(++id), [](ts::gpu::RunResult& r) { r.compile = compiled_report(true); });
    // The first size right, the second wrong in 2 of 5 runs, the third costs the worker.
    answer(submit(++id), [](ts::gpu::RunResult& r) {
        ts::model::ExperimentRun run;
        run.runs = 5;
        run.map = ts::model::make_wrong_cell_map(1, 1);
        r.experiment = run;
    });
    const ts::gpu::RunRequest second = submit(++id);
    EXPECT_TRUE(has(job_progress(editor), "checking 17 × 33 × 5 (3 of 8)")) << job_progress(editor);
    answer(second, [](ts::gpu::RunResult& r) {
        ts::model::ExperimentRun run;
        run.runs = 5;
        run.wrong_runs = 2;
        run.wrong_cells_worst = 40;
        run.cells_ever_wrong = 44;
        run.map = ts::model::make_wrong_cell_map(17, 33);
        run.map.wrong_runs[3] = 2;
        r.experiment = run;
    });
    const ts::gpu::RunRequest third = submit(++id);
    EXPECT_TRUE(has(job_progress(editor), "checking 127 × 129 × 65 (4 of 8)")) << job_progress(editor);
    answer(third, [](ts::gpu::RunResult& r) {
        r.ok = false;
        r.error = "the GPU worker stopped during yours: mine.cu float 127×129×65: it took longer than 10 s; it was "
                  "restarted";
    });
    EXPECT_FALSE(job_running(editor));
    EXPECT_TRUE(has(editor.job_note, "the other sizes were not run"));
    std::string text = draw();
    EXPECT_TRUE(has(text, "1³: right in all 5 runs")) << text;
    EXPECT_TRUE(has(text, "17 × 33 × 5: wrong in 2 of 5 runs, up to 40 of 561 cells in one run")) << text;
    EXPECT_TRUE(has(text, "127 × 129 × 65: failed. the GPU worker stopped")) << text;

    // Cancel: the request in flight comes back and is kept; nothing after it is sent.
    start_job(editor, KernelJob::Measure);
    answer(submit(++id), [](ts::gpu::RunResult& r) { r.compile = compiled_report(true); });
    const ts::gpu::RunRequest mine = submit(++id);
    cancel_job(editor);
    answer(mine, [](ts::gpu::RunResult& r) {
        r.median_ms = 1.5;
        r.gflops = 1431.7;
        r.samples_ms = {1.5, 1.5};
        r.checked = r.check_passed = true;
    });
    EXPECT_FALSE(job_running(editor));
    EXPECT_EQ(next_kernel_request(editor, gpu), std::nullopt);
    text = draw();
    EXPECT_TRUE(has(text, "Measured at 1024³:")) << text;
    EXPECT_TRUE(has(text, "1.500 ms, 1432 GFLOP/s")) << text;
    EXPECT_TRUE(has(text, "cancelled: what had come back is kept"));
}

TEST_F(KernelView, ATraceShowsItsCountsAndGoesToTheTheatre) {
    with_gpu();
    draw();
    KernelEditorState& editor = state.kernel_editor;
    start_job(editor, KernelJob::Record);
    ts::gpu::RunResult compiled;
    compiled.id = 1;
    compiled.request = submit(1);
    compiled.ok = true;
    compiled.compile = compiled_report(true);
    ASSERT_TRUE(take_kernel_result(editor, compiled, ""));
    ts::gpu::RunResult recorded;
    recorded.id = 2;
    recorded.request = submit(2);
    EXPECT_EQ(recorded.request.kind, ts::gpu::RequestKind::Record);
    EXPECT_EQ(recorded.request.problem.m, 64);
    recorded.ok = true;
    ts::gpu::UserTraceReport report;
    report.counts_text = "32768 loads of A and B";
    report.c_right = true;
    report.c_summary = "C of the traced launch was right";
    // Its shared memory, with a race (a barrier missing) as the trace reports one.
    report.shared.arrays = {{"as", 16, 16, 262144, 16384}, {"bs", 16, 16, 262144, 16384}};  // reads, writes
    report.shared.warp_accesses = report.shared.wavefronts = 17408;
    report.shared.races = 32768;
    report.shared.examples = {{0, 1, 0, 0, 1, 0, 22, 0, 0, 26, false}};
    recorded.user_trace = report;
    // The tiled rung's own schedule as the trace: what a kernel equal to it gives.
    ts::model::KernelTrace trace;
    trace.config = {ts::model::KernelKind::Tiled, 16, 16, 16};
    trace.problem = {64, 64, 64, 1, ts::model::Dtype::Float32};
    trace.label = "yours: mine.cu";
    recorded.trace = trace;
    ASSERT_TRUE(take_kernel_result(editor, recorded, "NVIDIA H100 (test)"));
    const std::string text = draw();
    EXPECT_TRUE(has(text, "Recorded at 64³:")) << text;
    EXPECT_TRUE(has(text, "32768 loads of A and B"));
    EXPECT_TRUE(has(text, "Shared memory: as (16 × 16): 16384 writes, 262144 reads")) << text;
    EXPECT_TRUE(has(text, "Banks: no conflicts"));
    EXPECT_TRUE(has(text, "RACE: 32768 times"));
    EXPECT_TRUE(has(text, "thread (1, 0) wrote as[0][1] on line 22, and thread (0, 0) read it on line 26"));
    // The editor tints the race's lines red, as it tints a compiler error's.
    EXPECT_EQ(recorded_on_line(editor, 22), ts::model::Severity::Error);
    EXPECT_EQ(recorded_on_line(editor, 26), ts::model::Severity::Error);
    EXPECT_EQ(recorded_on_line(editor, 23), std::nullopt);
    EXPECT_TRUE(has(text, "Show in the theatre"));
    add_trace(state.theatre.traces, *editor.recorded->trace);  // what the button does, with the view
    EXPECT_TRUE(state.theatre.traces.tiled);
}

// "Plot beside the rungs": your kernel as one more curve of the latency view, its points under
// "yours: NAME", never mixed with the rung its request's default kernel field names.
TEST_F(KernelView, YourKernelIsOneMoreCurveOfTheLatencyView) {
    with_gpu();
    draw();
    state.lab.choices.latency.yours = user_source(state.kernel_editor);
    measure_latency_now(state.lab);
    const auto mine = std::find_if(state.lab.measured.to_submit.begin(), state.lab.measured.to_submit.end(),
                                   [](const auto& keyed) { return keyed.second.user.has_value(); });
    ASSERT_NE(mine, state.lab.measured.to_submit.end());
    EXPECT_EQ(mine->first.find("yours: mine.cu") != std::string::npos, true) << mine->first;
    const ts::gpu::RunResult result = measured(mine->second, 2.0, 8589.9);
    ASSERT_EQ(state.lab.measured.live_points.size(), 1u);
    EXPECT_EQ(state.lab.measured.live_points.front().config, "yours: mine.cu");
    EXPECT_EQ(state.lab.measured.live_points.front().kernel, "yours");
    EXPECT_EQ(request_config(result.request), "yours: mine.cu");
    state.view = ViewId::Latency;
    std::string text;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_main_view(state); });
    EXPECT_TRUE(has(text, "yours: mine.cu")) << text;
    // Another dtype has no curve of yours: it takes floats.
    state.lab.choices.latency.dtype = ts::model::Dtype::Float64;
    state.lab.measured.to_submit.clear();
    measure_latency_now(state.lab);
    EXPECT_TRUE(std::none_of(state.lab.measured.to_submit.begin(), state.lab.measured.to_submit.end(),
                             [](const auto& keyed) { return keyed.second.user.has_value(); }));
}

// And one more bar of the FP32 ladder, before cuBLAS, its request in the same place.
TEST_F(KernelView, YourKernelIsOneMoreBarOfTheLadder) {
    with_gpu();
    draw();
    state.lab.choices.latency.yours = user_source(state.kernel_editor);
    const auto requests = ladder_requests(1024, Ladder::Fp32, state.lab.choices.latency.yours);
    ASSERT_GE(requests.size(), 2u);
    EXPECT_TRUE(requests[requests.size() - 2].user);
    EXPECT_EQ(requests.back().kernel.kind, ts::model::KernelKind::Cublas);
    EXPECT_FALSE(ladder_requests(1024, Ladder::TensorCores, state.lab.choices.latency.yours).back().user);
    measured(requests[requests.size() - 2], 0.25, 8579.0);
    const LadderData data = ladder_data(state, 1024, Ladder::Fp32);
    ASSERT_EQ(data.bars.size(), requests.size());
    const LadderBar& yours = data.bars[data.bars.size() - 2];
    EXPECT_TRUE(yours.is_yours);
    EXPECT_EQ(yours.name, "yours: mine.cu");
    EXPECT_EQ(yours.gflops, 8579.0);
    EXPECT_TRUE(data.bars.back().is_cublas);
    EXPECT_NE(yours.hover.find("8,579 GFLOP/s at 1024³"), std::string::npos) << yours.hover;
    std::string text;
    state.view = ViewId::Ladder;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { draw_main_view(state); });  // draws without a fault
}

// On the roofline once measured at 2048³ and recorded: its intensity from the trace's loads
// and stores, scaled (a T = 32 tiled kernel recorded at 64³: 16,384 loads and 4,096 stores, so
// 2 / 32 loads per multiply-add and 1 store per cell: 2 · 2048³ / (4 · (2048³ / 16 + 2048²))).
TEST_F(KernelView, YourKernelIsOnTheRooflineFromItsTrace) {
    with_gpu();
    draw();
    state.lab.choices.latency.yours = user_source(state.kernel_editor);
    const auto named = [&] {
        const auto marks = roofline_marks(state);
        return std::find_if(marks.begin(), marks.end(), [](const RooflineMark& m) { return m.name == "yours: mine.cu"; }) !=
                       marks.end()
                   ? std::optional<RooflineMark>(*std::find_if(marks.begin(), marks.end(), [](const RooflineMark& m) {
                         return m.name == "yours: mine.cu";
                     }))
                   : std::nullopt;
    };
    ts::gpu::RunRequest at2048;
    at2048.user = state.lab.choices.latency.yours;
    at2048.problem = {kRooflineSize, kRooflineSize, kRooflineSize, 1, ts::model::Dtype::Float32};
    measured(at2048, 1.854, 9267.0);
    EXPECT_FALSE(named()) << "measured but not recorded: no intensity to place it by";
    state.view = ViewId::Roofline;
    std::string text = ui.frame([&] { draw_main_view(state); });
    EXPECT_TRUE(has(text, "yours: mine.cu is placed here once it is measured at 2048³ and recorded")) << text;

    ts::gpu::RunResult recorded;
    recorded.ok = true;
    recorded.request.kind = ts::gpu::RequestKind::Record;
    recorded.request.user = state.lab.choices.latency.yours;
    recorded.request.problem = {64, 64, 64, 1, ts::model::Dtype::Float32};
    ts::gpu::UserTraceReport report;
    report.counts.loads_a = report.counts.loads_b = 8192;
    report.counts.stores_c = 4096;
    recorded.user_trace = report;
    state.kernel_editor.recorded = recorded;
    const auto mark = named();
    ASSERT_TRUE(mark);
    const double size = kRooflineSize;
    EXPECT_NEAR(mark->intensity, 2 * size * size * size / (4 * (size * size * size / 16 + size * size)), 1e-9);
    EXPECT_EQ(mark->gflops, 9267.0);
    EXPECT_EQ(mark->intensity_source, "recorded at 64³, scaled");
    text = ui.frame([&] { draw_main_view(state); });
    EXPECT_FALSE(has(text, "is placed here once")) << text;
    // Another source in the editor since: the trace is not this kernel's.
    state.kernel_editor.recorded->request.user->source += "\n// changed";
    EXPECT_FALSE(named());
}

// And a bar of the tuning view, under the tile widths, on their scale: measured there with the grid.
TEST_F(KernelView, YourKernelIsABarOfTheTuningView) {
    with_gpu();
    draw();
    state.lab.choices.latency.yours = user_source(state.kernel_editor);
    const auto requests = tuning_requests(state.lab.choices.latency.yours);
    ASSERT_TRUE(requests.back().user);
    EXPECT_EQ(requests.back().problem.m, kTuningSize);
    EXPECT_EQ(requests.size(), tuning_requests().size() + 1);
    TuningData data = tuning_data(state.lab);
    EXPECT_TRUE(data.has_yours);
    EXPECT_FALSE(data.yours);
    state.view = ViewId::Tuning;
    std::string text = ui.frame([&] { draw_main_view(state); });
    EXPECT_TRUE(has(text, "yours: mine.cu: not measured at 2048³ (Measure this grid measures it too).")) << text;
    measured(requests.back(), 1.854, 9267.0);
    data = tuning_data(state.lab);
    ASSERT_TRUE(data.yours);
    EXPECT_EQ(data.yours->gflops, 9267.0);
    EXPECT_NE(data.yours_launch.find("grid (128, 128), block (16, 16)"), std::string::npos) << data.yours_launch;
    text = ui.frame([&] { draw_main_view(state); });
    EXPECT_TRUE(has(text, "yours: mine.cu: 9267 GFLOP/s at 2048³")) << text;
}

}  // namespace
