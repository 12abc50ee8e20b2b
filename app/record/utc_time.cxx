#include "utc_time.hpp"

#include <chrono>
#include <ctime>

namespace ts::record {

std::string utc_now(const char* format) {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm parts{};
    gmtime_r(&now, &parts);
    char text[32];
    std::strftime(text, sizeof text, format, &parts);
    return text;
}

}  // namespace ts::record
