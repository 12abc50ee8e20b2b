// Shared memory in a learner's kernel's trace (model/user_kernel/shared_memory.hpp), from notes made here the
// way the tracing build makes them: the tiled rung's accesses are conflict-free and race-free;
// a column read of a 32-wide tile is a 32-way conflict, and a padded one is not; a missing barrier
// is a race, named by thread, element and line.
#include <gtest/gtest.h>

#include "model/user_kernel/shared_memory.hpp"

namespace {

using namespace ts::model;

// A shared note as the prelude's note_shared packs it.
UserEvent shared_note(int block, int tx, int ty, int barriers, int array, bool write, int line, int word) {
    UserEvent e;
    e.block = block;
    e.thread_x = static_cast<std::int16_t>(tx);
    e.thread_y = static_cast<std::int16_t>(ty);
    e.barriers = barriers;
    e.kind_index = (static_cast<int>(UserAccess::Shared) << kUserIndexBits) | (array << 27) | ((write ? 1 : 0) << 26) |
                   (line << 16) | word;
    return e;
}

// One block of side × side threads; arrays as (id 0) and bs (id 1) of side × cols floats, bs
// after as. Each phase: every thread writes as[ty][tx] and bs[ty][tx] (line 10, 11), then
// `barrier_between` barriers, then reads as[ty][i] and bs[i][tx] for every i (line 13), then one
// barrier.
UserTrace tiled_shared(int side, int cols, int phases, int barrier_between) {
    UserTrace r;
    r.shape = {1, 1, side, side, 0};
    r.shared_names = {"as", "bs"};
    const int as_base = 0, bs_base = side * cols;
    r.shared_info = {static_cast<std::uint32_t>(as_base), static_cast<std::uint32_t>(side), static_cast<std::uint32_t>(cols),
                     static_cast<std::uint32_t>(bs_base), static_cast<std::uint32_t>(side), static_cast<std::uint32_t>(cols)};
    int barriers = 0;
    for (int phase = 0; phase < phases; ++phase) {
        for (int ty = 0; ty < side; ++ty)
            for (int tx = 0; tx < side; ++tx) {
                r.events.push_back(shared_note(0, tx, ty, barriers, 0, true, 10, as_base + ty * cols + tx));
                r.events.push_back(shared_note(0, tx, ty, barriers, 1, true, 11, bs_base + ty * cols + tx));
            }
        barriers += barrier_between;
        for (int ty = 0; ty < side; ++ty)
            for (int tx = 0; tx < side; ++tx)
                for (int i = 0; i < side; ++i) {
                    r.events.push_back(shared_note(0, tx, ty, barriers, 0, false, 13, as_base + ty * cols + i));
                    r.events.push_back(shared_note(0, tx, ty, barriers, 1, false, 13, bs_base + i * cols + tx));
                }
        barriers += 1;
    }
    return r;
}

TEST(UserShared, TheTiledRungsAccessesAreCountedConflictFreeAndRaceFree) {
    const SharedReport report = shared_report_of(tiled_shared(16, 16, 3, 1));
    ASSERT_EQ(report.arrays.size(), 2u);
    EXPECT_EQ(report.arrays[0].name, "as");
    EXPECT_EQ(report.arrays[0].rows, 16);
    EXPECT_EQ(report.arrays[0].cols, 16);
    EXPECT_EQ(report.arrays[0].writes, 3 * 256);
    EXPECT_EQ(report.arrays[0].reads, 3 * 256 * 16);
    EXPECT_EQ(report.arrays[1].reads, 3 * 256 * 16);
    // 256 threads are 8 warps: per phase 8 warp writes of each array, 8 × 16 warp reads of each.
    EXPECT_EQ(report.warp_accesses, 3 * (2 * 8 + 2 * 8 * 16));
    // A 16-wide warp covers two rows: as[ty][i] is two words 16 apart (banks i and i + 16), bs[i][tx]
    // 16 neighbouring words for both rows (a broadcast): no conflicts anywhere.
    EXPECT_EQ(report.wavefronts, report.warp_accesses);
    EXPECT_EQ(report.races, 0);
    const std::vector<SharedSentence> text = describe_shared(report);
    ASSERT_EQ(text.size(), 3u);
    EXPECT_EQ(text[0].text, "Shared memory: as (16 × 16): 768 writes, 12288 reads; bs (16 × 16): 768 writes, 12288 reads.");
    EXPECT_NE(text[1].text.find("no conflicts"), std::string::npos) << text[1].text;
    EXPECT_NE(text[2].text.find("no two threads"), std::string::npos) << text[2].text;
}

TEST(UserShared, AColumnOfA32WideTileIsA32WayConflictAndPaddingRemovesIt) {
    // 32 × 32: as[ty][i] puts one warp (one row) on one word, a broadcast; bs[i][tx] one row, 32
    // banks: both free. Reading a column instead (bs[tx][i]) puts the warp's 32 words 32 apart:
    // all in one bank, 32 wavefronts.
    UserTrace r;
    r.shape = {1, 1, 32, 32, 0};
    r.shared_names = {"tile"};
    for (const int cols : {32, 33}) {
        r.shared_info = {0, 32, static_cast<std::uint32_t>(cols)};
        r.events.clear();
        for (int tx = 0; tx < 32; ++tx) r.events.push_back(shared_note(0, tx, 0, 0, 0, false, 20, tx * cols + 5));
        const SharedReport report = shared_report_of(r);
        ASSERT_EQ(report.lines.size(), 1u);
        EXPECT_EQ(report.lines[0].line, 20);
        EXPECT_EQ(report.lines[0].warp_accesses, 1);
        EXPECT_EQ(report.lines[0].worst, cols == 32 ? 32 : 1) << "columns: " << cols;
        if (cols == 32) {
            const std::vector<SharedSentence> text = describe_shared(report);
            ASSERT_GE(text.size(), 3u);
            EXPECT_EQ(text[2].text, "  line 20, reads of tile: 1 warp accesses, 32 wavefronts, up to 32-way conflicts");
            EXPECT_EQ(text[1].tone, SharedTone::Conflict);
            EXPECT_EQ(text[2].tone, SharedTone::Conflict);
        }
    }
    // Two threads on one word is one wavefront (a broadcast); two words of one bank are two.
    r.shared_info = {0, 64, 1};
    r.events = {shared_note(0, 0, 0, 0, 0, false, 5, 7), shared_note(0, 1, 0, 0, 0, false, 5, 7),
                shared_note(0, 2, 0, 0, 0, false, 5, 7 + 32)};
    EXPECT_EQ(shared_report_of(r).wavefronts, 2);
}

TEST(UserShared, AMissingBarrierIsARaceNamedByThreadElementAndLine) {
    // The first barrier taken out: every thread reads as[ty][i] between the same barriers as
    // thread (i, ty) writes it.
    const SharedReport report = shared_report_of(tiled_shared(4, 4, 2, 0));
    // Each phase: every element of as and bs written by one thread and read by others in the same interval.
    EXPECT_EQ(report.races, 2 * (16 + 16));
    ASSERT_EQ(report.examples.size(), static_cast<std::size_t>(kSharedRaceExamples));
    const SharedRace& first = report.examples[0];
    EXPECT_EQ(first.block, 0);
    EXPECT_EQ(first.barriers, 0);
    EXPECT_EQ(first.writer_line, 10);
    EXPECT_EQ(first.other_line, 13);
    EXPECT_FALSE(first.other_writes);
    EXPECT_EQ(shared_element_name(report, first.array, first.element), "as[0][0]");
    const std::vector<SharedSentence> text = describe_shared(report);
    ASSERT_EQ(text.size(), 3u + kSharedRaceExamples);
    EXPECT_TRUE(text[2].text.starts_with("RACE: 64 times")) << text[2].text;
    EXPECT_EQ(text[2].tone, SharedTone::Race);
    EXPECT_EQ(text[3].tone, SharedTone::Race);
    EXPECT_EQ(text[1].tone, SharedTone::Plain) << "no conflicts";
    EXPECT_EQ(text[3].text, "  block 0, after 0 barriers: thread (0, 0) wrote as[0][0] on line 10, and thread (1, 0) read it on "
                       "line 13: it may have read the value from before the write");
    // The writer reading its own element is no race: one thread, in its own order.
    UserTrace own;
    own.shape = {1, 1, 2, 1, 0};
    own.shared_names = {"s"};
    own.shared_info = {0, 2, 1};
    own.events = {shared_note(0, 0, 0, 0, 0, true, 3, 0), shared_note(0, 0, 0, 0, 0, false, 4, 0),
                  shared_note(0, 1, 0, 1, 0, false, 6, 0)};
    EXPECT_EQ(shared_report_of(own).races, 0);
}

TEST(UserShared, SaysWhyWhenSharedMemoryWasNotRecorded) {
    UserTrace r;
    r.shared_not_recorded = "line 4: shared memory is recorded where …";
    const std::vector<SharedSentence> text = describe_shared(shared_report_of(r));
    ASSERT_EQ(text.size(), 1u);
    EXPECT_EQ(text[0].text, "Shared memory was not recorded: line 4: shared memory is recorded where …");
    EXPECT_EQ(text[0].tone, SharedTone::NotRecorded);
    const std::vector<SharedSentence> none = describe_shared(shared_report_of(UserTrace{}));
    ASSERT_EQ(none.size(), 1u);
    EXPECT_EQ(none[0].text, "Shared memory: none used.");
    EXPECT_EQ(none[0].tone, SharedTone::Plain);
}

}  // namespace
