// Kernel traces (--trace FILE) from anywhere: read or refused, never a crash, and a
// trace that is accepted fits its grid (the player indexes it without checks).
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "record/trace_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto trace = ts::record::parse_trace(text, "fuzz.json");
    if (auto* t = std::get_if<ts::model::KernelTrace>(&trace)) {
        if (t->block_sm.size() != static_cast<std::size_t>(t->blocks())) std::abort();
        // Written and read again, it is the same trace.
        if (!std::holds_alternative<ts::model::KernelTrace>(ts::record::parse_trace(ts::record::trace_to_json(*t), "again")))
            std::abort();
    }
    return 0;
}
