// cpu_reference.hpp — the answer a kernel's output is checked against, computed on the CPU
// in double precision, and the comparison itself.
//
// Besides C the reference keeps, for every cell, Σ_k |A[r][k]·B[k][c]|: the rounding error
// of any float dot product of length K is at most about K·u times this sum (u = 2^-24), in
// whatever order the kernel adds the terms. That is the tolerance, so it grows with K and
// with the size of the terms, and a wrong or missing term still shows.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "model/problem.hpp"

namespace ts::gpu {

struct Reference {
    std::vector<double> c;        // batch×M×N, row-major, batches one after another
    std::vector<double> abs_sum;  // Σ_k |a·b| per cell, same layout
};

// C = A·B for every batch of `problem` (A is batch×M×K, B batch×K×N, row-major), float
// inputs accumulated in double. Uses `threads` CPU threads; 0 means all of them.
Reference reference_matmul(std::span<const float> a, std::span<const float> b, const model::Problem& problem,
                           int threads = 0);

struct Comparison {
    double max_rel_error = 0.0;    // max |got − ref| / max(|ref|, 1) over the finite cells
    std::int64_t mismatches = 0;   // cells beyond their tolerance; NaN and ±inf always count
    std::int64_t non_finite = 0;   // cells that are NaN or ±inf (unwritten cells are NaN)
    std::int64_t first_bad = -1;   // index of the first mismatch, -1 when none
    bool passed() const { return mismatches == 0; }
};

// Cell i passes when |got[i] − ref.c[i]| <= tolerance_factor · ref.abs_sum[i].
Comparison compare(std::span<const float> got, const Reference& ref, double tolerance_factor);

// 2·K·u for float: twice the worst-case rounding bound of a length-K dot product.
double float_tolerance_factor(std::int64_t k);

}  // namespace ts::gpu
