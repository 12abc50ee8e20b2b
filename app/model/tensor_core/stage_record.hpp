// stage_record.hpp — the trace of a TMA copy: stage 0 of block (0, 0) of the wgmma rung
// (16) as shared memory held it once the copies of the first K step had landed, 16-bit word by
// 16-bit word, A's tile then B's (16_wgmma_recorded.cu writes it out).
//
// So that every word says where it came from, the trace's A and B hold element numbers, not
// values: element (row, col) holds 1 + its place in the tile it falls in (row-major), so the
// first K step's tiles of block (0, 0) hold 1 .. rows·cols in order, and a 0 in shared memory is
// a zero TMA wrote for an element outside the matrix (or past the padding the launch added).
// What the model says each word must be is stage_words_expected: tma_tile_offset, the function the
// kernels' descriptors are checked against, applied to every element.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/problem.hpp"
#include "fragments.hpp"
#include "mma.hpp"
#include "pipeline.hpp"

namespace ts::model {

// The number the trace's inputs hold at (row, col) of a matrix cut in tiles of
// tile_rows × tile_cols: 1 + (row % tile_rows) · tile_cols + col % tile_cols. A is cut in BM × BK
// tiles, B (K×N) in BK × BN. At most 2^16 − 1 for every valid shape (BM·BK, BK·BN ≤ 256·256 / 2).
TS_HOST_DEVICE constexpr std::uint16_t stage_element_number(std::int64_t row, std::int64_t col, int tile_rows,
                                                            int tile_cols) {
    return static_cast<std::uint16_t>(1 + (row % tile_rows) * tile_cols + col % tile_cols);
}

// The shape the wgmma rung's trace is made with.
inline constexpr WgmmaShape kRecordedStageShape = kWgmmaShape;
// Words in a trace: one stage, A's tile and B's.
inline constexpr int kRecordedStageWords = kRecordedStageShape.stage_bytes() / 2;

// One word of the stage, read back: which operand's tile it is in (by where it is), and which
// element it holds (by its number), or that it holds TMA's zero fill.
struct StageWord {
    bool of_a = true;
    int row = 0, col = 0;    // in the tile: A (BM × BK) or B (BK × BN); for a zero, where it should be
    bool zero_fill = false;  // the word is 0: an element outside the matrix
    bool foreign = false;    // a number no element of this tile holds (not what TMA would write)
};

// The words stage 0 of block (0, 0) must hold after the first K step's copies of `problem`, by
// the model: each element of each tile at tma_tile_offset, holding its number, or 0 where the
// element lies outside the matrix.
std::vector<std::uint16_t> stage_words_expected(WgmmaShape s, const Problem& problem);

// What word `index` of a recorded stage holds.
StageWord read_stage_word(WgmmaShape s, int index, std::uint16_t word);

// The logical element (row, col of its tile) whose place in shared memory is word `index`, as the
// model lays the tiles out (the inverse of tma_tile_offset over the stage).
StageWord stage_word_place(WgmmaShape s, int index);

// The first word where `recorded` differs from stage_words_expected, in words ("A's tile, byte
// 272 (line 2, chunk 1): recorded A[2][0..7] … model A[2][8..15]"), or nullopt when it holds
// exactly what the model says; a trace of the wrong length says so.
std::optional<std::string> compare_stage_words(WgmmaShape s, const Problem& problem,
                                               const std::vector<std::uint16_t>& recorded);

// ---- The mma rung's registers after ldmatrix (14_mma_recorded.cu) ------------------------------
//
// At K step 0, once the tiles are whole, warp 0 of block (0, 0) issues the first ldmatrix.x4 of
// A (rows 0–15, k 0–15) and ldmatrix.x4.trans of B (k 0–15, n 0–15) that its mma step issues,
// with the same addresses, and every lane writes out the 16 halves it received: A's 4 registers,
// then B's 4 (two n8 fragments), low half first. The inputs hold element numbers, as above (A in
// BM × BK tiles, B in BK × BN), so each word says which element reached which lane and register;
// an element outside the matrix arrives as the copies' zero fill, 0.

inline constexpr MmaShape kRecordedFragmentShape = kMmaShape;
inline constexpr int kFragmentWordsPerLane = 16;  // 8 halves of A, 8 of B
inline constexpr int kRecordedFragmentWords = kWarpSize * kFragmentWordsPerLane;

// Where lane `lane`'s half `half` of register `reg` (0..3) of A's or B's x4 goes in the record.
TS_HOST_DEVICE constexpr int fragment_word_slot(int lane, bool of_b, int reg, int half) {
    return lane * kFragmentWordsPerLane + (of_b ? 8 : 0) + 2 * reg + half;
}
// The element (row, col) of A's 16×16 square (m, k) or B's 16×16 (k, n) that the model puts in
// that half: mma's A fragment for A; for B, register r of the x4.trans is register r & 1 of n8
// fragment r / 2 (mma_b_cell, 8 columns further for the second).
TS_HOST_DEVICE constexpr Cell fragment_word_cell(int lane, bool of_b, int reg, int half) {
    if (!of_b) return mma_a_cell(lane, reg, half);
    const Cell b = mma_b_cell(lane, reg & 1, half);
    return {b.row, b.col + 8 * (reg >> 1)};
}

// The record the model expects for `problem`: each slot holding the number of its element, or 0
// where the element lies outside A (M × K) or B (K × N).
std::vector<std::uint16_t> fragment_words_expected(const Problem& problem);

// Who received A's (or B's) element (row, col) of the 16×16 square according to a record: the
// lane, register and half whose word holds its number; nullopt if no word does (as for an element
// outside the matrix, whose number no copy brought).
struct FragmentHolder {
    int lane = 0, reg = 0, half = 0;
};
std::optional<FragmentHolder> recorded_holder(const std::vector<std::uint16_t>& words, bool of_b, int row, int col);
// The same for every element at once, row-major (row · 16 + col): one pass over the record.
using FragmentHolders = std::array<std::optional<FragmentHolder>, 256>;
FragmentHolders recorded_holders(const std::vector<std::uint16_t>& words, bool of_b);

// The first slot where `recorded` differs from the model ("lane 5, A register 1, high half:
// recorded A[9][3], model A[9][3]..."), or nullopt when every one of the 512 words agrees.
std::optional<std::string> compare_fragment_words(const Problem& problem, const std::vector<std::uint16_t>& recorded);

}  // namespace ts::model
