#include "model/fp8_values.hpp"

#include <algorithm>
#include <stdexcept>

namespace ts::model {

namespace {

std::int64_t rows_of(const Problem& p, Fp8Operand operand) { return operand == Fp8Operand::A ? p.m : p.n; }

}  // namespace

float fp8_scale_at(const Fp8Matrix& matrix, const Problem& p, Fp8Operand operand, std::int64_t row, std::int64_t col) {
    if (p.fp8_scaling == Fp8Scaling::Tensor) return matrix.scales.at(0);
    const std::int64_t k_block = col / kFp8ScaleBlock;
    const std::int64_t index = operand == Fp8Operand::A
                                   ? a_block_scale_index(row, k_block, p.m)
                                   : b_block_scale_index(row / kFp8ScaleBlock, k_block, p.b_scale_stride());
    return matrix.scales.at(static_cast<std::size_t>(index));
}

Fp8Matrix quantize_fp8(std::span<const float> values, const Problem& p, Fp8Operand operand) {
    const std::int64_t rows = rows_of(p, operand);
    const std::int64_t count = rows * p.k * p.batch;
    if (static_cast<std::int64_t>(values.size()) != count)
        throw std::invalid_argument("quantize_fp8: the values do not match the operand's size");
    if (p.fp8_scaling == Fp8Scaling::Block && p.batch != 1)
        throw std::invalid_argument("quantize_fp8: block scaling is for batch 1");
    Fp8Matrix out;
    out.codes.resize(static_cast<std::size_t>(count));
    out.scales.assign(static_cast<std::size_t>(operand == Fp8Operand::A ? p.a_scale_count() : p.b_scale_count()), 0.0f);
    const auto at = [&](std::int64_t r, std::int64_t c) { return static_cast<std::size_t>(r * p.k + c); };
    if (p.fp8_scaling == Fp8Scaling::Tensor) {
        float amax = 0.0f;
        for (float x : values) amax = std::max(amax, std::fabs(x));
        out.scales[0] = fp8_scale_of(amax);
    } else {
        // The largest |x| of each block, then its scale; B's padding stays 0.
        const std::int64_t row_span = operand == Fp8Operand::A ? 1 : kFp8ScaleBlock;
        const auto index_of = [&](std::int64_t r, std::int64_t kb) {
            return static_cast<std::size_t>(operand == Fp8Operand::A ? a_block_scale_index(r, kb, p.m)
                                                                     : b_block_scale_index(r / row_span, kb, p.b_scale_stride()));
        };
        std::vector<float> amax(out.scales.size(), 0.0f);
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t c = 0; c < p.k; ++c) {
                float& block_max = amax[index_of(r, c / kFp8ScaleBlock)];
                block_max = std::max(block_max, std::fabs(values[at(r, c)]));
            }
        for (std::int64_t r = 0; r < rows; r += row_span)
            for (std::int64_t kb = 0; kb < p.k_blocks(); ++kb) out.scales[index_of(r, kb)] = fp8_scale_of(amax[index_of(r, kb)]);
    }
    for (std::int64_t b = 0; b < p.batch; ++b)
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t c = 0; c < p.k; ++c) {
                const std::size_t i = static_cast<std::size_t>(b * rows * p.k) + at(r, c);
                out.codes[i] = quantize_e4m3(values[i], fp8_scale_at(out, p, operand, r, c));
            }
    return out;
}

std::vector<double> dequantize_fp8(const Fp8Matrix& matrix, const Problem& p, Fp8Operand operand) {
    const std::int64_t rows = rows_of(p, operand);
    std::vector<double> values(matrix.codes.size());
    if (static_cast<std::int64_t>(values.size()) != rows * p.k * p.batch)
        throw std::invalid_argument("dequantize_fp8: the codes do not match the operand's size");
    for (std::int64_t b = 0; b < p.batch; ++b)
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t c = 0; c < p.k; ++c) {
                const auto i = static_cast<std::size_t>((b * rows + r) * p.k + c);
                values[i] = e4m3_to_double(matrix.codes[i]) * static_cast<double>(fp8_scale_at(matrix, p, operand, r, c));
            }
    return values;
}

}  // namespace ts::model
