#include "compact.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <ostream>

#include "model/format.hpp"
#include "record/measurement_file.hpp"

namespace ts::cli {

CLI::App* add_compact_command(CLI::App& app, CompactOptions& options) {
    CLI::App* compact = app.add_subcommand(
        "compact", "Rewrite a measurement (bench --json) one point per line, without its sample lists (counts, medians, "
                   "p20–p80 and noise kept)");
    compact->add_option("IN", options.in, "the measurement to read (JSON)")->required()->type_name("IN.json");
    compact->add_option("OUT", options.out, "where to write the compact measurement (may be IN)")
        ->required()
        ->type_name("OUT.json");
    return compact;
}

int run_compact(const CompactOptions& options, std::ostream& out, std::ostream& err) {
    auto loaded = record::load(options.in);
    if (const auto* why = std::get_if<std::string>(&loaded)) {
        err << "tilescope compact: " << *why << '\n';
        return 1;
    }
    const record::Measurement& measurement = std::get<record::Measurement>(loaded);
    if (measurement.from_csv) {
        err << "tilescope compact: " << options.in
            << ": a CSV holds no GPU, date or timing settings; compact the JSON that bench wrote beside it\n";
        return 1;
    }
    std::error_code ignored;
    const auto size_before = std::filesystem::file_size(options.in, ignored);
    const std::string text = record::to_json(measurement, record::SampleList::CountOnly);
    if (const auto why = record::save_text(options.out, text)) {
        err << "tilescope compact: " << *why << '\n';
        return 1;
    }
    std::int64_t samples = 0;
    for (const record::Point& point : measurement.points) samples += record::sample_count(point);
    out << model::format_text("{}: {} points, {} samples counted, not listed; {} → {}\n", options.out,
                              measurement.points.size(), samples,
                              model::human_bytes(static_cast<std::int64_t>(ignored ? 0 : size_before)),
                              model::human_bytes(static_cast<std::int64_t>(text.size())));
    return 0;
}

}  // namespace ts::cli
