// tuned-shapes.ini (gpu/tuned_shapes.hpp): any text is a table or a message naming the line;
// a table survives being written and read back unchanged.
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <variant>

#include "model/tuning_table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ts::model;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto parsed = parse_tuning_table(text);
    if (const auto* table = std::get_if<TuningTable>(&parsed)) {
        const auto again = parse_tuning_table(write_tuning_table(*table));
        const auto* back = std::get_if<TuningTable>(&again);
        if (!back || back->sections != table->sections) std::abort();
        for (const TuningSection& section : table->sections) [[maybe_unused]] auto v = pick_variant(*table, section.gpu, 4096, section.rung);
    }
    return 0;
}
