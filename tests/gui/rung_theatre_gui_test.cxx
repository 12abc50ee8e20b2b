// The theatre of every rung of the ladder in the real binary, in a window (under xvfb-run
// when there is no display), at 1× and in presenter mode at 1080p: the followed thread lit,
// the bank map's conflict shown where the rung has one and not where it has none.
#include <gtest/gtest.h>

#include <string>

#include "gui_harness.hpp"
#include "views/theatre/rungs/rung_canvas.hpp"
#include "views/theatre/tensor_core/fragments.hpp"
#include "views/common/theme.hpp"

namespace {

using ts::test::Image;
using ts::test::rgb;

constexpr float kCanvas = 0.34f;  // the canvas lies right of the side panel

struct Rung {
    const char* name;
    bool conflict_while_computing;  // the bank map of a compute step shows a conflict
    int column;                     // a column of C in block (1, 0): BN + 12
};
constexpr Rung kRungs[] = {{"regtile-1d", false, 76},  {"regtile-2d", true, 140}, {"vectorized", true, 140},
                           {"conflict-free", false, 140}, {"warptile", false, 140}, {"pipelined", false, 140},
                           {"tuned", false, 140}};

// `args` at 1×, or in presenter mode on a 1080p projector, saved as `name`_1x.png or `name`_2x.png.
Image screenshot_at(const std::string& name, const std::string& args, bool presenter) {
    return ts::test::screenshot(name + (presenter ? "_2x.png" : "_1x.png"),
                                args + (presenter ? " --presenter --width 1920 --height 1080" : ""));
}

TEST(RungTheatreGui, EveryRungAtOneTimesAndInPresenterMode) {
    for (const Rung& rung : kRungs) {
        SCOPED_TRACE(rung.name);
        const std::string kernel = std::string("--view theatre --kernel ") + rung.name;
        // A compute step of the second K step, one k at a time, a thread of block (1, 0) followed.
        const Image one = ts::test::screenshot(std::string("ladder_") + rung.name + "_1x.png",
                                               kernel + " --select-block 1,0 --select 5," + std::to_string(rung.column) +
                                                   " --phase 1 --k-step 2");
        EXPECT_GT(ts::test::distinct_colours(one), 50) << "blank";
        EXPECT_GT(one.count(rgb(ts::views::colours::kHighlight), kCanvas), 50) << "the followed thread is not lit";
        const int red = one.count(rgb(ts::views::kBankConflictColour), kCanvas);
        if (rung.conflict_while_computing) EXPECT_GT(red, 20) << "no conflict drawn in the bank map";
        else EXPECT_EQ(red, 0) << "a conflict drawn where the rung has none";
        // The load step: the same rung's loads, its warp's boxes, at 2× on a 1080p projector.
        const Image two = ts::test::screenshot(std::string("ladder_") + rung.name + "_2x.png",
                                               kernel + " --presenter --width 1920 --height 1080 --phase 0 --step load");
        EXPECT_EQ(two.width, 1920);
        EXPECT_GT(ts::test::distinct_colours(two), 50) << "blank at 2×";
    }
}

// The tensor-core rungs' fragments: every lane's colour on the canvas, at 1× and at 2× on 1080p.
TEST(RungTheatreGui, TensorCoreFragmentsAtOneTimesAndInPresenterMode) {
    for (const char* rung : {"wmma", "mma", "mma-async", "wgmma", "warp-specialized", "persistent", "tc-tuned"}) {
        SCOPED_TRACE(rung);
        const std::string kernel = std::string("--view theatre --dtype bf16 --panel fragments --kernel ") + rung;
        for (const bool presenter : {false, true}) {
            const Image shot = screenshot_at(std::string("fragments_") + rung, kernel, presenter);
            EXPECT_GT(ts::test::distinct_colours(shot), 40) << "blank";
            // In presenter mode the panel folds and the picture starts at the window's left edge.
            const float canvas = presenter ? 0.0f : kCanvas;
            for (int lane = 0; lane < 32; ++lane)
                EXPECT_GT(shot.count(rgb(ts::views::lane_colour(lane)), canvas), 20) << "lane " << lane << " not drawn";
        }
    }
}

// The shared-memory tab: the tile's chunk columns in their colours in all three grids, at 1× and
// in presenter mode at 1080p, for a rung of each layout (padded, XORed by the kernel, TMA's).
TEST(RungTheatreGui, TensorCoreSharedMemoryAtOneTimesAndInPresenterMode) {
    for (const char* rung : {"mma", "mma-async", "wgmma", "persistent"}) {
        SCOPED_TRACE(rung);
        const std::string kernel =
            std::string("--view theatre --dtype bf16 --m 256 --n 256 --k 256 --panel smem --kernel ") + rung;
        for (const bool presenter : {false, true}) {
            const Image shot = screenshot_at(std::string("smem_") + rung, kernel, presenter);
            EXPECT_GT(ts::test::distinct_colours(shot), 20) << "blank";
            for (int chunk = 0; chunk < 4; ++chunk)
                EXPECT_GT(shot.count(rgb(ts::views::lane_colour(chunk)), kCanvas), 100) << "chunk " << chunk << " not drawn";
        }
    }
}

// The ring of stages of each TMA rung, at 1× and 2×: every stage's colour drawn.
TEST(RungTheatreGui, TensorCoreStagesAtOneTimesAndInPresenterMode) {
    for (const char* rung : {"wgmma", "warp-specialized", "persistent", "tc-tuned"}) {
        SCOPED_TRACE(rung);
        const std::string kernel =
            std::string("--view theatre --dtype bf16 --m 1024 --n 1024 --k 1024 --panel stages --kernel ") + rung;
        for (const bool presenter : {false, true}) {
            const Image shot = screenshot_at(std::string("stages_") + rung, kernel, presenter);
            for (int stage = 0; stage < 3; ++stage)
                EXPECT_GT(shot.count(rgb(ts::views::lane_colour(stage)), kCanvas), 500) << "stage " << stage;
        }
    }
}

// Each tensor-core rung's Source tab at 1× and 2×, at K step 5 with its fourth statement lit: the
// highlighted line is drawn (the source panel's pale yellow).
TEST(RungTheatreGui, TensorCoreSourceAtOneTimesAndInPresenterMode) {
    for (const char* rung : {"wmma", "mma", "mma-async", "wgmma", "warp-specialized", "persistent", "tc-tuned"}) {
        SCOPED_TRACE(rung);
        const std::string kernel = std::string("--view theatre --dtype bf16 --m 1024 --n 1024 --k 1024 --panel source "
                                               "--phase 5 --statement 4 --kernel ") +
                                   rung;
        for (const bool presenter : {false, true}) {
            const Image shot = screenshot_at(std::string("source_") + rung, kernel, presenter);
            EXPECT_GT(shot.count(ts::test::Rgb{255, 226, 120}, kCanvas), 2000) << "no lit statement";
            EXPECT_GT(ts::test::distinct_colours(shot), 20) << "blank";
        }
    }
}

// The persistent rungs' order of tiles at 4096³, at 1× and 2×: round 2's 64 clusters in their colours
// (lane_colour of the cluster, every one of the palette's eight repeating), beside the done tiles.
TEST(RungTheatreGui, PersistentTileOrderAtOneTimesAndInPresenterMode) {
    for (const char* rung : {"persistent", "tc-tuned"}) {
        SCOPED_TRACE(rung);
        const std::string kernel =
            std::string("--view theatre --dtype bf16 --m 4096 --n 4096 --k 4096 --panel tiles --round 2 --kernel ") +
            rung;
        for (const bool presenter : {false, true}) {
            const Image shot = screenshot_at(std::string("tiles_") + rung, kernel, presenter);
            for (int cluster = 0; cluster < 8; ++cluster)
                EXPECT_GT(shot.count(rgb(ts::views::lane_colour(cluster)), kCanvas), presenter ? 500 : 1000)
                    << "cluster " << cluster;
        }
    }
}

// The wgmma trace made on an H100, opened with --trace: its stage drawn from the GPU's words,
// and its SM timeline with each block's K steps, at 1× and 2×.
TEST(RungTheatreGui, TheWgmmaTracesStageAndTimeline) {
    const std::string trace = std::string("--view theatre --dtype bf16 --kernel wgmma --m 1024 --n 1024 --k 1024 --trace '") +
                              TILESCOPE_TRACES_DIR + "/nvidia-h100-wgmma-1024x1024x1024.json' ";
    for (const bool presenter : {false, true}) {
        const Image stage = screenshot_at("wgmma_recorded_smem", trace + "--panel smem", presenter);
        for (int chunk = 0; chunk < 8; ++chunk)
            EXPECT_GT(stage.count(rgb(ts::views::lane_colour(chunk)), kCanvas), 100) << "chunk " << chunk;
        const Image sms = screenshot_at("wgmma_recorded_sms", trace + "--panel sms", presenter);
        // Presenter mode's colour scheme has its own shade of wave 1's green.
        if (!presenter) {
            EXPECT_GT(sms.count(rgb(ts::views::colours::kC.line), kCanvas), 20000) << "the blocks of wave 1 are not drawn";
        }
        EXPECT_GT(ts::test::distinct_colours(sms), 20) << "blank";
    }
}

// The mma trace made on an H100, opened with --trace: A and B coloured by the lanes whose
// registers the GPU filled, every lane's colour drawn, at 1× and 2×.
TEST(RungTheatreGui, TheMmaTracesRegisters) {
    const std::string trace = std::string("--view theatre --dtype bf16 --kernel mma --m 300 --n 200 --k 100 --panel "
                                          "fragments --trace '") +
                              TILESCOPE_TRACES_DIR + "/nvidia-h100-mma-300x200x100.json'";
    for (const bool presenter : {false, true}) {
        const Image shot = screenshot_at("mma_recorded_fragments", trace, presenter);
        for (int lane = 0; lane < 32; ++lane)
            EXPECT_GT(shot.count(rgb(ts::views::lane_colour(lane)), kCanvas), 50) << "lane " << lane;
    }
}

// The warp-specialized trace made on an H100: the Stages tab draws block (0, 0)'s K steps from
// the SM's cycle counter, every stage's colour and the consumers' grey waits.
TEST(RungTheatreGui, TheWarpSpecializedTracesStages) {
    const std::string trace =
        std::string("--view theatre --dtype bf16 --kernel warp-specialized --m 256 --n 512 --k 1024 --panel stages "
                    "--trace '") +
        TILESCOPE_TRACES_DIR + "/nvidia-h100-warp-specialized-256x512x1024.json'";
    for (const bool presenter : {false, true}) {
        const Image shot = screenshot_at("warp_specialized_recorded_stages", trace, presenter);
        for (int stage = 0; stage < 4; ++stage)
            EXPECT_GT(shot.count(rgb(ts::views::lane_colour(stage)), kCanvas), 300) << "stage " << stage;
        EXPECT_GT(shot.count(ts::test::Rgb{185, 185, 185}, kCanvas), 100) << "no consumer waits drawn";
    }
}

}  // namespace
