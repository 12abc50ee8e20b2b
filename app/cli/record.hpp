// record.hpp — `tilescope record`: run the recorded variant of the naive, tiled, regtile-2d,
// warptile or wgmma kernel once on the GPU, compare every load (wgmma: every word of the first
// stage TMA wrote) with the model, say which SMs ran the blocks and in how many waves, and save
// the trace for the app (`tilescope --trace FILE`).
#pragma once

#include <iosfwd>
#include <string>

#include "gpu/runner.hpp"
#include "setup_options.hpp"

namespace CLI {
class App;
}

namespace ts::cli {

struct RecordOptions {
    SetupOptions setup;  // --m --n --k --tile --kernel (naive, tiled, regtile-2d, warptile, wgmma) --block
    std::string out;     // --out FILE: the JSON trace; empty: not saved
};

CLI::App* add_record_command(CLI::App& app, RecordOptions& options);

// 0: recorded and every load as the model says; 1: the trace differs from the model, C
// was wrong, or the GPU failed; 2: bad arguments or no usable GPU.
int run_record(const RecordOptions& options, std::ostream& out, std::ostream& err);

// What the trace shows, in a few lines (tested without a GPU).
std::string record_summary(const model::KernelTrace& trace);

}  // namespace ts::cli
