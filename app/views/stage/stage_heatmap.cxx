#include "views/stage/stage_heatmap.hpp"

#include <algorithm>
#include <cmath>

#include "views/common/example_values.hpp"
#include "model/format.hpp"
#include "model/index_math.hpp"

namespace ts::views {

HeatmapImage heatmap_image(int rows, int cols, int max_side, const RowValues& row_values) {
    HeatmapImage image;
    if (rows <= 0 || cols <= 0 || max_side <= 0) return image;
    image.box_rows = model::ceil_div(rows, max_side);
    image.box_cols = model::ceil_div(cols, max_side);
    image.rows = model::ceil_div(rows, image.box_rows);
    image.cols = model::ceil_div(cols, image.box_cols);
    image.texels.resize(static_cast<std::size_t>(image.rows) * image.cols);

    // A box mean, one row of texels at a time: only one row of the matrix is ever held, so
    // a 16384² matrix (1 GiB of floats) needs 64 KiB besides the texture.
    std::vector<float> row(static_cast<std::size_t>(cols));
    std::vector<double> sums(static_cast<std::size_t>(image.cols));
    for (int texel_row = 0; texel_row < image.rows; ++texel_row) {
        const int row_begin = texel_row * image.box_rows;
        const int row_end = std::min(rows, row_begin + image.box_rows);
        std::fill(sums.begin(), sums.end(), 0.0);
        for (int r = row_begin; r < row_end; ++r) {
            row_values(r, row);
            for (int texel_col = 0, c = 0; texel_col < image.cols; ++texel_col) {
                double sum = 0.0;
                for (const int end = std::min(cols, c + image.box_cols); c < end; ++c) sum += row[c];
                sums[texel_col] += sum;
            }
        }
        float* out = image.texels.data() + static_cast<std::size_t>(texel_row) * image.cols;
        for (int texel_col = 0; texel_col < image.cols; ++texel_col) {
            const int col_begin = texel_col * image.box_cols;
            const int col_end = std::min(cols, col_begin + image.box_cols);
            out[texel_col] = static_cast<float>(sums[texel_col] / ((row_end - row_begin) * (col_end - col_begin)));
        }
    }
    return image;
}

int rows_of(StageMatrix which, const model::Problem& problem) {
    return static_cast<int>(which == StageMatrix::B ? problem.k : problem.m);
}

int cols_of(StageMatrix which, const model::Problem& problem) {
    return static_cast<int>(which == StageMatrix::A ? problem.k : problem.n);
}

void example_row(StageMatrix which, const model::Problem& problem, int row, std::span<float> out) {
    const int k = static_cast<int>(problem.k);
    const int cols = static_cast<int>(out.size());
    // One period of the row, then copies of it: a 16384² heat map builds in about a second.
    for (int c = 0; c < std::min(cols, kExamplePeriod); ++c) {
        switch (which) {
            case StageMatrix::A: out[c] = static_cast<float>(example_a(row, c)); break;
            case StageMatrix::B: out[c] = static_cast<float>(example_b(row, c)); break;
            case StageMatrix::C: out[c] = static_cast<float>(example_c(k, row, c)); break;
        }
    }
    for (int c = kExamplePeriod; c < cols; ++c) out[c] = out[c - kExamplePeriod];
}

ValueRange example_range(StageMatrix which, const model::Problem& problem) {
    // The values repeat every kExamplePeriod rows and columns: one period holds them all.
    const int rows = std::min(rows_of(which, problem), kExamplePeriod);
    const int cols = std::min(cols_of(which, problem), kExamplePeriod);
    if (rows <= 0 || cols <= 0) return {};
    ValueRange range{INFINITY, -INFINITY};
    std::vector<float> row(static_cast<std::size_t>(cols));
    for (int r = 0; r < rows; ++r) {
        example_row(which, problem, r, row);
        for (const float value : row) {
            range.min = std::min(range.min, static_cast<double>(value));
            range.max = std::max(range.max, static_cast<double>(value));
        }
    }
    return range;
}

std::string example_key(StageMatrix which, const model::Problem& problem) {
    switch (which) {
        case StageMatrix::A: return model::format_text("A {}×{}", problem.m, problem.k);
        case StageMatrix::B: return model::format_text("B {}×{}", problem.k, problem.n);
        case StageMatrix::C: return model::format_text("C {}×{}, K = {}", problem.m, problem.n, problem.k);
    }
    return {};
}

ImU32 heat_colour(const HeatmapQuad& quad, double value) {
    const double span = quad.high - quad.low;
    const float t = span > 0.0 ? static_cast<float>(std::clamp((value - quad.low) / span, 0.0, 1.0)) : 0.0f;
    const ImVec4 low = ImGui::ColorConvertU32ToFloat4(quad.low_colour);
    const ImVec4 high = ImGui::ColorConvertU32ToFloat4(quad.high_colour);
    return ImGui::ColorConvertFloat4ToU32(ImVec4(low.x + (high.x - low.x) * t, low.y + (high.y - low.y) * t,
                                                 low.z + (high.z - low.z) * t, 1.0f));
}

namespace {
HeatmapPainter* g_painter = nullptr;
}  // namespace

void set_heatmap_painter(HeatmapPainter* painter) { g_painter = painter; }
HeatmapPainter* heatmap_painter() { return g_painter; }

}  // namespace ts::views
