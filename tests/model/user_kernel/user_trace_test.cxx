// A learner's kernel's trace read back (model/user_kernel/user_trace.hpp), from notes made here the way
// the tracing build makes them on the GPU: a kernel that does what the tiled rung does becomes
// the tiled rung's trace and matches the model; kernels shaped otherwise say how; the counts
// stand beside the naive and tiled kernels'.
#include <gtest/gtest.h>

#include "model/tile_schedule.hpp"
#include "model/traffic.hpp"
#include "model/user_kernel/user_trace.hpp"

namespace {

using namespace ts::model;

UserEvent note(int block, int tx, int ty, int barriers, UserAccess access, std::int64_t index) {
    UserEvent e;
    e.block = block;
    e.thread_x = static_cast<std::int16_t>(tx);
    e.thread_y = static_cast<std::int16_t>(ty);
    e.barriers = barriers;
    e.kind_index = (static_cast<int>(access) << kUserIndexBits) | static_cast<int>(index);
    return e;
}

// What the tiled rung's threads note: one element of A and of B a phase (none for padding), two
// barriers a phase, C stored by the threads inside it; thread (0, 0)'s clock at each barrier.
UserTrace tiled_notes(const Problem& p, int tile) {
    UserTrace r;
    r.problem = p;
    r.shape = {(p.n + tile - 1) / tile, (p.m + tile - 1) / tile, tile, tile, 0};
    const int phases = static_cast<int>((p.k + tile - 1) / tile);
    const int grid_x = static_cast<int>(r.shape.grid_x), blocks = static_cast<int>(r.shape.grid_x * r.shape.grid_y);
    const std::size_t stride = kMostTimedBarriers + 1;
    r.times_ns.assign(static_cast<std::size_t>(blocks) * stride, 0);
    r.times_cycles = r.times_ns;
    r.block_sm.assign(static_cast<std::size_t>(blocks), 3);
    for (int block = 0; block < blocks; ++block) {
        const Index2 b{block % grid_x, block / grid_x};
        for (int phase = 0; phase < phases; ++phase)
            for (const Operand operand : {Operand::A, Operand::B})
                for (const TileLoad& load : tile_loads(p, tile, b, phase, operand)) {
                    if (load.padding) continue;
                    const std::int64_t index = operand == Operand::A ? load.global_row * p.k + load.global_col
                                                                     : load.global_row * p.n + load.global_col;
                    r.events.push_back(note(block, load.thread.x, load.thread.y, 2 * phase,
                                            operand == Operand::A ? UserAccess::LoadA : UserAccess::LoadB, index));
                }
        for (int slot = 0; slot <= 2 * phases; ++slot) {
            r.times_ns[static_cast<std::size_t>(block) * stride + slot] = 1000 + 10 * slot;
            r.times_cycles[static_cast<std::size_t>(block) * stride + slot] = 50 + slot;
        }
    }
    for (std::int64_t row = 0; row < p.m; ++row)
        for (std::int64_t col = 0; col < p.n; ++col)
            r.events.push_back(note(static_cast<int>((row / tile) * grid_x + col / tile), static_cast<int>(col % tile),
                                    static_cast<int>(row % tile), 2 * phases, UserAccess::StoreC, row * p.n + col));
    return r;
}

TEST(UserTrace, ATiledKernelIsTheTiledRungsTraceAndTheModels) {
    const Problem p{.m = 20, .n = 18, .k = 33, .batch = 1, .dtype = Dtype::Float32};
    const UserTrace r = tiled_notes(p, 8);
    const auto trace = tiled_trace_of(r, "NVIDIA H100 (test)", 132);
    ASSERT_EQ(trace.index(), 0u) << std::get<1>(trace);
    const KernelTrace& t = std::get<0>(trace);
    EXPECT_EQ(t.config.kind, KernelKind::Tiled);
    EXPECT_EQ(t.config.tile, 8);
    EXPECT_EQ(compare_with_model(t), std::nullopt);
    EXPECT_EQ(t.clocks.front().start_ns, 1000u);
    EXPECT_EQ(t.clocks.front().end_ns, 1020u);  // two barriers a phase

    const UserCounts counts = count_user_events(r);
    const Traffic tiled = count_traffic(KernelConfig{KernelKind::Tiled, 8, 8, 8}, p);
    EXPECT_EQ(counts.loads_a + counts.loads_b, tiled.global_loads());
    EXPECT_EQ(counts.tiled_loads, tiled.global_loads());
    EXPECT_EQ(counts.naive_loads, 2 * p.m * p.n * p.k);
    EXPECT_EQ(counts.stores_c, p.m * p.n);
    EXPECT_EQ(counts.most_barriers, 2 * 5);
    EXPECT_NE(describe_counts(counts).find("the tiled kernel with T = 8 loads"), std::string::npos);

    // One load moved to another element: the comparison names it.
    UserTrace moved = r;
    moved.events.front().kind_index += 1;
    const auto wrong = tiled_trace_of(moved, "test", 132);
    ASSERT_EQ(wrong.index(), 0u);
    EXPECT_TRUE(compare_with_model(std::get<0>(wrong)));
}

// With shared memory recorded, a load's slot is the one its thread wrote next: the rung's own
// (as[ty][tx]) matches the model; B's tile stored transposed (bs[tx][ty]) is named where it differs.
TEST(UserTrace, RecordedSharedWritesGiveEachLoadItsSlot) {
    const Problem p{.m = 20, .n = 18, .k = 33, .batch = 1, .dtype = Dtype::Float32};
    const int tile = 8;
    const UserTrace loads = tiled_notes(p, tile);
    for (const bool transposed : {false, true}) {
        UserTrace r = loads;
        r.shared_names = {"as", "bs"};
        // as at word 100, bs right after it: T × T each.
        r.shared_info = {100, tile, tile, 100 + tile * tile, tile, tile};
        r.events.clear();
        for (const UserEvent& e : loads.events) {
            r.events.push_back(e);
            if (access_of(e) == UserAccess::StoreC) continue;
            const bool b = access_of(e) == UserAccess::LoadB;
            const int slot = b && transposed ? e.thread_x * tile + e.thread_y : e.thread_y * tile + e.thread_x;
            UserEvent write = e;
            write.kind_index = (static_cast<int>(UserAccess::Shared) << kUserIndexBits) | ((b ? 1 : 0) << 27) | (1 << 26) |
                               (12 << 16) | (static_cast<int>(r.shared_info[b ? 3 : 0]) + slot);
            r.events.push_back(write);
        }
        const auto trace = tiled_trace_of(r, "test", 132);
        ASSERT_EQ(trace.index(), 0u) << std::get<1>(trace);
        const auto difference = compare_with_model(std::get<0>(trace));
        if (!transposed) {
            EXPECT_EQ(difference, std::nullopt) << *difference;
        } else {
            ASSERT_TRUE(difference);
            EXPECT_NE(difference->find("recorded B[0][1] into slot 8, model: B[0][1] into slot 1"), std::string::npos)
                << *difference;
        }
    }
}

TEST(UserTrace, KernelsShapedOtherwiseSayHow) {
    const Problem p{.m = 16, .n = 16, .k = 16, .batch = 1, .dtype = Dtype::Float32};
    UserTrace r = tiled_notes(p, 8);
    r.shape.block_x = 16;
    r.shape.block_y = 4;
    EXPECT_NE(std::get<1>(tiled_trace_of(r, "", 1)).find("blocks of 16 × 4"), std::string::npos);
    r = tiled_notes(p, 8);
    r.events.push_back(r.events.front());  // a second load of A by one thread in one phase
    EXPECT_NE(std::get<1>(tiled_trace_of(r, "", 1)).find("more than one element of A"), std::string::npos);
    r = tiled_notes(p, 8);
    r.times_ns[5] = 1;  // a fifth barrier in two phases
    EXPECT_NE(std::get<1>(tiled_trace_of(r, "", 1)).find("yours passed 5"), std::string::npos);
    r = tiled_notes(p, 8);
    r.shape.grid_x = 1;
    EXPECT_NE(std::get<1>(tiled_trace_of(r, "", 1)).find("grid"), std::string::npos);
    EXPECT_TRUE(user_trace_problem({.m = 1 << 16, .n = 1 << 16, .k = 4}, {1, 1, 16, 16, 0}));
}

}  // namespace
