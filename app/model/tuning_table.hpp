// tuning_table.hpp — which of a tuned rung's candidate shapes to run, per GPU and size.
//
// `tilescope-cli tune` measures every candidate of the tuned rung (12: model/ladder.hpp,
// kTunedCandidates) or of tc-tuned (19: model/tensor_core/pipeline.hpp, kTcTunedCandidates) at a few
// sizes and writes the winners in this small text format; the app, bench and check read it
// through the runner, which resolves a tuned request's variant -1 before launching.
//
//     # comments and blank lines are ignored
//     [NVIDIA H100 80GB HBM3]      a GPU, by the name CUDA reports: rows for the tuned rung (12)
//     1024 = 3                     problems up to 1024 (the largest of M, N, K) run candidate 3
//     4096 = 4
//     * = 4                        anything larger
//     [tc-tuned: NVIDIA H100]      rows for tc-tuned (19) on that GPU
//     2048 = 1
//     * = 0
//
// A GPU matches a section of its rung whose name is its own name or the start of it
// ("NVIDIA H100" covers every H100); the longest such name wins; "[*]" is the fallback for any
// GPU. The
// shipped table (kShippedTuningTable) holds what was measured on the H100 and H200 the
// project was tested on; a user's tuned file is consulted first.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "kernel_config.hpp"

namespace ts::model {

struct TuningRow {
    std::int64_t up_to = 0;  // the largest size this row covers; 0: any size ("*")
    int variant = 0;
    bool operator==(const TuningRow&) const = default;
};

struct TuningSection {
    std::string gpu;               // a GPU name or its beginning; "*": any GPU
    std::vector<TuningRow> rows;   // in the file's order
    KernelKind rung = KernelKind::Tuned;  // the tuned rung whose candidates the rows name (is_tuned)
    bool operator==(const TuningSection&) const = default;
};

struct TuningTable {
    std::vector<TuningSection> sections;
};

// The table in `text`, or a message naming the line that is wrong (and why). Variants must
// be candidates this build has of the section's rung (0 … tuned_candidate_count(rung) − 1).
std::variant<TuningTable, std::string> parse_tuning_table(std::string_view text);

std::string write_tuning_table(const TuningTable& table);

// The candidate of `rung` that `table` gives a GPU named `gpu` for a problem whose largest side
// is `size`: the best-matching section of that rung, then its first row whose up_to ≥ size (or
// "*"); nullopt when no section or row matches.
std::optional<int> pick_variant(const TuningTable& table, std::string_view gpu, std::int64_t size,
                                KernelKind rung = KernelKind::Tuned);

// Adds or replaces the section for its GPU and rung (the tuner's output merged into a user's file).
void set_section(TuningTable& table, TuningSection section);

// What ships with TileScope: winners measured on the device (docs/ladders.md), and a fallback.
extern const std::string_view kShippedTuningTable;

// The sizes at which the default sweep (`tilescope-cli bench --sweep default`) measures every
// candidate, so that a measurement shows what the tuner chose between (the tuning view): from
// where small tiles win to where large ones do on the H100 and H200.
inline constexpr int kCandidateSweepSizes[] = {1024, 2048, 4096};
// The same for tc-tuned's candidates (BF16), to 8192 where the ladder's last rungs are measured.
inline constexpr int kTcCandidateSweepSizes[] = {1024, 2048, 4096, 8192};

}  // namespace ts::model
