// Recorded experiment results (assets/experiments/*.json, `tilescope-cli experiment --json`,
// or a file a student was sent): any bytes are read or refused with a message, never a
// crash; what is accepted is what the Experiments view may index without checks.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "record/experiment_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto parsed = ts::record::parse_experiment_file(text, "fuzz.json");
    if (auto* why = std::get_if<std::string>(&parsed)) {
        if (why->rfind("fuzz.json: ", 0) != 0) std::abort();  // every refusal names its file
        return 0;
    }
    for (const ts::record::RecordedExperiment& result : std::get<ts::record::ExperimentFile>(parsed).results) {
        if (static_cast<int>(result.experiment) < 0 || static_cast<int>(result.experiment) > 3) std::abort();
        if (!result.run) continue;
        // The heat map is drawn bin by bin from wrong_runs: it must hold rows × cols counts.
        const ts::model::WrongCellMap& map = result.run->map;
        if (map.rows < 0 || map.cols < 0 || map.bin_rows < 1 || map.bin_cols < 1 ||
            map.wrong_runs.size() != static_cast<std::size_t>(map.rows) * static_cast<std::size_t>(map.cols))
            std::abort();
        if (result.run->wrong_runs < 0 || result.run->wrong_runs > result.run->runs) std::abort();
        if (result.stale)
            for (const ts::model::StaleRead& read : result.stale->reads)
                if (read.operand != 'A' && read.operand != 'B') std::abort();
    }
    return 0;
}
