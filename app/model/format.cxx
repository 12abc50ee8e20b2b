#include "format.hpp"

#include <cmath>
#include <cstdio>
#include <span>

namespace ts::model {

std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string scientific(double value) {
    char text[64];
    std::snprintf(text, sizeof text, "%.1e", value);
    return text;
}

std::string human_bytes(std::int64_t bytes) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    // Move up a unit once "%.1f" would print 1024.0 (1023.95 and more), not only at 1024:
    // 1048575 bytes is "1.0 MiB", not "1024.0 KiB". Whole bytes print exactly.
    while (unit < 4 && std::fabs(value) >= (unit == 0 ? 1024.0 : 1023.95)) {
        value /= 1024.0;
        ++unit;
    }
    char text[32];
    if (unit == 0) std::snprintf(text, sizeof text, "%lld B", static_cast<long long>(bytes));
    else std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
    return text;
}

namespace {
struct Unit {
    double scale;
    const char* name;
};

// `value` in the largest unit it is at least one of (the last unit otherwise), with three
// significant digits. The thresholds are where printf's rounding adds a digit (9.996 prints as
// "10.00" with two decimals), so the text always has three: "10.0 s", "1.00 s".
std::string three_digits(double value, std::span<const Unit> units) {
    for (const Unit& unit : units) {
        const double scaled = value / unit.scale;
        const double size = std::fabs(scaled);
        if (size >= 0.9995 || &unit == &units.back()) {
            char text[32];
            const int decimals = size >= 99.95 ? 0 : size >= 9.995 ? 1 : 2;
            std::snprintf(text, sizeof text, "%.*f %s", decimals, scaled, unit.name);
            return text;
        }
    }
    return {};
}
}  // namespace

std::string human_seconds(double seconds) {
    static constexpr Unit kUnits[] = {{1.0, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}};
    return three_digits(seconds, kUnits);
}

std::string human_joules(double joules) {
    static constexpr Unit kUnits[] = {{1e3, "kJ"}, {1.0, "J"}, {1e-3, "mJ"}, {1e-6, "µJ"}, {1e-9, "nJ"}};
    return joules == 0.0 ? "0 J" : three_digits(joules, kUnits);
}

std::string noun_for(std::int64_t count, std::string_view singular, std::string_view plural) {
    if (count == 1) return std::string(singular);
    if (!plural.empty()) return std::string(plural);
    std::string word(singular);
    const auto ends_with = [&](std::string_view tail) {
        return word.size() >= tail.size() && word.compare(word.size() - tail.size(), tail.size(), tail) == 0;
    };
    if (ends_with("s") || ends_with("x") || ends_with("z") || ends_with("ch") || ends_with("sh")) return word + "es";
    // A consonant and y: "entry" → "entries"; a vowel and y keeps it: "array" → "arrays".
    if (word.size() >= 2 && ends_with("y") && std::string_view("aeiou").find(word[word.size() - 2]) == std::string_view::npos)
        return word.substr(0, word.size() - 1) + "ies";
    return word + "s";
}

std::string counted(std::int64_t count, std::string_view singular, std::string_view plural) {
    return std::to_string(count) + " " + noun_for(count, singular, plural);
}

std::string ordinal(std::int64_t n) {
    // 11th, 12th and 13th (and 111th …) whatever their last digit says.
    const std::int64_t last_two = (n < 0 ? -n : n) % 100, last = last_two % 10;
    const char* suffix = last_two >= 11 && last_two <= 13 ? "th"
                         : last == 1                     ? "st"
                         : last == 2                     ? "nd"
                         : last == 3                     ? "rd"
                                                         : "th";
    return std::to_string(n) + suffix;
}

std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        lines.push_back(text.substr(0, end));
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
    return lines;
}

}  // namespace ts::model
