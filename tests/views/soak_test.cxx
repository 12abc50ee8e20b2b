// `tilescope --soak` (app/soak.hpp) without a window or GPU: its changes reach every view of
// the window, the Experiments view and each of its experiments included, and its guesses.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "gpu/runner.hpp"
#include "model/experiment.hpp"
#include "soak.hpp"
#include "views/experiments/experiment_state.hpp"
#include "views/window/app_state.hpp"

namespace {

using ts::views::ViewId;

// No GPU: every request fails at once, as runner_none's do.
ts::gpu::Runner runner_without_gpu() {
    ts::gpu::RunnerBackend backend;
    backend.probe = [] {
        ts::gpu::DeviceInfo info;
        info.why_not = "no CUDA device: none in this test";
        return info;
    };
    backend.run = [](const ts::gpu::RunRequest& request) {
        ts::gpu::RunResult result;
        result.request = request;
        result.error = "no GPU in this test";
        return result;
    };
    return ts::gpu::Runner(std::move(backend));
}

TEST(Soak, ItsViewsAreEveryViewOfTheWindow) {
    for (const ViewId view : {ViewId::Stage, ViewId::Latency, ViewId::Tuning, ViewId::Roofline, ViewId::Theatre,
                               ViewId::Ladder, ViewId::Experiment})
        EXPECT_NE(std::find(std::begin(ts::app::kSoakViews), std::end(ts::app::kSoakViews), view),
                  std::end(ts::app::kSoakViews))
            << ts::views::view_name(view);
}

TEST(Soak, ItsChangesVisitTheExperimentsViewAndEachExperiment) {
    ts::gpu::Runner runner = runner_without_gpu();
    ts::views::AppState state;
    state.device = runner.wait_for_device();
    state.experiments.measurements_loaded = true;
    ts::app::Soak soak(600.0, 1);
    std::set<ViewId> views;
    std::set<ts::model::Experiment> experiments;
    bool guessed = false;
    // A change every sixth frame; a second in, still within the warm-up, so nothing but changes.
    for (int frame = 0; frame < 6 * 400; ++frame) {
        soak.step(state, runner, 1.0);
        views.insert(state.view);
        experiments.insert(state.experiments.experiment);
        guessed = guessed || ts::views::page_of(state.experiments, state.experiments.experiment).prediction >= 0;
    }
    EXPECT_TRUE(views.count(ViewId::Experiment)) << "400 changes and never the Experiments view";
    EXPECT_EQ(experiments.size(), std::size(ts::model::kAllExperiments));
    EXPECT_TRUE(guessed) << "the soak makes the guess the view asks for first";
    EXPECT_FALSE(state.experiments.batch.has_value()) << "no runs without a usable GPU";
}

}  // namespace
