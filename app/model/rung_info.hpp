// rung_info.hpp — one row per kernel: its name, file and element types, the GPU it needs, its
// place on a ladder, its colour role, whether the latency plot shows it at first, and what it
// changed from the rung below. kernel_name, --kernel's help and parsing, the menus, bench's
// plans, the lab's checkboxes, the ladder view's bars and the lessons' rung lists all read this
// table: adding a rung means a kernel file, a launcher, its KernelKind (kernel_kind.hpp) and one
// row here, at the same place.
//
// [SECTION] What a row holds: RungInfo and its enums
// [SECTION] The table: kRungTable
// [SECTION] Lists derived at compile time: kAllKernelKinds, kTensorCoreKinds, kLadderKinds, kLabRungNames
// [SECTION] Reading the table at run time: rung_table, find_rung, rungs_on, lab_rungs
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

#include "kernel_kind.hpp"
#include "problem.hpp"

namespace ts::model {

// ---- [SECTION] What a row holds ---------------------------------------------------------------

// The two ladders the ladder view draws, one above the other; None for the kernels on neither.
enum class Ladder { None, Fp32, TensorCores };

// The oldest GPU a kernel runs on: any CUDA GPU (the pipelined rungs copy without cp.async
// before sm_80); sm_80 (BF16 and FP16 mma.sync, cp.async); sm_90a (wgmma, TMA, setmaxnreg).
enum class Arch { Any, Sm80, Sm90a };

// The element types a kernel has a version for, as a set of model::Dtype.
struct DtypeSet {
    unsigned bits = 0;
    constexpr bool has(Dtype dtype) const { return (bits >> static_cast<unsigned>(dtype)) & 1u; }
};
constexpr DtypeSet dtype_set(std::initializer_list<Dtype> dtypes) {
    DtypeSet set;
    for (Dtype d : dtypes) set.bits |= 1u << static_cast<unsigned>(d);
    return set;
}

// What a kernel's curve and bar are drawn in, as a role the views' theme turns into colours
// (views/common/theme.hpp: rung_curve_colour): each rung's hue in the latency plot, told apart
// from the others there. The ladder view's bars darken up each ladder by position instead.
enum class RungColour : std::uint8_t {
    None,  // no curve of its own
    Naive, NaiveRowFromX, Tiled,
    Teal, Olive, Mustard, Orange, Wine, Rose, Green,                // the FP32 rungs
    Brown, Violet, Cerulean, Magenta, Moss, DarkBrown, Crimson,  // the tensor cores' rungs
    Amber, Indigo,                                               // the FP8 rungs
    Cublas,
};

// How the latency plot treats a kernel: by controls of its own or not at all (Own: the naive
// kernels' block shape, the tiled kernel's T, cuBLAS always), or by a rung checkbox shown
// unticked (Off) or ticked (On) at first.
enum class LabPlot : std::uint8_t { Own, Off, On };

struct RungInfo {
    KernelKind kind = KernelKind::Naive;
    std::string_view name;           // "regtile-1d": --kernel's word, the menus', the points' config
    std::string_view file;           // "06_regtile_1d.cu", in kernels/; empty for cuBLAS
    DtypeSet dtypes;                 // the element types it has a kernel for
    Arch arch = Arch::Any;
    Ladder ladder = Ladder::None;    // the ladder it is a rung of
    int position = -1;               // its place on that ladder, 0 at the foot
    RungColour colour = RungColour::None;
    LabPlot lab = LabPlot::Own;
    bool tuned = false;              // its shape is a choice among candidates (KernelConfig::variant)
    // What changed from the rung below, in a sentence or two: the ladder view's hover and the
    // lessons' context. The texts follow the opening lines of each kernel file; where a rung's gain
    // lies outside the counts, the text says so, because the hover shows the counts' prediction.
    std::string_view change;
};

// ---- [SECTION] The table ------------------------------------------------------------------------

namespace rung_dtypes {
inline constexpr DtypeSet kCudaCore = dtype_set({Dtype::Int32, Dtype::Float32, Dtype::Float64});
// From the vectorized rung on, the ladder moves four floats per 128-bit instruction.
inline constexpr DtypeSet kFloat = dtype_set({Dtype::Float32});
inline constexpr DtypeSet kHalf = dtype_set({Dtype::BFloat16, Dtype::Float16});
inline constexpr DtypeSet kFp8 = dtype_set({Dtype::Fp8E4M3});
// cuBLAS's int32 GEMM is missing, said by app/gpu/cublas_library.hpp, which knows more; its fp8
// line is cuBLASLt's FP8 GEMM (app/gpu/cublaslt_library.hpp).
inline constexpr DtypeSet kAll =
    dtype_set({Dtype::Int32, Dtype::Float32, Dtype::Float64, Dtype::BFloat16, Dtype::Float16, Dtype::Fp8E4M3});
}  // namespace rung_dtypes

// One row per KernelKind, in its order (static_asserted below).
inline constexpr RungInfo kRungTable[] = {
    {KernelKind::Naive, "naive", "01_naive.cu", rung_dtypes::kCudaCore, Arch::Any, Ladder::None, -1,
     RungColour::Naive, LabPlot::Own, false, ""},
    {KernelKind::NaiveRowFromX, "naive-row", "02_naive_row_from_x.cu", rung_dtypes::kCudaCore, Arch::Any,
     Ladder::None, -1, RungColour::NaiveRowFromX, LabPlot::Own, false, ""},
    {KernelKind::RowPerThread, "row-per-thread", "03_row_per_thread.cu", rung_dtypes::kCudaCore, Arch::Any,
     Ladder::None, -1, RungColour::None, LabPlot::Own, false, ""},
    {KernelKind::ColumnPerThread, "column-per-thread", "04_column_per_thread.cu", rung_dtypes::kCudaCore,
     Arch::Any, Ladder::None, -1, RungColour::None, LabPlot::Own, false, ""},
    {KernelKind::Tiled, "tiled", "05_tiled.cu", rung_dtypes::kCudaCore, Arch::Any, Ladder::Fp32, 0,
     RungColour::Tiled, LabPlot::Own, false,
     "The base: 32×32 tiles of A and B staged in shared memory, one cell of C per thread. Every FMA needs two "
     "loads from shared memory."},
    {KernelKind::RegTile1d, "regtile-1d", "06_regtile_1d.cu", rung_dtypes::kCudaCore, Arch::Any, Ladder::Fp32, 1,
     RungColour::Teal, LabPlot::Off, false,
     "Each thread computes 8 cells of a column of C and keeps one value of B in a register for 8 FMAs: 9 shared "
     "loads per 8 FMAs instead of 2 per FMA. 64×64 block tiles halve the global loads."},
    {KernelKind::RegTile2d, "regtile-2d", "07_regtile_2d.cu", rung_dtypes::kCudaCore, Arch::Any, Ladder::Fp32, 2,
     RungColour::Olive, LabPlot::Off, false,
     "Each thread computes an 8×8 register tile as outer products: 16 shared loads feed 64 FMAs. 128×128 block "
     "tiles halve the global loads again."},
    {KernelKind::Vectorized, "vectorized", "08_vectorized.cu", rung_dtypes::kFloat, Arch::Any, Ladder::Fp32, 3,
     RungColour::Mustard, LabPlot::Off, false,
     "Loads and stores move four floats per 128-bit instruction, and As is stored transposed so a thread's values "
     "of A sit side by side: a quarter of the load instructions for the same bytes."},
    {KernelKind::ConflictFree, "conflict-free", "09_conflict_free.cu", rung_dtypes::kFloat, Arch::Any, Ladder::Fp32,
     4, RungColour::Orange, LabPlot::Off, false,
     "Each thread's columns are split into two halves 64 apart and As is padded, so threads no longer collide in a "
     "shared-memory bank. The counts equal the vectorized rung's: bank conflicts are not in them."},
    // Warptile and tuned are plotted at first: the last big idea, and the rung at cuBLAS speed.
    {KernelKind::Warptile, "warptile", "10_warptile.cu", rung_dtypes::kFloat, Arch::Any, Ladder::Fp32, 5,
     RungColour::Wine, LabPlot::On, false,
     "A warp level between block and thread: each warp owns a 64×64 tile, each thread four 8×4 tiles in it, and K "
     "moves 16 at a time, so 24 floats read from shared memory feed 128 FMAs."},
    {KernelKind::Pipelined, "pipelined", "11_pipelined.cu", rung_dtypes::kFloat, Arch::Any, Ladder::Fp32, 6,
     RungColour::Rose, LabPlot::Off, false,
     "Four K steps are in flight at once through cp.async, so the next steps' loads overlap this step's products. "
     "The counts equal warptile's: waiting on memory, which this removes, is not in them."},
    {KernelKind::Tuned, "tuned", "12_tuned.cu", rung_dtypes::kFloat, Arch::Any, Ladder::Fp32, 7, RungColour::Green,
     LabPlot::On, true,
     "The pipelined kernel compiled for the shape the tuner measured fastest on this GPU and size: small tiles "
     "where large ones would leave SMs idle, 128×256 tiles where they fit."},
    // The tensor cores: of them mma-async and persistent are plotted at first, the Ampere recipe
    // and the Hopper one. The texts follow each kernel's opening lines.
    {KernelKind::Wmma, "wmma", "13_wmma.cu", rung_dtypes::kHalf, Arch::Sm80, Ladder::TensorCores, 0,
     RungColour::Brown, LabPlot::Off, false,
     "Tensor cores through the WMMA API: one wmma::mma_sync multiplies 16×16 tiles of A and B (4,096 multiply-adds) "
     "with the whole warp taking part. BF16 inputs, FP32 sums; 128×128 block tiles, one stage of shared memory."},
    {KernelKind::Mma, "mma", "14_mma.cu", rung_dtypes::kHalf, Arch::Sm80, Ladder::TensorCores, 1, RungColour::Violet,
     LabPlot::Off, false,
     "The instruction under WMMA: mma.sync.m16n8k16, its registers filled by ldmatrix from shared memory, each "
     "lane's elements as the PTX ISA lays them out. C is written straight from the accumulators."},
    {KernelKind::MmaAsync, "mma-async", "15_mma_async.cu", rung_dtypes::kHalf, Arch::Sm80, Ladder::TensorCores, 2,
     RungColour::Cerulean, LabPlot::On, false,
     "The Ampere recipe: XOR-swizzled tiles (no bank conflicts, no padding) and four stages filled by cp.async "
     "three K steps ahead. On Ampere it reaches cuBLAS; on Hopper the warps spend their time issuing."},
    {KernelKind::Wgmma, "wgmma", "16_wgmma.cu", rung_dtypes::kHalf, Arch::Sm90a, Ladder::TensorCores, 3,
     RungColour::Magenta, LabPlot::Off, false,
     "Hopper's own path: wgmma.mma_async, four warps multiplying 64×128 over 16 of K from shared memory through "
     "descriptors, and TMA copying each K step's swizzled tiles from one thread into a ring of mbarriers."},
    {KernelKind::WarpSpecialized, "warp-specialized", "17_warp_specialized.cu", rung_dtypes::kHalf, Arch::Sm90a,
     Ladder::TensorCores, 4, RungColour::Moss, LabPlot::Off, false,
     "A producer warpgroup only copies and two consumer warpgroups only multiply, each handing stages to the other "
     "through the ring's mbarriers; setmaxnreg gives the consumers the registers for 128×256 tiles."},
    {KernelKind::Persistent, "persistent", "18_persistent.cu", rung_dtypes::kHalf, Arch::Sm90a, Ladder::TensorCores,
     5, RungColour::DarkBrown, LabPlot::On, false,
     "One cluster per pair of SMs walks many tiles in an L2-friendly order, the two CTAs sharing B's tile by TMA "
     "multicast, and C leaves through shared memory by TMA stores while the next tile starts."},
    {KernelKind::TcTuned, "tc-tuned", "19_tc_tuned.cu", rung_dtypes::kHalf, Arch::Sm90a, Ladder::TensorCores, 6,
     RungColour::Crimson, LabPlot::Off, true,
     "The persistent kernel compiled for the shape the tuner measured fastest on this GPU and size: 128×128 tiles "
     "where 128×256 would leave most SMs idle, clusters or none, a fourth stage where C goes out a slab at a "
     "time, and every SM to the end where the last round is shared out along K (stream-K)."},
    // The FP8 rungs climb on from tc-tuned: the same ladder, each in its own type (ladder_dtype).
    {KernelKind::Fp8, "fp8", "20_fp8.cu", rung_dtypes::kFp8, Arch::Sm90a, Ladder::TensorCores, 7, RungColour::Amber,
     LabPlot::Off, false,
     "Eight bits: e4m3 inputs, so each wgmma (m64n256k32) does twice the multiply-adds of a 16-bit one on the same "
     "bytes. FP8 wgmma reads both operands K-major, so B is stored N×K; one scale per tensor multiplies C in the "
     "epilogue."},
    {KernelKind::Fp8Blocks, "fp8-blocks", "21_fp8_blocks.cu", rung_dtypes::kFp8, Arch::Sm90a, Ladder::TensorCores, 8,
     RungColour::Indigo, LabPlot::Off, false,
     "DeepSeek's block scales: A's per row per 128 of K, B's per 128×128 block. Every K step's products are "
     "promoted into FP32 sums times their scales, which also keeps the tensor cores' 13-bit sums short."},
    {KernelKind::Cublas, "cublas", "", rung_dtypes::kAll, Arch::Any, Ladder::None, -1, RungColour::Cublas,
     LabPlot::Own, false, ""},
};

namespace detail {
// Row i is KernelKind i, and each ladder's rows follow each other from position 0 up, so that
// filtering the table in its order lists every ladder in climbing order.
constexpr bool rows_in_order() {
    int next_position[3] = {0, 0, 0};
    for (std::size_t i = 0; i < std::size(kRungTable); ++i) {
        const RungInfo& row = kRungTable[i];
        if (static_cast<std::size_t>(row.kind) != i || row.name.empty()) return false;
        if (row.ladder == Ladder::None) {
            if (row.position != -1) return false;
        } else if (row.position != next_position[static_cast<int>(row.ladder)]++) {
            return false;
        }
    }
    return static_cast<std::size_t>(KernelKind::Cublas) + 1 == std::size(kRungTable);
}
static_assert(rows_in_order(), "kRungTable: one row per KernelKind in its order, each ladder climbing from 0");

template <bool (*Keep)(const RungInfo&)>
constexpr std::size_t count_rows() {
    std::size_t n = 0;
    for (const RungInfo& row : kRungTable) n += Keep(row) ? 1 : 0;
    return n;
}
template <bool (*Keep)(const RungInfo&)>
constexpr auto kinds_where() {
    std::array<KernelKind, count_rows<Keep>()> kinds{};
    std::size_t i = 0;
    for (const RungInfo& row : kRungTable)
        if (Keep(row)) kinds[i++] = row.kind;
    return kinds;
}
constexpr bool any_row(const RungInfo&) { return true; }
constexpr bool on_tensor_cores(const RungInfo& row) { return row.ladder == Ladder::TensorCores; }
constexpr bool past_tiled(const RungInfo& row) { return row.ladder == Ladder::Fp32 && row.position > 0; }
constexpr bool has_rung_checkbox(const RungInfo& row) { return row.lab != LabPlot::Own; }
}  // namespace detail

// ---- [SECTION] Lists derived at compile time ----------------------------------------------------

// Every kernel, in teaching order.
inline constexpr auto kAllKernelKinds = detail::kinds_where<detail::any_row>();
// The tensor-core rungs, in order.
inline constexpr auto kTensorCoreKinds = detail::kinds_where<detail::on_tensor_cores>();
// The ladder's rungs past the tiled kernel (is_ladder), in order.
inline constexpr auto kLadderKinds = detail::kinds_where<detail::past_tiled>();

// The names of the rungs the latency plot has a checkbox for, in lab_rungs' order (the FP32
// ladder's, then the tensor cores', each climbing, whatever the rows' order between ladders):
// what the settings file's latency_rungs may name.
inline constexpr auto kLabRungNames = [] {
    std::array<std::string_view, detail::count_rows<detail::has_rung_checkbox>()> names{};
    std::size_t i = 0;
    for (Ladder ladder : {Ladder::None, Ladder::Fp32, Ladder::TensorCores})
        for (const RungInfo& row : kRungTable)
            if (row.ladder == ladder && detail::has_rung_checkbox(row)) names[i++] = row.name;
    return names;
}();

// ---- [SECTION] Reading the table at run time ---------------------------------------------------

// The table every reader goes through: kRungTable, or the one a test put in its place.
std::span<const RungInfo> rung_table();
// The row of `kind`; null for a kind the table does not hold.
const RungInfo* find_rung(KernelKind kind);
// The rows of `ladder`, from its foot up.
std::vector<RungInfo> rungs_on(Ladder ladder);
// The rows the latency plot has a checkbox for, in the order of the checkboxes: the FP32
// ladder's, then the tensor cores', each from its foot up.
std::vector<RungInfo> lab_rungs();
// Which of lab_rungs the latency plot shows at first (LabPlot::On), one flag per checkbox.
std::vector<bool> lab_rung_defaults();

// For tests: while it lives, rung_table() is `table`, so a test can add a row and see it reach
// bench's plans, the lab's checkboxes and the ladder view. `table` must outlive it.
class ScopedRungTable {
public:
    explicit ScopedRungTable(std::span<const RungInfo> table);
    ~ScopedRungTable();
    ScopedRungTable(const ScopedRungTable&) = delete;
    ScopedRungTable& operator=(const ScopedRungTable&) = delete;

private:
    std::span<const RungInfo> m_previous;
};

}  // namespace ts::model
