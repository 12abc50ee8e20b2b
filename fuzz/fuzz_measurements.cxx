// Measurements for --load: the JSON of bench --json and Save JSON, and the CSV of bench --csv.
// Any bytes are read or refused with a message; what is accepted saves and loads again,
// compacted or not.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "record/measurement_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto json = ts::record::parse_json(text, "fuzz.json");
    if (auto* r = std::get_if<ts::record::Measurement>(&json)) {
        if (!std::holds_alternative<ts::record::Measurement>(ts::record::parse_json(ts::record::to_json(*r), "again")))
            std::abort();
        // Compacted (`tilescope-cli compact`), it loads too, with the same sample counts.
        auto compact = ts::record::parse_json(ts::record::to_json(*r, ts::record::SampleList::CountOnly), "compact");
        const auto* c = std::get_if<ts::record::Measurement>(&compact);
        if (!c || c->points.size() != r->points.size()) std::abort();
        for (std::size_t i = 0; i < c->points.size(); ++i)
            if (ts::record::sample_count(c->points[i]) != ts::record::sample_count(r->points[i])) std::abort();
    }
    auto csv = ts::record::parse_csv(text, "fuzz.csv");
    if (auto* r = std::get_if<ts::record::Measurement>(&csv))
        if (!std::holds_alternative<ts::record::Measurement>(ts::record::parse_csv(ts::record::to_csv(*r), "again")))
            std::abort();
    return 0;
}
