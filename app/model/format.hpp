// format.hpp — a tiny "{}" formatter (GCC 12 has no std::format), byte/time helpers, counts in
// words (plurals and ordinals: the one place the app makes them), and text cut into lines.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace ts::model {

namespace detail {
inline void format_into(std::ostringstream& out, std::string_view fmt) { out << fmt; }

template <typename First, typename... Rest>
void format_into(std::ostringstream& out, std::string_view fmt, const First& first, const Rest&... rest) {
    const auto hole = fmt.find("{}");
    if (hole == std::string_view::npos) {
        out << fmt;
        return;
    }
    out << fmt.substr(0, hole) << first;
    format_into(out, fmt.substr(hole + 2), rest...);
}
}  // namespace detail

// format_text("{} × {}", 3, 4) == "3 × 4". Only "{}" holes; no format specs.
template <typename... Args>
std::string format_text(std::string_view fmt, const Args&... args) {
    std::ostringstream out;
    detail::format_into(out, fmt, args...);
    return out.str();
}

// fixed(3.14159, 2) == "3.14": a number with a set count of decimals.
std::string fixed(double value, int decimals);
// `value` with one decimal and an exponent: 3.1e-07.
std::string scientific(double value);

// 1536 → "1.5 KiB"; 3 × 2^30 → "3.0 GiB".
std::string human_bytes(std::int64_t bytes);

// Seconds → "812 ns", "4.21 µs", "15.5 ms", "2.30 s": three significant digits.
std::string human_seconds(double seconds);
// Joules → "1.53 J", "812 mJ", "4.21 µJ", "1.20 kJ": three significant digits.
std::string human_joules(double joules);

// `singular` or its plural, as `count` asks: noun_for(1, "tile") == "tile", noun_for(2, "tile") ==
// "tiles", noun_for(0, "tile") == "tiles". The plural is `plural` where given, else English's
// regular one ("tiles", "passes", "boxes", "entries", "arrays").
std::string noun_for(std::int64_t count, std::string_view singular, std::string_view plural = {});

// The count and its noun: counted(1, "tile") == "1 tile", counted(3, "round") == "3 rounds".
std::string counted(std::int64_t count, std::string_view singular, std::string_view plural = {});

// 1 → "1st", 2 → "2nd", 3 → "3rd", 4 → "4th", 11 → "11th", 12 → "12th", 13 → "13th", 21 → "21st",
// 101 → "101st", 111 → "111th".
std::string ordinal(std::int64_t n);

// The lines of `text`, without their line ends ("a\nb\n" → "a", "b").
std::vector<std::string_view> split_lines(std::string_view text);

}  // namespace ts::model
