// counters.hpp — `tilescope counters`: one launch of a kernel under CUPTI's range profiler,
// the hardware's own counters (global load requests and sectors, L2 sectors, DRAM bytes,
// shared-memory bank conflicts, achieved occupancy) printed beside what the model predicts
// and their ratio, then every raw metric by its Nsight Compute name, so `ncu --metrics`
// can be compared with it. --json saves the same.
#pragma once

#include <iosfwd>
#include <string>
#include <variant>

#include "model/counters.hpp"
#include "setup_options.hpp"

namespace CLI {
class App;
}

namespace ts::cli {

struct CountersOptions {
    SetupOptions setup;         // --kernel --tile --block --dtype (sizes come from --size)
    std::string size = "1024";  // --size M (a cube) or MxNxK
    std::string json;           // --json FILE; empty: not saved
};

CLI::App* add_counters_command(CLI::App& app, CountersOptions& options);

// The checked kernel and problem, or a message saying which value is wrong.
std::variant<Setup, std::string> resolve_counters(const CountersOptions& options);

// 0: the counters were read; 1: they could not be (no permission: the words that say how to
// allow it; CUPTI missing; the GPU failed) or the JSON could not be saved; 2: bad arguments
// or no usable GPU.
int run_counters(const CountersOptions& options, std::ostream& out, std::ostream& err);

// The report as printed and as saved, tested without a GPU.
std::string counters_table(const model::CounterReport& report);
std::string counters_json(const model::CounterReport& report);

}  // namespace ts::cli
