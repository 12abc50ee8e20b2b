// The Experiments view's heat map over C (wrong_map.hpp) is built once per result, not once
// per frame: without a painter (these tests, an OpenGL that cannot draw heat maps) from the
// view's own few kept images, with one from the painter's texture cache by key, the way the
// platform's renderer asks for an image only for a key it has no texture of.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "imgui_harness.hpp"
#include "model/experiment.hpp"
#include "support/app_states.hpp"
#include "views/experiments/experiment_state.hpp"
#include "views/experiments/experiment_view.hpp"
#include "views/experiments/wrong_map.hpp"
#include "views/stage/stage_heatmap.hpp"

namespace {

using namespace ts::views;
using ts::model::Experiment;
using ts::test::ImGuiHarness;
using ts::testing_support::fake_second_sync_result;

AppState state_with_result() {
    AppState state;
    ts::testing_support::give_fake_gpu(state, "Fake GPU");
    state.experiments.measurements_loaded = true;
    state.experiments.experiment = Experiment::MissingSecondSync;
    state.view = ViewId::Experiment;
    // Heat maps are kept by their outcome's serial, unique within the app's one state; these
    // tests make several states in one process, so each starts its serials apart.
    static int first_serial = 1000;
    state.experiments.next_serial = first_serial += 1000;
    EXPECT_TRUE(take_experiment_result(state.experiments, fake_second_sync_result(37, 1), "Fake GPU"));
    return state;
}

// Does with images what HeatmapRenderer does: asks for one only for a key it has no texture of.
class KeyedPainter final : public HeatmapPainter {
public:
    void paint(ImDrawList* /*draw*/, const HeatmapQuad& quad) override {
        ++paints;
        if (keys.insert(quad.key).second) last = quad.image();
    }
    std::set<std::string> keys;
    int paints = 0;
    HeatmapImage last;
};

// Registers a painter for one test, and takes it away again.
struct PainterFor {
    explicit PainterFor(HeatmapPainter* painter) { set_heatmap_painter(painter); }
    ~PainterFor() { set_heatmap_painter(nullptr); }
};

void frames(ImGuiHarness& ui, AppState& state, int count) {
    for (int i = 0; i < count; ++i) ui.frame([&] { draw_experiment_view(state, 0.0f); });
}

TEST(WrongMap, FramesThatChangeNoResultBuildNoImageWithoutAPainter) {
    ImGuiHarness ui;
    AppState state = state_with_result();
    const int before = wrong_map_images_built();
    frames(ui, state, 2);  // the first frames size the child windows, and may size the map anew
    const int settled = wrong_map_images_built();
    EXPECT_GE(settled - before, 1) << "the map is drawn, from an image";
    frames(ui, state, 5);
    EXPECT_EQ(wrong_map_images_built(), settled) << "five frames with the same result built the image again";
}

TEST(WrongMap, WithAPainterTheImageIsBuiltOnlyForANewKey) {
    KeyedPainter painter;
    const PainterFor registered(&painter);
    ImGuiHarness ui;
    AppState state = state_with_result();
    frames(ui, state, 2);
    const int settled = wrong_map_images_built();
    const int paints = painter.paints;
    ASSERT_GE(painter.keys.size(), 1u);
    // The image the painter got is the map's: row 3, columns 16..31 wrong in 37 of 50 runs.
    ASSERT_EQ(painter.last.rows, 64);
    ASSERT_EQ(painter.last.cols, 64);
    EXPECT_EQ(painter.last.texels[3 * 64 + 16], wrong_share_value(37, 50));
    EXPECT_EQ(painter.last.texels[3 * 64 + 15], 0.0f);
    EXPECT_EQ(painter.last.texels[4 * 64 + 16], 0.0f);

    frames(ui, state, 5);
    EXPECT_EQ(painter.paints, paints + 5) << "the map is painted every frame";
    EXPECT_EQ(wrong_map_images_built(), settled) << "but its image is built only for a key the painter lacks";

    // A new result of the same case: a new key, one new image, with the new counts.
    const std::size_t keys = painter.keys.size();
    ASSERT_TRUE(take_experiment_result(state.experiments, fake_second_sync_result(50, 2), "Fake GPU"));
    frames(ui, state, 3);
    EXPECT_EQ(painter.keys.size(), keys + 1);
    EXPECT_EQ(wrong_map_images_built(), settled + 1);
    EXPECT_EQ(painter.last.texels[3 * 64 + 16], wrong_share_value(50, 50));
}

}  // namespace
