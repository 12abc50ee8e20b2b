// ladder_access.hpp — what one thread and one warp of a ladder rung touch in one K step,
// for the theatre: the global→shared load instructions (a float4 is one instruction over
// four slots), the fragments of As and Bs a thread reads into registers for each k, the
// shared-memory banks of one warp's access and how many wavefronts it costs, and the
// pipeline's stages.
//
// Everything is derived from the index functions of ladder.hpp, which the kernels call too:
// a slot drawn here is the slot the kernel writes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ladder.hpp"
#include "tile_schedule.hpp"

namespace ts::model {

// The thread of a block that owns cell (row, col) of the block's BM×BN tile: the inverse of
// ladder_tile_row/col (warp tile, then sub-tile, then the lane's register tile in it).
int ladder_thread_of_tile_cell(LadderShape s, int row, int col);

// ---- Global → shared loads ------------------------------------------------------------------

// One load instruction of one thread in a K step: `width` consecutive elements of one row of
// the A tile (BM×BK) or the B tile (BK×BN), from (row, col) of the tile, and the slots of As
// or Bs they land in (for a float4 of A in a transposed As: four slots, one per row of As).
struct LadderLoad {
    Operand operand = Operand::A;
    int instruction = 0;   // i in the kernel's load loop
    int row = 0, col = 0;  // first element, in the tile
    int width = 1;         // elements read by the one instruction: 1 or 4
    int slots[4] = {0, 0, 0, 0};
};

// The thread's loads of one K step, A's first: a_loads_per_thread() + b_loads_per_thread().
std::vector<LadderLoad> ladder_thread_loads(LadderShape s, int thread);

// A float4 of A landing in a transposed As is four 32-bit stores (parts), one per row of As;
// every other load is stored as it was read, in one.
bool stored_in_parts(LadderShape s, const LadderLoad& load);

// Which thread loads element (row, col) of the A tile (or B tile), and with which instruction.
struct LoadOwner {
    int thread = 0;
    int instruction = 0;
};
LoadOwner ladder_load_owner(LadderShape s, Operand operand, int row, int col);

// ---- Fragments: what a thread reads from As and Bs for one k ---------------------------------

// One shared-memory read into registers: `width` consecutive slots from `slot` (4: one
// 128-bit load), feeding registers [first_register, first_register + width) of the thread's
// A fragment (all wm_iter × TM values) or B fragment (wn_iter × TN).
struct FragmentRead {
    Operand operand = Operand::A;
    int slot = 0;
    int width = 1;
    int first_register = 0;
    int tile_row = 0, tile_col = 0;  // the first element read, in the A tile (row, k) or B tile (k, col)
};

// The reads of thread `thread` for k index `k` (0..BK-1) of a step, A's first, in the order
// the kernel issues them.
std::vector<FragmentRead> ladder_fragment_reads(LadderShape s, int thread, int k);

// ---- Banks ----------------------------------------------------------------------------------

// One lane's part of a warp-wide shared-memory instruction: `width` words (4 bytes each) from
// word `slot` of one array.
struct LaneAccess {
    int lane = 0;
    int slot = 0;
    int width = 1;
};

// Shared memory has 32 banks of 4-byte words; word w sits in bank w mod 32. A warp's request
// is served in phases: all 32 lanes together for 32-bit accesses, 16 lanes at a time for
// 64-bit, 8 (a quarter-warp) for 128-bit. Within a phase, lanes that want the same word share
// it (broadcast); different words in one bank are served one per wavefront.
struct BankMap {
    int phases = 1;           // lanes served together: 32 / width at a time
    int wavefronts = 0;       // what the request costs
    int ideal = 0;            // what it would cost with no conflict: one per phase
    int degree = 1;           // the most distinct words one bank serves in one phase (n-way)
    std::vector<int> banks;   // bank of each word accessed, lane by lane: lanes × width
    std::vector<int> words;   // the words themselves, same order
    std::vector<int> lanes;
    std::vector<int> phase_of; // the phase each word is served in
};
BankMap bank_map(const std::vector<LaneAccess>& accesses);

// The 32 lanes of warp `warp` doing load instruction `instruction` of `operand`: the stores
// into As (part `part` of a float4 of A, which goes into the transposed As as four separate
// 32-bit stores) or Bs.
std::vector<LaneAccess> warp_store_accesses(LadderShape s, int warp, Operand operand, int instruction, int part = 0);
// The 32 lanes of warp `warp` doing fragment read `read` (an index into
// ladder_fragment_reads) for k index `k`.
std::vector<LaneAccess> warp_fragment_accesses(LadderShape s, int warp, int k, int read);

// The layout a rung's fix is measured against, for an access of As (operand A) or Bs. As:
// for a padded As, the same shape without the padding; for a transposed As without padding
// (08), padded by 4 as 09 has it; for the scalar rungs, padded by one slot (a fix they do not
// have). Bs: 09 reads a thread's 8 columns as two halves 64 apart, 08 reads them side by
// side; each is compared with the other. nullopt: no comparison (the warp tiles' reads of Bs
// have no conflict to fix). The label says which.
struct LayoutComparison {
    LadderShape other;
    std::string label;  // "without the padding of 4"
};
std::optional<LayoutComparison> layout_comparison(LadderShape s, Operand operand);

// ---- The pipeline --------------------------------------------------------------------------

// What one stage of shared memory holds while the block computes K step `step`, at the
// start of the step (after its copies were issued) — the pipelined rungs (stages > 1) keep
// stages − 1 steps in flight; the others load, wait, compute, one step at a time.
enum class StageUse { Free, Copying, Computing };
struct StageState {
    int stage = 0;
    int k_step = -1;  // the K step it holds (or is filling); -1: nothing
    StageUse use = StageUse::Free;
};
std::vector<StageState> pipeline_stages(LadderShape s, int steps, int step);

}  // namespace ts::model
