// pipeline.hpp — the Hopper rungs' block (16 wgmma and up): the tile shape, the TMA boxes each
// K step brings into which stage, the ring of stages with its two mbarriers per stage and the
// phase bit every wait names, who does what (producer and consumer warpgroups), and the exact
// counts: wgmma instructions, bytes per stage (the expect_tx), shared memory, accumulators.
//
// The ring. Stage s of `stages` holds K step k when k % stages == s; the round r = k / stages
// counts how often the stage was filled before. Each stage has two mbarriers:
//   full[s]:  the producer arms it (mbarrier.arrive.expect_tx with the stage's bytes) and issues
//             the copies; TMA counts the bytes in as they land. The phase completes when both
//             the one arrival and all the bytes are in. Consumers wait on it.
//   empty[s]: every consumer warpgroup arrives once when its wgmmas on the stage are done (after
//             wgmma.wait_group); the producer waits on it before refilling.
// A barrier's phases count 0, 1, 2, ...; mbarrier.try_wait.parity waits for the phase of the
// given parity to complete, and may name only the current phase or the one just before. So for
// K step k (round r = k / stages) consumers wait on full[s] with parity r & 1, and the producer
// waits on empty[s] with parity (r & 1) ^ 1: in round 0 that names the phase before phase 0,
// which counts as complete, so the first pass through the ring does not wait — the stages start
// empty. In round r ≥ 1 it waits for phase r − 1 of empty[s]: the consumers' release of K step
// k − stages, the stage's previous content.
//
// Everything is constexpr and header-only (TS_HOST_DEVICE), as in ladder.hpp.
#pragma once

#include <cstdint>

#include "descriptor.hpp"
#include "fragments.hpp"
#include "swizzle.hpp"

namespace ts::model {

// The shape of a wgmma block. Warpgroup 0 is the producer when `producer` is set (17 on: it
// issues the copies and computes nothing, with its registers given back by setmaxnreg); without
// it (16) thread 0 of the block issues the copies between its own wgmmas. Consumers split the
// block's BM rows evenly, each in slices of 64 (one wgmma's M), and cover all BN columns in wgmmas
// of N = wgmma_n.
//
// With swap_ab (18) the wgmmas compute the transpose, Cᵀ = Bᵀ·Aᵀ: wgmma's A operand is B's tile,
// read MN-major (N runs along wgmma's M), and its B operand is A's tile, read K-major (M runs along
// wgmma's N). The tiles in shared memory, and the copies that bring them, stay as they are. Then
// the consumers split BN: each takes BN / consumers columns in slices of 64, and covers all BM
// rows in wgmmas of N = wgmma_n. cuBLAS's kernel for TileScope's layout works this way (ncu:
// nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT); wgmma reads either operand MN-major at full
// speed (docs/notes/tc-pipeline.md).
struct WgmmaShape {
    int bm = 128, bn = 128, bk = 64;
    int stages = 4;
    int consumers = 1;  // warpgroups that compute
    bool producer = false;
    int wgmma_n = 128;  // N of each wgmma.mma_async.m64nNk16
    TmaSwizzle swizzle = TmaSwizzle::B128;
    int element_bytes = 2;   // of A and B: 2 for BF16 or FP16, 1 for e4m3 (C is then BF16)
    bool b_k_major = false;  // B stored N×K (K contiguous) rather than TileScope's K×N
    int cluster_m = 1;       // CTAs of a cluster along M that share B's tile through TMA multicast
    bool c_staged = false;   // C leaves through shared memory and TMA stores, not from registers
    bool swap_ab = false;    // the wgmmas compute Cᵀ = Bᵀ·Aᵀ (above)
    // A staged C holds one slab (one span wide: one 64-column slice of a swapped consumer) per
    // consumer at a time, stored before the next is written: a quarter of the shared memory of a
    // whole 128×256 C, room for a stage more (as cuBLAS's nvjet_sm90_tst_256x128_64x4 kernel has).
    bool c_one_slab = false;
    // A persistent launch of every cluster that fits, its last round shared out along K
    // (stream_k.hpp): the parts of a split tile meet in FP32 through global memory.
    bool stream_k = false;

    TS_HOST_DEVICE constexpr int warpgroups() const { return consumers + (producer ? 1 : 0); }
    TS_HOST_DEVICE constexpr int threads() const { return warpgroups() * kWarpgroupSize; }
    TS_HOST_DEVICE constexpr int consumer_rows() const { return swap_ab ? bm : bm / consumers; }
    TS_HOST_DEVICE constexpr int consumer_cols() const { return swap_ab ? bn / consumers : bn; }
    // Per consumer: slices of 64 along wgmma's M (rows of C, or with swap_ab its columns) and of
    // wgmma_n along its N (columns of C, or with swap_ab its rows).
    TS_HOST_DEVICE constexpr int m_slices() const { return (swap_ab ? consumer_cols() : consumer_rows()) / kWgmmaM; }
    TS_HOST_DEVICE constexpr int n_slices() const { return (swap_ab ? bm : bn) / wgmma_n; }
    TS_HOST_DEVICE constexpr int k_slices() const { return bk * element_bytes / kWgmmaKBytes; }
    // The A tile is BM rows of BK; the B tile BK rows of BN (K×N) or BN rows of BK (N×K).
    TS_HOST_DEVICE constexpr int a_tile_bytes() const { return bm * bk * element_bytes; }
    TS_HOST_DEVICE constexpr int b_tile_bytes() const { return bk * bn * element_bytes; }
    TS_HOST_DEVICE constexpr int stage_bytes() const { return a_tile_bytes() + b_tile_bytes(); }
    TS_HOST_DEVICE constexpr int c_tile_bytes() const {
        if (!c_staged) return 0;
        return c_one_slab ? consumers * consumer_rows() * swizzle_span_bytes(swizzle) : bm * bn * element_bytes;
    }
    TS_HOST_DEVICE constexpr int span_elements() const { return swizzle_span_bytes(swizzle) / element_bytes; }

    // Valid when: consumers split BM into 64-row slices; wgmma_n is a wgmma N dividing BN; BK is
    // whole K steps; every TMA box fits (at most 256 elements per dimension, the inner dimension
    // one span wide) and each tile is whole atoms, so every tile and stage starts on the 1024-byte
    // boundary the swizzle needs; the accumulators fit a thread's 255 registers with some room;
    // an N slice of a K×N B is whole atoms wide; a cluster splits B's rows evenly.
    TS_HOST_DEVICE constexpr bool valid() const {
        if (bm <= 0 || bn <= 0 || bk <= 0 || stages < 1 || consumers < 1 || cluster_m < 1) return false;
        const int split = swap_ab ? bn : bm, across = swap_ab ? bm : bn;
        if (split % consumers != 0 || (split / consumers) % kWgmmaM != 0) return false;
        // 16-bit inputs, or e4m3 (20, 21): FP8 wgmma reads both operands K-major, so its B is N×K;
        // its C (BF16) leaves from the registers.
        if (element_bytes != 2 && !(element_bytes == 1 && b_k_major && !swap_ab && !c_staged)) return false;
        if (!wgmma_n_valid(wgmma_n) || across % wgmma_n != 0 || (bk * element_bytes) % kWgmmaKBytes != 0) return false;
        if (swap_ab && b_k_major) return false;
        const int span = swizzle_span_bytes(swizzle);
        const int a_rows = bm, b_rows = b_k_major ? bn : bk, a_row_bytes = bk * element_bytes,
                  b_row_bytes = (b_k_major ? bk : bn) * element_bytes;
        if (a_row_bytes % span != 0 || b_row_bytes % span != 0 || a_rows > 256 || b_rows > 256) return false;
        if (a_rows % 8 != 0 || b_rows % 8 != 0 || a_tile_bytes() % 1024 != 0 || b_tile_bytes() % 1024 != 0)
            return false;
        // K×N B is read MN-major: an N slice (64 wide with swap_ab) must be whole atoms wide.
        if (!b_k_major && ((swap_ab ? kWgmmaM : wgmma_n) * element_bytes) % span != 0) return false;
        if (b_rows % cluster_m != 0 || (b_rows / cluster_m) % 8 != 0) return false;
        // A staged C tile goes out in boxes one span wide and as tall as a consumer's part of C.
        if (c_staged && (consumer_cols() * element_bytes % span != 0 || consumer_rows() > 256 || n_slices() != 1 ||
                         (!swap_ab && m_slices() != 1)))
            return false;
        // One slab at a time: each of a swapped consumer's 64-column slices is one slab.
        if (c_one_slab && (!c_staged || !swap_ab || span_elements() != kWgmmaM)) return false;
        // Only the persistent kernel (a producer, C staged) walks work units.
        if (stream_k && (!producer || !c_staged)) return false;
        // Leave a consumer thread at least 63 of its 255 registers for addresses and loop state.
        return accumulator_registers() <= 192;
    }
    // FP32 accumulators per consumer thread: N/2 per wgmma tile, one tile per 64-row slice and per
    // N slice.
    TS_HOST_DEVICE constexpr int accumulator_registers() const { return m_slices() * n_slices() * wgmma_n / 2; }
    constexpr bool operator==(const WgmmaShape&) const = default;
};

// The rungs' shapes. 16: two warpgroups that both compute, 64 rows each of a 128×128 tile, thread 0
// issuing the copies; 4 stages of 32 KiB. 17: a producer warpgroup and two consumers, each consumer
// 64×256 (one m64n256k16 per K slice, 128 accumulators a thread); 4 stages of 48 KiB.
inline constexpr WgmmaShape kWgmmaShape{.bm = 128, .bn = 128, .bk = 64, .stages = 4, .consumers = 2,
                                        .producer = false, .wgmma_n = 128, .swizzle = TmaSwizzle::B128};
inline constexpr WgmmaShape kWarpSpecializedShape{.bm = 128, .bn = 256, .bk = 64, .stages = 4, .consumers = 2,
                                                  .producer = true, .wgmma_n = 256, .swizzle = TmaSwizzle::B128};
// 18: 17's block in clusters of two CTAs along M that share B's tile, each bringing half of it
// to both by TMA multicast, C staged in shared memory for TMA stores, and the operands swapped
// (swap_ab): each consumer computes 128 columns of C for all 128 rows, two m64n128k16 per K slice
// with B's tile as wgmma's A. The 64 KiB of C leave room for three stages, not four
// (3 · 48 + 64 = 208 KiB of the 227 a block may have).
inline constexpr WgmmaShape kPersistentShape{.bm = 128, .bn = 256, .bk = 64, .stages = 3, .consumers = 2,
                                             .producer = true, .wgmma_n = 128, .swizzle = TmaSwizzle::B128,
                                             .cluster_m = 2, .c_staged = true, .swap_ab = true};
static_assert(kWgmmaShape.valid() && kWarpSpecializedShape.valid() && kPersistentShape.valid());

// 19: 18's kernel compiled for each of these shapes; `tilescope-cli tune --kernel tc-tuned` measures
// them on a GPU at a few sizes and the tuning table (tuning_table.hpp) keeps the fastest per size,
// as 12 does for 11. Candidate 0 is 18's shape, the fallback where nothing was tuned.
// - 1: 128×128 tiles, twice as many as 18's: a 2048² C gives each cluster two, so one tile's
//   epilogue runs under the next one's loads instead of ending the kernel; each consumer computes
//   64 columns (one m64n128k16 per K slice), and the 32 KiB stages leave room for five.
// - 2: 18's shape without the cluster: no multicast, and no CTA waits for its peer to release a
//   stage; B crosses from L2 once per CTA instead of once per pair.
// - 3: 1's tile without the cluster.
// - 4: 18's shape with four stages: C staged one 64-column slab per consumer at a time (16 KiB, not
//   64) leaves the room, as in the kernel cuBLAS picks at 2048³ and 4096³ on an H100
//   (nvjet_sm90_tst_256x128_64x4_1x2: 64 of K, 4 stages, clusters of 2, 213 KiB).
// - 5: 4 on every cluster that fits, the last round shared out along K (stream-K): where the tiles
//   do not make whole rounds (4096³: 256 cluster tiles on 66 clusters), every SM works to the end.
inline constexpr WgmmaShape kTcTunedCandidates[] = {
    kPersistentShape,
    {.bm = 128, .bn = 128, .bk = 64, .stages = 5, .consumers = 2, .producer = true, .wgmma_n = 128,
     .swizzle = TmaSwizzle::B128, .cluster_m = 2, .c_staged = true, .swap_ab = true},
    {.bm = 128, .bn = 256, .bk = 64, .stages = 3, .consumers = 2, .producer = true, .wgmma_n = 128,
     .swizzle = TmaSwizzle::B128, .cluster_m = 1, .c_staged = true, .swap_ab = true},
    {.bm = 128, .bn = 128, .bk = 64, .stages = 5, .consumers = 2, .producer = true, .wgmma_n = 128,
     .swizzle = TmaSwizzle::B128, .cluster_m = 1, .c_staged = true, .swap_ab = true},
    {.bm = 128, .bn = 256, .bk = 64, .stages = 4, .consumers = 2, .producer = true, .wgmma_n = 128,
     .swizzle = TmaSwizzle::B128, .cluster_m = 2, .c_staged = true, .swap_ab = true, .c_one_slab = true},
    {.bm = 128, .bn = 256, .bk = 64, .stages = 4, .consumers = 2, .producer = true, .wgmma_n = 128,
     .swizzle = TmaSwizzle::B128, .cluster_m = 2, .c_staged = true, .swap_ab = true, .c_one_slab = true,
     .stream_k = true},
};
// 20 and 21, e4m3 inputs: 18's persistent grid and clusters, with K steps of 128 bytes as before,
// now 128 elements (four m64n256k32 per consumer and K step), B stored N×K and read K-major like
// A, no operand swap, and C written from the registers after its scale. 20 (per tensor): two
// consumers of 64×256, 128 accumulators a thread, four stages of 48 KiB.
inline constexpr WgmmaShape kFp8Shape{.bm = 128, .bn = 256, .bk = 128, .stages = 4, .consumers = 2,
                                      .producer = true, .wgmma_n = 256, .swizzle = TmaSwizzle::B128,
                                      .element_bytes = 1, .b_k_major = true, .cluster_m = 2};
// 21 (block scales): each K step's products go into a second set of accumulators and are added,
// times their scales, to the FP32 sums: two sets of 64 a thread, so 64×128 per consumer, and the
// 32 KiB stages leave room for six.
inline constexpr WgmmaShape kFp8BlocksShape{.bm = 128, .bn = 128, .bk = 128, .stages = 6, .consumers = 2,
                                            .producer = true, .wgmma_n = 128, .swizzle = TmaSwizzle::B128,
                                            .element_bytes = 1, .b_k_major = true, .cluster_m = 2};
static_assert(kFp8Shape.valid() && kFp8BlocksShape.valid());

inline constexpr int kTcTunedCandidateCount =
    static_cast<int>(sizeof(kTcTunedCandidates) / sizeof(kTcTunedCandidates[0]));

// ---- Roles ----------------------------------------------------------------------------------

enum class TcRole { Producer, Consumer, ProducerAndConsumer };

// Warpgroup `wg` of the block: with a producer, warpgroup 0 produces and 1.. consume; without one
// every warpgroup consumes and warpgroup 0's thread 0 also issues the copies.
TS_HOST_DEVICE constexpr TcRole warpgroup_role(WgmmaShape s, int wg) {
    if (s.producer) return wg == 0 ? TcRole::Producer : TcRole::Consumer;
    return wg == 0 ? TcRole::ProducerAndConsumer : TcRole::Consumer;
}
// The consumer index of warpgroup `wg` (−1 for a producer-only warpgroup).
TS_HOST_DEVICE constexpr int consumer_of_warpgroup(WgmmaShape s, int wg) { return s.producer ? wg - 1 : wg; }
// Cell (row, col) of the block's BM×BN tile held by thread `thread` (0..127) of consumer
// `consumer` in register `reg` of the accumulator tile of slice (m_slice, n_slice). With swap_ab
// the accumulator tile is a piece of Cᵀ: its rows are columns of C, its columns rows of C.
TS_HOST_DEVICE constexpr Cell wgmma_block_cell(WgmmaShape s, int consumer, int m_slice, int n_slice, int thread,
                                               int reg) {
    const Cell c = wgmma_accumulator_cell(thread, reg);
    if (s.swap_ab) return {n_slice * s.wgmma_n + c.col, consumer * s.consumer_cols() + m_slice * kWgmmaM + c.row};
    return {consumer * s.consumer_rows() + m_slice * kWgmmaM + c.row, n_slice * s.wgmma_n + c.col};
}
// The first cell of consumer `consumer`'s part of the block's tile (consumer_rows × consumer_cols).
TS_HOST_DEVICE constexpr Cell consumer_origin(WgmmaShape s, int consumer) {
    return s.swap_ab ? Cell{0, consumer * s.consumer_cols()} : Cell{consumer * s.consumer_rows(), 0};
}

// setmaxnreg: registers per thread are set per warpgroup, in multiples of 8 from 24 to 256, and
// all of them must fit the SM's 64 Ki. With the producer at `producer_registers`, the most each
// consumer thread may ask for (e.g. 24 → 240 for two consumers: (65536 − 128·24) / 256 = 244,
// down to a multiple of 8).
inline constexpr int kRegistersPerSm = 65536;
TS_HOST_DEVICE constexpr int max_consumer_registers(WgmmaShape s, int producer_registers) {
    const int left = kRegistersPerSm - (s.producer ? kWarpgroupSize * producer_registers : 0);
    const int each = left / (kWarpgroupSize * s.consumers) / 8 * 8;
    return each < 256 ? each : 256;
}
TS_HOST_DEVICE constexpr bool setmaxnreg_fits(WgmmaShape s, int producer_registers, int consumer_registers) {
    const auto ok = [](int r) { return r >= 24 && r <= 256 && r % 8 == 0; };
    return ok(consumer_registers) && (!s.producer || ok(producer_registers)) &&
           (s.producer ? producer_registers : 0) * kWarpgroupSize + consumer_registers * kWarpgroupSize * s.consumers <=
               kRegistersPerSm;
}

// ---- Shared memory ----------------------------------------------------------------------------

// Stage s: A's tile then B's, each tma_tile_offset's layout, stage after stage; then C's tile
// where it is staged; then the 2·stages mbarriers (8 bytes each). The whole is dynamic shared
// memory, its start aligned to 1024 bytes (a kernel that rounds its start up to that boundary
// itself asks for up to 1008 bytes more).
inline constexpr int kMbarrierBytes = 8;
TS_HOST_DEVICE constexpr int stage_offset(WgmmaShape s, int stage) { return stage * s.stage_bytes(); }
TS_HOST_DEVICE constexpr int a_tile_offset(WgmmaShape s, int stage) { return stage_offset(s, stage); }
TS_HOST_DEVICE constexpr int b_tile_offset(WgmmaShape s, int stage) {
    return stage_offset(s, stage) + s.a_tile_bytes();
}
TS_HOST_DEVICE constexpr int c_tile_offset(WgmmaShape s) { return s.stages * s.stage_bytes(); }
TS_HOST_DEVICE constexpr int barriers_offset(WgmmaShape s) { return c_tile_offset(s) + s.c_tile_bytes(); }

// Where a staged C keeps element (row, col) of consumer `consumer`'s part (row < consumer_rows,
// col < consumer_cols, from consumer_origin), in bytes from the start of shared memory: each
// consumer's part in column slabs one span wide, swizzled as TMA swizzles an operand
// (tma_tile_offset), so that one TMA store per slab takes them out. The swizzle is also what makes
// the consumers' writes fast: a warp writes 8 rows × 16 bytes of the accumulator layout at a time,
// and the XOR sends the 8 rows to 8 different 16-byte groups of banks (tc_pipeline_test counts the
// wavefronts: one, where the plain row-major tile takes eight).
// With c_one_slab only the slab of `col` is there at a time, so every slab lands in the same place.
TS_HOST_DEVICE constexpr int c_staging_offset(WgmmaShape s, int consumer, int row, int col) {
    const int cols = s.c_one_slab ? s.span_elements() : s.consumer_cols();
    return c_tile_offset(s) + consumer * s.consumer_rows() * cols * s.element_bytes +
           tma_tile_offset(s.swizzle, s.consumer_rows(), row, s.c_one_slab ? col % cols : col, s.element_bytes);
}
// With c_one_slab the last slab need not wait for the store of the slab before it to read the
// staging area: it goes to the consumer's own part of B's tile in the stage that the tile's last
// K step read. With swap_ab a consumer's wgmmas, and only its, read B's columns consumer ·
// consumer_cols onwards (wgmma_a_descriptor), slab after slab of bk rows: bk · consumer_cols
// elements, as many as a slab of C holds. The consumer keeps that stage (does not release it to
// the producer) until the slab's TMA store has read it, early in its next tile.
TS_HOST_DEVICE constexpr bool c_last_slab_in_stage(WgmmaShape s) {
    return s.c_one_slab && s.swap_ab && !s.b_k_major && s.m_slices() >= 2 &&
           s.bk * s.consumer_cols() >= s.consumer_rows() * s.span_elements();
}
// The slab keeps the staging area's layout (consumer 0's slab there, moved).
TS_HOST_DEVICE constexpr int c_slab_in_stage_offset(WgmmaShape s, int stage, int consumer, int row, int col) {
    return b_tile_offset(s, stage) + consumer * s.bk * s.consumer_cols() * s.element_bytes +
           c_staging_offset(s, 0, row, col) - c_tile_offset(s);
}
// With swap_ab a consumer's accumulators are pieces of Cᵀ, and stmatrix...trans writes them back
// the right way round. Instruction `group` (0 .. wgmma_n/16 − 1) of slice `m_slice` stores the
// thread's registers 8·group .. 8·group + 7 as four 8×8 matrices: matrix q gets registers
// 8·group + 2q and + 1, packed in one 32-bit value (a row of the fragment, as mma accumulators
// hold it). Transposed, row i of matrix q is a column of that fragment: 8 neighbouring columns of
// one row of C, 16 bytes, written where lane 8q + i points. This is that place for `thread`, as
// (row, first column) of the consumer's part; tc_pipeline_test checks that every element lands on
// its wgmma_block_cell.
TS_HOST_DEVICE constexpr Cell stmatrix_trans_row(int m_slice, int group, int thread) {
    const int warp = thread >> 5, lane = thread & 31, matrix = lane >> 3, row_in_matrix = lane & 7;
    return {8 * (2 * group + (matrix >> 1)) + row_in_matrix, m_slice * kWgmmaM + 16 * warp + 8 * (matrix & 1)};
}
// TMA stores per consumer and tile: one box per slab, span × consumer_rows elements.
TS_HOST_DEVICE constexpr int c_store_boxes(WgmmaShape s) { return s.consumer_cols() / s.span_elements(); }
TS_HOST_DEVICE constexpr int wgmma_shared_bytes(WgmmaShape s) {
    return barriers_offset(s) + 2 * s.stages * kMbarrierBytes;
}

// ---- TMA boxes --------------------------------------------------------------------------------

// One cp.async.bulk.tensor.2d copy: a box of `inner` × `outer` elements (inner = the contiguous
// dimension, as the tensor map counts it first) from global coordinates (inner_coord,
// outer_coord) into the stage, `smem_offset` bytes from the start of shared memory. Parts of the
// box outside the matrix arrive as zeros and still count in the transaction bytes.
struct TmaBox {
    bool of_a = true;
    int stage = 0;
    int inner = 0, outer = 0;
    int inner_coord = 0, outer_coord = 0;
    int smem_offset = 0;
    int bytes = 0;
    int issuer = 0;  // with a cluster: the CTA rank that issues it, multicast to every CTA; else 0
};

// Boxes per tile: one per span-wide column slab. With a cluster the CTAs share B's boxes out,
// each issuing its share to all: whole slabs where they go round evenly (18's four slabs of a
// K×N tile: two each), else each slab's rows in cluster_m parts (one slab of an N×K tile). Whole
// slabs make fewer, larger copies, and TMA is paced by its copies as much as by their bytes
// (docs/notes/tc-pipeline.md).
TS_HOST_DEVICE constexpr int b_slabs(WgmmaShape s) { return (s.b_k_major ? s.bk : s.bn) / s.span_elements(); }
TS_HOST_DEVICE constexpr bool b_split_by_slab(WgmmaShape s) { return b_slabs(s) % s.cluster_m == 0; }
TS_HOST_DEVICE constexpr int a_boxes(WgmmaShape s) { return s.bk / s.span_elements(); }
TS_HOST_DEVICE constexpr int b_boxes(WgmmaShape s) { return b_split_by_slab(s) ? b_slabs(s) : b_slabs(s) * s.cluster_m; }
// Rows of each B box (the tensor map's box height).
TS_HOST_DEVICE constexpr int b_box_rows(WgmmaShape s) {
    const int rows = s.b_k_major ? s.bn : s.bk;
    return b_split_by_slab(s) ? rows : rows / s.cluster_m;
}
TS_HOST_DEVICE constexpr int boxes_per_stage(WgmmaShape s) { return a_boxes(s) + b_boxes(s); }

// Box `i` (A's first, then B's) of K step `k_step` for the block at (block_m, block_n) of C, into
// stage `stage`. A is M×K: inner = K. B is K×N: inner = N (or N×K: inner = K). A block that takes
// one tile fills stage k_step % stages (the overload below); a persistent one runs its ring on
// across tiles, so the stage follows its count of K steps over every tile, not this tile's k_step.
TS_HOST_DEVICE constexpr TmaBox tma_box(WgmmaShape s, int block_m, int block_n, int k_step, int i, int stage) {
    const int span = s.span_elements();
    if (i < a_boxes(s)) {
        return {.of_a = true,
                .stage = stage,
                .inner = span,
                .outer = s.bm,
                .inner_coord = k_step * s.bk + i * span,
                .outer_coord = block_m * s.bm,
                .smem_offset = a_tile_offset(s, stage) + i * s.bm * span * s.element_bytes,
                .bytes = span * s.bm * s.element_bytes,
                .issuer = 0};
    }
    const int j = i - a_boxes(s);
    const bool by_slab = b_split_by_slab(s);
    const int slab = by_slab ? j : j / s.cluster_m, part = by_slab ? 0 : j % s.cluster_m;
    const int rows = (s.b_k_major ? s.bn : s.bk), part_rows = b_box_rows(s);
    const int slab_bytes = rows * span * s.element_bytes;
    const int inner_coord = s.b_k_major ? k_step * s.bk + slab * span : block_n * s.bn + slab * span;
    const int outer_coord = (s.b_k_major ? block_n * s.bn : k_step * s.bk) + part * part_rows;
    return {.of_a = false,
            .stage = stage,
            .inner = span,
            .outer = part_rows,
            .inner_coord = inner_coord,
            .outer_coord = outer_coord,
            .smem_offset = b_tile_offset(s, stage) + slab * slab_bytes + part * part_rows * span * s.element_bytes,
            .bytes = span * part_rows * s.element_bytes,
            .issuer = by_slab ? slab / (b_slabs(s) / s.cluster_m) : part};
}
TS_HOST_DEVICE constexpr TmaBox tma_box(WgmmaShape s, int block_m, int block_n, int k_step, int i) {
    return tma_box(s, block_m, block_n, k_step, i, k_step % s.stages);
}

// ---- B's slabs in one copy ----------------------------------------------------------------------

// One box per slab makes four copies of 64 × 64 per K step for a 256-wide K×N B tile. Seen through
// a tensor map of four dimensions, (span columns, K rows, N / span slabs, batch), the slabs a CTA
// brings are one box of span × bk × slabs, which TMA lays out slab after slab just where the single
// boxes land: one copy (docs/notes/tc-pipeline.md: what it gained). It needs N to be a whole
// number of spans: no dimension of that map ends at N, so
// the columns of a slab past N would be read from the next row instead of arriving as zeros.
// Elsewhere the kernels copy slab by slab (tma_box).
TS_HOST_DEVICE constexpr bool b_slab_runs(WgmmaShape s, std::int64_t n) {
    return !s.b_k_major && b_split_by_slab(s) && n % s.span_elements() == 0;
}
TS_HOST_DEVICE constexpr int b_run_slabs(WgmmaShape s) { return b_slabs(s) / s.cluster_m; }
struct TmaSlabRun {
    int first_slab = 0;   // the map's third coordinate: slab block_n · b_slabs + ...
    int first_row = 0;    // its second: the K step's first row of B
    int smem_offset = 0;  // bytes from the start of shared memory
    int bytes = 0;
    int issuer = 0;       // the CTA rank that issues it (multicast to every CTA of the cluster)
};
// The run CTA `issuer` brings of K step `k_step` for block column `block_n` into stage `stage`.
TS_HOST_DEVICE constexpr TmaSlabRun b_slab_run(WgmmaShape s, int block_n, int k_step, int issuer, int stage) {
    const int slab_bytes = s.bk * s.span_elements() * s.element_bytes;
    return {block_n * b_slabs(s) + issuer * b_run_slabs(s), k_step * s.bk,
            b_tile_offset(s, stage) + issuer * b_run_slabs(s) * slab_bytes, b_run_slabs(s) * slab_bytes, issuer};
}

// The transaction bytes full[s] expects each K step: the whole stage, whoever issued which part
// (a multicast box counts in every CTA it lands in), out-of-bounds zeros included.
TS_HOST_DEVICE constexpr int expect_tx_bytes(WgmmaShape s) { return s.stage_bytes(); }
// The bytes one CTA asks TMA for per K step: all of A, its part of B.
TS_HOST_DEVICE constexpr int issued_bytes_per_cta(WgmmaShape s) {
    return s.a_tile_bytes() + s.b_tile_bytes() / s.cluster_m;
}

// ---- The ring of stages -------------------------------------------------------------------------

struct StageStep {
    int k_step = 0;
    int stage = 0;
    int round = 0;                // how many times the stage was filled before
    int full_parity = 0;          // consumers: mbarrier.try_wait.parity full[stage], full_parity
    int empty_parity = 1;         // producer: mbarrier.try_wait.parity empty[stage], empty_parity
    bool producer_waits = false;  // false in round 0: the wait returns at once
    int expect_tx = 0;            // bytes the producer arms full[stage] with
};
TS_HOST_DEVICE constexpr StageStep stage_step(WgmmaShape s, int k_step) {
    const int round = k_step / s.stages;
    return {k_step, k_step % s.stages, round, round & 1, (round & 1) ^ 1, round > 0, expect_tx_bytes(s)};
}
// The same walk one step at a time, for a loop that visits every K step in order: the stage and
// its full parity are carried and advanced (a compare and a select), where stage_step divides.
// After `advance` n times from the start it equals stage_step(s, n) (tc_pipeline_test).
struct RingCursor {
    int stage = 0;
    int full_parity = 0;  // the producer's empty parity is its opposite: stage_step
    TS_HOST_DEVICE constexpr int empty_parity() const { return full_parity ^ 1; }
    TS_HOST_DEVICE constexpr void advance(WgmmaShape s) {
        if (++stage == s.stages) {
            stage = 0;
            full_parity ^= 1;
        }
    }
};
// Arrivals that complete a phase: full[s] one (the producer's arrive.expect_tx; the bytes are
// counted apart); empty[s] one per consumer warpgroup of every CTA whose copies write into this
// CTA's stage — with a cluster, a CTA may refill only when all the CTAs it multicasts into
// released it, so every consumer of the cluster arrives on it.
TS_HOST_DEVICE constexpr int full_arrivals(WgmmaShape) { return 1; }
TS_HOST_DEVICE constexpr int empty_arrivals(WgmmaShape s) { return s.consumers * s.cluster_m; }

// The descriptors consumer wgmmas use in stage `stage` for K slice `k_slice` (0..k_slices − 1)
// and row slice `m_slice` of consumer `consumer`: A's 64 rows start m rows into the A tile (a
// whole number of 8-row atoms: + rows·span bytes), B's whole tile (N = wgmma_n: n_slice's part).
// `smem_base` is the shared-window address of dynamic shared memory (aligned to 1024).
// A's tile from row `first_row` on (a whole number of 8-row atoms: + rows·span bytes), K slice
// `k_slice`, K-major.
TS_HOST_DEVICE constexpr SmemDescriptor a_tile_descriptor(WgmmaShape s, std::uint32_t smem_base, int stage,
                                                          int first_row, int k_slice) {
    SmemDescriptor d =
        k_major_descriptor(s.swizzle, s.bm, smem_base + static_cast<std::uint32_t>(a_tile_offset(s, stage)), k_slice);
    d.start_address += static_cast<std::uint32_t>(first_row * swizzle_span_bytes(s.swizzle));
    return d;
}
TS_HOST_DEVICE constexpr SmemDescriptor a_descriptor(WgmmaShape s, std::uint32_t smem_base, int stage, int consumer,
                                                     int m_slice, int k_slice) {
    return a_tile_descriptor(s, smem_base, stage, consumer * s.consumer_rows() + m_slice * kWgmmaM, k_slice);
}
// B's tile from column `first_col` on, for K slice `k_slice`: N×K K-major, or K×N MN-major, where
// a slice starts first_col / span slabs in (or inside one slab).
TS_HOST_DEVICE constexpr SmemDescriptor b_tile_descriptor(WgmmaShape s, std::uint32_t smem_base, int stage,
                                                          int first_col, int k_slice) {
    const auto tile = smem_base + static_cast<std::uint32_t>(b_tile_offset(s, stage));
    if (s.b_k_major) {
        SmemDescriptor d = k_major_descriptor(s.swizzle, s.bn, tile, k_slice);
        d.start_address += static_cast<std::uint32_t>(first_col * swizzle_span_bytes(s.swizzle));
        return d;
    }
    SmemDescriptor d = mn_major_descriptor(s.swizzle, s.bk, tile, k_slice);
    const int col_bytes = first_col * s.element_bytes, span = swizzle_span_bytes(s.swizzle);
    d.start_address += static_cast<std::uint32_t>((col_bytes / span) * s.bk * span + col_bytes % span);
    return d;
}
TS_HOST_DEVICE constexpr SmemDescriptor b_descriptor(WgmmaShape s, std::uint32_t smem_base, int stage, int n_slice,
                                                     int k_slice) {
    return b_tile_descriptor(s, smem_base, stage, n_slice * s.wgmma_n, k_slice);
}

// What wgmma reads as its A and its B: A's and B's tiles, or with swap_ab (Cᵀ = Bᵀ·Aᵀ) B's tile
// as A (the 64 columns of m_slice, MN-major) and A's tile as B (the wgmma_n rows of n_slice,
// K-major).
TS_HOST_DEVICE constexpr SmemDescriptor wgmma_a_descriptor(WgmmaShape s, std::uint32_t smem_base, int stage,
                                                           int consumer, int m_slice, int k_slice) {
    if (!s.swap_ab) return a_descriptor(s, smem_base, stage, consumer, m_slice, k_slice);
    return b_tile_descriptor(s, smem_base, stage, consumer * s.consumer_cols() + m_slice * kWgmmaM, k_slice);
}
TS_HOST_DEVICE constexpr SmemDescriptor wgmma_b_descriptor(WgmmaShape s, std::uint32_t smem_base, int stage,
                                                           int n_slice, int k_slice) {
    if (!s.swap_ab) return b_descriptor(s, smem_base, stage, n_slice, k_slice);
    return a_tile_descriptor(s, smem_base, stage, n_slice * s.wgmma_n, k_slice);
}

// ---- A persistent grid's order of tiles ----------------------------------------------------------

// A persistent kernel launches one cluster per pair of SMs it can hold and lets each cluster walk
// the tiles of C: cluster c takes tiles c, c + clusters, c + 2·clusters, ... of this order. A tile
// here is a cluster tile: cluster_m blocks of BM rows by BN columns (CTA r of the cluster takes
// block row cluster_row·cluster_m + r). The order goes down a group of `group_rows` cluster rows
// before moving one column right, so the tiles that run at the same time share few rows of A and
// few columns of B, and those stay in L2 while every cluster reads them.
struct ClusterTile {
    int batch = 0;
    int cluster_row = 0;  // block rows cluster_row·cluster_m ... + cluster_m − 1
    int col = 0;          // block column
    constexpr bool operator==(const ClusterTile&) const = default;
};
TS_HOST_DEVICE constexpr int cluster_rows_of(WgmmaShape s, int m) { return ceil_div(m, s.bm * s.cluster_m); }
TS_HOST_DEVICE constexpr int block_cols_of(WgmmaShape s, int n) { return ceil_div(n, s.bn); }
TS_HOST_DEVICE constexpr ClusterTile persistent_tile(int index, int cluster_rows, int cols, int group_rows) {
    const int per_batch = cluster_rows * cols;
    const int batch = index / per_batch, t = index % per_batch;
    const int group_size = group_rows * cols;
    const int first_row = (t / group_size) * group_rows;
    const int rows = cluster_rows - first_row < group_rows ? cluster_rows - first_row : group_rows;
    const int in_group = t % group_size;
    return {batch, first_row + in_group % rows, in_group / rows};
}
// How many clusters a persistent launch runs: as few as finish the tiles in as many rounds as the
// most that fit (`most`) would, ceil(tiles / rounds). Every cluster then takes the same number of
// tiles, give or take one, where the most that fit would leave the last round part-empty and
// only add to the traffic of the others (docs/notes/tc-pipeline.md: what it gained).
TS_HOST_DEVICE constexpr int balanced_clusters(std::int64_t tiles, int most) {
    if (tiles <= 0 || most <= 0) return 0;
    const std::int64_t rounds = (tiles + most - 1) / most;
    return static_cast<int>((tiles + rounds - 1) / rounds);
}

// 8 cluster rows (2,048 rows of A for 18; 17 takes the same order, a tile a block) by as many
// columns as the clusters reach: the 66 clusters an H100 holds at once cover 8 × 8 or 9 tiles,
// 2,048 rows of A and about as many columns of B, which the clusters walk along K together.
inline constexpr int kPersistentGroupRows = 8;

// ---- Descriptors as sums -----------------------------------------------------------------------

// Within a block's shared memory (below 256 KiB, so every start address fits the descriptor's 14
// bits) a descriptor's start address is the only field that changes from stage to stage and K slice
// to K slice, and the encoded start is address >> 4: so the descriptor of (stage, k slice) is the
// one of (0, 0) plus a whole number. A kernel computes the first with a_descriptor/b_descriptor once
// and adds these, rather than spending instructions between its wgmmas on the whole arithmetic
// (tc_kinds_test checks the sums against a_descriptor and b_descriptor).
TS_HOST_DEVICE constexpr std::uint64_t a_descriptor_step(WgmmaShape s, int stage, int k_slice) {
    return (static_cast<std::uint64_t>(wgmma_a_descriptor(s, 0, stage, 0, 0, k_slice).start_address) -
            wgmma_a_descriptor(s, 0, 0, 0, 0, 0).start_address) >> 4;
}
// From a consumer's first 64-slice of wgmma's M to slice `m_slice`.
TS_HOST_DEVICE constexpr std::uint64_t a_slice_step(WgmmaShape s, int m_slice) {
    return (static_cast<std::uint64_t>(wgmma_a_descriptor(s, 0, 0, 0, m_slice, 0).start_address) -
            wgmma_a_descriptor(s, 0, 0, 0, 0, 0).start_address) >> 4;
}
TS_HOST_DEVICE constexpr std::uint64_t b_descriptor_step(WgmmaShape s, int stage, int k_slice) {
    return (static_cast<std::uint64_t>(wgmma_b_descriptor(s, 0, stage, 0, k_slice).start_address) -
            wgmma_b_descriptor(s, 0, 0, 0, 0).start_address) >> 4;
}

// ---- Counts ---------------------------------------------------------------------------------------

// wgmma.mma_async instructions: per consumer warpgroup and K step, per block and K step, and per
// block for a K of `k` (K steps rounded up: the last step's missing K arrives as zeros).
TS_HOST_DEVICE constexpr int wgmmas_per_consumer_step(WgmmaShape s) {
    return s.m_slices() * s.n_slices() * s.k_slices();
}
TS_HOST_DEVICE constexpr int wgmmas_per_block_step(WgmmaShape s) { return s.consumers * wgmmas_per_consumer_step(s); }
TS_HOST_DEVICE constexpr int wgmma_k_steps(WgmmaShape s, int k) { return ceil_div(k, s.bk); }
TS_HOST_DEVICE constexpr std::int64_t wgmmas_per_block(WgmmaShape s, int k) {
    return static_cast<std::int64_t>(wgmmas_per_block_step(s)) * wgmma_k_steps(s, k);
}
// Multiply-adds one wgmma does: 64 · N · K, K = 16 for 16-bit inputs, 32 for e4m3 (32 bytes of K).
TS_HOST_DEVICE constexpr std::int64_t wgmma_macs(int n, int element_bytes = 2) {
    return static_cast<std::int64_t>(kWgmmaM) * n * (kWgmmaKBytes / element_bytes);
}

}  // namespace ts::model
