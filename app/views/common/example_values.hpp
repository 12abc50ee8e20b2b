// example_values.hpp — the numbers the stage view writes into small matrices: integers
// 0..3, so a student can check a cell of C by hand. The GPU runs use random floats; these
// are for reading, not measuring.
#pragma once

#include <cstdint>

namespace ts::views {

// The theatre writes values into its matrices only when M, N and K are all at most this;
// the stage writes them wherever its zoom makes the cells big enough, at any size.
inline constexpr int kMaxValueSide = 16;

inline int example_a(int row, int col) { return (row + 3 * col + 1) % 4; }
inline int example_b(int row, int col) { return (3 * row + col + 2) % 4; }

// A and B repeat every 4 rows and every 4 columns, and so does C.
inline constexpr int kExamplePeriod = 4;

// C[row][col] = Σ over k of A[row][k] · B[k][col]. The terms repeat every kExamplePeriod
// steps of k, so this is whole periods plus the rest: O(1), which the heat maps of 16384²
// matrices need (the stage builds one value per cell).
inline std::int64_t example_c(int k, int row, int col) {
    std::int64_t period = 0, rest = 0;
    for (int i = 0; i < kExamplePeriod; ++i) {
        const int term = example_a(row, i) * example_b(i, col);
        period += term;
        if (i < k % kExamplePeriod) rest += term;
    }
    return static_cast<std::int64_t>(k / kExamplePeriod) * period + rest;
}

}  // namespace ts::views
