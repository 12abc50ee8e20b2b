// The trace of the wgmma rung's first stage (model/tensor_core/stage_record.hpp): what the model says each
// word of shared memory holds, read back, and how a difference is worded.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "model/tensor_core/stage_record.hpp"
#include "support/problems.hpp"

namespace ts::model {
namespace {

constexpr WgmmaShape kShape = kRecordedStageShape;

// The recorded stage is BF16's.
Problem problem(std::int64_t m, std::int64_t n, std::int64_t k) {
    return testing_support::make_problem(m, n, k, Dtype::BFloat16);
}

TEST(StageRecord, EveryElementOfBothTilesHasExactlyOneWord) {
    const std::vector<std::uint16_t> words = stage_words_expected(kShape, problem(1000, 1000, 1000));
    ASSERT_EQ(words.size(), static_cast<std::size_t>(kRecordedStageWords));
    const auto a_end = words.begin() + kShape.a_tile_bytes() / 2;
    const std::set<std::uint16_t> a(words.begin(), a_end), b(a_end, words.end());
    EXPECT_EQ(a.size(), static_cast<std::size_t>(kShape.bm * kShape.bk));
    EXPECT_EQ(b.size(), static_cast<std::size_t>(kShape.bk * kShape.bn));
    EXPECT_EQ(*a.begin(), 1);
    EXPECT_EQ(*a.rbegin(), kShape.bm * kShape.bk) << "1 .. rows·cols, no zero: the whole tile is inside";
}

// Worked by hand: A's rows are 64 BF16 = 128 bytes, one span; row 1's chunk 0 goes to chunk
// 0 ^ 1 = 1 of line 1: byte 128 + 16 = 144, word 72, holding A[1][0] = 1 + 1·64 + 0 = 65. B's
// rows are 128 wide: two slabs of 64 columns, 64 rows of 128 bytes each; B[2][70] is slab 1,
// chunk (70 − 64) / 8 = 0 of row 2 → chunk 0 ^ 2 = 2: byte 8192 + 2·128 + 32 + 12 = 8492 of B's
// tile, word 16384/2 + 4246.
TEST(StageRecord, WordsWorkedByHand) {
    const std::vector<std::uint16_t> words = stage_words_expected(kShape, problem(128, 128, 64));
    EXPECT_EQ(words[72], 65);
    EXPECT_EQ(words[0], 1) << "row 0 is not moved";
    EXPECT_EQ(words[8192 + 4246], stage_element_number(2, 70, kShape.bk, kShape.bn));
    const StageWord b = read_stage_word(kShape, 8192 + 4246, words[8192 + 4246]);
    EXPECT_FALSE(b.of_a);
    EXPECT_EQ(b.row, 2);
    EXPECT_EQ(b.col, 70);
}

TEST(StageRecord, PlacesAreTheInverseOfTheLayout) {
    const std::vector<std::uint16_t> words = stage_words_expected(kShape, problem(1000, 1000, 1000));
    for (int i = 0; i < kRecordedStageWords; ++i) {
        const StageWord place = stage_word_place(kShape, i), held = read_stage_word(kShape, i, words[i]);
        ASSERT_EQ(place.of_a, held.of_a) << i;
        ASSERT_EQ(place.row, held.row) << i;
        ASSERT_EQ(place.col, held.col) << i;
    }
}

TEST(StageRecord, ElementsOutsideTheMatrixAreZeros) {
    const Problem p = problem(100, 72, 40);
    const std::vector<std::uint16_t> words = stage_words_expected(kShape, p);
    const auto a_end = words.begin() + kShape.a_tile_bytes() / 2;
    EXPECT_EQ(std::count(words.begin(), a_end, 0), kShape.bm * kShape.bk - 100 * 40);
    EXPECT_EQ(std::count(a_end, words.end(), 0), kShape.bk * kShape.bn - 40 * 72);
    const StageWord zero = read_stage_word(kShape, 0 + 50, words[50]);  // A[0][50]: past K = 40
    EXPECT_TRUE(zero.zero_fill);
    EXPECT_EQ(zero.row, 0);
    EXPECT_EQ(zero.col, 50);
}

TEST(StageRecord, ADifferenceIsNamedByWhereAndWhat) {
    const Problem p = problem(300, 200, 100);
    std::vector<std::uint16_t> words = stage_words_expected(kShape, p);
    EXPECT_EQ(compare_stage_words(kShape, p, words), std::nullopt);
    // Line 1 unswizzled: its chunks 0 and 1 swapped back, as a copy without the swizzle would have them.
    std::swap_ranges(words.begin() + 64, words.begin() + 72, words.begin() + 72);
    const auto why = compare_stage_words(kShape, p, words);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("A's tile, byte 128 (128-byte line 1, 16-byte chunk 0): recorded A[1][0], model A[1][8]"),
              std::string::npos)
        << *why;
    words.pop_back();
    EXPECT_NE(compare_stage_words(kShape, p, words)->find("16383 words"), std::string::npos);
    const std::vector<std::uint16_t> foreign(kRecordedStageWords, 0xFFFF);
    EXPECT_NE(compare_stage_words(kShape, p, foreign)->find("a number no element of the tile holds"), std::string::npos);
}

// ---- The mma rung's registers after ldmatrix ----

TEST(FragmentRecord, EveryElementOfBothSquaresReachesOneSlot) {
    const std::vector<std::uint16_t> words = fragment_words_expected(problem(256, 256, 64));
    ASSERT_EQ(words.size(), 512u);
    for (const bool of_b : {false, true}) {
        std::set<std::uint16_t> seen;
        for (int lane = 0; lane < 32; ++lane)
            for (int reg = 0; reg < 4; ++reg)
                for (int half = 0; half < 2; ++half)
                    seen.insert(words[static_cast<std::size_t>(fragment_word_slot(lane, of_b, reg, half))]);
        EXPECT_EQ(seen.size(), 256u) << (of_b ? "B" : "A");
    }
    // The PTX ISA's figures, by hand: lane 5 is groupID 1, threadID_in_group 1. A: rows 1 and 9,
    // columns 2–3 and 10–11. B (k × n): k 2–3 and 10–11 of column 1, then of column 9.
    EXPECT_EQ(fragment_word_cell(5, false, 0, 0), (Cell{1, 2}));
    EXPECT_EQ(fragment_word_cell(5, false, 1, 1), (Cell{9, 3}));
    EXPECT_EQ(fragment_word_cell(5, false, 3, 0), (Cell{9, 10}));
    EXPECT_EQ(fragment_word_cell(5, true, 0, 0), (Cell{2, 1}));
    EXPECT_EQ(fragment_word_cell(5, true, 1, 1), (Cell{11, 1}));
    EXPECT_EQ(fragment_word_cell(5, true, 2, 0), (Cell{2, 9}));
    // A's tile is 128 × 32: A[9][3] holds 1 + 9·32 + 3; B's is 32 × 128: B[2][9] holds 1 + 2·128 + 9.
    EXPECT_EQ(words[static_cast<std::size_t>(fragment_word_slot(5, false, 1, 1))], 1 + 9 * 32 + 3);
    EXPECT_EQ(words[static_cast<std::size_t>(fragment_word_slot(5, true, 2, 0))], 1 + 2 * 128 + 9);
    const auto holder = recorded_holder(words, false, 9, 3);
    ASSERT_TRUE(holder);
    EXPECT_EQ(holder->lane, 5);
    EXPECT_EQ(holder->reg, 1);
    EXPECT_EQ(holder->half, 1);
}

TEST(FragmentRecord, ADifferenceIsNamedByLaneAndRegister) {
    const Problem p = problem(256, 256, 64);
    std::vector<std::uint16_t> words = fragment_words_expected(p);
    EXPECT_EQ(compare_fragment_words(p, words), std::nullopt);
    // Lane 5's first A register with its halves swapped, as a load that ignored the pairing would.
    std::swap(words[static_cast<std::size_t>(fragment_word_slot(5, false, 0, 0))],
              words[static_cast<std::size_t>(fragment_word_slot(5, false, 0, 1))]);
    EXPECT_EQ(compare_fragment_words(p, words), "lane 5, A register 0, low half: recorded A[1][3], the model says A[1][2]");
    words[static_cast<std::size_t>(fragment_word_slot(5, false, 0, 0))] = 0xFFFF;
    EXPECT_EQ(compare_fragment_words(p, words),
              "lane 5, A register 0, low half: recorded the number 65535, the model says A[1][2]");
    words.pop_back();
    EXPECT_EQ(compare_fragment_words(p, words), "the record holds 511 words; 32 lanes × 16 halves are 512");
    EXPECT_FALSE(recorded_holder(words, false, 0, 0));
}

TEST(FragmentRecord, ElementsOutsideTheMatrixArriveAsZeros) {
    // 10 × 12 × 9: A's square has rows 0–9 and columns 0–8 inside, B's rows (k) 0–8, columns 0–11.
    const Problem p = problem(10, 12, 9);
    const std::vector<std::uint16_t> words = fragment_words_expected(p);
    // Lane 5's register 1 holds A[9][2..3] (inside) and register 3 A[9][10..11] (k ≥ 9: outside).
    EXPECT_EQ(words[static_cast<std::size_t>(fragment_word_slot(5, false, 1, 0))], 1 + 9 * 32 + 2);
    EXPECT_EQ(words[static_cast<std::size_t>(fragment_word_slot(5, false, 3, 0))], 0);
    EXPECT_FALSE(recorded_holder(words, false, 9, 10));
    std::vector<std::uint16_t> filled = words;
    filled[static_cast<std::size_t>(fragment_word_slot(5, false, 3, 0))] = 7;
    EXPECT_EQ(compare_fragment_words(p, filled),
              "lane 5, A register 3, low half: recorded A[0][6], the model says 0 (A[9][10] lies outside the matrix)");
}

}  // namespace
}  // namespace ts::model
