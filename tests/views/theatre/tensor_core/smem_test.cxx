// The tensor-core rungs' shared-memory picture: where each layout puts a tile's 16-byte chunks,
// the wavefronts of one 8-row read as the picture counts them against the model's count, a
// trace's words read back into the same slots, and the picture drawn for every rung.
#include <gtest/gtest.h>

#include <string>

#include "imgui.h"
#include "views/imgui_harness.hpp"
#include "theatre_support.hpp"
#include "model/kernel_config.hpp"
#include "model/tensor_core/stage_record.hpp"
#include "views/common/picture_layout.hpp"
#include "views/theatre/tensor_core/smem.hpp"
#include "views/theatre/theatre_view.hpp"
#include "views/window/app_state.hpp"

namespace {

using ts::model::KernelKind;
using ts::views::SmemChunkSlot;

bool holds(const SmemChunkSlot& slot, int row, int chunk) { return slot.row == row && slot.chunk == chunk; }

// A's 128×64 BF16 tile of the wgmma rung: rows of 128 bytes, one line each. Row-major, chunk c of
// row r is slot c of line r; TMA's 128-byte swizzle puts it in slot c ^ (r % 8).
TEST(TcSmem, SlotsWorkedByHand) {
    const auto tiles = ts::views::smem_tiles(KernelKind::Wgmma, false);
    ASSERT_TRUE(tiles);
    const auto plain = ts::views::model_slots(tiles->plain, 16), stored = ts::views::model_slots(tiles->stored, 16);
    EXPECT_TRUE(holds(plain[1 * 8 + 0], 1, 0));
    EXPECT_TRUE(holds(stored[1 * 8 + 1], 1, 0));
    EXPECT_TRUE(holds(stored[1 * 8 + 0], 1, 1));
    EXPECT_TRUE(holds(stored[13 * 8 + (3 ^ 5)], 13, 3));
    const std::string formula = ts::views::smem_chunk_formula(*tiles, 1, 0);
    EXPECT_NE(formula.find("as stored: byte 144: line 1, banks 4–7"), std::string::npos) << formula;
    EXPECT_NE(formula.find("0 ^ (1 % 8) = 1"), std::string::npos) << formula;
    EXPECT_EQ(ts::views::smem_tiles(KernelKind::Tiled, false), std::nullopt);
}

// Unswizzled, rows 0–7 of a chunk of a 128-byte-wide tile sit in one column of banks: 8
// wavefronts; swizzled, in eight: 1. The picture's count is the model's for every rung, tile and
// chunk, in both layouts.
TEST(TcSmem, ThePicturesWavefrontsAreTheModels) {
    for (KernelKind kind : ts::model::kTensorCoreKinds) {
        if (kind == KernelKind::Cublas) continue;
        for (bool b : {false, true}) {
            const auto tiles = ts::views::smem_tiles(kind, b);
            ASSERT_TRUE(tiles) << ts::model::kernel_name(kind);
            const int lines = ts::views::shown_lines(*tiles);
            for (const ts::model::SmemTile* tile : {&tiles->plain, &tiles->stored}) {
                const auto slots = ts::views::model_slots(*tile, lines);
                for (int chunk = 0; chunk < tile->row_elements * tile->element_bytes / 16; ++chunk)
                    ASSERT_EQ(ts::views::picture_wavefronts(slots, chunk), ts::views::chunk_read_wavefronts(*tile, 0, chunk))
                        << ts::model::kernel_name(kind) << (b ? " B" : " A") << " chunk " << chunk;
            }
        }
    }
    const auto wgmma = ts::views::smem_tiles(KernelKind::Wgmma, false);
    EXPECT_EQ(ts::views::chunk_read_wavefronts(wgmma->plain, 0, 0), 8);
    EXPECT_EQ(ts::views::chunk_read_wavefronts(wgmma->stored, 0, 0), 1);
}

// A trace whose words are the model's draws the model's slots; a zero is TMA's fill.
TEST(TcSmem, RecordedWordsFillTheSameSlots) {
    ts::model::KernelTrace trace;
    trace.config = {KernelKind::Wgmma};
    trace.problem = {100, 72, 40, 1, ts::model::Dtype::BFloat16};
    trace.stage_words = ts::model::stage_words_expected(ts::model::kRecordedStageShape, trace.problem);
    for (bool b : {false, true}) {
        const auto tiles = ts::views::smem_tiles(KernelKind::Wgmma, b);
        const auto model = ts::views::model_slots(tiles->stored, 16), recorded = ts::views::recorded_slots(trace, b, 16);
        ASSERT_EQ(recorded.size(), model.size());
        for (std::size_t i = 0; i < model.size(); ++i)
            ASSERT_TRUE(holds(recorded[i], model[i].row, model[i].chunk)) << (b ? "B" : "A") << " slot " << i;
    }
    // A's row 0 has K = 40 elements: chunks 5–7 (elements 40–63) are zeros.
    const auto a = ts::views::recorded_slots(trace, false, 16);
    EXPECT_FALSE(a[0 * 8 + 4].zero_fill);
    EXPECT_TRUE(a[0 * 8 + 5].zero_fill);
    trace.config.kind = KernelKind::Tiled;
    EXPECT_TRUE(ts::views::recorded_slots(trace, false, 16).empty());
}

// The descriptors, worked by hand from the PTX ISA's layout (model/tensor_core/descriptor.hpp): A's tile is read
// K-major, a K slice of 16 elements is 32 bytes on from the last, SBO is 8 rows of 128 bytes, LBO
// is 16 (unused), swizzle code 1 in bits 62–63. B's K×N tile is read MN-major: LBO steps one slab
// (64 rows of K × 128 bytes), SBO one group of 8 rows of K. 18 swaps the operands.
TEST(TcSmem, DescriptorsWorkedByHand) {
    const auto a = ts::views::tile_descriptor(KernelKind::Wgmma, false, 5);  // chunk 5: elements 40–47, slice 2
    ASSERT_TRUE(a);
    EXPECT_EQ(a->k_slice, 2);
    EXPECT_EQ(a->fields.start_address, 64u);
    EXPECT_EQ(a->fields.stride_byte_offset, 1024u);
    EXPECT_EQ(a->fields.leading_byte_offset, 16u);
    EXPECT_EQ(a->bits, (1ull << 62) | (64ull << 32) | (1ull << 16) | (64 >> 4));
    EXPECT_TRUE(a->as_wgmma_a);
    const auto b = ts::views::tile_descriptor(KernelKind::Wgmma, true, 9);  // chunk 9: columns 72–79, slab 1
    ASSERT_TRUE(b);
    EXPECT_FALSE(b->k_major);
    EXPECT_EQ(b->fields.start_address - b->tile_start, 64u * 128);
    EXPECT_EQ(b->fields.leading_byte_offset, 64u * 128);
    EXPECT_EQ(b->fields.stride_byte_offset, 1024u);
    EXPECT_FALSE(ts::views::tile_descriptor(KernelKind::Persistent, false, 0)->as_wgmma_a) << "18 reads A's tile as B";
    EXPECT_FALSE(ts::views::tile_descriptor(KernelKind::Mma, false, 0).has_value());
    const std::string text = ts::views::descriptor_text(*a);
    EXPECT_NE(text.find("through the descriptor 0x4000004000010004: start byte 64 (K slice 2: elements 32–47 of K)"),
              std::string::npos)
        << text;
}

// The shared-memory tab draws for every tensor-core rung, with and without a trace.
TEST(TcSmem, TheTabDrawsForEveryRung) {
    for (KernelKind kind : ts::model::kTensorCoreKinds) {
        if (kind == KernelKind::Cublas) continue;
        ts::views::AppState state = ts::test::tc_state(kind, 4, 4, 4);
        const std::string text = ts::test::tc_panel_text(state, ts::views::TheatrePanel::Smem);
        EXPECT_NE(text.find("a tile in shared memory, and the banks"), std::string::npos) << text;
    }
    ts::test::ImGuiHarness ui;
    ts::views::AppState state;
    state.kernel.kind = KernelKind::Wgmma;
    state.problem.dtype = ts::model::Dtype::BFloat16;
    ts::model::KernelTrace trace;
    trace.config = {KernelKind::Wgmma};
    trace.problem = {300, 200, 100, 1, ts::model::Dtype::BFloat16};
    trace.device = "NVIDIA H100 80GB HBM3";
    trace.sm_count = 132;
    trace.block_sm.assign(static_cast<std::size_t>(trace.blocks()), 0);
    trace.clocks.resize(static_cast<std::size_t>(ts::model::clock_records(trace.config, trace.problem)));
    trace.stage_words = ts::model::stage_words_expected(ts::model::kRecordedStageShape, trace.problem);
    state.theatre.traces.tensor_cores.push_back(std::make_shared<const ts::model::KernelTrace>(trace));
    state.theatre.open_panel = ts::views::TheatrePanel::Smem;
    ui.frame([&] { ts::views::draw_theatre_view(state, 0.0f); });
    const std::string text = ui.frame([&] { ts::views::draw_theatre_view(state, 0.0f); });
    EXPECT_NE(text.find("Recorded on NVIDIA H100 80GB HBM3"), std::string::npos) << text;
}

}  // namespace

// The stage's 12×16×8 fills 12 of A's 128 rows and 8 of its 64 columns: the tab shows a whole tile
// and says so, and the problem on show stays; a problem that fills the tile is shown as it is.
namespace {
TEST(TcSmem, ATileMostlyOutsideTheProblemIsShownWhole) {
    ts::views::AppState state = ts::test::tc_state(KernelKind::Wgmma, 12, 16, 8);
    const std::string text = ts::test::tc_panel_text(state, ts::views::TheatrePanel::Smem);
    EXPECT_NE(text.find("Shown at 128 × 16 × 64, where A's tile is full, so that every chunk column has its colour; "
                        "your problem 12 × 16 × 8 fills 12 of the 128 rows of the tile and 8 of its 64 columns: "
                        "TMA writes zeros in the rest."),
              std::string::npos)
        << text;
    EXPECT_EQ(state.problem.m, 12);
    EXPECT_EQ(ts::views::smem_shown_problem(ts::test::tc_state(KernelKind::Wgmma, 100, 100, 40)).note, "");
}
}  // namespace

// SBO's label stands in the gap between the row-major and the stored grids, over neither, at a
// desk's size and where large text leaves the grids narrow cells (a letter a line there).
namespace {
TEST(TcSmem, SbosLabelStaysInTheGapBetweenTheGrids) {
    for (const ImVec2 display : {ImVec2(1600, 1000), ImVec2(600, 250)}) {
        ts::views::AppState state = ts::test::tc_state(KernelKind::Wgmma, 256, 256, 256);
        state.picture.wanted = true;
        state.theatre.open_panel = ts::views::TheatrePanel::Smem;
        ts::test::ImGuiHarness ui(display);
        for (int frame = 0; frame < 2; ++frame) ui.frame([&] { ts::views::draw_theatre_view(state, 0.0f); });
        const ts::views::PictureBox* sbo = nullptr;
        for (const ts::views::PictureBox& label : state.picture.labels)
            if (label.name == "arrow: SBO") sbo = &label;
        ASSERT_NE(sbo, nullptr) << "no SBO label at " << display.x << "×" << display.y;
        for (const ts::views::PictureBox& grid : state.picture.matrices) {
            const bool apart = sbo->max.x <= grid.min.x || sbo->min.x >= grid.max.x || sbo->max.y <= grid.min.y ||
                               sbo->min.y >= grid.max.y;
            EXPECT_TRUE(apart) << "SBO over " << grid.name << " at " << display.x << "×" << display.y << ": label x "
                               << sbo->min.x << "–" << sbo->max.x << ", grid x " << grid.min.x << "–" << grid.max.x;
        }
    }
}
}  // namespace

// The zero fill of a tile the problem barely fills is TMA's on the wgmma rungs and the kernel's own
// copies' on mma's (no TMA there).
namespace {
TEST(TcSmem, TheZeroFillIsSaidOfWhatWritesIt) {
    const std::string wgmma = ts::views::smem_shown_problem(ts::test::tc_state(KernelKind::Wgmma, 12, 16, 8)).note;
    const std::string mma = ts::views::smem_shown_problem(ts::test::tc_state(KernelKind::Mma, 12, 16, 8)).note;
    EXPECT_NE(wgmma.find("TMA writes zeros in the rest"), std::string::npos) << wgmma;
    EXPECT_NE(mma.find("the copies write zeros in the rest"), std::string::npos) << mma;
    EXPECT_EQ(mma.find("TMA"), std::string::npos) << mma;
}
}  // namespace
