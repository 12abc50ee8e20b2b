// The wgmma block: counts worked by hand, accumulators covering the block's tile once, TMA boxes
// covering each tile once and landing where the descriptors look, and C staged in shared memory.
// The ring of stages under simulated mbarriers is ring_test.cxx; the shapes both run over,
// test_shapes.hpp.
//
// Sections: counts and owners; TMA boxes (slab runs, balanced clusters, boxes against
// descriptors); staged C (slots, stmatrix .trans, bank wavefronts).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "model/tensor_core/pipeline.hpp"
#include "test_shapes.hpp"

namespace ts::model {
namespace {

using namespace test_shapes;

// ---- Counts and owners ------------------------------------------------------------------------------

TEST(TcPipeline, CountsWorkedByHand) {
    const WgmmaShape s = kWarpSpecialized;
    EXPECT_EQ(s.threads(), 384);                // producer + 2 consumers
    EXPECT_EQ(s.m_slices(), 1);                 // 64 rows per consumer
    EXPECT_EQ(s.k_slices(), 4);                 // BK 64 = 4 × 16
    EXPECT_EQ(wgmmas_per_consumer_step(s), 4);  // 1 × 1 × 4 of m64n256k16
    EXPECT_EQ(wgmmas_per_block_step(s), 8);
    EXPECT_EQ(s.accumulator_registers(), 128);  // 256 / 2
    EXPECT_EQ(s.a_tile_bytes(), 16384);         // 128 × 64 × 2
    EXPECT_EQ(s.b_tile_bytes(), 32768);         // 64 × 256 × 2
    EXPECT_EQ(expect_tx_bytes(s), 49152);
    EXPECT_EQ(wgmma_shared_bytes(s), 4 * 49152 + 8 * 8);  // 196,672 bytes: under the H100's 227 KiB
    EXPECT_EQ(wgmmas_per_block(s, 4096), 64 * 8);
    EXPECT_EQ(wgmmas_per_block(s, 4097), 65 * 8);  // the last K step is partial but whole wgmmas
    // 16: one consumer, two 64-row slices of 128×128.
    EXPECT_EQ(kWgmma16.threads(), 128);
    EXPECT_EQ(wgmmas_per_consumer_step(kWgmma16), 2 * 1 * 4);
    EXPECT_EQ(kWgmma16.accumulator_registers(), 2 * 64);
    EXPECT_EQ(wgmma_shared_bytes(kWgmma16), 4 * (16384 + 16384) + 64);
}

TEST(TcPipeline, WgmmasDoExactlyTheBlocksMultiplyAdds) {
    for (const WgmmaShape& s : kShapes)
        for (int k : {64, 1000, 4096})
            EXPECT_EQ(wgmmas_per_block(s, k) * wgmma_macs(s.wgmma_n, s.element_bytes),
                      static_cast<std::int64_t>(s.bm) * s.bn * wgmma_k_steps(s, k) * s.bk);
}

TEST(TcPipeline, EveryCellOfTheBlockTileHasOneOwner) {
    for (const WgmmaShape& s : kShapes) {
        std::vector<int> owners(s.bm * s.bn, 0);
        for (int wg = 0; wg < s.warpgroups(); ++wg) {
            if (warpgroup_role(s, wg) == TcRole::Producer) continue;
            const int consumer = consumer_of_warpgroup(s, wg);
            for (int mi = 0; mi < s.m_slices(); ++mi)
                for (int ni = 0; ni < s.n_slices(); ++ni)
                    for (int t = 0; t < kWarpgroupSize; ++t)
                        for (int reg = 0; reg < wgmma_accumulator_registers(s.wgmma_n); ++reg) {
                            const Cell c = wgmma_block_cell(s, consumer, mi, ni, t, reg);
                            ASSERT_TRUE(c.row >= 0 && c.row < s.bm && c.col >= 0 && c.col < s.bn);
                            owners[c.row * s.bn + c.col] += 1;
                        }
        }
        for (int o : owners) ASSERT_EQ(o, 1);
    }
}

TEST(TcPipeline, RolesAndRegisters) {
    EXPECT_EQ(warpgroup_role(kWarpSpecialized, 0), TcRole::Producer);
    EXPECT_EQ(warpgroup_role(kWarpSpecialized, 1), TcRole::Consumer);
    EXPECT_EQ(warpgroup_role(kWarpSpecialized, 2), TcRole::Consumer);
    EXPECT_EQ(consumer_of_warpgroup(kWarpSpecialized, 2), 1);
    EXPECT_EQ(warpgroup_role(kWgmma16, 0), TcRole::ProducerAndConsumer);
    // setmaxnreg with two consumers: producer at 24 leaves (65536 − 3072) / 256 = 244 → 240;
    // at 40: (65536 − 5120) / 256 = 236 → 232.
    EXPECT_EQ(max_consumer_registers(kWarpSpecialized, 24), 240);
    EXPECT_EQ(max_consumer_registers(kWarpSpecialized, 40), 232);
    EXPECT_TRUE(setmaxnreg_fits(kWarpSpecialized, 24, 240));
    EXPECT_FALSE(setmaxnreg_fits(kWarpSpecialized, 24, 248));  // 3072 + 63,488 > 65,536
    EXPECT_FALSE(setmaxnreg_fits(kWarpSpecialized, 20, 232));  // not a multiple of 8 and under 24
    // One consumer warpgroup alone may have all 256 a thread can name... capped at 256.
    EXPECT_EQ(max_consumer_registers(kWgmma16, 0), 256);
    EXPECT_EQ(full_arrivals(kWarpSpecialized), 1);
    EXPECT_EQ(empty_arrivals(kWarpSpecialized), 2);
    EXPECT_EQ(empty_arrivals(kClustered), 4);  // both consumers of both CTAs
}

// ---- TMA boxes ---------------------------------------------------------------------------------

TEST(TcPipeline, BoxesOfOneStepWorkedByHand) {
    // 17, block (m 1, n 2), K step 3 → stage 3, at 3 × 49152 = 147456.
    const WgmmaShape s = kWarpSpecialized;
    ASSERT_EQ(boxes_per_stage(s), 1 + 4);
    const TmaBox a = tma_box(s, 1, 2, 3, 0);
    EXPECT_TRUE(a.of_a);
    EXPECT_EQ(a.stage, 3);
    EXPECT_EQ(a.inner, 64);         // 64 BF16 of K: one 128-byte span
    EXPECT_EQ(a.outer, 128);        // BM rows
    EXPECT_EQ(a.inner_coord, 192);  // K: 3 × 64
    EXPECT_EQ(a.outer_coord, 128);  // M: 1 × 128
    EXPECT_EQ(a.smem_offset, 147456);
    EXPECT_EQ(a.bytes, 16384);
    // B is K×N: four slabs of 64 columns, each 64 K rows × 128 bytes = 8192 bytes.
    const TmaBox b2 = tma_box(s, 1, 2, 3, 1 + 2);
    EXPECT_FALSE(b2.of_a);
    EXPECT_EQ(b2.inner, 64);
    EXPECT_EQ(b2.outer, 64);
    EXPECT_EQ(b2.inner_coord, 2 * 256 + 2 * 64);  // N
    EXPECT_EQ(b2.outer_coord, 192);               // K
    EXPECT_EQ(b2.smem_offset, 147456 + 16384 + 2 * 8192);
    // With clusters of 2, B's four slabs are shared out whole: CTA 0 issues slabs 0 and 1 to both,
    // CTA 1 slabs 2 and 3. A CTA issues A (16384) and half of B (16384), but receives all 49152.
    EXPECT_TRUE(b_split_by_slab(kClustered));
    EXPECT_EQ(b_boxes(kClustered), 4);
    EXPECT_EQ(b_box_rows(kClustered), 64);
    const TmaBox shared = tma_box(kClustered, 1, 2, 3, 1 + 2);  // slab 2
    EXPECT_EQ(shared.outer, 64);
    EXPECT_EQ(shared.inner_coord, 2 * 256 + 2 * 64);
    EXPECT_EQ(shared.outer_coord, 192);
    EXPECT_EQ(shared.issuer, 1);
    EXPECT_EQ(shared.smem_offset, 147456 + 16384 + 2 * 8192);
    EXPECT_EQ(tma_box(kClustered, 1, 2, 3, 1 + 1).issuer, 0);
    EXPECT_EQ(issued_bytes_per_cta(kClustered), 32768);
    EXPECT_EQ(expect_tx_bytes(kClustered), 49152);
    // An N×K B tile is one slab (64 of K): its 256 rows of N come in two halves of 128, one per CTA.
    EXPECT_FALSE(b_split_by_slab(kClusteredKMajorB));
    EXPECT_EQ(b_boxes(kClusteredKMajorB), 2);
    EXPECT_EQ(b_box_rows(kClusteredKMajorB), 128);
    EXPECT_EQ(tma_box(kClusteredKMajorB, 0, 0, 0, 1 + 1).issuer, 1);
}

// A run of slabs (B's 4-D map) lands slab after slab exactly where the single boxes land, each CTA
// of a cluster bringing its share, and the runs together bring the whole B tile.
TEST(TcPipeline, SlabRunsLandWhereTheBoxesDo) {
    for (const WgmmaShape& s : kShapes) {
        if (!b_slab_runs(s, 4096)) continue;
        EXPECT_FALSE(b_slab_runs(s, 4096 + 4)) << "N not a whole number of spans";
        const int slab_bytes = s.bk * s.span_elements() * s.element_bytes;
        for (int stage = 0; stage < s.stages; ++stage) {
            int bytes = 0;
            for (int issuer = 0; issuer < s.cluster_m; ++issuer) {
                const TmaSlabRun run = b_slab_run(s, 3, 5, issuer, stage);
                bytes += run.bytes;
                EXPECT_EQ(run.first_row, 5 * s.bk);
                for (int j = 0; j < b_run_slabs(s); ++j) {
                    const TmaBox box = tma_box(s, 0, 3, 5, a_boxes(s) + issuer * b_run_slabs(s) + j, stage);
                    EXPECT_EQ(run.smem_offset + j * slab_bytes, box.smem_offset);
                    EXPECT_EQ((run.first_slab + j) * s.span_elements(), box.inner_coord);
                    EXPECT_EQ(box.issuer, issuer);
                }
            }
            EXPECT_EQ(bytes, s.b_tile_bytes());
        }
    }
    EXPECT_TRUE(b_slab_runs(kPersistentShape, 8192) && b_run_slabs(kPersistentShape) == 2);
    EXPECT_TRUE(b_slab_runs(kWarpSpecializedShape, 2048) && b_run_slabs(kWarpSpecializedShape) == 4);
}

// A persistent launch takes as few clusters as finish the tiles in the same number of rounds.
TEST(TcPipeline, BalancedClustersKeepTheRoundsAndNoMore) {
    EXPECT_EQ(balanced_clusters(1024, 66), 64);  // 8192³ on an H100: 16 rounds
    EXPECT_EQ(balanced_clusters(256, 66), 64);   // 4096³: 4 rounds
    EXPECT_EQ(balanced_clusters(64, 66), 64);    // 2048³: one tile each
    EXPECT_EQ(balanced_clusters(272, 66), 55);   // 4099×4095×4097: 5 rounds, 4 or 5 tiles each
    EXPECT_EQ(balanced_clusters(10, 66), 10);
    EXPECT_EQ(balanced_clusters(0, 66), 0);
    EXPECT_EQ(balanced_clusters(100, 0), 0);
    for (int most = 1; most <= 132; ++most)
        for (int tiles = 1; tiles <= 3000; tiles += 7) {
            const int c = balanced_clusters(tiles, most);
            const auto rounds = [&](int clusters) { return (tiles + clusters - 1) / clusters; };
            ASSERT_TRUE(c >= 1 && c <= most) << tiles << " tiles, " << most;
            ASSERT_EQ(rounds(c), rounds(most)) << tiles << " tiles, " << most;
            if (c > 1) {
                ASSERT_GT(rounds(c - 1), rounds(most)) << tiles << " tiles, " << most;
            }
        }
}

// Every element of the step's A and B tiles comes in exactly one box, and the boxes' bytes fill
// the stage exactly: their sum is expect_tx.
TEST(TcPipeline, BoxesCoverEachTileOnceAndFillTheStage) {
    for (const WgmmaShape& s : kShapes) {
        const int block_m = 2, block_n = 1, k_step = 5, stage = k_step % s.stages;
        std::vector<int> a_hits(s.bm * s.bk, 0), b_hits(s.bk * s.bn, 0), stage_bytes(s.stage_bytes(), 0);
        int bytes = 0;
        for (int i = 0; i < boxes_per_stage(s); ++i) {
            const TmaBox box = tma_box(s, block_m, block_n, k_step, i);
            ASSERT_EQ(box.stage, stage);
            ASSERT_EQ(box.bytes, box.inner * box.outer * s.element_bytes);
            ASSERT_LE(box.outer, 256);
            ASSERT_EQ(box.smem_offset % 128, 0);  // TMA's shared destination alignment
            bytes += box.bytes;
            for (int b = 0; b < box.bytes; ++b) stage_bytes[box.smem_offset - stage_offset(s, stage) + b] += 1;
            for (int o = 0; o < box.outer; ++o)
                for (int in = 0; in < box.inner; ++in) {
                    const int g_in = box.inner_coord + in, g_out = box.outer_coord + o;
                    if (box.of_a) {
                        a_hits[(g_out - block_m * s.bm) * s.bk + (g_in - k_step * s.bk)] += 1;
                    } else if (s.b_k_major) {  // (n, k)
                        b_hits[(g_in - k_step * s.bk) * s.bn + (g_out - block_n * s.bn)] += 1;
                    } else {  // (k, n)
                        b_hits[(g_out - k_step * s.bk) * s.bn + (g_in - block_n * s.bn)] += 1;
                    }
                }
        }
        EXPECT_EQ(bytes, expect_tx_bytes(s));
        for (int h : a_hits) ASSERT_EQ(h, 1);
        for (int h : b_hits) ASSERT_EQ(h, 1);
        for (int h : stage_bytes) ASSERT_EQ(h, 1);
    }
}

// Where a box puts an element (the box's start, then the swizzle's layout within it: TMA swizzles
// on the address, and every box starts on an atom) is where the tile layout, and so the wgmma
// descriptors, expect it. Then the descriptors of every consumer's slices point at those bytes.
TEST(TcPipeline, BoxesLandWhereTheDescriptorsLook) {
    constexpr std::uint32_t smem_base = 0x400;  // dynamic shared memory, 1024-aligned
    for (const WgmmaShape& s : kShapes) {
        const int eb = s.element_bytes, k_slice = kWgmmaKBytes / eb;  // elements per wgmma K
        const int stage = 2, k_step = 6;  // 6 % 4 = 2 (and 6 % 3 = 0 for kKMajorB)
        const int st = k_step % s.stages;
        for (int i = 0; i < boxes_per_stage(s); ++i) {
            const TmaBox box = tma_box(s, 0, 0, k_step, i);
            ASSERT_EQ(box.smem_offset % swizzle_atom_bytes(s.swizzle), 0);
            for (int o = 0; o < box.outer; ++o)
                for (int in = 0; in < box.inner; ++in) {
                    const int placed =
                        box.smem_offset + swizzle_bytes(s.swizzle, (o * box.inner + in) * s.element_bytes);
                    const int g_in = box.inner_coord + in, g_out = box.outer_coord + o;
                    int expected = 0;
                    if (box.of_a)
                        expected =
                            a_tile_offset(s, st) + tma_tile_offset(s.swizzle, s.bm, g_out, g_in - k_step * s.bk, eb);
                    else if (s.b_k_major)
                        expected =
                            b_tile_offset(s, st) + tma_tile_offset(s.swizzle, s.bn, g_out, g_in - k_step * s.bk, eb);
                    else
                        expected =
                            b_tile_offset(s, st) + tma_tile_offset(s.swizzle, s.bk, g_out - k_step * s.bk, g_in, eb);
                    ASSERT_EQ(placed, expected);
                }
        }
        // The descriptors of stage `stage`, every consumer, slice and K slice.
        if (s.swap_ab) {
            // wgmma's A: 64 columns of B's K×N tile, MN-major; its B: wgmma_n rows of A's tile, K-major.
            for (int c = 0; c < s.consumers; ++c)
                for (int mi = 0; mi < s.m_slices(); ++mi)
                    for (int ks = 0; ks < s.k_slices(); ++ks) {
                        const SmemDescriptor d = wgmma_a_descriptor(s, smem_base, stage, c, mi, ks);
                        for (int r = 0; r < kWgmmaM; ++r)
                            for (int k = 0; k < k_slice; ++k) {
                                const int col = c * s.consumer_cols() + mi * kWgmmaM + r, kk = ks * k_slice + k;
                                ASSERT_EQ(swizzle_bytes(s.swizzle, static_cast<int>(canonical_mn_major_offset(d, k, r, eb))),
                                          static_cast<int>(smem_base) + b_tile_offset(s, stage) +
                                              tma_tile_offset(s.swizzle, s.bk, kk, col, eb));
                            }
                    }
            for (int ni = 0; ni < s.n_slices(); ++ni)
                for (int ks = 0; ks < s.k_slices(); ++ks) {
                    const SmemDescriptor d = wgmma_b_descriptor(s, smem_base, stage, ni, ks);
                    for (int n = 0; n < s.wgmma_n; ++n)
                        for (int k = 0; k < k_slice; ++k) {
                            const int row = ni * s.wgmma_n + n, kk = ks * k_slice + k;
                            ASSERT_EQ(swizzle_bytes(s.swizzle, static_cast<int>(canonical_k_major_offset(d, n, k, eb))),
                                      static_cast<int>(smem_base) + a_tile_offset(s, stage) +
                                          tma_tile_offset(s.swizzle, s.bm, row, kk, eb));
                        }
                }
            continue;
        }
        for (int c = 0; c < s.consumers; ++c)
            for (int mi = 0; mi < s.m_slices(); ++mi)
                for (int ks = 0; ks < s.k_slices(); ++ks) {
                    const SmemDescriptor d = a_descriptor(s, smem_base, stage, c, mi, ks);
                    for (int r = 0; r < kWgmmaM; ++r)
                        for (int k = 0; k < k_slice; ++k) {
                            const int row = c * s.consumer_rows() + mi * kWgmmaM + r;
                            ASSERT_EQ(swizzle_bytes(s.swizzle, static_cast<int>(canonical_k_major_offset(d, r, k, eb))),
                                      static_cast<int>(smem_base) + a_tile_offset(s, stage) +
                                          tma_tile_offset(s.swizzle, s.bm, row, ks * k_slice + k, eb));
                        }
                }
        for (int ni = 0; ni < s.n_slices(); ++ni)
            for (int ks = 0; ks < s.k_slices(); ++ks) {
                const SmemDescriptor d = b_descriptor(s, smem_base, stage, ni, ks);
                for (int n = 0; n < s.wgmma_n; ++n)
                    for (int k = 0; k < k_slice; ++k) {
                        const int col = ni * s.wgmma_n + n, kk = ks * k_slice + k;
                        const int where = s.b_k_major ? static_cast<int>(canonical_k_major_offset(d, n, k, eb))
                                                      : static_cast<int>(canonical_mn_major_offset(d, k, n, eb));
                        const int expected = static_cast<int>(smem_base) + b_tile_offset(s, stage) +
                                             (s.b_k_major ? tma_tile_offset(s.swizzle, s.bn, col, kk, eb)
                                                          : tma_tile_offset(s.swizzle, s.bk, kk, col, eb));
                        ASSERT_EQ(swizzle_bytes(s.swizzle, where), expected);
                    }
            }
    }
}

// ---- Staged C ---------------------------------------------------------------------------------------

// 18's C through shared memory: the staging area after the stages, each consumer's 128 × 128 (its
// columns, every row) in two 128-byte-swizzled slabs of 64 columns; the ring loses its fourth stage
// for it.
TEST(TcPipeline, StagedCWorkedByHand) {
    const WgmmaShape s = kPersistentShape;
    EXPECT_TRUE(s.c_staged);
    EXPECT_EQ(s.stages, 3);
    EXPECT_EQ(s.c_tile_bytes(), 128 * 256 * 2);  // 64 KiB
    EXPECT_EQ(c_tile_offset(s), 3 * 49152);
    EXPECT_EQ(barriers_offset(s), 3 * 49152 + 65536);
    // With the kernel's 1024 bytes of room to align, under the 227 KiB (232,448 bytes) a block may have.
    EXPECT_EQ(wgmma_shared_bytes(s) + 1024, 3 * 49152 + 65536 + 6 * 8 + 1024);  // 214,064
    EXPECT_LE(wgmma_shared_bytes(s) + 1024, 232448);
    EXPECT_EQ(c_store_boxes(s), 2);
    EXPECT_EQ(consumer_origin(s, 1), (Cell{0, 128}));
    // Consumer 1, row 0, column 64 of its part: the second consumer's area (32 KiB in), its second
    // slab (128 rows × 128 bytes = 16 KiB in), row 0 unswizzled.
    EXPECT_EQ(c_staging_offset(s, 1, 0, 64), c_tile_offset(s) + 32768 + 16384);
    // Row 3, column 9 of consumer 0: 16-byte chunk 1 of row 3, XORed with 3 → chunk 2, byte 2 of it.
    EXPECT_EQ(c_staging_offset(s, 0, 3, 9), c_tile_offset(s) + 3 * 128 + 2 * 16 + 2);
    // Every slab starts on the 1024-byte boundary TMA's 128-byte swizzle needs.
    for (int consumer = 0; consumer < s.consumers; ++consumer)
        for (int box = 0; box < c_store_boxes(s); ++box)
            EXPECT_EQ(c_staging_offset(s, consumer, 0, box * s.span_elements()) % 1024, 0);
    // Shapes without it keep their layout.
    EXPECT_EQ(kWarpSpecializedShape.c_tile_bytes(), 0);
    EXPECT_EQ(barriers_offset(kWarpSpecializedShape), 4 * 49152);
}

TEST(TcPipeline, StagedCGivesEachCellItsOwnSlot) {
    // 18's shape and every tc-tuned candidate (their staged C and stmatrix alike). A shape that
    // stages one slab at a time fills the whole area with each slab (each slice of 64 columns).
    for (const WgmmaShape& s : kTcTunedCandidates) {
        const int width = s.c_one_slab ? s.span_elements() : s.consumer_cols();
        for (int first = 0; first < s.consumer_cols(); first += width) {
            std::vector<int> seen(s.c_tile_bytes() / s.element_bytes, 0);
            for (int consumer = 0; consumer < s.consumers; ++consumer)
                for (int row = 0; row < s.consumer_rows(); ++row)
                    for (int col = first; col < first + width; ++col) {
                        const int offset = c_staging_offset(s, consumer, row, col) - c_tile_offset(s);
                        ASSERT_TRUE(offset >= 0 && offset < s.c_tile_bytes() && offset % s.element_bytes == 0);
                        seen[offset / s.element_bytes] += 1;
                    }
            for (int n : seen) ASSERT_EQ(n, 1);
        }
    }
    // The one-slab candidate: 16 KiB a consumer instead of 64, and so four stages of 48 KiB.
    const WgmmaShape& one_slab = kTcTunedCandidates[4];
    EXPECT_TRUE(one_slab.c_one_slab);
    EXPECT_EQ(one_slab.c_tile_bytes(), 2 * 128 * 128);
    EXPECT_EQ(one_slab.stages, 4);
    EXPECT_LE(wgmma_shared_bytes(one_slab) + 1024, 227 * 1024);
    EXPECT_FALSE((WgmmaShape{.c_staged = true, .c_one_slab = true}.valid())) << "only a swapped shape's slices are slabs";
}

// The one-slab candidates put their last slab of C in the kept stage, in the part of B's tile
// that only the consumer's own wgmmas read: every cell of the slab has a slot of its own there,
// the slab starts on the 1024-byte boundary TMA's swizzle needs, and it stays clear of A's tile
// and of the other consumer's part, which the other warpgroup may still be reading.
TEST(TcPipeline, TheLastSlabFitsTheConsumersOwnPartOfTheKeptStage) {
    for (const WgmmaShape& s : kTcTunedCandidates) {
        EXPECT_EQ(c_last_slab_in_stage(s), s.c_one_slab) << "every one-slab candidate keeps a stage for its last slab";
        if (!c_last_slab_in_stage(s)) continue;
        const int slab_bytes = s.consumer_rows() * s.span_elements() * s.element_bytes;
        const int part_bytes = s.bk * s.consumer_cols() * s.element_bytes;  // the B columns one consumer reads
        EXPECT_EQ(slab_bytes, 16384);
        EXPECT_EQ(part_bytes, 16384);
        for (int stage = 0; stage < s.stages; ++stage)
            for (int consumer = 0; consumer < s.consumers; ++consumer) {
                const int part = b_tile_offset(s, stage) + consumer * part_bytes;
                // What this consumer's wgmmas read of the stage: its first and last 64-column slice.
                EXPECT_EQ(static_cast<int>(wgmma_a_descriptor(s, 0, stage, consumer, 0, 0).start_address), part);
                EXPECT_LT(static_cast<int>(wgmma_a_descriptor(s, 0, stage, consumer, s.m_slices() - 1, 0).start_address),
                          part + part_bytes);
                EXPECT_EQ(c_slab_in_stage_offset(s, stage, consumer, 0, 0) % 1024, 0);
                std::vector<int> seen(slab_bytes / s.element_bytes, 0);
                const int last_slab = (s.m_slices() - 1) * s.span_elements();
                for (int row = 0; row < s.consumer_rows(); ++row)
                    for (int col = last_slab; col < last_slab + s.span_elements(); ++col) {
                        const int offset = c_slab_in_stage_offset(s, stage, consumer, row, col) - part;
                        ASSERT_TRUE(offset >= 0 && offset < part_bytes && offset % s.element_bytes == 0);
                        seen[offset / s.element_bytes] += 1;
                    }
                for (int n : seen) ASSERT_EQ(n, 1);
                // The same swizzle as the staging area: the same 16-byte groups of banks per row.
                EXPECT_EQ(c_slab_in_stage_offset(s, stage, consumer, 3, 9) - part,
                          c_staging_offset(s, consumer, 3, 9) - c_staging_offset(s, consumer, 0, 0));
            }
    }
}

// With the operands swapped a thread holds pieces of Cᵀ; stmatrix...trans writes them back as
// rows of C. Every element lands on the cell wgmma_block_cell gives it: matrix q of instruction
// `group` holds registers 8·group + 2q and + 1 of each lane, its row lane / 4 and columns
// 2·(lane % 4) and + 1; transposed, column j of the matrix goes to the 16 bytes lane 8q + j names,
// at position lane / 4.
TEST(TcPipeline, StmatrixTransPutsEveryAccumulatorOnItsCell) {
    // 18's shape and every tc-tuned candidate (their staged C and stmatrix alike).
    for (const WgmmaShape& s : kTcTunedCandidates) {
        for (int consumer = 0; consumer < s.consumers; ++consumer)
            for (int ms = 0; ms < s.m_slices(); ++ms)
                for (int group = 0; group < s.wgmma_n / 16; ++group)
                    for (int thread = 0; thread < kWarpgroupSize; ++thread) {
                        const int warp = thread / 32, lane = thread % 32;
                        for (int q = 0; q < 4; ++q)
                            for (int e = 0; e < 2; ++e) {
                                const int reg = 8 * group + 2 * q + e;
                                const int column_in_matrix = 2 * (lane % 4) + e, row_in_matrix = lane / 4;
                                const Cell row_start = stmatrix_trans_row(ms, group, warp * 32 + 8 * q + column_in_matrix);
                                const Cell landed{row_start.row, row_start.col + row_in_matrix};
                                const Cell cell = wgmma_block_cell(s, consumer, ms, 0, thread, reg);
                                const Cell origin = consumer_origin(s, consumer);
                                ASSERT_EQ(landed, (Cell{cell.row - origin.row, cell.col - origin.col}))
                                    << "consumer " << consumer << " slice " << ms << " thread " << thread << " reg " << reg;
                            }
                    }
    }
}

// Each stmatrix matrix is 8 rows of 16 bytes written together: with the swizzle one wavefront; in a
// plain row-major 128 × 128 area (256-byte rows) the 8 rows share their banks, 8 wavefronts.
TEST(TcPipeline, StagedCWritesAreConflictFree) {
    // 18's shape and every tc-tuned candidate (their staged C and stmatrix alike).
    for (const WgmmaShape& s : kTcTunedCandidates) {
        for (int ms = 0; ms < s.m_slices(); ++ms)
            for (int group = 0; group < s.wgmma_n / 16; ++group)
                for (int warp = 0; warp < 4; ++warp)
                    for (int q = 0; q < 4; ++q) {
                        int swizzled[8] = {}, plain[8] = {};
                        for (int i = 0; i < 8; ++i) {
                            const Cell to = stmatrix_trans_row(ms, group, warp * 32 + 8 * q + i);
                            swizzled[i] = c_staging_offset(s, 0, to.row, to.col);
                            plain[i] = rowmajor_offset(to.row, to.col, s.consumer_cols(), s.element_bytes);
                        }
                        ASSERT_EQ(phase_wavefronts(swizzled, 8, 16), 1) << "slice " << ms << " group " << group;
                        ASSERT_EQ(phase_wavefronts(plain, 8, 16), 8) << "slice " << ms << " group " << group;
                    }
    }
}

// 17's C through the same staging, were it staged (a shape without swap_ab writes its accumulators
// two at a time, 4 bytes a lane, 32 lanes served together): with the swizzle every such write is
// one wavefront; in a plain row-major 64 × 256 tile (512-byte rows) the 8 rows share their banks.
TEST(TcPipeline, StagedUnswappedCWritesAreConflictFree) {
    constexpr WgmmaShape s{.bm = 128, .bn = 256, .bk = 64, .stages = 3, .consumers = 2, .producer = true,
                           .wgmma_n = 256, .cluster_m = 2, .c_staged = true};
    static_assert(s.valid());
    for (int warp = 0; warp < 4; ++warp)
        for (int reg = 0; reg < s.accumulator_registers(); reg += 2) {
            int swizzled[32] = {}, plain[32] = {};
            for (int lane = 0; lane < 32; ++lane) {
                const Cell c = wgmma_accumulator_cell(warp * 32 + lane, reg);
                swizzled[lane] = c_staging_offset(s, 0, c.row, c.col);
                plain[lane] = rowmajor_offset(c.row, c.col, s.bn, s.element_bytes);
            }
            ASSERT_EQ(phase_wavefronts(swizzled, 32, 4), 1) << "warp " << warp << " register " << reg;
            ASSERT_EQ(phase_wavefronts(plain, 32, 4), 8) << "warp " << warp << " register " << reg;
        }
}

}  // namespace
}  // namespace ts::model
