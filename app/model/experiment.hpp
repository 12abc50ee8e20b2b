// experiment.hpp — breaking a kernel on purpose: which experiments exist, what each one
// takes out of which real kernel, the guard zones around the operands, what N runs on the
// GPU found, and what an instrumented run saw in shared memory.
//
// Every experiment is its own kernel variant in kernels/experiments/; the real kernels have
// no switch for it. This file knows nothing about CUDA: the runner fills the structs below
// (app/gpu/experiment_runner.cxx), the views and the CLI read them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "index_math.hpp"
#include "kernel_config.hpp"
#include "problem.hpp"

namespace ts::model {

enum class Experiment {
    MissingFirstSync,   // 05 tiled without the barrier between loading a tile and reading it
    MissingSecondSync,  // 05 tiled without the barrier between reading a tile and loading the next
    NoBoundsCheck,      // 05 tiled without its inside() tests: loads and stores past the matrices
    BankConflicts,      // 09 conflict-free with As's padding taken out
};

inline constexpr Experiment kAllExperiments[] = {Experiment::MissingFirstSync, Experiment::MissingSecondSync,
                                                 Experiment::NoBoundsCheck, Experiment::BankConflicts};

// "missing-first-sync", "missing-second-sync", "no-bounds-check", "bank-conflicts"
std::string_view experiment_name(Experiment experiment);
std::optional<Experiment> parse_experiment(std::string_view text);
// "missing-first-sync, missing-second-sync, no-bounds-check, bank-conflicts", for messages.
std::string experiment_names();

// The words the views, the CLI and the lesson show for an experiment.
struct ExperimentText {
    std::string_view title;        // "The first barrier taken out"
    std::string_view removed;      // what the variant leaves out of the real kernel, one sentence
    std::string_view kernel_file;  // the variant's source, "kernels/experiments/05_tiled_missing_first_sync.cu"
    std::string_view real_file;    // the kernel it breaks, "kernels/05_tiled.cu"
    std::string_view predict;      // the question a student answers before running it
    std::string_view expect;       // what usually happens on a real GPU, and why
};
const ExperimentText& experiment_text(Experiment experiment);

// The real kernel an experiment breaks, with its launch parameters: tiled T (T = `tile`) for
// the first three, the conflict-free rung for bank-conflicts (`tile` ignored).
KernelConfig experiment_kernel(Experiment experiment, int tile);

// One size and launch an experiment runs at.
struct ExperimentCase {
    Problem problem;        // float32, batch 1
    KernelConfig kernel;    // experiment_kernel(experiment, tile)
};

// The cases run when none is given: a few sizes and block counts (for no-bounds-check, sizes
// that are not multiples of the tile; for bank-conflicts, sizes large enough to time).
std::vector<ExperimentCase> default_experiment_cases(Experiment experiment);
// Why `c` cannot be run as `experiment` (tile outside 1..32, a dtype other than float, a
// batch, sizes past kMaxExperimentCells, …), or nullopt.
std::optional<std::string> check_experiment_case(Experiment experiment, const ExperimentCase& c);
inline constexpr std::int64_t kMaxExperimentCells = std::int64_t{4096} * 4096;  // M·N of one case
inline constexpr int kDefaultExperimentRuns = 50;
inline constexpr int kMaxExperimentRuns = 10000;

// ---- Guard zones (no-bounds-check) -------------------------------------------------------
// A, B and C each sit between two guard zones of guard_elements() elements filled with the
// poison. A stray read returns the poison, a NaN, so the cell it feeds comes out NaN; a stray
// write changes a guard element, which the runner counts.
inline constexpr std::uint32_t kGuardPoisonBits = 0x7FC0DEADu;  // a quiet NaN with payload 0xDEAD
// Enough for the furthest element the no-bounds-check variant can touch past any of the three
// matrices with tile T: the last tile row reaches (T − 1) rows of the widest operand past its
// end, plus one tile.
std::int64_t guard_elements(const Problem& problem, int tile);

// ---- What N runs found -------------------------------------------------------------------

// How often each cell of C came out wrong, over the runs. Up to kMaxHeatSide cells a side the
// grid is C itself (bin 1×1); past that, each bin covers bin_rows × bin_cols cells and holds
// the runs in which any of its cells was wrong.
inline constexpr int kMaxHeatSide = 256;
struct WrongCellMap {
    int rows = 0, cols = 0;          // bins
    int bin_rows = 1, bin_cols = 1;  // cells of C per bin
    std::vector<std::int32_t> wrong_runs;  // rows × cols, row-major: runs in which a cell of the bin was wrong
};
// The empty map (all zeros) for an M × N C.
WrongCellMap make_wrong_cell_map(std::int64_t m, std::int64_t n);
// Adds one run: `wrong` holds M·N flags, row-major, 1 where the cell was wrong in that run;
// each bin with at least one wrong cell counts one more run.
void add_run(WrongCellMap& map, std::int64_t m, std::int64_t n, std::span<const std::uint8_t> wrong);

struct ExperimentRun {
    Experiment experiment = Experiment::MissingFirstSync;
    ExperimentCase c;
    std::int64_t blocks = 0;          // blocks in the grid
    int runs = 0;                     // launches checked
    int wrong_runs = 0;               // launches with at least one wrong cell
    std::int64_t wrong_cells_worst = 0;  // the most wrong cells in one launch
    std::int64_t wrong_cells_total = 0;  // wrong cells summed over the runs
    std::int64_t cells_ever_wrong = 0;   // cells wrong in at least one run
    double max_error = 0.0;           // largest |gpu − ref| / max(|ref|, 1) over every run, NaN cells left out
    std::int64_t nan_cells = 0;       // cells that came out NaN in some run (the guard poison read)
    std::int64_t stray_writes = 0;    // guard elements of C found changed, summed over the runs
    std::int64_t stray_reads = 0;     // guard elements of A and B that were read (NaN cells traced back); 0 when not known
    WrongCellMap map;
    // bank-conflicts: the broken variant against the real rung, medians of cold-L2 launches.
    double broken_ms = 0.0;
    double real_ms = 0.0;
    std::string note;                 // anything the runner wants said ("3 runs skipped: …"), or empty
};

// ---- What an instrumented run saw (missing-first-sync, missing-second-sync) ------------
// The instrumented variant fills A with A[r][c] = r·K + c + 1 and B with B[r][c] = r·N + c + 1
// (exact in float while M·K and K·N stay under 2^24), so a value read from shared memory says
// which element it is, and so which phase loaded it. Every thread compares what it reads with
// what the phase should hold; a mismatch is recorded as a StaleRead, with the SM clock of the
// read and of the store that put the value there (clock64: comparable within one block).
struct StaleRead {
    int block_x = 0, block_y = 0;
    int phase = 0;                    // the phase the reader was in
    char operand = 'A';               // 'A' (As) or 'B' (Bs)
    int slot_row = 0, slot_col = 0;   // As[slot_row][slot_col] or Bs[slot_row][slot_col]
    int reader_x = 0, reader_y = 0;   // threadIdx of the reader
    std::int64_t read_clock = 0;
    float expected = 0.0f;            // what the slot should have held in this phase
    float got = 0.0f;                 // what the reader read
    // The phase whose element `got` is: phase − 1 (the reader came before this phase's store)
    // or phase + 1 (the writer had already stored the next phase's), checked against this very
    // slot; −1 for anything else: a value left by an earlier block or launch, or never written.
    int value_phase = -1;
    // The thread that stores this slot (it is always the same one: thread (slot_col,
    // slot_row)), and the clock of its store in value_phase when that is the later phase (the
    // writer ran ahead), else of its store in `phase` (the reader came too early); 0 when no
    // store was recorded (clocks are kept for a bounded number of blocks).
    int writer_x = 0, writer_y = 0;
    std::int64_t write_clock = 0;
};

inline constexpr int kMaxStaleReads = 4096;  // recorded per instrumented launch; more are only counted

struct StaleReadReport {
    Experiment experiment = Experiment::MissingFirstSync;
    ExperimentCase c;
    int launches = 0;                 // instrumented launches until one saw stale reads (or gave up)
    std::int64_t reads_checked = 0;   // shared-memory reads compared, in the last launch
    std::int64_t stale_reads = 0;     // of those, stale (may be more than `reads` holds)
    // At most kMaxStaleReads: up to half from phase 0 and the rest from later phases (phase 0's
    // reads are so many they would crowd out every other story), each half with the reads
    // whose clocks agree with their story first.
    std::vector<StaleRead> reads;
};

// What element a value of the instrumented inputs is: A's (row, col) for `of_a`, B's otherwise;
// nullopt when it is not one (poison, zero padding, garbage).
struct ElementPlace {
    std::int64_t row = 0, col = 0;
};
std::optional<ElementPlace> decode_watched_value(float value, const Problem& problem, bool of_a);
// The watched input at (row, col) of a rows × cols operand (A: M × K, B: K × N), 0 outside it
// (what the tiled kernel's zero padding puts in a slot). The kernels call this too.
TS_HOST_DEVICE constexpr float watched_value(long long row, long long col, long long rows, long long cols) {
    return row >= 0 && row < rows && col >= 0 && col < cols ? static_cast<float>(row * cols + col + 1) : 0.0f;
}
// Whether the problem is small enough for exact watched values (M·K and K·N + 1 ≤ 2^24).
bool watchable(const Problem& problem);

// The one stale read a view shows first: the earliest-phase read of the report whose value
// came from another phase of the same block (the clearest story), else the first one.
std::optional<StaleRead> most_telling(const StaleReadReport& report);

// Sentences for a student: what this stale read means ("In phase 0, thread (5, 3) of block
// (1, 0) read As[3][7] …"), and a summary of N runs ("missing-second-sync at 256×256×256, T = 16,
// 256 blocks: 37 of 50 runs wrong, …").
std::string explain_stale_read(Experiment experiment, const StaleRead& read, int tile);
std::string summarize_run(const ExperimentRun& run);
// For no-bounds-check: where the stray accesses of the variant go, worked out from the indices
// (which threads of which blocks are outside C, which cell their store lands on, which loads
// run past A's or B's end). Two to four sentences.
std::string explain_out_of_bounds(const ExperimentCase& c);
// The guard elements after C that one launch of the no-bounds-check variant stores to (the
// distinct indices at or past M·N that its threads' stores reach): what the runner's count of
// stray writes should equal for every run.
std::int64_t predicted_stray_writes(const ExperimentCase& c);

}  // namespace ts::model
