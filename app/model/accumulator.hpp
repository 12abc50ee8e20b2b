// accumulator.hpp — how many mantissa bits the tensor cores' accumulator keeps, measured: the probe
// inputs, a simulator of an accumulator that keeps f fraction bits, the decoder that reads the
// answer out of the FP32 outputs, and the error of a long sum with and without promotion.
//
// [SECTION] Element types: FP8 e4m3, BF16 and FP16 as exact bit patterns
// [SECTION] Operand images: one wgmma's A or B as K-major, unswizzled shared memory (descriptor.hpp)
// [SECTION] Probes: one m64n8 wgmma's A, B and starting accumulators, and what each cell asks
// [SECTION] Simulator and decoder: an accumulator of f fraction bits; which f explains the outputs
// [SECTION] Error growth with K: never promoted against promoted every 128 of K
// [SECTION] Report and words
//
// The idea. A probe cell sums a big term, 2^16, and one small product v·2^(16−j). FP32 holds that
// sum exactly for j ≤ 23 (v = 1), so an output of exactly 2^16 means the tensor cores dropped the
// small product: they keep fewer than j bits below the leading bit of the big term. Row r of the
// m64 tile asks one j, so one wgmma asks 31 of them at once; the eight columns of n8 ask it with
// eight signs and sizes of v (1, 1.5, 1.75, 1.25 and their negatives), which tell truncation from
// rounding. "Inside one wgmma" the big term is a product of the same wgmma; "across k-steps" it is
// the accumulator's starting value, set in the d registers, and the wgmma (scale-d = 1) adds only
// the small products: the addition into the running sum that DeepSeek-V3 (arXiv 2412.19437,
// §3.3.2) describes.
//
// Bits are counted as fraction bits below the leading one, as IEEE counts a mantissa: FP32 keeps
// 23. The FP32 output shows at most 23 (24 with the last conversion's rounding), so an answer at
// the top reads "at least".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensor_core/descriptor.hpp"

namespace ts::model {

// ---- [SECTION] Element types ---------------------------------------------------------------------

enum class AccumulatorInput { Fp8E4m3, Bf16, Fp16 };
inline constexpr AccumulatorInput kAccumulatorInputs[] = {AccumulatorInput::Fp8E4m3, AccumulatorInput::Bf16,
                                                          AccumulatorInput::Fp16};

const char* accumulator_input_name(AccumulatorInput input);  // "fp8", "bf16", "fp16"
const char* accumulator_input_title(AccumulatorInput input); // "FP8 e4m3", "BF16", "FP16"
std::optional<AccumulatorInput> parse_accumulator_input(const std::string& name);
// "all": the three; one type's name: that one; anything else: none.
std::vector<AccumulatorInput> accumulator_inputs_named(const std::string& name);

// K of one wgmma: 32 for FP8 (m64nNk32), 16 for BF16 and FP16 (m64nNk16); bytes of one element.
int wgmma_k_of(AccumulatorInput input);
int element_bytes_of(AccumulatorInput input);

// The bits of `value` in the type, when the type holds it exactly; nullopt otherwise.
std::optional<std::uint16_t> exact_element_bits(AccumulatorInput input, double value);
// The value of a bit pattern (NaN for e4m3's NaN patterns, ±inf for the 16-bit types' infinities).
double element_value(AccumulatorInput input, std::uint16_t bits);

// ---- [SECTION] Operand images -------------------------------------------------------------------

// Rows of the probe's A (m64) and columns of its C (n8): one warpgroup's m64n8 wgmma.
inline constexpr int kProbeRows = 64;
inline constexpr int kProbeCols = 8;

// The layout one wgmma's operand of `rows` rows (64 for A, 8 for B's N) and wgmma_k_of(input) of K
// is given in shared memory: K-major, no swizzle, 8×16-byte core matrices (descriptor.hpp's
// k_major_descriptor), starting at address 0: the 8-row groups 128 bytes apart (SBO), K's two
// columns of core matrices rows·16 bytes apart (LBO).
SmemDescriptor operand_layout(AccumulatorInput input, int rows);
// The descriptor the kernel is given for that image: the layout's, or with `swapped` its LBO and SBO
// traded. The runner tries the swapped one only when the documented one fails the identity probe,
// so that a misreading of the PTX ISA's two offsets shows as such, not as a wrong number of bits.
SmemDescriptor operand_descriptor(AccumulatorInput input, int rows, bool swapped);
// rows × wgmma_k_of(input) element bits (row-major) placed where `layout` puts them: rows·32 bytes.
std::vector<std::uint8_t> operand_image(AccumulatorInput input, const std::vector<std::uint16_t>& bits, int rows,
                                        const SmemDescriptor& layout);

// ---- [SECTION] Probes ---------------------------------------------------------------------------

// The big term, 2^16, and the largest j asked (its small product is 2^(16−31) = 2^-15, which every
// type's products reach from normal or subnormal inputs).
inline constexpr int kBigExponent = 16;
inline constexpr int kLargestJ = 31;
// The eight v of the columns: the small product of cell (r, n) is v[n]·2^(16−j).
inline constexpr double kProbeScales[kProbeCols] = {1.0, 1.5, 1.75, 1.25, -1.0, -1.5, -1.75, -1.25};

enum class ProbeKind {
    Identity,        // small integers everywhere: every accumulator gets them exactly (a layout check)
    InsideWgmma,     // big and small products in one wgmma, accumulators start at 0
    AcrossSteps,     // accumulators start at 2^16 (d registers), the wgmma adds only small products
    IdentityAcross,  // the identity with accumulators that start at small integers (scale-d = 1)
};

// One wgmma's operands, as values (every one exact in the type), with what each cell asks.
struct ProbeOperands {
    AccumulatorInput input = AccumulatorInput::Fp8E4m3;
    ProbeKind kind = ProbeKind::Identity;
    int k = 32;                       // wgmma_k_of(input)
    std::vector<double> a;            // kProbeRows × k, row-major
    std::vector<double> b;            // k × kProbeCols: b[k·8 + n]
    std::vector<float> c_start;       // kProbeRows × kProbeCols: the accumulators before the wgmma
    bool accumulate = false;          // wgmma's scale-d: add to c_start (true) or write A·B (false)
    // Per row: the j it asks (0 for the identity and for a control row that holds the big term
    // alone), and which 16-byte half of K holds its small product (0 or 1).
    std::vector<int> row_j;
    std::vector<int> row_half;
};
ProbeOperands make_probe(AccumulatorInput input, ProbeKind kind);
// The images of A and B for the kernel, and the bit patterns they hold (row-major A, N×K B).
std::vector<std::uint16_t> probe_a_bits(const ProbeOperands& probe);
std::vector<std::uint16_t> probe_b_bits(const ProbeOperands& probe);  // B transposed: n·k + kk

// The exact sum of every cell in double (the products and c_start are exact there).
std::vector<double> exact_sums(const ProbeOperands& probe);

// ---- [SECTION] Simulator and decoder ------------------------------------------------------------

enum class AccumulatorRounding {
    Unknown,
    TowardZero,  // each term's magnitude cut at the grid (sign and magnitude): small negatives are dropped
    Down,        // each term rounded toward −∞ at the grid (two's complement truncation)
    Nearest,     // each term rounded to the nearest grid point, ties to even
};
const char* rounding_name(AccumulatorRounding rounding);

// An accumulator that aligns every term of a cell (products and the starting value) to the largest
// term's exponent E, keeps each at the grid 2^(E − fraction_bits) as `rounding` says, adds them
// exactly, and rounds the sum to FP32 as the d register holds it: to nearest, or with
// `final_toward_zero` toward zero (what the H100's BF16 and FP16 wgmma do).
struct AccumulatorModel {
    int fraction_bits = 23;
    AccumulatorRounding rounding = AccumulatorRounding::TowardZero;
    bool final_toward_zero = false;
};
std::vector<float> simulate_probe(const ProbeOperands& probe, const AccumulatorModel& model);

// The fraction bits the decoder tries: 1 to kMaxFractionBits. Past about 25 every candidate gives
// FP32's own answer, so the top of the range reads "at least".
inline constexpr int kMaxFractionBits = 30;

// What a probe's outputs say.
struct AccumulatorFinding {
    bool ran = false;
    std::vector<float> outputs;          // kProbeRows × kProbeCols, as the GPU wrote them
    // The ladder of column 0 (v = +1): the largest j whose small product survived with every
    // smaller j surviving too (0: not even j = 1), and whether a larger j survived after one was
    // dropped (inconsistent), per half of K.
    int ladder_bits = -1;
    int ladder_bits_other_half = -1;
    bool ladder_consistent = false;
    // The models (simulate_probe) that give every cell exactly: the fewest fraction bits among them,
    // whether more bits also fit ("at least"), and the rounding when all fitting models share it.
    bool explained = false;
    int fraction_bits = -1;
    int fraction_bits_max = -1;          // the most among them (equal to fraction_bits when one fits)
    bool at_least = false;               // fraction_bits_max is kMaxFractionBits: FP32 shows no more
    AccumulatorRounding rounding = AccumulatorRounding::Unknown;
    bool final_toward_zero = false;      // every fitting model cuts the sum to FP32 toward zero
    int cells_unexplained = 0;           // of the best model, when none explains every cell
    std::string note;                    // in words: the answer, or what disagrees
};
AccumulatorFinding decode_probe(const ProbeOperands& probe, const std::vector<float>& outputs);

// The identity probes: every cell equal to its exact sum. nullopt when so, else which cells are not.
std::optional<std::string> check_identity(const ProbeOperands& probe, const std::vector<float>& outputs);

// ---- [SECTION] Error growth with K --------------------------------------------------------------

inline constexpr int kPromotionK = 128;   // promote every 128 of K, as DeepSeek-V3 does
inline constexpr int kGrowthLargestK = 16384;
// The Ks reported: 128, 256, ..., 16384 (a point at the end of every power-of-two count of blocks).
std::vector<int> growth_ks();

// Deterministic positive inputs in [0.5, 2) with the type's fraction bits (at most 3 for FP8):
// A is kProbeRows × k row-major, B is k × kProbeCols (b[k·8 + n]).
struct GrowthInputs {
    AccumulatorInput input = AccumulatorInput::Fp8E4m3;
    int k = 0;
    std::vector<double> a;
    std::vector<double> b;
};
GrowthInputs make_growth_inputs(AccumulatorInput input, int k, std::uint64_t seed);
// The per-wgmma images, one after another: A's for step s at s·64·32 bytes, B's at s·8·32.
std::vector<std::uint8_t> growth_a_images(const GrowthInputs& inputs, const SmemDescriptor& layout);
std::vector<std::uint8_t> growth_b_images(const GrowthInputs& inputs, const SmemDescriptor& layout);
// The exact sums over the first `k` of K of every cell, in double (FP8 products have 8 bits, BF16's
// 16, FP16's 22: a sum of 16384 of them in [2^-2, 2^2) stays exact in 53 bits).
std::vector<double> growth_reference(const GrowthInputs& inputs, int k);

struct GrowthPoint {
    int k = 0;
    double never_max = 0.0;      // max over cells of |gpu − exact| / exact, one wgmma chain over all of K
    double never_mean = 0.0;
    double promoted_max = 0.0;   // each 128-K block's partial added into FP32 registers
    double promoted_mean = 0.0;
    int nan_cells = 0;           // outputs that are NaN (either way): left out of the max and mean, counted here
};
// One point from the GPU's two outputs (kProbeRows × kProbeCols each) against the exact sums.
GrowthPoint growth_point(int k, const std::vector<double>& exact, const std::vector<float>& never,
                         const std::vector<float>& promoted);
// What the model of an accumulator gives for the same sums (for the tests, and to compare the
// measured growth with the bits found): the chain and the promoted sums per growth_ks().
std::vector<GrowthPoint> simulate_growth(const GrowthInputs& inputs, const AccumulatorModel& model);

// ---- [SECTION] Report and words -----------------------------------------------------------------

struct AccumulatorTypeReport {
    AccumulatorInput input = AccumulatorInput::Fp8E4m3;
    bool identity_passed = false;
    std::string identity_note;           // which cells of the identity were wrong, or empty
    bool layout_swapped = false;         // the identity passed only with LBO and SBO traded
    AccumulatorFinding inside;           // big and small products in one wgmma
    AccumulatorFinding across;           // the small product added to 2^16 in the accumulators
    std::vector<GrowthPoint> growth;
};
struct AccumulatorReport {
    std::string device;                  // "NVIDIA H100 80GB HBM3"
    std::vector<AccumulatorTypeReport> types;
};

// "13 bits (truncated toward zero)", "at least 23 bits", or why there is no answer.
std::string describe_bits(const AccumulatorFinding& finding);
// The whole answer for one type, a few lines.
std::string describe_type_report(const AccumulatorTypeReport& report);
// What the probes measure and how, in a paragraph.
std::string accumulator_method_text();
// Why promoting every 128 of K bounds the error, with the bits found (fraction_bits < 0: in general).
std::string promotion_explanation(int fraction_bits);

}  // namespace ts::model
