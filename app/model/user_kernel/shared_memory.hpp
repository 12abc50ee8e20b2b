// shared_memory.hpp — what the learner's kernel did in shared memory, from its trace (issue 25).
//
// The tracing build notes every read and write of the kernel's shared arrays with the thread,
// the barriers it had passed, the line and the 32-bit word of shared memory
// (gpu/user_kernel_tracing.hpp; model::UserAccess::Shared). From those notes:
// - how many reads and writes each array took;
// - the bank conflicts of each line: shared memory serves a warp's access in one wavefront when
//   no two of its threads touch different words of one bank (32 banks of 4-byte words; threads on
//   the same word share it), else in as many as the most words asked of one bank. The k-th access
//   a thread makes on a line is taken to be the same instruction as its warp's other threads'
//   k-th there, which it is where the warp does not diverge;
// - the races: two threads that touched one word between the same two barriers, at least one of
//   them writing. Nothing orders the two, so the reader may see the old value or the new one: the
//   missing barrier that `no_sync` shows in the break-it experiments, found by watching the run.
//
// GPU-free.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/user_kernel/user_trace.hpp"

namespace ts::model {

struct SharedArrayUse {
    std::string name;
    int rows = 0, cols = 0;  // as declared (0 × 0: extern, size unknown; N × 1: one-dimensional)
    std::int64_t reads = 0, writes = 0;
};

// One line's accesses of one array, reads or writes.
struct SharedLineUse {
    int line = 0;  // 0: past line 1023, where a note has no room for it
    int array = 0;
    bool write = false;
    std::int64_t warp_accesses = 0;
    std::int64_t wavefronts = 0;  // warp_accesses when conflict-free
    int worst = 0;                // the most wavefronts one warp access took
};

// Two threads on one word between the same two barriers.
struct SharedRace {
    int array = 0;
    std::int64_t element = 0;  // of the array, row-major
    int block = 0;
    int barriers = 0;  // barriers both had passed
    int writer_x = 0, writer_y = 0, writer_line = 0;
    int other_x = 0, other_y = 0, other_line = 0;
    bool other_writes = false;
};

struct SharedReport {
    std::string not_recorded;  // why shared memory was not recorded, or empty
    std::vector<SharedArrayUse> arrays;
    std::vector<SharedLineUse> lines;  // by line, array, reads before writes
    std::int64_t warp_accesses = 0, wavefronts = 0;
    std::int64_t races = 0;             // words × barrier intervals × blocks with a race
    std::vector<SharedRace> examples;  // the first few, by block, interval and word
};

inline constexpr int kSharedRaceExamples = 3;

SharedReport shared_report_of(const UserTrace& trace);

// "as[2][5]" for an element of an array, or "tiles[37]" where the array has no rows and columns.
std::string shared_element_name(const SharedReport& report, int array, std::int64_t element);

// The report as sentences for the window and the CLI: the arrays, the lines with conflicts (or
// that there are none), and the races (or that there are none); each with its tone, which the
// window colours it by (amber for conflicts and what was not recorded, red for races).
enum class SharedTone { Plain, Conflict, Race, NotRecorded };
struct SharedSentence {
    std::string text;
    SharedTone tone = SharedTone::Plain;
};
std::vector<SharedSentence> describe_shared(const SharedReport& report);

}  // namespace ts::model
