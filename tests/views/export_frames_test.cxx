// Exported animations' frames (issue 26), without a window: how many frames each subject has, what
// each frame puts on show, that the view goes back to where the user had it, and the "Export
// animation…" window's words before an export and while one runs.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <variant>

#include "imgui_harness.hpp"
#include "model/ladder_rungs.hpp"
#include "theatre/tensor_core/theatre_support.hpp"
#include "views/export/export_dialog.hpp"
#include "views/export/export_frames.hpp"
#include "views/lessons/lesson_state.hpp"
#include "views/theatre/tensor_core/source_tab.hpp"
#include "views/theatre/theatre_view.hpp"
#include "views/window/app_state.hpp"

namespace {

using ts::views::AppState;
using ts::views::ExportSequence;
using ts::views::ExportSubject;

AppState tiled_block() {
    AppState state;
    state.problem = {64, 64, 64, 1, ts::model::Dtype::Float32};
    state.kernel.kind = ts::model::KernelKind::Tiled;
    state.kernel.tile = 16;
    state.view = ts::views::ViewId::Theatre;
    return state;
}

ExportSequence sequence_of(const AppState& state, ExportSubject subject) {
    const auto sequence = ts::views::export_sequence(state, subject);
    if (const auto* why = std::get_if<std::string>(&sequence)) ADD_FAILURE() << *why;
    return std::holds_alternative<ExportSequence>(sequence) ? std::get<ExportSequence>(sequence) : ExportSequence{};
}

TEST(ExportFrames, TheTiledBlockHasAFramePerSubStepAndGoesBack) {
    AppState state = tiled_block();
    state.theatre.player.step = 5;
    state.theatre.player.playing = true;
    const ExportSequence sequence = sequence_of(state, ExportSubject::Theatre);
    // Four phases of load, barrier, compute, barrier; then the store.
    EXPECT_EQ(sequence.frames, 17);
    EXPECT_EQ(sequence.file_stem, "theatre-tiled");
    EXPECT_NE(sequence.what.find("block (0, 0): 4 phases"), std::string::npos) << sequence.what;

    const ts::views::ExportBookmark before = ts::views::bookmark(state);
    for (int frame : {0, 7, 16}) {
        ts::views::show_export_frame(state, ExportSubject::Theatre, frame);
        EXPECT_EQ(state.theatre.player.step, frame);
        EXPECT_FALSE(state.theatre.player.playing) << "a frame is a still";
    }
    ts::views::restore(state, before);
    EXPECT_EQ(state.theatre.player.step, 5);
    EXPECT_TRUE(state.theatre.player.playing);
}

TEST(ExportFrames, ATensorCoreRungWalksItsStatementsKStepsOrRounds) {
    AppState state = ts::test::tc_state(ts::model::KernelKind::Wgmma, 256, 256, 256);
    const int statements = static_cast<int>(ts::views::tc_substeps(state.kernel.kind).size());
    const int k_steps = ts::views::tc_k_steps(state);
    ASSERT_GT(k_steps, 1);
    EXPECT_EQ(sequence_of(state, ExportSubject::Theatre).frames, statements * k_steps);
    ts::views::show_export_frame(state, ExportSubject::Theatre, statements + 2);
    EXPECT_EQ(state.theatre.ring_step, 1);
    EXPECT_EQ(state.theatre.tc_substep, 2);
    EXPECT_EQ(state.theatre.open_panel, ts::views::TheatrePanel::Source);

    // The Stages tab: a frame per K step.
    state.theatre.panel = ts::views::TheatrePanel::Stages;
    EXPECT_EQ(sequence_of(state, ExportSubject::Theatre).frames, k_steps);
    ts::views::show_export_frame(state, ExportSubject::Theatre, k_steps - 1);
    EXPECT_EQ(state.theatre.ring_step, k_steps - 1);
}

TEST(ExportFrames, NothingToExportSaysWhy) {
    AppState state = tiled_block();
    state.kernel.kind = ts::model::KernelKind::Cublas;
    EXPECT_TRUE(std::holds_alternative<std::string>(ts::views::export_sequence(state, ExportSubject::Theatre)));
    const auto no_lesson = ts::views::export_sequence(state, ExportSubject::Lesson);
    ASSERT_TRUE(std::holds_alternative<std::string>(no_lesson));
    EXPECT_NE(std::get<std::string>(no_lesson).find("no lesson is open"), std::string::npos);
}

// A frame per step, and one more after each step that asks for a prediction: its answer.
TEST(ExportFrames, ALessonHasAFramePerStepAndPerAnswer) {
    AppState state;
    auto loaded = ts::views::load_lesson(ts::lessons::lessons_dir() / "04-tiling.lesson");
    ASSERT_TRUE(std::holds_alternative<ts::lessons::Lesson>(loaded));
    const auto lesson = std::get<ts::lessons::Lesson>(loaded);
    ASSERT_TRUE(ts::views::open_lesson(state, lesson, 1));
    int predictions = 0, first_prediction = -1;
    for (int i = 0; i < static_cast<int>(lesson.steps.size()); ++i)
        if (!lesson.steps[static_cast<std::size_t>(i)].predict.empty()) {
            ++predictions;
            if (first_prediction < 0) first_prediction = i;
        }
    ASSERT_GT(predictions, 0) << "the tiling lesson asks for predictions";
    EXPECT_EQ(sequence_of(state, ExportSubject::Lesson).frames, static_cast<int>(lesson.steps.size()) + predictions);

    const ts::views::ExportBookmark before = ts::views::bookmark(state);
    // Steps before the first prediction take a frame each; then the prediction, then its answer.
    ts::views::show_export_frame(state, ExportSubject::Lesson, first_prediction);
    EXPECT_EQ(state.lesson.step, first_prediction);
    EXPECT_FALSE(state.lesson.revealed);
    ts::views::show_export_frame(state, ExportSubject::Lesson, first_prediction + 1);
    EXPECT_EQ(state.lesson.step, first_prediction);
    EXPECT_TRUE(state.lesson.revealed);
    ts::views::restore(state, before);
    EXPECT_EQ(state.lesson.step, 1);
    EXPECT_FALSE(state.lesson.revealed);
}

TEST(ExportFrames, TheLaddersClimbARungAFrame) {
    AppState state;
    const int rungs = static_cast<int>(ts::model::ladder_rungs().size() + ts::model::tensor_core_rungs().size());
    EXPECT_EQ(sequence_of(state, ExportSubject::Ladder).frames, rungs);
    const ts::views::ExportBookmark before = ts::views::bookmark(state);
    ts::views::show_export_frame(state, ExportSubject::Ladder, 2);
    EXPECT_EQ(state.lab.choices.ladder_rungs_shown, 3);
    ts::views::restore(state, before);
    EXPECT_FALSE(state.lab.choices.ladder_rungs_shown.has_value());
}

// The window before an export: what it will draw, how many frames, how long; an unknown format named.
TEST(ExportDialog, SaysWhatItWillDrawBeforeItStarts) {
    AppState state = tiled_block();
    ts::test::ImGuiHarness ui;
    ts::views::open_export_dialog(state.exporting, state, ExportSubject::Theatre);
    EXPECT_STREQ(state.exporting.path_text.data(), "tilescope-theatre-tiled.gif");
    std::string text;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { ts::views::draw_export_dialog(state.exporting, state); });
    EXPECT_NE(text.find("17 frames of 1280 × 720, each held 0.5 s (8.5 s in all)"), std::string::npos) << text;
    EXPECT_FALSE(state.exporting.start_requested);

    std::snprintf(state.exporting.path_text.data(), state.exporting.path_text.size(), "out.avi");
    text = ui.frame([&] { ts::views::draw_export_dialog(state.exporting, state); });
    EXPECT_NE(text.find("out.avi: TileScope exports .gif"), std::string::npos) << text;

    // While an export draws its frames the window stays out of them.
    state.exporting.capturing = true;
    text = ui.frame([&] { ts::views::draw_export_dialog(state.exporting, state); });
    EXPECT_EQ(text.find("frames of"), std::string::npos) << text;
}

TEST(ExportDialog, ShowsProgressAndCancelsWhileRunning) {
    AppState state = tiled_block();
    ts::test::ImGuiHarness ui;
    ts::views::open_export_dialog(state.exporting, state, ExportSubject::Theatre);
    state.exporting.running = true;
    state.exporting.frames_done = 3;
    state.exporting.frames_total = 17;
    std::string text;
    for (int i = 0; i < 2; ++i) text = ui.frame([&] { ts::views::draw_export_dialog(state.exporting, state); });
    EXPECT_NE(text.find("frame 3 of 17"), std::string::npos) << text;
    EXPECT_NE(text.find("Cancel"), std::string::npos) << text;
}

}  // namespace
