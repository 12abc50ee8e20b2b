// accumulator.cxx — accumulator.hpp's probes, simulator, decoder and words.
//
// [SECTION] Element types
// [SECTION] Operand images
// [SECTION] Probes
// [SECTION] Simulator and decoder
// [SECTION] Error growth with K
// [SECTION] Report and words
#include "accumulator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "format.hpp"

namespace ts::model {

// ---- [SECTION] Element types ---------------------------------------------------------------------

namespace {

struct ElementFormat {
    int exponent_bits;
    int fraction_bits;
    int bias;
    double largest;  // e4m3 has no infinity: its largest is 1.75·2^8 = 448
};

ElementFormat format_of(AccumulatorInput input) {
    switch (input) {
        case AccumulatorInput::Fp8E4m3: return {4, 3, 7, 448.0};
        case AccumulatorInput::Bf16: return {8, 7, 127, 0x1.fep127};
        case AccumulatorInput::Fp16: return {5, 10, 15, 65504.0};
    }
    return {4, 3, 7, 448.0};
}

}  // namespace

const char* accumulator_input_name(AccumulatorInput input) {
    switch (input) {
        case AccumulatorInput::Fp8E4m3: return "fp8";
        case AccumulatorInput::Bf16: return "bf16";
        case AccumulatorInput::Fp16: return "fp16";
    }
    return "?";
}

const char* accumulator_input_title(AccumulatorInput input) {
    switch (input) {
        case AccumulatorInput::Fp8E4m3: return "FP8 e4m3";
        case AccumulatorInput::Bf16: return "BF16";
        case AccumulatorInput::Fp16: return "FP16";
    }
    return "?";
}

std::optional<AccumulatorInput> parse_accumulator_input(const std::string& name) {
    for (AccumulatorInput input : kAccumulatorInputs)
        if (name == accumulator_input_name(input)) return input;
    if (name == "e4m3") return AccumulatorInput::Fp8E4m3;
    return std::nullopt;
}

std::vector<AccumulatorInput> accumulator_inputs_named(const std::string& name) {
    if (name == "all") return {std::begin(kAccumulatorInputs), std::end(kAccumulatorInputs)};
    if (const auto one = parse_accumulator_input(name)) return {*one};
    return {};
}

int wgmma_k_of(AccumulatorInput input) { return input == AccumulatorInput::Fp8E4m3 ? 32 : 16; }
int element_bytes_of(AccumulatorInput input) { return input == AccumulatorInput::Fp8E4m3 ? 1 : 2; }

std::optional<std::uint16_t> exact_element_bits(AccumulatorInput input, double value) {
    const ElementFormat f = format_of(input);
    const int total_bits = 1 + f.exponent_bits + f.fraction_bits;
    const std::uint32_t sign = std::signbit(value) ? 1u << (total_bits - 1) : 0u;
    const double magnitude = std::fabs(value);
    if (!std::isfinite(value) || magnitude > f.largest) return std::nullopt;
    if (magnitude == 0.0) return static_cast<std::uint16_t>(sign);
    const int min_exponent = 1 - f.bias;  // of the smallest normal
    const int exponent = std::ilogb(magnitude);
    if (exponent < min_exponent) {  // subnormal: q·2^(min_exponent − fraction_bits), q < 2^fraction_bits
        const double q = std::ldexp(magnitude, f.fraction_bits - min_exponent);
        if (q != std::floor(q)) return std::nullopt;
        return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(q));
    }
    const double fraction = std::ldexp(magnitude, -exponent) - 1.0;  // exact: a power-of-two scaling
    const double q = std::ldexp(fraction, f.fraction_bits);
    if (q != std::floor(q)) return std::nullopt;
    const auto field = static_cast<std::uint32_t>(exponent + f.bias);
    return static_cast<std::uint16_t>(sign | field << f.fraction_bits | static_cast<std::uint32_t>(q));
}

double element_value(AccumulatorInput input, std::uint16_t bits) {
    const ElementFormat f = format_of(input);
    const int total_bits = 1 + f.exponent_bits + f.fraction_bits;
    const bool negative = (bits >> (total_bits - 1)) & 1u;
    const std::uint32_t field = (bits >> f.fraction_bits) & ((1u << f.exponent_bits) - 1u);
    const std::uint32_t q = bits & ((1u << f.fraction_bits) - 1u);
    const std::uint32_t top = (1u << f.exponent_bits) - 1u;
    double magnitude;
    if (input == AccumulatorInput::Fp8E4m3 && field == top && q == (1u << f.fraction_bits) - 1u)
        magnitude = std::numeric_limits<double>::quiet_NaN();
    else if (input != AccumulatorInput::Fp8E4m3 && field == top)
        magnitude = q == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
    else if (field == 0)
        magnitude = std::ldexp(static_cast<double>(q), 1 - f.bias - f.fraction_bits);
    else
        magnitude = std::ldexp(1.0 + std::ldexp(static_cast<double>(q), -f.fraction_bits),
                               static_cast<int>(field) - f.bias);
    return negative ? -magnitude : magnitude;
}

namespace {

std::uint16_t bits_of(AccumulatorInput input, double value) {
    if (const auto bits = exact_element_bits(input, value)) return *bits;
    throw std::logic_error(format_text("{} cannot hold {} exactly", accumulator_input_title(input), value));
}

}  // namespace

// ---- [SECTION] Operand images -------------------------------------------------------------------

SmemDescriptor operand_layout(AccumulatorInput /*input*/, int rows) {
    // One wgmma's K is 32 bytes whatever the type: two columns of core matrices.
    return k_major_descriptor(TmaSwizzle::None, rows, 0, 0);
}

SmemDescriptor operand_descriptor(AccumulatorInput input, int rows, bool swapped) {
    SmemDescriptor d = operand_layout(input, rows);
    if (swapped) std::swap(d.leading_byte_offset, d.stride_byte_offset);
    return d;
}

std::vector<std::uint8_t> operand_image(AccumulatorInput input, const std::vector<std::uint16_t>& bits, int rows,
                                        const SmemDescriptor& layout) {
    const int k = wgmma_k_of(input), bytes = element_bytes_of(input);
    if (static_cast<int>(bits.size()) != rows * k) throw std::invalid_argument("operand_image: rows × K bits expected");
    std::vector<std::uint8_t> image(static_cast<std::size_t>(rows) * kWgmmaKBytes, 0);
    for (int row = 0; row < rows; ++row)
        for (int col = 0; col < k; ++col) {
            const std::uint32_t at = canonical_k_major_offset(layout, row, col, bytes);
            const std::uint16_t b = bits[static_cast<std::size_t>(row) * k + col];
            if (at + bytes > image.size()) throw std::logic_error("operand_image: the layout reaches past the image");
            image[at] = static_cast<std::uint8_t>(b & 0xFF);
            if (bytes == 2) image[at + 1] = static_cast<std::uint8_t>(b >> 8);
        }
    return image;
}

// ---- [SECTION] Probes ---------------------------------------------------------------------------

namespace {

// Where a type's small products come from: A is 2^a with a in [a_min, a_max] (exact, subnormals
// included where the type has them), B is v·2^b_high or v·2^b_low (normal, so that v's two fraction
// bits fit). Every j of 1..31 finds an a with a + b = 16 − j for one of the two, and a normal a
// (≥ a_normal) wherever one exists: were subnormal inputs flushed to zero, a flushed small product
// would read as a dropped bit. For FP8 only j = 29..31 need a subnormal A, past what FP32 shows.
struct SmallRange {
    int a_min, a_normal, a_max, b_high, b_low;
};
SmallRange small_range_of(AccumulatorInput input) {
    switch (input) {
        case AccumulatorInput::Fp8E4m3: return {-9, -6, 8, 7, -6};  // 2^-9 is e4m3's least subnormal; 1.75·2^7 = 224
        case AccumulatorInput::Bf16: return {-20, -20, 8, 7, -10};
        case AccumulatorInput::Fp16: return {-14, -14, 8, 7, -8};
    }
    return {-9, -6, 8, 7, -6};
}

// splitmix64: the same numbers on every machine.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// A small integer in [−3, 3] for position `index` of operand `which`: exact in every type, and
// different enough from place to place that a misplaced element changes a sum.
double identity_value(int which, int index) {
    return static_cast<double>(static_cast<int>(mix(static_cast<std::uint64_t>(which) << 32 | static_cast<std::uint32_t>(index)) % 7) - 3);
}

}  // namespace

ProbeOperands make_probe(AccumulatorInput input, ProbeKind kind) {
    ProbeOperands p;
    p.input = input;
    p.kind = kind;
    p.k = wgmma_k_of(input);
    p.a.assign(static_cast<std::size_t>(kProbeRows) * p.k, 0.0);
    p.b.assign(static_cast<std::size_t>(p.k) * kProbeCols, 0.0);
    p.c_start.assign(static_cast<std::size_t>(kProbeRows) * kProbeCols, 0.0f);
    p.row_j.assign(kProbeRows, 0);
    p.row_half.assign(kProbeRows, 0);
    if (kind == ProbeKind::Identity || kind == ProbeKind::IdentityAcross) {
        for (std::size_t i = 0; i < p.a.size(); ++i) p.a[i] = identity_value(1, static_cast<int>(i));
        for (std::size_t i = 0; i < p.b.size(); ++i) p.b[i] = identity_value(2, static_cast<int>(i));
        p.accumulate = kind == ProbeKind::IdentityAcross;
        if (p.accumulate)
            for (std::size_t i = 0; i < p.c_start.size(); ++i)
                p.c_start[i] = static_cast<float>(static_cast<int>(i % 17) - 8);
        return p;
    }
    const double half_big = std::ldexp(1.0, kBigExponent / 2);  // 2^8 · 2^8 = 2^16
    const SmallRange range = small_range_of(input);
    const int half_k = p.k / 2;
    // B's columns: k 0 the big term's 2^8; in each half of K, a high and a low slot of v[n]·2^b.
    for (int n = 0; n < kProbeCols; ++n) {
        p.b[0 * kProbeCols + n] = half_big;
        for (int half = 0; half < 2; ++half) {
            p.b[static_cast<std::size_t>(half * half_k + 1) * kProbeCols + n] = std::ldexp(kProbeScales[n], range.b_high);
            p.b[static_cast<std::size_t>(half * half_k + 2) * kProbeCols + n] = std::ldexp(kProbeScales[n], range.b_low);
        }
    }
    p.accumulate = kind == ProbeKind::AcrossSteps;
    for (int row = 0; row < kProbeRows; ++row) {
        const int half = row / (kProbeRows / 2), j = row % (kProbeRows / 2) + 1;  // j = 32: a control row
        p.row_half[row] = half;
        double* a_row = &p.a[static_cast<std::size_t>(row) * p.k];
        if (kind == ProbeKind::InsideWgmma) a_row[0] = half_big;
        else
            for (int n = 0; n < kProbeCols; ++n) p.c_start[static_cast<std::size_t>(row) * kProbeCols + n] = 65536.0f;
        if (j > kLargestJ) continue;  // the control: the big term alone
        p.row_j[row] = j;
        const int e = kBigExponent - j;
        const auto fits = [&](int b, int least) { return e - b >= least && e - b <= range.a_max; };
        const bool high = fits(range.b_high, range.a_normal) ||
                          (!fits(range.b_low, range.a_normal) && fits(range.b_high, range.a_min));
        const int a_exponent = e - (high ? range.b_high : range.b_low);
        if (a_exponent < range.a_min || a_exponent > range.a_max) throw std::logic_error("make_probe: j out of reach");
        a_row[half * half_k + (high ? 1 : 2)] = std::ldexp(1.0, a_exponent);
    }
    // Every value is exact in the type, or bits_of throws here rather than on the GPU.
    for (double v : p.a) (void)bits_of(input, v);
    for (double v : p.b) (void)bits_of(input, v);
    return p;
}

std::vector<std::uint16_t> probe_a_bits(const ProbeOperands& probe) {
    std::vector<std::uint16_t> bits(probe.a.size());
    for (std::size_t i = 0; i < bits.size(); ++i) bits[i] = bits_of(probe.input, probe.a[i]);
    return bits;
}

std::vector<std::uint16_t> probe_b_bits(const ProbeOperands& probe) {
    std::vector<std::uint16_t> bits(probe.b.size());
    for (int kk = 0; kk < probe.k; ++kk)
        for (int n = 0; n < kProbeCols; ++n)
            bits[static_cast<std::size_t>(n) * probe.k + kk] = bits_of(probe.input, probe.b[static_cast<std::size_t>(kk) * kProbeCols + n]);
    return bits;
}

std::vector<double> exact_sums(const ProbeOperands& probe) {
    std::vector<double> sums(static_cast<std::size_t>(kProbeRows) * kProbeCols, 0.0);
    for (int row = 0; row < kProbeRows; ++row)
        for (int n = 0; n < kProbeCols; ++n) {
            const std::size_t cell = static_cast<std::size_t>(row) * kProbeCols + n;
            double sum = probe.accumulate ? probe.c_start[cell] : 0.0;
            for (int kk = 0; kk < probe.k; ++kk)
                sum += probe.a[static_cast<std::size_t>(row) * probe.k + kk] * probe.b[static_cast<std::size_t>(kk) * kProbeCols + n];
            sums[cell] = sum;
        }
    return sums;
}

// ---- [SECTION] Simulator and decoder ------------------------------------------------------------

const char* rounding_name(AccumulatorRounding rounding) {
    switch (rounding) {
        case AccumulatorRounding::TowardZero: return "truncated toward zero";
        case AccumulatorRounding::Down: return "truncated toward minus infinity";
        case AccumulatorRounding::Nearest: return "rounded to nearest";
        case AccumulatorRounding::Unknown: break;
    }
    return "rounding not told apart";
}

namespace {

// The model's sum of `terms` (exact doubles), as an FP32 d register would hold it.
float model_sum(const std::vector<double>& terms, const AccumulatorModel& model) {
    int largest = std::numeric_limits<int>::min();
    for (double t : terms)
        if (t != 0.0) largest = std::max(largest, std::ilogb(t));
    if (largest == std::numeric_limits<int>::min()) return 0.0f;
    const int grid_exponent = largest - model.fraction_bits;
    double sum = 0.0;
    for (double t : terms) {
        const double scaled = std::ldexp(t, -grid_exponent);  // exact
        double kept;
        switch (model.rounding) {
            case AccumulatorRounding::Down: kept = std::floor(scaled); break;
            case AccumulatorRounding::Nearest: kept = std::nearbyint(scaled); break;  // the default mode: ties to even
            default: kept = std::trunc(scaled); break;
        }
        sum += std::ldexp(kept, grid_exponent);  // exact: the terms' grid points span few bits here
    }
    float result = static_cast<float>(sum);  // to nearest
    if (model.final_toward_zero && std::fabs(static_cast<double>(result)) > std::fabs(sum))
        result = std::nextafter(result, 0.0f);
    return result;
}

bool same_float(float a, float b) { return a == b || (std::isnan(a) && std::isnan(b)); }

std::vector<double> cell_products(const ProbeOperands& probe, int row, int n) {
    std::vector<double> terms;
    terms.reserve(static_cast<std::size_t>(probe.k) + 1);
    if (probe.accumulate) terms.push_back(probe.c_start[static_cast<std::size_t>(row) * kProbeCols + n]);
    for (int kk = 0; kk < probe.k; ++kk) {
        const double product = probe.a[static_cast<std::size_t>(row) * probe.k + kk] * probe.b[static_cast<std::size_t>(kk) * kProbeCols + n];
        if (product != 0.0) terms.push_back(product);
    }
    return terms;
}

// The ladder of column 0 in one half of K: the largest j kept with all smaller kept, and whether any
// larger j was kept after a dropped one. Only j ≤ 23 can show: FP32 holds 2^16 + 2^(16−j) up to there.
void read_ladder(const ProbeOperands& probe, const std::vector<float>& outputs, int half, int& bits, bool& consistent) {
    constexpr int kLargestVisibleJ = 23;
    std::vector<int> kept(kLargestVisibleJ + 1, -1);
    for (int row = 0; row < kProbeRows; ++row) {
        const int j = probe.row_j[row];
        if (probe.row_half[row] != half || j < 1 || j > kLargestVisibleJ) continue;
        const float exact = static_cast<float>(std::ldexp(1.0, kBigExponent) + std::ldexp(1.0, kBigExponent - j));
        kept[j] = outputs[static_cast<std::size_t>(row) * kProbeCols] == exact ? 1 : 0;
    }
    bits = 0;
    while (bits < kLargestVisibleJ && kept[bits + 1] == 1) ++bits;
    consistent = true;
    for (int j = bits + 1; j <= kLargestVisibleJ; ++j)
        if (kept[j] != 0) consistent = false;  // a larger j survived (or was not asked)
}

}  // namespace

std::vector<float> simulate_probe(const ProbeOperands& probe, const AccumulatorModel& model) {
    std::vector<float> out(static_cast<std::size_t>(kProbeRows) * kProbeCols);
    for (int row = 0; row < kProbeRows; ++row)
        for (int n = 0; n < kProbeCols; ++n)
            out[static_cast<std::size_t>(row) * kProbeCols + n] = model_sum(cell_products(probe, row, n), model);
    return out;
}

AccumulatorFinding decode_probe(const ProbeOperands& probe, const std::vector<float>& outputs) {
    AccumulatorFinding finding;
    finding.ran = true;
    finding.outputs = outputs;
    if (outputs.size() != static_cast<std::size_t>(kProbeRows) * kProbeCols) {
        finding.note = format_text("{} outputs, not {}", outputs.size(), kProbeRows * kProbeCols);
        return finding;
    }
    bool first_consistent = false, other_consistent = false;
    read_ladder(probe, outputs, 0, finding.ladder_bits, first_consistent);
    read_ladder(probe, outputs, 1, finding.ladder_bits_other_half, other_consistent);
    finding.ladder_consistent = first_consistent && other_consistent;

    constexpr AccumulatorRounding kModes[] = {AccumulatorRounding::TowardZero, AccumulatorRounding::Down,
                                              AccumulatorRounding::Nearest};
    int best_mismatches = std::numeric_limits<int>::max();
    AccumulatorModel best;
    std::vector<AccumulatorModel> fitting;
    for (int f = 1; f <= kMaxFractionBits; ++f)
        for (AccumulatorRounding mode : kModes)
            for (bool final_toward_zero : {false, true}) {
            const AccumulatorModel model{f, mode, final_toward_zero};
            const std::vector<float> simulated = simulate_probe(probe, model);
            int mismatches = 0;
            for (std::size_t i = 0; i < simulated.size(); ++i) mismatches += !same_float(simulated[i], outputs[i]);
            if (mismatches == 0) fitting.push_back(model);
            if (mismatches < best_mismatches) best_mismatches = mismatches, best = model;
        }
    if (fitting.empty()) {
        finding.cells_unexplained = best_mismatches;
        finding.fraction_bits = best.fraction_bits;
        finding.rounding = best.rounding;
        finding.note = format_text("no accumulator of 1 to {} fraction bits explains every cell: the closest, {} bits {}, "
                                   "misses {} of {}; the ladder of single bits says {}{}",
                                   kMaxFractionBits, best.fraction_bits, rounding_name(best.rounding), best_mismatches,
                                   outputs.size(), finding.ladder_bits,
                                   finding.ladder_consistent ? "" : " (and it is not monotone)");
        return finding;
    }
    finding.explained = true;
    finding.fraction_bits = fitting.front().fraction_bits;
    finding.fraction_bits_max = fitting.back().fraction_bits;
    finding.at_least = finding.fraction_bits_max == kMaxFractionBits;
    finding.rounding = fitting.front().rounding;
    finding.final_toward_zero = true;
    for (const AccumulatorModel& m : fitting) {
        if (m.rounding != finding.rounding) finding.rounding = AccumulatorRounding::Unknown;
        finding.final_toward_zero = finding.final_toward_zero && m.final_toward_zero;
    }
    finding.note = describe_bits(finding);
    if (finding.ladder_bits != std::min(finding.fraction_bits, 23) && !finding.at_least)
        finding.note += format_text(" (the ladder of single bits says {})", finding.ladder_bits);
    return finding;
}

std::optional<std::string> check_identity(const ProbeOperands& probe, const std::vector<float>& outputs) {
    const std::vector<double> exact = exact_sums(probe);
    if (outputs.size() != exact.size()) return format_text("{} outputs, not {}", outputs.size(), exact.size());
    int wrong = 0;
    std::string first;
    for (std::size_t i = 0; i < exact.size(); ++i)
        if (!same_float(outputs[i], static_cast<float>(exact[i]))) {
            if (wrong++ == 0)
                first = format_text("C[{}][{}] = {}, exactly {}", i / kProbeCols, i % kProbeCols, outputs[i], exact[i]);
        }
    if (wrong == 0) return std::nullopt;
    return format_text("{} of {} cells of small integer sums are wrong (first: {}): the operands' layout in shared "
                       "memory or the accumulators' layout in registers is not what the kernel assumes",
                       wrong, exact.size(), first);
}

// ---- [SECTION] Error growth with K --------------------------------------------------------------

std::vector<int> growth_ks() {
    std::vector<int> ks;
    for (int k = kPromotionK; k <= kGrowthLargestK; k *= 2) ks.push_back(k);
    return ks;
}

GrowthInputs make_growth_inputs(AccumulatorInput input, int k, std::uint64_t seed) {
    if (k <= 0 || k % kPromotionK != 0) throw std::invalid_argument("make_growth_inputs: K must be a multiple of 128");
    GrowthInputs g;
    g.input = input;
    g.k = k;
    const int fraction_bits = std::min(format_of(input).fraction_bits, 7);
    const auto value = [&](std::uint64_t which, std::size_t index) {
        const std::uint64_t r = mix(seed * 0x100000001B3ull + (which << 40) + index);
        const double fraction = static_cast<double>(r & ((1ull << fraction_bits) - 1)) / static_cast<double>(1ull << fraction_bits);
        return std::ldexp(1.0 + fraction, (r >> 32) & 1 ? 0 : -1);  // [0.5, 2)
    };
    g.a.resize(static_cast<std::size_t>(kProbeRows) * k);
    g.b.resize(static_cast<std::size_t>(k) * kProbeCols);
    for (std::size_t i = 0; i < g.a.size(); ++i) g.a[i] = value(1, i);
    for (std::size_t i = 0; i < g.b.size(); ++i) g.b[i] = value(2, i);
    return g;
}

std::vector<std::uint8_t> growth_a_images(const GrowthInputs& inputs, const SmemDescriptor& layout) {
    const int step_k = wgmma_k_of(inputs.input);
    std::vector<std::uint8_t> images;
    images.reserve(static_cast<std::size_t>(inputs.k / step_k) * kProbeRows * kWgmmaKBytes);
    std::vector<std::uint16_t> bits(static_cast<std::size_t>(kProbeRows) * step_k);
    for (int step = 0; step < inputs.k / step_k; ++step) {
        for (int row = 0; row < kProbeRows; ++row)
            for (int c = 0; c < step_k; ++c)
                bits[static_cast<std::size_t>(row) * step_k + c] =
                    bits_of(inputs.input, inputs.a[static_cast<std::size_t>(row) * inputs.k + step * step_k + c]);
        const std::vector<std::uint8_t> image = operand_image(inputs.input, bits, kProbeRows, layout);
        images.insert(images.end(), image.begin(), image.end());
    }
    return images;
}

std::vector<std::uint8_t> growth_b_images(const GrowthInputs& inputs, const SmemDescriptor& layout) {
    const int step_k = wgmma_k_of(inputs.input);
    std::vector<std::uint8_t> images;
    images.reserve(static_cast<std::size_t>(inputs.k / step_k) * kProbeCols * kWgmmaKBytes);
    std::vector<std::uint16_t> bits(static_cast<std::size_t>(kProbeCols) * step_k);
    for (int step = 0; step < inputs.k / step_k; ++step) {
        for (int n = 0; n < kProbeCols; ++n)
            for (int c = 0; c < step_k; ++c)
                bits[static_cast<std::size_t>(n) * step_k + c] =
                    bits_of(inputs.input, inputs.b[static_cast<std::size_t>(step * step_k + c) * kProbeCols + n]);
        const std::vector<std::uint8_t> image = operand_image(inputs.input, bits, kProbeCols, layout);
        images.insert(images.end(), image.begin(), image.end());
    }
    return images;
}

std::vector<double> growth_reference(const GrowthInputs& inputs, int k) {
    std::vector<double> sums(static_cast<std::size_t>(kProbeRows) * kProbeCols, 0.0);
    for (int row = 0; row < kProbeRows; ++row)
        for (int n = 0; n < kProbeCols; ++n) {
            double sum = 0.0;
            for (int kk = 0; kk < k; ++kk)
                sum += inputs.a[static_cast<std::size_t>(row) * inputs.k + kk] * inputs.b[static_cast<std::size_t>(kk) * kProbeCols + n];
            sums[static_cast<std::size_t>(row) * kProbeCols + n] = sum;
        }
    return sums;
}

GrowthPoint growth_point(int k, const std::vector<double>& exact, const std::vector<float>& never,
                         const std::vector<float>& promoted) {
    GrowthPoint point;
    point.k = k;
    const std::size_t cells = std::min({exact.size(), never.size(), promoted.size()});
    std::size_t counted = 0;
    for (std::size_t i = 0; i < cells; ++i) {
        // A NaN (a cell the kernel never wrote) is counted apart: it would poison the max and the mean.
        if (std::isnan(never[i]) || std::isnan(promoted[i])) {
            ++point.nan_cells;
            continue;
        }
        const double never_error = std::fabs(never[i] - exact[i]) / std::fabs(exact[i]);
        const double promoted_error = std::fabs(promoted[i] - exact[i]) / std::fabs(exact[i]);
        point.never_max = std::max(point.never_max, never_error);
        point.promoted_max = std::max(point.promoted_max, promoted_error);
        point.never_mean += never_error;
        point.promoted_mean += promoted_error;
        ++counted;
    }
    if (counted > 0) {
        point.never_mean /= static_cast<double>(counted);
        point.promoted_mean /= static_cast<double>(counted);
    }
    return point;
}

std::vector<GrowthPoint> simulate_growth(const GrowthInputs& inputs, const AccumulatorModel& model) {
    const int step_k = wgmma_k_of(inputs.input);
    const std::size_t cells = static_cast<std::size_t>(kProbeRows) * kProbeCols;
    std::vector<float> never(cells, 0.0f), promoted(cells, 0.0f), block(cells, 0.0f);
    std::vector<double> exact(cells, 0.0);
    std::vector<GrowthPoint> points;
    const std::vector<int> ks = growth_ks();
    std::vector<double> terms;
    for (int step = 0; step < inputs.k / step_k; ++step) {
        const bool block_start = (step * step_k) % kPromotionK == 0;
        for (int row = 0; row < kProbeRows; ++row)
            for (int n = 0; n < kProbeCols; ++n) {
                const std::size_t cell = static_cast<std::size_t>(row) * kProbeCols + n;
                terms.clear();
                for (int c = 0; c < step_k; ++c) {
                    const int kk = step * step_k + c;
                    const double product = inputs.a[static_cast<std::size_t>(row) * inputs.k + kk] * inputs.b[static_cast<std::size_t>(kk) * kProbeCols + n];
                    terms.push_back(product);
                    exact[cell] += product;
                }
                terms.push_back(never[cell]);
                never[cell] = model_sum(terms, model);
                terms.back() = block_start ? 0.0 : block[cell];
                block[cell] = model_sum(terms, model);
            }
        const int done = (step + 1) * step_k;
        if (done % kPromotionK == 0)
            for (std::size_t cell = 0; cell < cells; ++cell) promoted[cell] += block[cell];  // FP32 registers
        if (std::find(ks.begin(), ks.end(), done) != ks.end()) points.push_back(growth_point(done, exact, never, promoted));
    }
    return points;
}

// ---- [SECTION] Report and words -----------------------------------------------------------------

std::string describe_bits(const AccumulatorFinding& finding) {
    if (!finding.ran) return "not measured";
    if (!finding.explained) {
        if (!finding.note.empty()) return finding.note;
        return "no simple accumulator explains the outputs";
    }
    std::string bits;
    if (finding.at_least) bits = format_text("at least {} fraction bits (as many as the FP32 output shows)", finding.fraction_bits);
    else if (finding.fraction_bits_max != finding.fraction_bits)
        bits = format_text("{} to {} fraction bits", finding.fraction_bits, finding.fraction_bits_max);
    else bits = format_text("{} fraction bits", finding.fraction_bits);
    return format_text("{}, {}{}", bits, rounding_name(finding.rounding),
                       finding.final_toward_zero ? ", the sum cut to FP32 toward zero" : "");
}

std::string describe_type_report(const AccumulatorTypeReport& report) {
    std::string text = format_text("{}:\n", accumulator_input_title(report.input));
    if (!report.identity_passed) {
        text += format_text("  identity check failed: {}\n  (bits below are not trustworthy)\n", report.identity_note);
    } else if (report.layout_swapped) {
        text += "  identity check passed only with LBO and SBO traded in the descriptors (see docs)\n";
    }
    text += format_text("  inside one wgmma:   {}\n", describe_bits(report.inside));
    if (report.inside.ran && report.inside.ladder_bits_other_half != report.inside.ladder_bits)
        text += format_text("    with the small product in the other half of K: {} bits\n", report.inside.ladder_bits_other_half);
    text += format_text("  across k-steps:     {}\n", describe_bits(report.across));
    return text;
}

std::string accumulator_method_text() {
    return "Each probe is one m64n8 wgmma. Row r adds a big term, 2^16, and one small product 2^(16-j), "
           "j = 1..31 (rows 32-63 do it again with the small product in the other half of K); FP32 holds "
           "2^16 + 2^(16-j) exactly up to j = 23, so an output of exactly 2^16 means the tensor cores dropped the "
           "small product. The eight columns repeat the row with the small product times 1, 1.5, 1.75, 1.25 "
           "and their negatives, which tells truncation from rounding. 'Inside one wgmma' has the big term as a "
           "product of the same wgmma; 'across k-steps' starts the accumulators at 2^16 and the wgmma adds only "
           "the small product, as a running sum over K's steps does. The answer is the accumulator model (f "
           "fraction bits kept below the largest term's leading bit, and how the rest is cut) that gives every "
           "one of the 512 outputs exactly. An identity probe of small integer sums, which any accumulator gets "
           "right, checks the operands' layout first.";
}

std::string promotion_explanation(int fraction_bits) {
    const bool known = fraction_bits > 0;
    const std::string f = known ? std::to_string(fraction_bits) : std::string("f");
    // A product's bits that survive when the running sum is 2^above times its size.
    const auto kept = [&](int above) {
        if (!known) return format_text("{} − {} of its bits", f, above);
        if (fraction_bits > above) return format_text("{} of its bits", fraction_bits - above);
        return std::string("none of its bits: a product that size is dropped whole");
    };
    return format_text(
        "Why promoting every 128 of K bounds the error: the accumulator keeps {} bits below the leading bit of its "
        "running sum S, so each product added to S loses up to S·2^-{}. Within a block of 128 of K, S is at most 128 "
        "products, 2^7 times one, so each product keeps {}, and the block's partial is off by at most about 128·2^-{} "
        "of itself whatever K is (far less on average). The partials are added in FP32 registers, which keep 23 bits. "
        "Without promotion S grows with K: at K = 16384 it is 2^14 times one product, so each new product keeps {}; "
        "the error grows about in proportion to K.",
        f, f, kept(7), f, kept(14));
}

}  // namespace ts::model
