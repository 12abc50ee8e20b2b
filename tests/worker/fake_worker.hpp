// The seeds that make tests/worker/fake_worker misbehave (any other seed: a normal result
// whose median_ms is the request's m).
#pragma once

#include <cstdint>

namespace ts::test {

enum class FakeSeed : std::uint64_t {
    Crash = 1001,        // SIGSEGV
    Hang = 1002,         // never answers, heartbeat on: the deadline stops it
    Freeze = 1003,       // SIGSTOP: no heartbeat
    Garbage = 1004,      // a frame that is not JSON
    ClosePipe = 1005,    // closes its output and lives on
    ContextLost = 1006,  // a failed result with the CUDA context gone: it exits
    Slow = 1007,         // answers after 1.5 s, beating all along
    SaysWhyAndExits = 1008,  // writes kFakeWorkerLastWords (and a blank line) on stderr, exits 3
};

inline constexpr const char* kFakeWorkerLastWords = "fake worker: the GPU fell off the bus";

}  // namespace ts::test
