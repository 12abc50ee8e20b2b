// example_values.hpp — the numbers the stage view writes into small matrices: integers
// 0..3, so a student can check a cell of C by hand. The GPU runs use random floats; these
// are for reading, not measuring.
#pragma once

#include <cstdint>

namespace ts::views {

// Values are drawn only when M, N and K are all at most this.
inline constexpr int kMaxValueSide = 16;

inline int example_a(int row, int col) { return (row + 3 * col + 1) % 4; }
inline int example_b(int row, int col) { return (3 * row + col + 2) % 4; }

// C[row][col] = Σ over k of A[row][k] · B[k][col].
inline std::int64_t example_c(int k, int row, int col) {
    std::int64_t sum = 0;
    for (int i = 0; i < k; ++i) sum += example_a(row, i) * example_b(i, col);
    return sum;
}

}  // namespace ts::views
