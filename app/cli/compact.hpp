// compact.hpp — `tilescope compact IN.json OUT.json`: rewrite a measurement file the way
// the committed ones under assets/measurements/ are kept: one point per line, every sample
// list dropped and its count kept. What the app shows of a point (median, p20–p80, noise,
// sample count, check) and the GPU, date and timing settings stay; a measurement of a full
// sweep shrinks from about 8 MB to under 200 kB. OUT may be IN. No GPU needed.
#pragma once

#include <iosfwd>
#include <string>

namespace CLI {
class App;
}

namespace ts::cli {

struct CompactOptions {
    std::string in;   // a JSON of `tilescope bench --json` or of the lab's Save session
    std::string out;
};

CLI::App* add_compact_command(CLI::App& app, CompactOptions& options);

// 0: written; 1: IN cannot be read (or is a CSV, which names no GPU or date) or OUT cannot
// be written.
int run_compact(const CompactOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ts::cli
