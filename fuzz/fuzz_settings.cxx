// settings.ini as a user (or a crash, or another version) may have left it: parse never
// crashes, and what it accepts it writes back to text that reads back the same.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "settings/settings.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto parsed = ts::settings::parse(text, "fuzz.ini");
    if (auto* settings = std::get_if<ts::settings::Settings>(&parsed)) {
        const std::string written = ts::settings::to_text(*settings);
        auto again = ts::settings::parse(written, "written.ini");
        if (!std::holds_alternative<ts::settings::Settings>(again) ||
            ts::settings::to_text(std::get<ts::settings::Settings>(again)) != written)
            std::abort();  // what was accepted must survive a save and a load
    }
    return 0;
}
