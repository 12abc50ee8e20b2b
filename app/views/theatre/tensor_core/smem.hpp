// smem.hpp — the tensor-core rungs in the theatre, second picture: a tile in shared memory
// with its swizzle, and what the banks make of it.
//
// Three grids of 16-byte chunks. On the left the tile as the kernel indexes it (logical): rows,
// and along each row its chunks, each colour one chunk column (8 BF16 of K for A). In the middle
// and on the right, shared memory as it holds the tile (physical), one 128-byte line per row of
// cells: the eight cells of a line are the 32 banks, four to a cell, so a column of cells is one
// group of four banks. Middle: the tile stored row-major, nothing done to it; right: as the rung
// stores it (TMA's 128-byte swizzle for 16–19, the kernel's own XOR for 15, padding for 13 and
// 14), or, for the wgmma rung with a trace, as the GPU's own bytes say (16_wgmma_recorded.cu).
// One chunk column is outlined in all three: the eight rows of it that one ldmatrix phase (or one
// of wgmma's 8×16-byte core matrices) reads at once, and under each physical grid the wavefronts
// that read costs: one per chunk sharing a column of banks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/kernel_trace.hpp"
#include "model/tensor_core/descriptor.hpp"
#include "model/tensor_core/swizzle.hpp"
#include "views/window/app_state.hpp"

namespace ts::views {

// 128-byte lines of shared memory the picture shows at least: two of the 128-byte swizzle's
// 8-row patterns.
inline constexpr int kSmemShownLines = 16;
inline constexpr int kSlotsPerLine = 8;  // 16-byte chunks per 128-byte line: 4 banks each

// What one 16-byte slot of shared memory holds: a chunk of the tile (row, chunk column), TMA's
// zero fill for elements outside the matrix, or nothing (padding, or past the tile).
struct SmemChunkSlot {
    int row = -1, chunk = -1;
    bool zero_fill = false;
    bool empty() const { return row < 0; }
};

// The tile the picture is of: `operand_b` false for A's tile of the rung's block, true for B's.
// `stored` is the rung's own layout; `plain` the same tile row-major without padding or swizzle.
struct SmemTilePair {
    model::SmemTile stored;
    model::SmemTile plain;
    std::string how;  // "TMA's 128-byte swizzle (Swizzle<3,4,3>)", ...
};
std::optional<SmemTilePair> smem_tiles(model::KernelKind kind, bool operand_b);

// The first `lines` 128-byte lines of `tile`, slot by slot (lines × 8), by the model.
std::vector<SmemChunkSlot> model_slots(const model::SmemTile& tile, int lines);
// The same from a wgmma trace's stage words (model::read_stage_word on each slot's first
// word); empty when the trace is not a wgmma trace with a stage.
std::vector<SmemChunkSlot> recorded_slots(const model::KernelTrace& trace, bool operand_b, int lines);

// How many 128-byte lines the picture shows: at least kSmemShownLines, and as many as rows 0–7
// take in either layout (a padded row of 272 bytes puts row 7 on line 16).
int shown_lines(const SmemTilePair& tiles);

// Wavefronts of the read of rows first_row .. first_row + 7 of chunk column `chunk` (the model).
int chunk_read_wavefronts(const model::SmemTile& tile, int first_row, int chunk);
// The same read as a picture's slots place it (recorded or modelled): the most of rows 0–7 of
// `chunk` in one column of slots, the same four banks.
int picture_wavefronts(const std::vector<SmemChunkSlot>& slots, int chunk);

// The hover text for the chunk at (row, chunk) of the tile: where each layout puts it, and why.
std::string smem_chunk_formula(const SmemTilePair& tiles, int row, int chunk);

// The descriptor wgmma reads a TMA rung's tile through (model/tensor_core/descriptor.hpp), for the K slice (A)
// or the 64-column slab (B) that chunk column `chunk` lies in, from the start of dynamic shared
// memory; nullopt for the mma rungs, which have none.
struct TileDescriptor {
    model::SmemDescriptor fields;
    std::uint64_t bits = 0;
    std::uint32_t tile_start = 0;  // where the tile itself starts (stage 0), from the same place
    int k_slice = 0;       // A: which 16 elements of K (two chunks); B: 0
    bool k_major = true;   // A's tile: K-major; B's (K×N): MN-major
    bool as_wgmma_a = true;  // wgmma's A operand (or, with the operands swapped, its B)
};
std::optional<TileDescriptor> tile_descriptor(model::KernelKind kind, bool operand_b, int chunk);
// The descriptor in words: what wgmma reads it as, and each field with why.
std::string descriptor_text(const TileDescriptor& d);

// What the picture shows, for the words beside it.
std::string smem_explanation(const AppState& state);

// The problem whose block (0, 0) tile the picture shows: the one on show, or, where that leaves
// more than half the tile's rows or columns to TMA's zero fill (the stage's 12×16×8 fills 12 of
// A's 128 rows and 8 of its 64 columns), one as large as the tile; `note` says so ("" when the
// problem is the one on show). The problem on show stays as it is.
struct SmemProblem {
    model::Problem problem;
    std::string note;
};
SmemProblem smem_shown_problem(const AppState& state);

// The words beside or above the picture: which tile (A or B), the trace's line, what the
// grids are and the descriptor; paragraphs fold where they would leave the picture less than
// `keep` of the view. Its buttons choose the tile and chunk (theatre.smem_b, smem_chunk; `theatre`
// is app.theatre).
void draw_tc_smem_words(TheatreState& theatre, const AppState& app, float keep);
// How wide the picture is when it is `height` pixels high.
float tc_smem_width(const AppState& state, float height);

// The picture for app.kernel.kind in the current window's remaining area, reported in `picture`
// (app.picture). Hover a chunk for its addresses; click one to read its column (theatre.smem_chunk).
void draw_tc_smem(TheatreState& theatre, PictureLayout& picture, const AppState& app);

}  // namespace ts::views
