// The heat maps' values: the texture holds every cell up to 4096 a side and box means above,
// and the example values it is built from agree with example_values.hpp's definitions.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "views/common/example_values.hpp"
#include "views/stage/stage_heatmap.hpp"
#include "support/problems.hpp"

namespace {

using ts::views::HeatmapImage;
using ts::views::StageMatrix;

using ts::testing_support::make_problem;

// A matrix whose every cell differs: value = 100·row + col.
ts::views::RowValues numbered() {
    return [](int row, std::span<float> out) {
        for (std::size_t c = 0; c < out.size(); ++c) out[c] = static_cast<float>(100 * row + static_cast<int>(c));
    };
}

TEST(HeatmapImage, HoldsEveryCellUpToTheLimit) {
    const HeatmapImage image = ts::views::heatmap_image(5, 7, 8, numbered());
    EXPECT_EQ(image.rows, 5);
    EXPECT_EQ(image.cols, 7);
    EXPECT_EQ(image.box_rows, 1);
    EXPECT_EQ(image.box_cols, 1);
    for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 7; ++c) EXPECT_FLOAT_EQ(image.texels[r * 7 + c], 100.0f * r + c);
}

TEST(HeatmapImage, AveragesBoxesAboveTheLimit) {
    // 10 × 9 into at most 4 a side: boxes of 3 × 3, the last row of boxes one row high.
    const HeatmapImage image = ts::views::heatmap_image(10, 9, 4, numbered());
    ASSERT_EQ(image.box_rows, 3);
    ASSERT_EQ(image.box_cols, 3);
    ASSERT_EQ(image.rows, 4);
    ASSERT_EQ(image.cols, 3);
    for (int tr = 0; tr < image.rows; ++tr)
        for (int tc = 0; tc < image.cols; ++tc) {
            double sum = 0.0;
            int count = 0;
            for (int r = tr * 3; r < std::min(10, tr * 3 + 3); ++r)
                for (int c = tc * 3; c < tc * 3 + 3; ++c, ++count) sum += 100.0 * r + c;
            EXPECT_FLOAT_EQ(image.texels[tr * image.cols + tc], static_cast<float>(sum / count)) << tr << "," << tc;
        }
}

TEST(HeatmapImage, SixteenThousandRowsBecomeFourThousandTexels) {
    const HeatmapImage image = ts::views::heatmap_image(16384, 8, ts::views::kMaxTextureSide, numbered());
    EXPECT_EQ(image.rows, 4096);
    EXPECT_EQ(image.cols, 8);
    EXPECT_EQ(image.box_rows, 4);
    EXPECT_EQ(image.box_cols, 1);
    // Rows 4·i … 4·i + 3 average to row 4·i + 1.5.
    EXPECT_FLOAT_EQ(image.texels[1000 * 8 + 5], 100.0f * 4001.5f + 5.0f);
}

TEST(ExampleValues, ProductIsTheSumOverK) {
    for (int k = 0; k <= 13; ++k)
        for (int row = 0; row < 9; ++row)
            for (int col = 0; col < 9; ++col) {
                std::int64_t sum = 0;
                for (int i = 0; i < k; ++i) sum += ts::views::example_a(row, i) * ts::views::example_b(i, col);
                ASSERT_EQ(ts::views::example_c(k, row, col), sum) << k << " " << row << "," << col;
            }
}

TEST(ExampleValues, RowsAndRangesMatchTheDefinitions) {
    for (const auto& p : {make_problem(4, 4, 4), make_problem(3, 2, 5), make_problem(40, 28, 36), make_problem(1, 1, 1)})
        for (const StageMatrix which : {StageMatrix::A, StageMatrix::B, StageMatrix::C}) {
            const int rows = ts::views::rows_of(which, p), cols = ts::views::cols_of(which, p);
            SCOPED_TRACE(testing::Message() << p.m << "×" << p.n << "×" << p.k << " matrix " << static_cast<int>(which));
            double low = 1e300, high = -1e300;
            std::vector<float> row(static_cast<std::size_t>(cols));
            for (int r = 0; r < rows; ++r) {
                ts::views::example_row(which, p, r, row);
                for (int c = 0; c < cols; ++c) {
                    const double expected = which == StageMatrix::A   ? ts::views::example_a(r, c)
                                            : which == StageMatrix::B ? ts::views::example_b(r, c)
                                                                      : ts::views::example_c(static_cast<int>(p.k), r, c);
                    ASSERT_EQ(row[c], expected) << r << "," << c;
                    low = std::min(low, expected);
                    high = std::max(high, expected);
                }
            }
            const ts::views::ValueRange range = ts::views::example_range(which, p);
            EXPECT_EQ(range.min, low);
            EXPECT_EQ(range.max, high);
        }
}

TEST(ExampleValues, KeysChangeExactlyWithTheValues) {
    using ts::views::example_key;
    EXPECT_EQ(example_key(StageMatrix::A, make_problem(64, 10, 32)), example_key(StageMatrix::A, make_problem(64, 99, 32)));
    EXPECT_NE(example_key(StageMatrix::A, make_problem(64, 10, 32)), example_key(StageMatrix::A, make_problem(64, 10, 33)));
    EXPECT_EQ(example_key(StageMatrix::B, make_problem(1, 10, 32)), example_key(StageMatrix::B, make_problem(7, 10, 32)));
    EXPECT_NE(example_key(StageMatrix::C, make_problem(64, 64, 32)), example_key(StageMatrix::C, make_problem(64, 64, 33)));
    EXPECT_NE(example_key(StageMatrix::A, make_problem(64, 64, 64)), example_key(StageMatrix::B, make_problem(64, 64, 64)));
}

TEST(HeatColour, RunsFromLowToHighColour) {
    ts::views::HeatmapQuad quad;
    quad.low = 10.0f;
    quad.high = 20.0f;
    quad.low_colour = IM_COL32(0, 0, 0, 255);
    quad.high_colour = IM_COL32(200, 100, 50, 255);
    EXPECT_EQ(ts::views::heat_colour(quad, 10.0), quad.low_colour);
    EXPECT_EQ(ts::views::heat_colour(quad, 20.0), quad.high_colour);
    EXPECT_EQ(ts::views::heat_colour(quad, 99.0), quad.high_colour);  // clamped
    EXPECT_EQ(ts::views::heat_colour(quad, 15.0), IM_COL32(100, 50, 25, 255));
}

}  // namespace
