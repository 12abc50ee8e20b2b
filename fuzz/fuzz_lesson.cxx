// Lesson files, which teachers write by hand: any text is read or refused with a message.
#include <cstdint>
#include <string_view>

#include "lessons/lesson_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    [[maybe_unused]] auto lesson = ts::lessons::parse_lesson(text, "fuzz.lesson", "fuzz");
    return 0;
}
