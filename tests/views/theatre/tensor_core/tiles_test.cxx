// The persistent rungs' order of tiles: the tab exists for 18 and 19 only, draws C's tiles for a
// round, and words the round's footprint from model::round_footprint in both orders.
#include <gtest/gtest.h>

#include <string>

#include "theatre_support.hpp"
#include "model/format.hpp"
#include "model/kernel_config.hpp"
#include "model/tensor_core/tile_order.hpp"
#include "views/theatre/tensor_core/tiles.hpp"
#include "views/theatre/theatre_flags.hpp"
#include "views/theatre/theatre_view.hpp"
#include "views/window/app_state.hpp"

namespace {

using ts::model::KernelKind;

TEST(TcTiles, RoundWordsAt4096) {
    const ts::model::Problem p{4096, 4096, 4096, 1, ts::model::Dtype::BFloat16};
    const auto launch = ts::model::persistent_launch(ts::model::kPersistentShape, p, 132);
    const std::string grouped = ts::views::round_words(ts::model::kPersistentShape, p, launch, 0, false);
    EXPECT_NE(grouped.find("Round 1 of 4: 64 tiles"), std::string::npos) << grouped;
    EXPECT_NE(grouped.find("8 panels of A (16.0 MiB) and 8 of B (16.0 MiB), 32.0 MiB in all, within"), std::string::npos)
        << grouped;
    EXPECT_NE(grouped.find("Row by row, the plain order, the same round would read 4 panels of A and 16 of B: 40.0 MiB"),
              std::string::npos)
        << grouped;
    // 8192³: the plain order's round does not fit.
    const ts::model::Problem big{8192, 8192, 8192, 1, ts::model::Dtype::BFloat16};
    const auto big_launch = ts::model::persistent_launch(ts::model::kPersistentShape, big, 132);
    const std::string plain = ts::views::round_words(ts::model::kPersistentShape, big, big_launch, 3, true);
    EXPECT_NE(plain.find("Round 4 of 16"), std::string::npos) << plain;
    EXPECT_NE(plain.find("136.0 MiB in all, more than the 50 MiB"), std::string::npos) << plain;
    EXPECT_NE(plain.find("In the kernels' own order, the same round would read 8 panels of A and 8 of B: 64.0 MiB"),
              std::string::npos)
        << plain;
}

TEST(TcTiles, TheTabIsThereForThePersistentRungsOnly) {
    for (KernelKind kind : ts::model::kTensorCoreKinds) {
        if (kind == KernelKind::Cublas) continue;
        ts::views::AppState state = ts::test::tc_state(kind, 4096, 4096, 4096);
        state.theatre.tile_round = 99;  // clamped to the last round
        const std::string text = ts::test::tc_panel_text(state, ts::views::TheatrePanel::Tiles);
        const bool persistent = ts::model::is_persistent(kind);
        // 128×256 tiles in clusters of two: 4 rounds; fp8-blocks' 128×128: 8.
        const int rounds = kind == KernelKind::Fp8Blocks ? 8 : 4;
        EXPECT_EQ(text.find(ts::model::format_text("Round {} of {}", rounds, rounds)) != std::string::npos, persistent)
            << ts::model::kernel_name(kind) << text;
        EXPECT_EQ(text.find("an H100's 132 SMs (no Hopper GPU here)") != std::string::npos, persistent);
        if (persistent) {
            EXPECT_EQ(state.theatre.tile_round, rounds - 1);
        }
    }
}

TEST(TcTiles, RoundFlagIsCheckedAgainstTheLaunch) {
    const auto apply = [](KernelKind kind, int round, bool plain) {
        ts::views::TheatreFlags flags;
        flags.round = round;
        flags.row_by_row = plain;
        return ts::test::applied(ts::test::tc_state(kind, 4096, 4096, 4096), flags);
    };
    const auto [ok, theatre] = apply(KernelKind::Persistent, 4, true);
    EXPECT_EQ(ok, "");
    EXPECT_EQ(theatre.tile_round, 3);
    EXPECT_TRUE(theatre.tile_order_plain);
    EXPECT_EQ(apply(KernelKind::TcTuned, 5, false).first, "--round must be 1 to 4 for this launch");
    EXPECT_EQ(apply(KernelKind::TcTuned, 0, false).first, "--round must be 1 to 4 for this launch");
    EXPECT_EQ(apply(KernelKind::Wgmma, 1, false).first,
              "--round is for the persistent rungs' Tiles tab (persistent, tc-tuned)");
}

// The stage's default 12×16×8 is one tile: the tab shows 4096³ instead and says so; the problem on
// show stays the stage's; --round counts the rounds shown. Counts read as English at 1.
TEST(TcTiles, ASingleTileOpensAt4096AndSaysSo) {
    ts::views::AppState state = ts::test::tc_state(KernelKind::Persistent, 12, 16, 8);
    const std::string text = ts::test::tc_panel_text(state, ts::views::TheatrePanel::Tiles);
    EXPECT_NE(text.find("Shown at 4096³ so that the tile order has tiles to order; your problem 12 × 16 × 8 has 1 tile."),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("Round 1 of 4: 64 tiles"), std::string::npos) << text;
    EXPECT_NE(text.find("64 clusters of 2 CTAs at a time, each taking every 64th tile of the order, so the tiles go in 4 rounds"), std::string::npos)
        << text;
    for (const char* wrong : {"1th", "1 clusters", "1 panels", "1 rounds", "1 tiles"})
        EXPECT_EQ(text.find(wrong), std::string::npos) << wrong << "\n" << text;
    EXPECT_EQ(state.problem.m, 12);
    EXPECT_EQ(state.problem.k, 8);
    ts::views::TheatreFlags flags;
    flags.round = 4;
    EXPECT_EQ(ts::test::applied(ts::test::tc_state(KernelKind::Persistent, 12, 16, 8), flags).first, "");
    // A problem of several rounds is shown as it is.
    ts::views::AppState big = ts::test::tc_state(KernelKind::Persistent, 8192, 8192, 64);
    EXPECT_EQ(ts::views::shown_tile_problem(big).note, "");
    EXPECT_EQ(ts::views::shown_tile_problem(big).problem.m, 8192);
    // One tile's round, in words: singular nouns.
    const ts::model::Problem one{12, 16, 8, 1, ts::model::Dtype::BFloat16};
    const auto launch = ts::model::persistent_launch(ts::model::kPersistentShape, one, 132);
    const std::string words = ts::views::round_words(ts::model::kPersistentShape, one, launch, 0, false);
    EXPECT_NE(words.find("Round 1 of 1: 1 tile, read together along K: 1 panel of A"), std::string::npos) << words;
    EXPECT_NE(words.find("would read 1 panel of A and 1 of B"), std::string::npos) << words;
}

TEST(TcTiles, HugeProblemsAreCountedNotDrawn) {
    ts::views::AppState state = ts::test::tc_state(KernelKind::Persistent, 200000, 200000, 64);
    const std::string text = ts::test::tc_panel_text(state, ts::views::TheatrePanel::Tiles);
    EXPECT_NE(text.find("too many to draw here"), std::string::npos) << text;
    EXPECT_NE(text.find("Round 1 of "), std::string::npos) << text;
}

}  // namespace
