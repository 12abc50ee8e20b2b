// --keys "ctrl+2,F5,shift+Right": any text is a list of presses or a message.
#include <cstdint>
#include <string_view>

#include "platform/key_names.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    [[maybe_unused]] auto keys = ts::platform::parse_key_list(text);
    return 0;
}
